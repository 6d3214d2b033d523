"""Grading one question's ranking: clean, mixed, missed (decoy, split, ranked) or refused."""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from workbench.core.model import Chunk, Document, ResolvedQuestion, SameDocument, Section, Span, covers, merge_spans
from workbench.read.resolve import answer_pattern, fold

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


def product_names(section: Section) -> list[str]:
    """What a line may call its section: its heading, and for a part of a product (a subsection whose heading
    starts with an ancestor's, as the rewrite's "Table Fan — BreezeMate high speed" under "Table Fan") that
    ancestor's heading too."""
    if not section.heading:
        return []
    return [section.heading, *(name for name in section.path if name and section.heading.startswith(name + " "))]


class Names:
    """A section's names matched as whole words, ignoring case and runs of blank space, in text already folded.

    What one regular expression per section (its names as an alternation between word boundaries) matched, by
    string search: compiling a pattern per section took 98 of the 218 s a 200,000-product check-up ran.
    """

    def __init__(self, names: list[str]) -> None:
        self.names = sorted({_spaced(fold(name)) for name in names} - {""}, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self.names)

    def equals(self, text: str) -> bool:
        """The whole of ``text`` is one of the names."""
        return _spaced(text) in self.names

    def within_spaced(self, spaced: str) -> bool:
        """One of the names stands in ``spaced`` as whole words (no letter, digit or underscore either side): a text
        already in lower case with its blank runs made single spaces (``_spaced``)."""
        return any(_whole(spaced, name) for name in self.names)


def _spaced(text: str) -> str:
    return " ".join(text.lower().split())


def _whole(text: str, name: str) -> bool:
    at = text.find(name)
    while at != -1:
        end = at + len(name)
        if (at == 0 or not _word(text[at - 1])) and (end == len(text) or not _word(text[end])):
            return True
        at = text.find(name, at + 1)
    return False


def _word(character: str) -> bool:
    return character.isalnum() or character == "_"  # what a regular expression's \w is in str patterns


@functools.lru_cache(maxsize=1 << 16)  # a catalog repeats "Colour: red" under thousands of products
def _read_line(raw: str) -> tuple[str, str | None, str]:
    """A line folded and spaced, as the whole and as label and rest (None: no label)."""
    text = fold(raw)
    label, colon, rest = text.partition(":")
    return _spaced(text), _spaced(label) if colon else None, _spaced(rest)


@functools.lru_cache(maxsize=1 << 14)  # each section's names, again for each copy the to-do grades
def _names(names: tuple[str, ...]) -> Names:
    return Names(list(names))


@functools.lru_cache(maxsize=4)
def _named(same: SameDocument) -> tuple[tuple[int, int, str], ...]:
    """(start, end, section id) of every fact that names its own section, in document order."""
    document = same.document
    source = document.text
    named = []
    for section in document.sections:
        names = tuple(product_names(section))
        if not names:
            continue
        lines = tuple(source[fact.span[0] : fact.span[1]] for fact in section.facts)
        named += [(*fact.span, section.id) for fact, naming in zip(section.facts, _naming(names, lines)) if naming]
    return tuple(sorted(named))


# Read once per section's names and lines in the process: the to-do's graded copies repeat all but a few sections.
@functools.lru_cache(maxsize=1 << 14)
def _naming(names: tuple[str, ...], lines: tuple[str, ...]) -> tuple[bool, ...]:
    """Whether each of a section's lines names the section (``named_facts``)."""
    own = _names(names)
    if not own:
        return (False,) * len(lines)
    owner = _names(names[1:])  # a part's product, whose name says whose the line is even in a label
    naming = []
    for line in lines:
        spaced, label, rest = _read_line(line)
        if label is not None and label in own.names and not owner.within_spaced(label):
            spaced = rest  # "Returns: 30 days" under "Returns": the line's topic, which says nothing of whose it is
        naming.append(own.within_spaced(spaced))
    return tuple(naming)


def named_facts(document: Document) -> frozenset[Span]:
    """The spans of the facts that name their own section: a fact whose own text holds its section's heading
    (or, for a part of a product, the product's heading) as whole words, ignoring case, runs of blank space and
    typographic quotes and dashes ("Table Fan — Warranty: 1 year." under "Table Fan"). A label that is the heading
    itself does not count ("Returns: 30 days" under "Returns" names a topic, not an owner).

    A bot reading such a line knows whose it is, so it is never a decoy for another product's question and it
    does not make a piece "mixed" by being in it (docs/DESIGN.md, Grading)."""
    return frozenset((start, end) for start, end, _ in _named(SameDocument(document)))


