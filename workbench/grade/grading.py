"""Grading one question's ranking: clean, mixed, missed (decoy, split, ranked) or refused."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from workbench.core.model import Chunk, Document, ResolvedQuestion, covers, merge_spans
from workbench.read.questions import answer_pattern

GRADE_WORDS = {
    "clean": "the top piece holds the answer and nothing about other products",
    "mixed": "the top piece holds the answer, buried among facts of other products or sections",
    "missed": "the top piece does not hold the answer",
    "refused": "the search was not sure enough, so the bot would hand the question to a person",
    "false-answer": "the document cannot answer this, yet the bot would have answered",
}
REASON_WORDS = {
    "decoy": "the top piece holds the same words from another product",
    "split": "a cut runs through the answer, so no piece holds all of it",
    "ranked": "a piece holds the answer, but lower down",
}


def why_missed(reason: str) -> str:
    """A grade's reason as a report prints it after the grade: " — " and its words, never its id; "" for none."""
    return f" — {REASON_WORDS.get(reason, reason)}" if reason else ""


class ChunkMap:
    """Which sections' facts each chunk of one strategy touches, computed once per strategy."""

    def __init__(self, document: Document, chunks: list[Chunk], between: Callable[[], None] | None = None) -> None:
        """``between`` is called every few thousand chunks: a long run's chance to stop."""
        self.document = document
        facts = sorted(document.facts, key=lambda fact: fact.span)
        starts = [fact.span[0] for fact in facts]
        ends = [fact.span[1] for fact in facts]
        sections = [fact.section_id for fact in facts]
        longest = max((fact.span[1] - fact.span[0] for fact in facts), default=0)
        # Facts are lines, so they rarely overlap and their ends come in order too: then the first fact that
        # can reach a span is found by its end. Otherwise, by its start, less the longest fact.
        ends_in_order = all(a <= b for a, b in zip(ends, ends[1:]))
        self.touched: list[dict[str, int]] = []  # per chunk: section id -> characters of its facts covered
        self.whole: list[set[str]] = []  # per chunk: sections with at least one fact covered whole
        merged = [merge_spans(chunk.spans) for chunk in chunks]
        for number, spans in enumerate(merged):
            if between is not None and number % 2_000 == 0:
                between()
            touched: dict[str, int] = {}
            whole: set[str] = set()
            for start, end in spans:
                # overlap() and covers() inlined, with plain comparisons for min and max: this loop runs for
                # every fact near every piece of every strategy.
                first = bisect.bisect_right(ends, start) if ends_in_order else bisect.bisect_left(starts, start - longest)
                for i in range(first, bisect.bisect_left(starts, end)):
                    fact_start, fact_end = starts[i], ends[i]
                    shared = (end if end < fact_end else fact_end) - (start if start > fact_start else fact_start)
                    if shared > 0:
                        touched[sections[i]] = touched.get(sections[i], 0) + shared
                        # Merged spans neither overlap nor touch, so a fact this span shares characters with
                        # can only lie whole inside this span, not another one.
                        if start <= fact_start and fact_end <= end:
                            whole.add(sections[i])
            self.touched.append(touched)
            self.whole.append(whole)
        # Every chunk's merged spans as flat arrays, to find the chunks holding an answer in one pass.
        flat = [(start, end, index) for index, spans in enumerate(merged) for start, end in spans]
        self._starts = np.array([m[0] for m in flat], dtype=np.int64)
        self._ends = np.array([m[1] for m in flat], dtype=np.int64)
        self._owners = np.array([m[2] for m in flat], dtype=np.int64)
        self._chunks = chunks

    def holders(self, question: ResolvedQuestion) -> list[int]:
        """Indices of the chunks that hold the question's answer, in document order."""
        if question.section_id is None:
            return []
        if question.answer_spans:
            found: set[int] = set()
            for start, end in question.answer_spans:
                found.update(self._owners[(self._starts <= start) & (self._ends >= end)].tolist())
            return sorted(found)
        return [i for i in range(len(self._chunks)) if self.holds(i, self._chunks[i], question)]

    def holds(self, index: int, chunk: Chunk, question: ResolvedQuestion) -> bool:
        """Does the chunk hold the question's answer?"""
        if question.answer_spans:
            return any(covers(chunk.spans, span) for span in question.answer_spans)
        # An empty answer means "the source itself": at least one of its facts whole,
        # and more of its fact text than of any other section's.
        touched = self.touched[index]
        own = touched.get(question.section_id, 0)
        return question.section_id in self.whole[index] and all(
            own > chars for section, chars in touched.items() if section != question.section_id
        )

    def mixes(self, index: int, section_id: str | None) -> bool:
        """Does the chunk overlap facts of a section other than ``section_id``?"""
        return any(section != section_id for section in self.touched[index])

    def products(self, index: int) -> int:
        return len(self.touched[index])


@dataclass
class Grade:
    grade: str
    reason: str = ""
    rank: int | None = None  # where the first chunk holding the answer stands (1 = top)
    relevant_ranks: list[int] = field(default_factory=list)


def grade(
    question: ResolvedQuestion,
    order: list[int] | np.ndarray,
    chunks: list[Chunk],
    chunk_map: ChunkMap,
    holders: list[int] | None = None,
) -> Grade:
    """Grade one question from the final order of chunk indices (best first), as if the bot answered.

    Refusing is decided afterwards, in one place (``refusal.refuse_below``). ``holders``
    (the chunks holding the answer) depends only on the strategy, so callers grading
    many rankings of one strategy pass it in once computed.
    """
    if question.section_id is None:
        return Grade("false-answer")
    if holders is None:
        holders = chunk_map.holders(question)
    position = np.empty(len(order), dtype=np.int64)
    position[np.asarray(order)] = np.arange(1, len(order) + 1)
    relevant = sorted(int(position[index]) for index in holders)
    first = relevant[0] if relevant else None
    top = int(order[0])
    if first == 1:
        kind = "mixed" if chunk_map.mixes(top, question.section_id) else "clean"
        return Grade(kind, rank=1, relevant_ranks=relevant)
    if question.answer_spans and _holds_words_elsewhere(chunks[top], question, chunk_map.document):
        reason = "decoy"
    elif first is None:
        reason = "split"
    else:
        reason = "ranked"
    return Grade("missed", reason=reason, rank=first, relevant_ranks=relevant)


def _holds_words_elsewhere(chunk: Chunk, question: ResolvedQuestion, document: Document) -> bool:
    """Does the chunk hold the answer's words outside the answer's own section (the wrong product's price)?"""
    pattern = answer_pattern(question.question.expected_answer)
    source = document.section(question.section_id).span
    for start, end in chunk.spans:
        for match in pattern.finditer(document.text, start, end):
            if not (source[0] <= match.start() and match.end() <= source[1]):
                return True
    return False
