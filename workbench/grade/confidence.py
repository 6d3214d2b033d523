"""How sure the search is that the document answers a question: one number from 0 to 1.

A bot should hand a question to a person when the document cannot answer it. The
retriever's raw score cannot tell: a fused rank, a word count and a cosine live on
different scales, and "Do you ship to Canada?" still finds the delivery page. What
can tell is whether the question's rare words are in the document at all, and in
the top piece. The formula (docs/DESIGN.md, "Confidence and calibration"):

    confidence = document_coverage x (0.4 top_coverage + 0.4 score + 0.2 margin)

- coverage: the share of the question's content words, weighted by their IDF over
  the document's lines, found (after light stemming) in the whole document or in
  the top piece. A word the document never uses weighs the most, so one missing
  rare word ("Canada", "laptop") pulls the confidence down hard.
- score: the search's score of the top piece on the retriever's own 0-1 scale
  (``Retriever.sureness``); for ``hybrid`` the mean of its parts' scales, not the
  fused rank.
- margin: how far that score stands above the second piece's (0 when below).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable

import numpy as np

from workbench.core.model import Chunk, Document
from workbench.search.retrievers import tokenize

# Words that frame a question rather than name what it asks about (English; other scripts keep every word).
STOP_WORDS = frozenset(
    """a about above after again all also am an and any are as at be been before being below between both but
    by can could did do does doing done during each either few for from further get gets got had has have
    having he her here hers him his how i if in into is it its itself just let me more most my myself no nor
    not now of off on once only or other our ours out over own please same she should so some such than that
    the their theirs them then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself tell know want wanted
    need needs like much many one ones thing things way ok okay hi hello thanks thank anyone someone
    s t d ll m re ve don doesn isn aren won wasn didn""".split()
)
# Words that ask *about* something rather than name it: a document states these as values ("29 L",
# "£83", "4 weeks"), not as the words themselves, so their absence is no sign the answer is missing.
# What makes a question unanswerable is a thing the document never names: a country, a product,
# a service, a way to pay.
ASKING_WORDS = frozenset(
    """cost costs price prices priced much many long last lasts big small large size sizes colour colours color
    colors heavy weight weigh loud fast quick often soon old available availability come comes came buy buying
    bought sell sells sold offer offers offered stock stocked have has get make made use used using work works
    run runs charge charged ship ships shipping deliver delivery send pay paid does kind type sort""".split()
)
WEIGHTS = {"top_coverage": 0.4, "score": 0.4, "margin": 0.2}
SUFFIXES = ("ies", "es", "s", "ing", "ed", "ly")


@functools.lru_cache(maxsize=1 << 16)  # a document repeats its words: each is stemmed once
def stem(word: str) -> str:
    """A crude English stem, so "returns" finds "return" and "batteries" finds "battery"."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            return base + "y" if suffix == "ies" else base
    return word


CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def stems(text: str) -> set[str]:
    """Stemmed words of a text; a camelCase column name ("stockOnHand") counts as its words too."""
    split = CAMEL.sub(" ", text)
    words = set(tokenize(split)) | (set(tokenize(text)) if split != text else set())  # tokenize each text once
    return set(map(stem, words))


class WordEvidence:
    """The IDF of every word over the document's lines (headings and facts), built once per document."""

    def __init__(self, document: Document, between: Callable[[], None] | None = None) -> None:
        """``between`` is called every few thousand lines: a long run's chance to stop (a catalog's is a minute)."""
        lines = [section.heading for section in document.sections if section.heading]
        lines += [document.slice(fact.span) for fact in document.facts]
        self.lines = max(len(lines), 1)
        self.frequency: Counter[str] = Counter()
        # A catalog repeats lines ("Warranty: 2 years." under thousands of products): stem each once.
        for number, (line, count) in enumerate(Counter(lines).items()):
            if between is not None and number % 2_000 == 0:
                between()
            for word_stem in stems(line):
                self.frequency[word_stem] += count
        self._pieces: dict[str, set[str]] = {}
        self._questions: dict[str, tuple[list[str], float]] = {}
        self._idf: dict[str, float] = {}
        self._covered: dict[tuple[str, str], float] = {}

    def idf(self, word_stem: str) -> float:
        """ln((N + 1) / (df + 0.5)): a word in no line weighs more than the rarest word present."""
        if word_stem not in self._idf:  # asked for every question's words under every setup
            self._idf[word_stem] = math.log((self.lines + 1) / (self.frequency.get(word_stem, 0) + 0.5))
        return self._idf[word_stem]

    def question_stems(self, question: str) -> list[str]:
        """The question's content words, stemmed, each once."""
        return list(dict.fromkeys(stem(t) for t in tokenize(question) if t not in STOP_WORDS and t not in ASKING_WORDS))

    def coverage(self, question_stems: list[str], present: set[str] | None = None) -> float:
        """IDF-weighted share of the question's words found in ``present`` (default: the whole document).

        A question with no content word at all gives 1: nothing it names is missing.
        """
        total = sum(self.idf(s) for s in question_stems)
        if not total:
            return 1.0
        found = sum(self.idf(s) for s in question_stems if (s in present if present is not None else s in self.frequency))
        return found / total

    def question(self, question: str) -> tuple[list[str], float]:
        """The question's stems and their coverage of the whole document, worked out once per question
        (a run asks for them under every strategy, retriever and reranker)."""
        if question not in self._questions:
            words = self.question_stems(question)
            self._questions[question] = (words, self.coverage(words))
        return self._questions[question]

    def top_coverage(self, question: str, chunk: Chunk) -> float:
        """``coverage`` of the question's words in one piece, worked out once per question and piece text:
        the word-match and BM25 searches, and cuts that make the same piece, often put the same piece on top."""
        key = (question, chunk.text)
        if key not in self._covered:
            self._covered[key] = self.coverage(self.question(question)[0], self.piece_stems(chunk))
        return self._covered[key]

    def piece_stems(self, chunk: Chunk) -> set[str]:
        # Keyed by the text: cuts often make the same piece (a short section is one piece under most of them).
        if chunk.text not in self._pieces:
            self._pieces[chunk.text] = stems(chunk.text)
        return self._pieces[chunk.text]


def _unit(value: float) -> float:
    """The value held to 0-1 (np.clip on one number costs ten times more)."""
    return min(max(float(value), 0.0), 1.0)


def confidence(
    evidence: WordEvidence, question: str, top: Chunk, sureness: np.ndarray, order: np.ndarray
) -> tuple[float, dict[str, float]]:
    """The confidence of one question and its parts, from the final order and the search's 0-1 scores."""
    _, document = evidence.question(question)
    top_coverage = evidence.top_coverage(question, top)
    score = _unit(sureness[order[0]]) if len(order) else 0.0
    second = _unit(sureness[order[1]]) if len(order) > 1 else 0.0
    margin = max(0.0, score - second)
    parts = {"document_coverage": document, "top_coverage": top_coverage, "score": score, "margin": margin}
    value = document * sum(weight * parts[name] for name, weight in WEIGHTS.items())
    return value, parts
