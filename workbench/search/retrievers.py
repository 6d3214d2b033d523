"""Retrievers score every chunk against a question; registered by stable id."""

from __future__ import annotations

import bisect
import functools
import importlib.util
import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np
import regex

from workbench.core.model import Chunk, WorkbenchError
from workbench.core.registry import Registry
from workbench.encode.embedding import Encoder

STOP_WORDS = frozenset("what is the a an on for how long does do is it in of to with per".split())


@functools.lru_cache(maxsize=4096)  # a run asks each question under every strategy, retriever and reranker
def question_words(question: str) -> tuple[str, ...]:
    """The distinct lowercase ``[a-z0-9]+`` runs of a question, less the stop words."""
    return tuple(dict.fromkeys(w for w in re.findall(r"[a-z0-9]+", question.lower()) if w not in STOP_WORDS))


def fold(text: str) -> str:
    """A piece's text as word matching sees it. Retrievers and rerankers fold each piece once, not per question."""
    return text.lower()


def words_in(words: tuple[str, ...] | list[str], folded: str) -> int:
    """How many of the words occur in an already folded text."""
    return sum(1 for word in words if word in folded)


# Letters with their combining marks (Devanagari vowel signs and viramas stay inside the word), and digits.
WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")
# Scripts written without spaces between words: indexed by overlapping character pairs.
CJK = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]+")
# WORD restricted to ASCII (letters, digits; no ASCII character is a mark): the standard library's
# engine finds these runs 2.5 times faster than ``regex`` does with Unicode classes, and most shop text is ASCII.
ASCII_WORD = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """The BM25 vocabulary: lowercase words, whole in any script; Chinese and Japanese as character bigrams."""
    lowered = text.lower()
    if lowered.isascii():
        return ASCII_WORD.findall(lowered)
    if CJK.search(lowered) is None:  # most text: every word is whole, so skip looking for runs word by word
        return WORD.findall(lowered)
    tokens: list[str] = []
    for word in WORD.findall(lowered):
        position = 0
        for run in CJK.finditer(word):
            if run.start() > position:
                tokens.append(word[position : run.start()])
            chars = run.group()
            tokens.extend([chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)])
            position = run.end()
        if position < len(word):
            tokens.append(word[position:])
    return tokens


