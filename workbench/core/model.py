"""The records every part of the workbench shares.

Everything points into one canonical text by character offsets (spans), never
by copied strings, so a chunk, a fact and an answer can be compared exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.kinds import DocumentKind, kind_named

Span = tuple[int, int]
"""A half-open range ``[start, end)`` of the canonical text."""


class WorkbenchError(ValueError):
    """Bad input from the user: the message says what is wrong in plain words."""


@dataclass(frozen=True)
class Fact:
    """A non-blank, non-heading line of a section (for a spreadsheet: one cell)."""

    span: Span
    section_id: str
    column: str | None = None  # spreadsheets only: the column the cell came from
    row: int | None = None  # spreadsheets only: the row number as the user sees it


@dataclass(frozen=True)
class Section:
    """A heading and its own text, up to the next heading of any level.

    ``heading`` is empty for the preamble (text before the first heading).
    ``path`` holds the headings of its ancestors, outermost first.
    """

    id: str
    heading: str
    level: int
    path: tuple[str, ...]
    span: Span
    heading_span: Span  # the heading line(s); empty (start, start) for a preamble
    facts: tuple[Fact, ...]

    @property
    def title(self) -> str:
        return self.heading or "(text before the first heading)"

    @property
    def breadcrumb(self) -> str:
        return " > ".join([*self.path, self.title])


@dataclass(frozen=True)
class Document:
    """One canonical text (newlines normalised to ``\\n``) and its structure."""

    name: str
    kind: str  # "markdown" | "spreadsheet" | "base": its facts are ``form`` (``core/kinds.py``)
    text: str
    sections: tuple[Section, ...]
    warnings: tuple[str, ...] = ()
    encoding: str = "utf-8"
    columns: tuple[str, ...] = ()  # spreadsheets: the columns shown as facts
    name_column: str | None = None  # spreadsheets: the column holding product names
    converted_from: str = ""  # "docx" | "html" | "pdf": the text is that file converted to Markdown
    risky_links: tuple[str, ...] = ()  # html: javascript:/data: links in the source, which conversion drops
    files: tuple[FilePart, ...] = ()  # a knowledge base (kind "base"): its files, in order (read/base_of_files.py)

    @property
    def facts(self) -> list[Fact]:
        return [fact for section in self.sections for fact in section.facts]

    @property
    def form(self) -> DocumentKind:
        """What its kind says: its parts' name, whether it is a table, how its places read."""
        return kind_named(self.kind)

    def tables(self) -> list[Document]:
        """Its tables (spreadsheets): itself when it is one, a knowledge base's files that are."""
        return [part.document for part in self.files if part.document.form.table] if self.files \
            else [self] if self.form.table else []

    def section(self, section_id: str) -> Section:
        for section in self.sections:
            if section.id == section_id:
                return section
        raise KeyError(section_id)

    def slice(self, span: Span) -> str:
        return self.text[span[0] : span[1]]

    def file_at(self, offset: int) -> tuple[FilePart, int] | None:
        """In a knowledge base: the file an offset lies in and the offset in that file's own text; else None."""
        for part in self.files:
            if part.start <= offset < max(part.end, part.start + 1):
                return part, offset - part.start
        if self.files and offset >= self.files[-1].start:  # the very end of the last file
            return self.files[-1], offset - self.files[-1].start
        return None


@dataclass(frozen=True)
class FilePart:
    """One file of a knowledge base: its name, where its text sits in the base's text, and the file as read."""

    name: str
    start: int
    end: int
    document: Document
    number: int  # 1-based: the file's place in the base, which prefixes its section ids (f2.s4)


@dataclass(frozen=True)
class Chunk:
    """A piece of the document a retriever indexes.

    ``spans`` are the parts of the canonical text it covers, in order. Its
    ``text`` is ``prefix`` followed by those parts joined with ``\\n``; the
    prefix holds words that are not in the source (a breadcrumb, a product
    name), so it is never counted as covering anything.

    ``search`` is empty for most strategies: a search reads ``text``. A
    small-to-big chunk holds its small pieces there (a sentence or list item
    with its breadcrumb): a search reads those and scores the chunk by its best
    one, while the bot is handed ``text``, the whole section, and it is graded
    on that.
    """

    id: str
    strategy: str
    spans: tuple[Span, ...]
    text: str
    prefix: str = ""
    search: tuple[str, ...] = ()

    @property
    def start(self) -> int:
        return min(start for start, _ in self.spans)

    @property
    def body(self) -> str:
        return self.text[len(self.prefix) :]

    @property
    def size(self) -> int:
        return len(self.text)