def labelled_lines(document: Document, chunk: Chunk, section_id: str | None) -> list[str]:
    """The lines of other sections in ``chunk`` that name their own section, for the drill-down: why a piece
    holding them is not "mixed" and their words are no decoy."""
    named = _named(SameDocument(document))
    starts = [start for start, _, _ in named]
    out = []
    for start, end in merge_spans(chunk.spans):
        for i in range(max(0, bisect.bisect_right(starts, start) - 1), bisect.bisect_left(starts, end)):
            fact_start, fact_end, section = named[i]
            if section != section_id and fact_start < end and start < fact_end:
                out.append(document.text[fact_start:fact_end])
    return out


class PieceSections:
    """The section each piece of one cut is filed under, in every output that names it (the JSON's pieces, the
    answers CSV and Excel, the JSON-lines export): the one whose facts' characters the piece holds most of (a tie
    to the earlier section); a piece holding no fact (a heading alone) goes to the section its first character
    sits in. So a window that starts on a product's last line and holds the next product is the next product's."""

    def __init__(self, document: Document, chunks: list[Chunk], chunk_map: ChunkMap | None = None) -> None:
        self.document = document
        self.map = chunk_map if chunk_map is not None else kept_map(document, chunks)
        self.index = {chunk.id: i for i, chunk in enumerate(chunks)}

    def of(self, chunk: Chunk) -> Section | None:
        touched = self.map.touched[self.index[chunk.id]]
        if touched:
            return self.document.section(max(touched, key=touched.get))
        start = chunk.start
        holding = [s for s in self.document.sections if s.span[0] <= start < max(s.span[1], s.span[0] + 1)]
        return holding[-1] if holding else None

    def title(self, chunk: Chunk | None) -> str:
        section = self.of(chunk) if chunk is not None else None
        return section.title if section else ""


@functools.lru_cache(maxsize=4)
def _fact_table(same: SameDocument) -> tuple[list[int], list[int], list[str], list[bool], int, bool]:
    """The document's facts in order as columns (starts, ends, section ids, whether each names its section), the
    longest fact's length and whether the ends come in order: the same for every cut, so made once."""
    document = same.document
    facts = sorted(document.facts, key=lambda fact: fact.span)
    starts = [fact.span[0] for fact in facts]
    ends = [fact.span[1] for fact in facts]
    sections = [fact.section_id for fact in facts]
    named_spans = named_facts(document)
    named = [fact.span in named_spans for fact in facts]
    longest = max((fact.span[1] - fact.span[0] for fact in facts), default=0)
    # Facts are lines, so they rarely overlap and their ends come in order too: then the first fact that
    # can reach a span is found by its end. Otherwise, by its start, less the longest fact.
    ends_in_order = all(a <= b for a, b in zip(ends, ends[1:]))
    return starts, ends, sections, named, longest, ends_in_order


