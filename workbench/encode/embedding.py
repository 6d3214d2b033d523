"""The process's one encoder (``get_encoder``: the model and the embedding cache load once) and the cache's warnings.

What every encoder is (each distinct text read once, memory, the on-disk store) is in ``encoder.py``; the packaged
all-MiniLM-L6-v2's own reading, with the hub switched off so nothing is ever downloaded, in ``minilm.py``. The
names the rest of the engine asks for are importable from here too.
"""

from __future__ import annotations

import functools

from workbench.encode import cache_warnings  # noqa: F401  (its callers' name)
from workbench.encode.encoder import Embedding, Encoder, work_of
from workbench.encode.minilm import MiniLMEncoder
from workbench.store.embedding_store import EmbeddingStore, default_path

__all__ = ["Embedding", "Encoder", "MiniLMEncoder", "cache_warnings", "get_encoder", "work_of"]


@functools.lru_cache(maxsize=1)
def get_encoder() -> Encoder:
    """The process-wide encoder: the model loads once, on first use, with the on-disk store.

    A store that cannot be opened does not stop it: the store says why once and works as no cache.
    """
    path = default_path()
    return MiniLMEncoder(EmbeddingStore(path) if path is not None else None)