def make_chunk(
    document: Document, strategy: str, index: int, spans: list[Span], prefix: str = "", search: tuple[str, ...] = ()
) -> Chunk:
    """Build a chunk whose text is read from the document at its spans."""
    body = "\n".join(document.slice(span) for span in spans)
    return Chunk(
        id=f"{strategy}-{index + 1}",
        strategy=strategy,
        spans=tuple(spans),
        text=prefix + body,
        prefix=prefix,
        search=tuple(search),
    )


def check_chunk(document: Document, chunk: Chunk) -> None:
    """Raise when a chunk's text is not what its spans say (offsets are checked, never trusted)."""
    if not chunk.spans:
        raise AssertionError(f"chunk {chunk.id} covers no text")
    for start, end in chunk.spans:
        if not 0 <= start < end <= len(document.text):
            raise AssertionError(f"chunk {chunk.id} has a span {start}-{end} outside the document")
    expected = chunk.prefix + "\n".join(document.slice(span) for span in chunk.spans)
    if chunk.text != expected:
        raise AssertionError(f"chunk {chunk.id}: its text does not match the document at its spans")


def merge_spans(spans: list[Span] | tuple[Span, ...]) -> list[Span]:
    """Sort spans and join the ones that overlap or touch."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def covers(spans: list[Span] | tuple[Span, ...], target: Span) -> bool:
    """True when the spans, taken together, hold every character of ``target``."""
    return any(start <= target[0] and target[1] <= end for start, end in merge_spans(spans))


def overlap(spans: list[Span] | tuple[Span, ...], target: Span) -> int:
    """How many characters of ``target`` the spans hold."""
    return sum(max(0, min(end, target[1]) - max(start, target[0])) for start, end in merge_spans(spans))


@dataclass
class Question:
    """A golden question: what a customer asks and where the answer lives."""

    question: str
    expected_source: str = ""
    expected_answer: str = ""
    kind: str = ""
    row: int | None = None  # the row of the questions file, as the user sees it
    generated: bool = False  # written by the app from the file's columns, and not yet edited or accepted by the owner

    @property
    def answerable(self) -> bool:
        return bool(self.expected_source.strip())


@dataclass
class ResolvedQuestion:
    """A question tied to the document: its section and where its answer sits."""

    question: Question
    section_id: str | None  # None for an unanswerable question
    answer_spans: tuple[Span, ...] = ()  # every place the answer sits in its source; empty for
    # "the source itself" (no expected answer) and for an unanswerable question
    also: tuple[str, ...] = ()  # other sections that answer it too ("A | B" in expected_source)

    @property
    def sources(self) -> tuple[str, ...]:
        """Every section that answers the question: its own and the alternatives."""
        return () if self.section_id is None else (self.section_id, *self.also)

    @property
    def answer_span(self) -> Span | None:
        return self.answer_spans[0] if self.answer_spans else None


@dataclass
class BadQuestion:
    """A golden question that cannot be graded, and why in plain words."""

    question: Question
    reason: str


@dataclass
class Settings:
    """What an evaluation was run with."""

    strategies: list[str]
    retrievers: list[str]
    rerankers: list[str]
    top_k: int = 5
    size: int | None = None
    overlap: int | None = None
    threshold: float | str | None = None  # a score, "auto" (calibrated on the questions), or None
    depth: int = 50
    reranker_model: str | None = None


class SameDocument:
    """A document keyed by identity, for a cache of work done once per document: hashing a Document would hash its whole text on every look-up."""

    __slots__ = ("document",)

    def __init__(self, document: Document) -> None:
        self.document = document

    def __hash__(self) -> int:
        return id(self.document)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SameDocument) and other.document is self.document