class ChunkMap:
    """Which sections' facts each chunk of one strategy touches, computed once per strategy."""

    def __init__(self, document: Document, chunks: list[Chunk], between: Callable[[], None] | None = None) -> None:
        """``between`` is called every few thousand chunks: a long run's chance to stop."""
        self.document = document
        starts, ends, sections, named, longest, ends_in_order = _fact_table(SameDocument(document))
        self._fact_starts, self._fact_ends, self._fact_named = starts, ends, named
        self.touched: list[dict[str, int]] = []  # per chunk: section id -> characters of its facts covered
        self.whole: list[set[str]] = []  # per chunk: sections with at least one fact covered whole
        self.unnamed: list[set[str]] = []  # per chunk: sections touched through a fact that does not name them
        merged = [merge_spans(chunk.spans) for chunk in chunks]
        for number, spans in enumerate(merged):
            if between is not None and number % 2_000 == 0:
                between()
            touched: dict[str, int] = {}
            whole: set[str] = set()
            unnamed: set[str] = set()
            for start, end in spans:
                # overlap() and covers() inlined, with plain comparisons for min and max: this loop runs for
                # every fact near every piece of every strategy.
                first = bisect.bisect_right(ends, start) if ends_in_order else bisect.bisect_left(starts, start - longest)
                for i in range(first, bisect.bisect_left(starts, end)):
                    fact_start, fact_end = starts[i], ends[i]
                    shared = (end if end < fact_end else fact_end) - (start if start > fact_start else fact_start)
                    if shared > 0:
                        touched[sections[i]] = touched.get(sections[i], 0) + shared
                        if not named[i]:
                            unnamed.add(sections[i])
                        # Merged spans neither overlap nor touch, so a fact this span shares characters with
                        # can only lie whole inside this span, not another one.
                        if start <= fact_start and fact_end <= end:
                            whole.add(sections[i])
            self.touched.append(touched)
            self.whole.append(whole)
            self.unnamed.append(unnamed)
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
        for source in question.sources:
            own = touched.get(source, 0)
            if source in self.whole[index] and all(own > chars for section, chars in touched.items() if section != source):
                return True
        return False

    def mixes(self, index: int, section_id: str | None, also: tuple[str, ...] = ()) -> bool:
        """Does the chunk overlap facts of a section other than ``section_id`` (and the alternatives ``also``) that
        do not name their own section?

        A line that names its product ("Table Fan — Warranty: 1 year.") tells the bot whose it is."""
        if also:
            return any(section != section_id and section not in also for section in self.unnamed[index])
        return any(section != section_id for section in self.unnamed[index])

    def names_its_own(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` lie in a fact that names its own section?"""
        index = bisect.bisect_right(self._fact_starts, start) - 1
        return index >= 0 and end <= self._fact_ends[index] and self._fact_named[index]

    def products(self, index: int) -> int:
        return len(self.touched[index])


# The chunk maps of the last full run's cuts, by their chunk lists: the outputs file each piece under a section
# (``PieceSections``) by the same map the grading made, not one made again per cut (a sweep's JSON made 66). At most
# KEPT_PIECES pieces in all, so a big catalog's run holds no more than it did (one cut's map at a time).
_KEPT: dict[int, ChunkMap] = {}
KEPT_PIECES = 50_000


def keep_maps(maps: list[ChunkMap]) -> None:
    """Keep these maps (one run's cuts) for ``kept_map``, in place of the last run's."""
    kept = {id(chunk_map._chunks): chunk_map for chunk_map in maps}
    _KEPT.clear()
    _KEPT.update(kept)


def kept_map(document: Document, chunks: list[Chunk]) -> ChunkMap:
    """The map a run made of these very chunks of this very document, else a new one (the same)."""
    found = _KEPT.get(id(chunks))  # a kept map holds its chunks, so their id is not another list's
    if found is not None and found._chunks is chunks and found.document is document:
        return found
    return ChunkMap(document, chunks)


@dataclass
class Grade:
    grade: str
    reason: str = ""
    rank: int | None = None  # where the first chunk holding the answer stands (1 = top)
    relevant_ranks: list[int] = field(default_factory=list)


def top_kind(question: ResolvedQuestion, top: int, holders: list[int], chunk_map: ChunkMap) -> str:
    """The grade the bot's answer from the top piece earns: a false answer when the file cannot answer, clean or
    mixed when the top piece holds the answer (mixed when it also holds another product's or section's lines),
    else missed. ``grade`` says why a miss missed; a graded copy's trial reads the grade alone."""
    if question.section_id is None:
        return "false-answer"
    if top not in holders:
        return "missed"
    return "mixed" if chunk_map.mixes(top, question.section_id, question.also) else "clean"


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
        return Grade(top_kind(question, top, holders, chunk_map), rank=1, relevant_ranks=relevant)
    if question.answer_spans and _holds_words_elsewhere(chunks[top], question, chunk_map):
        reason = "decoy"
    elif first is None:
        reason = "split"
    else:
        reason = "ranked"
    return Grade("missed", reason=reason, rank=first, relevant_ranks=relevant)


def _holds_words_elsewhere(chunk: Chunk, question: ResolvedQuestion, chunk_map: ChunkMap) -> bool:
    """Does the chunk hold the answer's words outside the answer's own section (the wrong product's price), on a
    line that does not name its own product? "Table Fan — Warranty: 1 year." is no decoy for the Desk Fan."""
    document = chunk_map.document
    pattern = answer_pattern(question.question.expected_answer)
    sources = [document.section(section).span for section in question.sources]
    for start, end in chunk.spans:
        for match in pattern.finditer(document.text, start, end):
            if not any(a <= match.start() and match.end() <= b for a, b in sources):
                if not chunk_map.names_its_own(match.start(), match.end()):
                    return True
    return False
