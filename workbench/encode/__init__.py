"""The language model: the packaged MiniLM encoder, its cache, and the windows it reads of a long piece.

A word search never imports the model's modules (the encoders, the embedding store with SQLite): what asks whether
the process's model was made asks here, which answers without importing them (BENCHMARKS.md, "Stop 46").
"""

from __future__ import annotations

import sys


def started_encoder():
    """The process's encoder (``embedding.get_encoder``) if it was made, else None."""
    embedding = sys.modules.get("workbench.encode.embedding")
    if embedding is None or not embedding.get_encoder.cache_info().currsize:
        return None
    return embedding.get_encoder()


def cache_warnings() -> list[str]:
    """Warnings about the process-wide encoder's disk cache not shown before (none when it was never started)."""
    encoder = started_encoder()
    store = encoder.store if encoder is not None else None
    return store.take_warnings() if store is not None else []
