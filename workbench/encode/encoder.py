"""What every encoder is: texts in, unit sentence and token vectors out, each distinct text read once.

The base class holds the memory and the on-disk store's side of it; a model's own reading is a subclass's
``_encode`` (``minilm.py`` for the packaged all-MiniLM-L6-v2). ``embedding.get_encoder`` gives the process's one.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from workbench.store.embedding_store import EmbeddingStore


@dataclass(frozen=True)
class Embedding:
    """A text's unit-length sentence vector and its unit-length token vectors (one row a token)."""

    sentence: np.ndarray
    tokens: np.ndarray


class Encoder:
    """Turns texts into embeddings; each distinct text goes through the model once.

    One forward pass gives a text's sentence vector and its token vectors. The
    sentence vectors stay in memory, each once: as a row of the matrix a search
    over it was handed (``sentence_matrix``), not a copy beside it. Token vectors (for ``maxsim``) are rounded to
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
    # Token vectors (word pieces' rows) that stay in memory when a store holds them all: 50,000 rows at float16, as
    # stored (768 bytes a row), 37 MB. maxsim copies what it multiplies into blocks of its own (float16 too), so more
    # only held the same vectors twice: 200,000 rows (150 MB) kept a cold run of a 1,000-product catalog no faster
    # than a warm one, which reads every text's back from the store (75 s of maxsim each; BENCHMARKS.md, "Memory of
    # a meaning-based run"). Counted in rows, not texts: a cyclic pass over more texts than memory holds misses
    # every time.
    token_memory = 50_000
    # Work units a second (``work_of``) the model reads at before it has read enough in this process to measure its
    # own (``speed``): the app's time estimate goes by it. all-MiniLM-L6-v2's on this project's 2-core machine, chosen
    # between a quiet machine's speed and a busy one's, so a quiet machine's estimate is neither far over nor far
    # under (figures in BENCHMARKS.md, bench/estimate_accuracy.py); 24,000 since the model's batches are read side
    # by side (the six real files read at 16,000-33,000). A slower model says its own (``multilingual.E5Encoder``).
    typical_speed = 24_000.0
    # A batch of texts handed to ``_encode`` (``token_batches``): its token vectors are held together until they are
    # stored, so it is bounded by their rows, counted before the texts are read (a text has at most a word piece a
    # character, one more for a word-start mark, and the model's window), and by texts. 65,536 rows: 256 of
    # MiniLM's longest (254 pieces), 129 of E5's (507), whose 256 a batch held 130,000 rows, 199 MB at float32
    # (BENCHMARKS.md, "Memory of a meaning-based run").
    batch_rows = 65_536
    batch_texts = 256

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        # A text's sentence vector, as a row of the last matrix of several texts ``sentence_matrix`` made with it
        # (a view: the vectors are held once, in the matrices the searches hold anyway), or of its own until then.
        self._sentences: dict[str, np.ndarray] = {}
        # Those matrices, by their texts: a second search over the same pieces (hybrid's meaning half, after the
        # meaning search) is handed the same matrix instead of a copy. Weak: alive while a search or a row holds it.
        self._matrices: dict[tuple[str, ...], weakref.ref] = {}
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
        if not missing:
            return
        self._prepare()
        for part in token_batches(missing, self.window, self.batch_rows, self.batch_texts):
            began = time.perf_counter()
            embeddings = self._encode(part)
            self.seconds += time.perf_counter() - began
            self.work += work_of(part)
            # Each text's token vectors held once, as kept (float16): the model's float32 ones (MiniLM's) go as each
            # is rounded, and the store's rows are made one at a time as they are written (``EmbeddingStore.put``).
            # A batch of 256 of E5's longest texts held them three times, 400 MB (BENCHMARKS.md).
            encoded = []
            for number, text in enumerate(part):
                sentence = embeddings[number].sentence.astype(np.float32, copy=False)
                tokens = embeddings[number].tokens.astype(np.float16, copy=False)
                embeddings[number] = None
                self._dimension = sentence.shape[0]
                self._sentences[text] = sentence
                self._remember_tokens(text, tokens)
                encoded.append((text, sentence, tokens))
            del embeddings
            if self.store is not None:
                self.store.put(self.model_key, encoded)
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
        # Held as float16, as stored: half the memory of float32. maxsim copies them as they are into its blocks
        # (``token_vectors(as_stored=True)``) and widens a product's rows as it runs.
        if text in self._tokens:
            self._token_rows -= len(self._tokens[text])
        self._tokens[text] = tokens.astype(np.float16, copy=False)
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
            if len(texts) == 1:  # a question's: a matrix of its own, not held
                return self._sentences[texts[0]][np.newaxis].copy()
            key = tuple(texts)
            held = self._matrices.get(key)
            matrix = held() if held is not None else None
            if matrix is None:
                matrix = np.vstack([self._sentences[text] for text in texts])
                matrix.flags.writeable = False  # shared: by the searches over these texts and by ``_sentences``
                self._hold(key, matrix)
            return matrix

    def _hold(self, key: tuple[str, ...], matrix: np.ndarray) -> None:
        """Keep ``matrix``'s rows as its texts' vectors, so the vectors they were copied from (the store's blobs,
        the model's rows, an earlier matrix's rows) can go: a 3,000-product run held each vector twice, 126 MB of
        blobs beside the searches' matrices (BENCHMARKS.md, "Memory of a meaning-based run")."""
        for row, text in enumerate(key):
            self._sentences[text] = matrix[row]
        for dead in [texts for texts, held in self._matrices.items() if held() is None]:
            del self._matrices[dead]
        self._matrices[key] = weakref.ref(matrix)

    def token_vectors(self, texts: list[str], as_stored: bool = False) -> list[np.ndarray]:
        """Unit token vectors, one matrix per text, from the sentence vectors' pass: float16 values as float32, or
        (``as_stored``) the float16 matrices themselves, as memory holds them: no copy, for a caller that copies
        them into one matrix of its own."""
        with self._lock:
            self._ensure(texts)
            held = {text: self._tokens[text] for text in dict.fromkeys(texts) if text in self._tokens}
            for text in held:  # already in memory: only their place in the eviction order changes
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
            # Held in memory too, unless the caller copies them (``as_stored``: maxsim's blocks) and the store can
            # give them back: memory held the same rows beside the blocks, up to ``token_memory`` (37 MB).
            if not as_stored or self.store is None or not self.store.usable:
                for text, tokens in found.items():
                    self._remember_tokens(text, tokens)
                    found[text] = self._tokens[text]  # as held (the newest, so not evicted by itself)
            else:
                found = {text: tokens.astype(np.float16, copy=False) for text, tokens in found.items()}
            found.update(held)  # making room for the newcomers may have dropped some of these from memory
            if as_stored:
                return [found[text] for text in texts]
            return [found[text].astype(np.float32) for text in texts]

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


def token_batches(texts: list[str], window: int | None, rows: int, most: int) -> list[list[str]]:
    """``texts`` in order, in batches of at most ``most`` texts whose token rows add up to at most ``rows``: a text's
    rows counted as its characters plus one, at most ``window`` (a word piece is a character or more, and the
    model reads no more than its window). A text past ``rows`` alone is a batch of its own."""
    batches: list[list[str]] = []
    batch: list[str] = []
    held = 0
    for text in texts:
        size = len(text) + 1 if window is None else min(len(text) + 1, window)
        if batch and (len(batch) >= most or held + size > rows):
            batches.append(batch)
            batch, held = [], 0
        batch.append(text)
        held += size
    if batch:
        batches.append(batch)
    return batches


# The model's time for a text grows with its length, plus a fixed cost per text (measured on this
# project's 2-core machine: 300-character pieces at ~16 a second, 22-character sentences at ~47).
PER_TEXT = 100  # characters' worth of work for each text, whatever its length


def work_of(texts: list[str]) -> int:
    """How much model work these texts are, in characters plus PER_TEXT a text."""
    return sum(len(text) for text in texts) + PER_TEXT * len(texts)
