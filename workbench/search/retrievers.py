"""Retrievers score every chunk against a question; registered by stable id."""

from __future__ import annotations

import functools
import itertools
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from workbench.core.model import Chunk
from workbench.core.registry import Registry
from workbench.core.words import ENGLISH, Analyzer

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder


@functools.lru_cache(maxsize=4096)  # as question_terms: scores() and sureness() of every strategy ask again
def question_counts(question: str, analyzer: Analyzer = ENGLISH) -> tuple[tuple[str, int], ...]:
    """A question's BM25 terms and how often it says each, in first-seen order."""
    return tuple(Counter(analyzer.terms(question)).items())


class Retriever:
    """Built over a strategy's chunks; ``scores`` gives one score per chunk, higher is better."""

    id: str = ""
    order: int  # where it is listed and run, and which of two tied setups is preferred (lower: plainer)
    label: str = ""
    # The search in the verdict's sentence, read by a shop owner; the label when it is plain already
    # ("BM25" is a name only the settings' help explains).
    plain: str = ""
    explanation: str = ""
    needs_encoder = False  # reads with the shared language model (the process-wide encoder)
    # What a score of this search means, in words for the screen ("score 0.540" says nothing by itself).
    score_words: str = ""

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        self.chunks = chunks
        self.analyzer = analyzer  # how the document's words are read (``core.words``): its language's

    @classmethod
    def uses_model(cls) -> bool:
        """Whether it reads with a language model, so a run with it is not a word search (``search.reads``)."""
        return cls.needs_encoder

    def scores(self, question: str) -> np.ndarray:
        raise NotImplementedError

    def scores_of(self, questions: list[str]) -> np.ndarray | None:
        """Every question's ``scores`` at once, a row each, the same floats; None when it has no way of its own (a
        run then asks ``scores`` question by question). Word searches have one: numpy's few calls per question
        cost more than the sums they make."""
        return None

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The same scores on a 0-1 scale that means the same for every question (for the confidence).

        Raw scores are not comparable across questions (a word count grows with the question's
        length); each retriever says what its best possible score is.
        """
        raise NotImplementedError

    def sureness_of(self, questions: list[str], scores: np.ndarray) -> np.ndarray | None:
        """``sureness`` of every row of ``scores_of``, the same floats; None where ``scores_of`` is."""
        return None


RETRIEVERS: Registry[Retriever] = Registry("retriever")


@RETRIEVERS.register("keyword")
class Keyword(Retriever):
    """Counts the question's distinct terms (``core.words.terms``: BM25's words, stems and stop words) a piece holds."""

    order = 10
    label = "Word-match search"
    explanation = "Counts how many of the question's words appear in a piece. Simple and easy to follow."
    score_words = "the number of the question's words the piece holds (3 = three of its words)"

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        super().__init__(chunks, analyzer=analyzer)
        # Each piece read once: for every term, the pieces holding it (compressed columns, as BM25's: a numpy
        # array per term cost more than the rest of the index), so a question looks up its few terms instead of
        # looping over every piece. A text's distinct terms are read once per process (``Analyzer.term_set``):
        # the cuts and the to-do's graded copies repeat most pieces.
        vocabulary: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        sets = [analyzer.term_set(chunk.text) for chunk in chunks]
        ids = [vocabulary[term] for terms in sets for term in terms]
        owners = np.repeat(np.arange(len(chunks), dtype=np.int64), [len(terms) for terms in sets])
        self.vocabulary = dict(vocabulary)
        self.indptr, self.indices, _ = csc_arrays(owners, owners, np.asarray(ids, dtype=np.int64),
                                                  len(self.vocabulary))

    def scores(self, question: str) -> np.ndarray:
        return self.scores_of([question])[0]

    def scores_of(self, questions: list[str]) -> np.ndarray:
        """All the questions' counts in one ``bincount``: each listed piece numbered within its question's row. Each
        term lists a piece at most once, so counting the listed pieces counts the terms each holds."""
        columns, rows = self._columns(questions)
        width = len(self.chunks)
        entries, owners = entries_of(self.indptr, columns, rows)
        return np.bincount(owners * width + self.indices[entries], minlength=len(questions) * width).reshape(
            len(questions), width).astype(float)

    def _columns(self, questions: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The index's columns of every question's terms, and the question (row) each is of."""
        vocabulary, columns, rows = self.vocabulary, [], []
        for row, question in enumerate(questions):
            found = [vocabulary[term] for term in self.analyzer.question_terms(question) if term in vocabulary]
            columns += found
            rows += [row] * len(found)
        return np.asarray(columns, dtype=np.int64), np.asarray(rows, dtype=np.int64)

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The share of the question's terms the piece holds."""
        return np.asarray(scores, dtype=float) / max(1, len(self.analyzer.question_terms(question)))

    def sureness_of(self, questions: list[str], scores: np.ndarray) -> np.ndarray:
        terms = [max(1, len(self.analyzer.question_terms(question))) for question in questions]
        return scores / np.asarray(terms, dtype=float)[:, None]


