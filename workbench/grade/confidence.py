"""How sure the search is that the document answers a question: one number from 0 to 1.

A bot should hand a question to a person when the document cannot answer it. The
retriever's raw score cannot tell: a fused rank, a word count and a cosine live on
different scales, and "Do you ship to Canada?" still finds the delivery page. What
can tell is whether the question's rare words are in the document at all, and in
the top piece. The formula (docs/DESIGN.md, "Confidence and calibration"):

    confidence = document_coverage x (0.4 top_coverage + 0.4 score + 0.2 margin)

- coverage: the share of the question's content words (``core.words.subject_words``, less asking
  words), weighted by their IDF over the document's lines, found as they are written (not stemmed) in
  the whole document or in the top piece. A word the document never uses weighs the most, so one missing
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
from collections.abc import Callable, Iterable
from itertools import chain, repeat

import numpy as np

from workbench.core.asked import asked_text
from workbench.core.model import Chunk, Document
from workbench.core.words import ENGLISH, STOP_WORDS, Analyzer, tokenize

# Words that ask *about* something rather than name it: a document states these as values ("29 L",
# "£83", "4 weeks"), not as the words themselves, so their absence is no sign the answer is missing.
# What makes a question unanswerable is a thing the document never names: a country, a product,
# a service, a way to pay. Not a second stop-word list: these are words a search should match (a line
# that says "Delivery: 3 days" is the one to find), but whose absence the confidence must not count.
ASKING_WORDS = frozenset(
    """cost costs price prices priced much many long last lasts big small large size sizes colour colours color
    colors heavy weight weigh loud fast quick often soon old available availability come comes came buy buying
    bought sell sells sold offer offers offered stock stocked have has get make made use used using work works
    run runs charge charged ship ships shipping deliver delivery send pay paid does kind type sort""".split()
)
# The question words whose absence says nothing: stop words and asking words.
NOT_NAMED = STOP_WORDS | ASKING_WORDS


WEIGHTS = {"top_coverage": 0.4, "score": 0.4, "margin": 0.2}

CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def line_words(text: str, analyzer: Analyzer = ENGLISH) -> frozenset[str]:
    """A text's ``subject_words``; a camelCase column name ("stockOnHand") counts as its words too.

    Not stemmed, unlike the searches' ``terms``: coverage asks whether the document names the very thing a
    question asks about, and a shared Snowball stem often says only that a related word is there ("Do you offer
    assembly for the sofas?" found "assemble" and "sofa" in a furniture file; "Do you sell dishwashers?"
    found "dishwasher-safe"). On the six real files (bench/refusal.py, keyword and bm25, every cut, no and
    heading re-check) whole words refused 651 of 1,728 unanswerable questions and 295 of 9,984 answerable ones;
    Snowball stems 396 and 559; the -s/-es/-ing/-ed stripping this replaced 563 and 480. Another language's
    words are compared without their inflection (``Analyzer.named``, ``core/named_forms.py``): "Handschuhen" in a
    German question names the file's "Handschuhe".
    """
    return _line_words(text, analyzer)


# Read once per text in the process: the to-do's graded copies of a file repeat all but a few of its lines. A text
# of several lines is its lines' words together (no word, and no camelCase split, runs across a line break), each
# line read once: the pieces of every cut are made of the lines the word evidence has read.
@functools.lru_cache(maxsize=1 << 16)
def _line_words(text: str, analyzer: Analyzer) -> frozenset[str]:
    if "\n" in text:
        return frozenset().union(*(_line_words(line, analyzer) for line in text.split("\n")))
    split = CAMEL.sub(" ", text)
    subject_words = analyzer.subject_words
    words = frozenset(subject_words(split)) | (frozenset(subject_words(text)) if split != text else frozenset())
    return words if analyzer is ENGLISH else frozenset(map(analyzer.named, words))


@functools.lru_cache(maxsize=64)
def not_named(analyzer: Analyzer) -> frozenset[str]:
    """The question words whose absence says nothing, in the analyzer's languages: stop words and asking words."""
    return NOT_NAMED if analyzer is ENGLISH else analyzer.stop_words | analyzer.question_words | ASKING_WORDS


# Read once per question and analyzer in the process: every graded copy of a file asks the same questions. A Thai
# question is read as its pieces, apart from how it is asked (``core.asked.asked_text``).
@functools.lru_cache(maxsize=4096)
def _question_words(question: str, analyzer: Analyzer) -> tuple[str, ...]:
    unnamed = not_named(analyzer)
    words = (t for t in tokenize(analyzer.joined(asked_text(question, analyzer.languages[0]))) if t not in unnamed)
    return tuple(dict.fromkeys(words if analyzer is ENGLISH else map(analyzer.named, words)))