@functools.cache
def english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop-word list (the Glasgow IR group's), read without importing scikit-learn.

    ``import sklearn`` takes seconds (it pulls in SciPy and joblib); the list itself
    is a plain literal in one file of the package, so it is read from there. A test
    checks it equals ``sklearn.feature_extraction.text.ENGLISH_STOP_WORDS``.
    """
    spec = importlib.util.find_spec("sklearn")  # finds the package without running its __init__
    if spec is None or not spec.submodule_search_locations:
        raise WorkbenchError("BM25 needs the stop-word list of scikit-learn: pip install scikit-learn")
    path = Path(spec.submodule_search_locations[0]) / "feature_extraction" / "_stop_words.py"
    namespace: dict[str, object] = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102  (a frozenset literal)
    return frozenset(namespace["ENGLISH_STOP_WORDS"])  # type: ignore[arg-type]


def bm25_tokens(text: str) -> list[str]:
    """The BM25 vocabulary less English stop words: "what / is / the / on" match every section of a policy page."""
    stop = english_stop_words()
    return [token for token in tokenize(text) if token not in stop]


@functools.lru_cache(maxsize=4096)  # as question_words: scores() and sureness() of every strategy ask again
def question_counts(question: str) -> tuple[tuple[str, int], ...]:
    """A question's BM25 tokens and how often it says each, in first-seen order."""
    return tuple(Counter(bm25_tokens(question)).items())


class Retriever:
    """Built over a strategy's chunks; ``scores`` gives one score per chunk, higher is better."""

    id: str = ""
    order: int  # where it is listed and run, and which of two tied setups is preferred (lower: plainer)
    label: str = ""
    explanation: str = ""
    needs_encoder = False  # reads with the shared language model (the process-wide encoder)
    # What a score of this search means, in words for the screen ("score 0.540" says nothing by itself).
    score_words: str = ""

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        self.chunks = chunks

    def scores(self, question: str) -> np.ndarray:
        raise NotImplementedError

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The same scores on a 0-1 scale that means the same for every question (for the confidence).

        Raw scores are not comparable across questions (a word count grows with the question's
        length); each retriever says what its best possible score is.
        """
        raise NotImplementedError


RETRIEVERS: Registry[Retriever] = Registry("retriever")


@RETRIEVERS.register("keyword")
class Keyword(Retriever):
    order = 10
    label = "Word-match search"
    explanation = "Counts how many of the question's words appear in a piece. Simple and easy to follow."
    score_words = "the number of the question's words the piece holds (3 = three of its words)"

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        super().__init__(chunks)
        # Every piece folded once, joined by NUL (never inside a question word): one C-speed find per
        # piece holding a word, instead of a Python loop over every piece for every word.
        folded = [fold(chunk.text) for chunk in chunks]
        self.joined = "\0".join(folded)
        self.starts = np.cumsum([0] + [len(text) + 1 for text in folded[:-1]]).tolist() if folded else []
        self._holders: dict[str, np.ndarray] = {}  # word -> the pieces holding it (questions repeat words)

    def scores(self, question: str) -> np.ndarray:
        holders = [self._pieces_with(word) for word in question_words(question)]
        if not holders:
            return np.zeros(len(self.chunks))
        # Each word lists a piece at most once, so counting the listed pieces counts the words each holds.
        return np.bincount(np.concatenate(holders), minlength=len(self.chunks)).astype(float)

    def _pieces_with(self, word: str) -> np.ndarray:
        """Indices of the pieces whose text holds ``word`` (anywhere, as ``in`` finds it), each once."""
        if word not in self._holders:
            # Locals, not attributes: this loop runs once for every piece holding every question word.
            find, starts, after, last = self.joined.find, self.starts, bisect.bisect_right, len(self.starts) - 1
            found = []
            at = find(word)
            while at != -1:
                piece = after(starts, at) - 1
                found.append(piece)
                if piece == last:
                    break
                at = find(word, starts[piece + 1])  # a word counts once per piece
            self._holders[word] = np.array(found, dtype=np.int32)
        return self._holders[word]

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The share of the question's words the piece holds."""
        return np.asarray(scores, dtype=float) / max(1, len(question_words(question)))


@RETRIEVERS.register("bm25")
class BM25(Retriever):
    """Okapi BM25 exactly as rank-bm25's ``BM25Okapi`` scores it, computed on a sparse matrix.

    Tokens are ``bm25_tokens``: words in any script, less scikit-learn's English stop
    words (on nine shop documents this alone raised clean answers, e.g. 159 to 174
    under the concern cut); ``keyword`` keeps its own short list.

    rank-bm25 loops in Python over every chunk for every question word, hundreds
    of times slower on a large catalog; bm25s is fast but its IDF has no floor for
    words most chunks share ("price", "warranty"), so its top 10 differs from
    rank-bm25's on real catalogs (BENCHMARKS.md). This keeps rank-bm25's formula,
    including its floor, and the tests check the scores against rank-bm25.
    """

    order = 20
    label = "BM25 word search"
    explanation = "The classic search-engine score: rare words that match count more than common ones."
    score_words = ("BM25 points: each matching word adds more the rarer it is in your file; no fixed top, so "
                   "compare scores only within one question")
    k1, b, epsilon = 1.5, 0.75, 0.25  # rank-bm25's defaults

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        from scipy.sparse import csc_matrix

        super().__init__(chunks)
        # One row a searched text: a chunk's text, or each of its small pieces (small-to-big).
        texts = [(index, text) for index, chunk in enumerate(chunks) for text in (chunk.search or (chunk.text,))]
        self.bounds = bounds_of([index for index, _ in texts], len(chunks))
        tokenized = [bm25_tokens(text) for _, text in texts]
        lengths = np.array([len(tokens) for tokens in tokenized], dtype=float)
        # Every (row, word) pair once with its count, sorted by row then word id: one pass of numpy
        # instead of a Counter per text (ids are given in first-seen order, as a loop would give them).
        # A new word gets the next id from the dictionary's own default (C code), not a setdefault per token.
        vocabulary: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        ids = np.array([vocabulary[token] for tokens in tokenized for token in tokens], dtype=np.int64)
        self.vocabulary = dict(vocabulary)  # a plain dict: looking a word up must not add it
        owners = np.repeat(np.arange(len(texts), dtype=np.int64), lengths.astype(np.int64))
        width = max(len(vocabulary), 1)
        pairs, tf = np.unique(owners * width + ids, return_counts=True)
        rows_a, columns_a, tf = pairs // width, pairs % width, tf.astype(float)
        n = len(texts)
        df = np.bincount(columns_a, minlength=len(self.vocabulary)).astype(float)
        idf = np.log(n - df + 0.5) - np.log(df + 0.5)
        if len(idf):
            # rank-bm25 gives a word in more than half the chunks a small positive weight, not a negative one.
            idf[idf < 0] = self.epsilon * idf.mean()
        average = lengths.sum() / n if n and lengths.sum() else 1.0
        norm = self.k1 * (1 - self.b + self.b * lengths / average)
        weights = idf[columns_a] * tf * (self.k1 + 1) / (tf + norm[rows_a])
        self.weights = csc_matrix((weights, (rows_a, columns_a)), shape=(n, len(self.vocabulary)))
        self.idf = idf

    def scores(self, question: str) -> np.ndarray:
        counts = Counter()
        for token, count in question_counts(question):
            if token in self.vocabulary:
                counts[self.vocabulary[token]] += count
        if not counts:
            return np.zeros(len(self.chunks))
        # The columns' entries added straight from the CSC arrays, in the order ``weights[:, ids] @ counts``
        # adds them (so the same sums to the last bit), without building a sub-matrix per question.
        scores = np.zeros(self.weights.shape[0])
        indptr, rows, values = self.weights.indptr, self.weights.indices, self.weights.data
        for column, count in counts.items():
            start, end = indptr[column], indptr[column + 1]
            scores[rows[start:end]] += values[start:end] * float(count)
        return best_of(scores, self.bounds)

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The score over the most any piece could score: every question word, as often as the
        question says it, weighted (k1 + 1) x its IDF, the limit of BM25's saturation. A word in
        no piece counts as the rarest word: a piece lacking it cannot be a full match."""
        rarest = float(self.idf.max()) if len(self.idf) else 1.0
        best = sum(  # the words scores() counts: stop words are not in the index
            count * (self.k1 + 1) * (self.idf[self.vocabulary[t]] if t in self.vocabulary else rarest)
            for t, count in question_counts(question)
        )
        return np.asarray(scores, dtype=float) / best if best > 0 else np.zeros(len(self.chunks))


def bounds_of(owners: list[int], count: int) -> np.ndarray | None:
    """Where each chunk's rows start, for chunks searched as several texts; None when one row each."""
    if len(owners) == count:
        return None
    return np.searchsorted(np.asarray(owners, dtype=np.int64), np.arange(count))


def best_of(row_scores: np.ndarray, bounds: np.ndarray | None) -> np.ndarray:
    """A chunk's score is the best of its rows' (windows, small pieces)."""
    if bounds is None:
        return row_scores
    return np.maximum.reduceat(row_scores, bounds) if len(bounds) else row_scores[:0]


@RETRIEVERS.register("dense")
class Dense(Retriever):
    """Cosine of sentence vectors; a piece past the model's window scores by its best window."""

    order = 30
    label = "Meaning-based search"
    explanation = "A small language model turns question and pieces into numbers and finds the closest meaning."
    score_words = "the cosine of question and piece as the model reads them, from -1 to 1: higher is closer in meaning"
    needs_encoder = True

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        super().__init__(chunks)
        if encoder_factory is None:
            from workbench.encode.embedding import get_encoder as encoder_factory
        self.encoder = encoder_factory()
        # A piece longer than the model's window is read as its overlapping windows (model_window.py).
        from workbench.encode.model_window import views

        texts = [(index, text) for index, chunk in enumerate(chunks) for text in views(self.encoder, chunk)]
        self.bounds = bounds_of([index for index, _ in texts], len(chunks))
        self.matrix = self.encoder.sentence_matrix([text for _, text in texts])

    def scores(self, question: str) -> np.ndarray:
        if not self.chunks:
            return np.zeros(0)
        return best_of(self.matrix @ self.encoder.sentence_matrix([question])[0], self.bounds)

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The cosine itself, below 0 counted as 0."""
        return np.clip(np.asarray(scores, dtype=float), 0.0, 1.0)


def starts_of(chunks: list[Chunk]) -> np.ndarray:
    """Where each chunk starts in the document: the tie-breaker of every ranking."""
    return np.array([chunk.start for chunk in chunks], dtype=np.int64)


def ranks(scores: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Chunk indices best first; ties go to the chunk that starts earlier in the document."""
    scores = np.asarray(scores, dtype=float)
    return np.lexsort((np.arange(len(scores)), starts, -scores))


@RETRIEVERS.register("hybrid")
class Hybrid(Retriever):
    order = 40
    label = "Word + meaning search"
    explanation = "Combines the word search and the meaning search by their rankings (reciprocal rank fusion)."
    score_words = ("the two searches' ranks fused: 1/(60 + rank) from each, added; about 0.033 at most "
                   "(first in both), so it says how well they agree, not how sure either is")
    needs_encoder = True
    k = 60

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        super().__init__(chunks)
        self.parts = (BM25(chunks), Dense(chunks, encoder_factory))
        self.starts = starts_of(chunks)

    def scores(self, question: str) -> np.ndarray:
        fused = np.zeros(len(self.chunks))
        parts = []
        for part in self.parts:
            scores = part.scores(question)
            parts.append(scores)
            order = ranks(scores, self.starts)
            fused[order] += 1.0 / (self.k + np.arange(1, len(order) + 1))
        self._last = (question, parts)  # the parts' own scores, for sureness: the fused rank is no confidence
        return fused

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The mean of the parts' 0-1 scales. The fused value only says whether the parts agree
        on the order, and is capped near 2/61 whatever the question."""
        if getattr(self, "_last", (None,))[0] != question:
            self.scores(question)
        return np.mean([part.sureness(question, s) for part, s in zip(self.parts, self._last[1])], axis=0)