@RETRIEVERS.register("bm25")
class BM25(Retriever):
    """Okapi BM25 exactly as rank-bm25's ``BM25Okapi`` scores it, computed on a sparse matrix.

    Its words are the document's ``Analyzer.terms``, as every word search's: words in any script, less
    its languages' stop words, Snowball-stemmed.

    rank-bm25 loops in Python over every chunk for every question word, hundreds
    of times slower on a large catalog; bm25s is fast but its IDF has no floor for
    words most chunks share ("price", "warranty"), so its top 10 differs from
    rank-bm25's on real catalogs (BENCHMARKS.md). This keeps rank-bm25's formula,
    including its floor, and the tests check the scores against rank-bm25.
    """

    order = 20
    label = "BM25 word search"
    # Ends with the display name the recommendation and charts use, so the two read as one search.
    plain = "word search where rare words count more (BM25)"
    explanation = "The classic search-engine score: rare words that match count more than common ones."
    score_words = ("BM25 points: each matching word adds more the rarer it is in your file; no fixed top, so "
                   "compare scores only within one question")
    k1, b, epsilon = 1.5, 0.75, 0.25  # rank-bm25's defaults

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        super().__init__(chunks, analyzer=analyzer)
        # One row a searched text: a chunk's text, or each of its small pieces (small-to-big).
        texts = [(index, text) for index, chunk in enumerate(chunks) for text in (chunk.search or (chunk.text,))]
        self.bounds = bounds_of([index for index, _ in texts], len(chunks))
        tokenized = [analyzer.terms(text) for _, text in texts]
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
        self.rows = n
        self.indptr, self.indices, self.values = csc_arrays(weights, rows_a, columns_a, len(self.vocabulary))
        self.idf = idf
        self._rarest: float | None = None  # the highest IDF, found when a sureness first asks

    def scores(self, question: str) -> np.ndarray:
        counts = Counter()
        for token, count in question_counts(question, self.analyzer):
            if token in self.vocabulary:
                counts[self.vocabulary[token]] += count
        if not counts:
            return np.zeros(len(self.chunks))
        # The columns' entries added straight from the CSC arrays, in the order ``weights[:, ids] @ counts``
        # adds them (so the same sums to the last bit), without building a sub-matrix per question.
        scores = np.zeros(self.rows)
        indptr, rows, values = self.indptr, self.indices, self.values
        for column, count in counts.items():
            start, end = indptr[column], indptr[column + 1]
            scores[rows[start:end]] += values[start:end] * float(count)
        return best_of(scores, self.bounds)

    def scores_of(self, questions: list[str]) -> np.ndarray:
        """``scores`` of every question, a row each: the questions' first terms' columns added at once, then their
        second terms', and so on, so each score is the same sum in the same order (to the last bit)."""
        vocabulary = self.vocabulary
        asked = [[(vocabulary[token], count) for token, count in question_counts(question, self.analyzer)
                  if token in vocabulary] for question in questions]
        scores = np.zeros(len(questions) * self.rows)
        for place in range(max(map(len, asked), default=0)):
            rows = np.array([row for row, terms in enumerate(asked) if len(terms) > place], dtype=np.int64)
            columns = np.array([asked[row][place][0] for row in rows], dtype=np.int64)
            counts = np.array([float(asked[row][place][1]) for row in rows])
            entries, owners = entries_of(self.indptr, columns, np.arange(len(rows)))
            # A question's term is one column, whose rows are distinct: no cell is added to twice in one step.
            scores[rows[owners] * self.rows + self.indices[entries]] += self.values[entries] * counts[owners]
        scores = scores.reshape(len(questions), self.rows)
        return scores if self.bounds is None else best_of(scores, self.bounds, axis=1)

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The score over the most any piece could score: every question word, as often as the
        question says it, weighted (k1 + 1) x its IDF, the limit of BM25's saturation. A word in
        no piece counts as the rarest word: a piece lacking it cannot be a full match."""
        best = self._best(question)
        return np.asarray(scores, dtype=float) / best if best > 0 else np.zeros(len(self.chunks))

    def sureness_of(self, questions: list[str], scores: np.ndarray) -> np.ndarray:
        best = np.asarray([self._best(question) for question in questions], dtype=float)
        sure = np.zeros(scores.shape)
        some = best > 0
        sure[some] = scores[some] / best[some, None]
        return sure

    def _best(self, question: str) -> float:
        """The most any piece could score (``sureness``)."""
        if self._rarest is None:
            self._rarest = float(self.idf.max()) if len(self.idf) else 1.0
        return sum(  # the words scores() counts: stop words are not in the index
            count * (self.k1 + 1) * (self.idf[self.vocabulary[t]] if t in self.vocabulary else self._rarest)
            for t, count in question_counts(question, self.analyzer)
        )


def csc_arrays(values: np.ndarray, rows: np.ndarray, columns: np.ndarray, width: int):
    """A sparse matrix's compressed-column arrays (``indptr``, ``indices``, ``data``) from distinct (row, column)
    entries, as scipy's ``csc_matrix((values, (rows, columns)))`` lays them out: by column, then row. Built with
    numpy, as importing scipy.sparse cost a run 0.6 s, a fifth of a warm run of a 200-row export."""
    order = np.lexsort((rows, columns))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(columns, minlength=width))]).astype(np.int64)
    return indptr, rows[order], values[order]


def bounds_of(owners: list[int], count: int) -> np.ndarray | None:
    """Where each chunk's rows start, for chunks searched as several texts; None when one row each."""
    if len(owners) == count:
        return None
    return np.searchsorted(np.asarray(owners, dtype=np.int64), np.arange(count))