class WordEvidence:
    """The IDF of every word over the document's lines (headings and facts), built once per document."""

    def __init__(self, document: Document, between: Callable[[], None] | None = None,
                 analyzer: Analyzer = ENGLISH, like: WordEvidence | None = None) -> None:
        """``between`` is called every few thousand lines: a long run's chance to stop (a catalog's is a minute).
        ``analyzer``: the document's stop words and how its customers ask (``core.words``: ``question_words``).
        ``like``: the evidence of a document this one is a copy of (the to-do's graded copies, a few words added):
        its counts are taken and only the lines that differ are read, to the same counts."""
        self.analyzer = analyzer
        self.not_named = not_named(analyzer)
        lines = [section.heading for section in document.sections if section.heading]
        lines += [document.slice(fact.span) for fact in document.facts]
        self.lines = max(len(lines), 1)
        # A catalog repeats lines ("Warranty: 2 years." under thousands of products): read each once.
        self._lines = Counter(lines)
        # A copy's values read from words its edits leave counted as in the file (their IDFs, the coverages of
        # questions made of them) are the file's, kept in ``like``'s caches (``_store``) where every copy finds them:
        # the same sums of the same numbers. Other lines in number, and every IDF differs: the copy keeps its own.
        self._like: WordEvidence | None = None
        self._touched: set[str] = set()
        if like is not None and like.analyzer is analyzer:
            self.frequency = like._differing(self._lines, self._touched)
            if like.lines == self.lines:
                self._like = like
        else:
            self.frequency: Counter[str] = Counter()
            # Each line's words counted as often as it stands, by Counter's own loop (in C), a few thousand lines
            # at a time.
            counted = list(self._lines.items())
            for first in range(0, len(counted), 2_000):
                if between is not None:
                    between()
                self.frequency.update(chain.from_iterable(
                    line_words(line, analyzer) if count == 1
                    else chain.from_iterable(repeat(line_words(line, analyzer), count))
                    for line, count in counted[first : first + 2_000]))
        self._pieces: dict[str, frozenset[str]] = {} if like is None or like.analyzer is not analyzer else like._pieces
        self._questions: dict[str, tuple[list[str], float]] = {}
        self._idf: dict[str, float] = {}
        self._covered: dict[tuple[str, str], float] = {}

    def _store(self, words: Iterable[str]) -> WordEvidence:
        """Whose cache holds a value read from ``words``' counts: the file's when this is a copy whose counts of
        them are the file's (the value is the same, and the next copy finds it), else this one's."""
        like = self._like
        return like if like is not None and self._touched.isdisjoint(words) else self

    def _differing(self, lines: Counter[str], touched: set[str]) -> Counter[str]:
        """The word counts of a document whose lines are ``lines``, from this one's: the lines that stand a different
        number of times (found by comparing the two tallies' items, in C) are taken out and put in again.
        ``touched`` is given the words whose counts may differ."""
        frequency = self.frequency.copy()
        for line, count in lines.items() ^ self._lines.items():
            words = line_words(line, self.analyzer)
            change = count if lines.get(line) == count else -count  # the copy's tally, or this one's
            for word in words:
                frequency[word] += change
            touched.update(words)
        for word in touched:  # a word no line holds any more is not in the document
            if not frequency[word]:
                del frequency[word]
        return frequency

    def idf(self, word: str) -> float:
        """ln((N + 1) / (df + 0.5)): a word in no line weighs more than the rarest word present."""
        cache = self._store((word,))._idf
        if word not in cache:  # asked for every question's words under every setup
            cache[word] = math.log((self.lines + 1) / (self.frequency.get(word, 0) + 0.5))
        return cache[word]

    def question_words(self, question: str) -> list[str]:
        """The question's content words, each once: no stop word, no asking word."""
        return list(_question_words(question, self.analyzer))

    def coverage(self, question_words: list[str], present: set[str] | None = None) -> float:
        """IDF-weighted share of the question's words found in ``present`` (default: the whole document).

        A question with no content word at all gives 1: nothing it names is missing.
        """
        total = sum(self.idf(s) for s in question_words)
        if not total:
            return 1.0
        found = sum(self.idf(s) for s in question_words if (s in present if present is not None else s in self.frequency))
        return found / total

    def question(self, question: str) -> tuple[list[str], float]:
        """The question's words and their coverage of the whole document, worked out once per question
        (a run asks for them under every strategy, retriever and reranker)."""
        if question in self._questions:
            return self._questions[question]
        words = _question_words(question, self.analyzer)
        cache = self._store(words)._questions
        if question not in cache:
            words = list(words)
            cache[question] = (words, self.coverage(words))
        return cache[question]

    def top_coverage(self, question: str, chunk: Chunk) -> float:
        """``coverage`` of the question's words in one piece, worked out once per question and piece text:
        the word-match and BM25 searches, and cuts that make the same piece, often put the same piece on top."""
        key = (question, chunk.text)
        words = self.question(question)[0]
        cache = self._store(words)._covered
        if key not in cache:
            cache[key] = self.coverage(words, self.piece_words(chunk))
        return cache[key]

    def piece_words(self, chunk: Chunk) -> frozenset[str]:
        # Keyed by the text: cuts often make the same piece (a short section is one piece under most of them).
        if chunk.text not in self._pieces:
            self._pieces[chunk.text] = line_words(chunk.text, self.analyzer)
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