def best_of(row_scores: np.ndarray, bounds: np.ndarray | None, axis: int = 0) -> np.ndarray:
    """A chunk's score is the best of its rows' (windows, small pieces); ``axis`` 1 for several questions' scores."""
    if bounds is None:
        return row_scores
    return np.maximum.reduceat(row_scores, bounds, axis=axis) if len(bounds) else row_scores[..., :0]


def entries_of(indptr: np.ndarray, columns: np.ndarray, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the entries of compressed columns ``columns`` are (``indptr[c]`` up to ``indptr[c + 1]`` for each, laid
    end to end), and for each entry the owner its column came with."""
    begin, lengths = indptr[columns], indptr[columns + 1] - indptr[columns]
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    offsets = np.repeat(begin - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return offsets + np.arange(total), np.repeat(owners, lengths)


@RETRIEVERS.register("dense")
class Dense(Retriever):
    """Cosine of sentence vectors; a piece past the model's window scores by its best window."""

    order = 30
    label = "Meaning-based search"
    explanation = "A small language model turns question and pieces into numbers and finds the closest meaning."
    score_words = "the cosine of question and piece as the model reads them, from -1 to 1: higher is closer in meaning"
    needs_encoder = True

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        super().__init__(chunks, analyzer=analyzer)
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
        return best_of(self.matrix @ self.encoder.sentence_matrix([self.encoder.as_question(question)])[0], self.bounds)

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The cosine itself, below 0 counted as 0."""
        return np.clip(np.asarray(scores, dtype=float), 0.0, 1.0)


def starts_of(chunks: list[Chunk]) -> np.ndarray:
    """Where each chunk starts in the document: the tie-breaker of every ranking."""
    return np.array([chunk.start for chunk in chunks], dtype=np.int64)


def ranks(scores: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Chunk indices best first; ties go to the chunk that starts earlier in the document. Several questions'
    scores (a row each) are ranked row by row."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 2:
        return np.lexsort((np.broadcast_to(np.arange(scores.shape[1]), scores.shape),
                           np.broadcast_to(starts, scores.shape), -scores), axis=-1)
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

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        super().__init__(chunks, analyzer=analyzer)
        self.parts = (BM25(chunks, analyzer=analyzer), Dense(chunks, encoder_factory))
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
