"""A to-do item's edit of the file, made concrete: words inserted at one place of the document, never removed.

An ``Edit`` is what the fixes are made of: the to-do measures each item by applying its edits to a copy of the
document (``apply``) and grading the copy again (``advise/proof.py``); ``output/fixed_file.py`` writes the same
edits into a copy of the user's own file (a CSV cell, an Excel cell, a Markdown line). Only insertions exist, so
every original cell's text stays inside its cell, and the text less the inserted words is the text as it was.

Spreadsheets take words only at the end of a cell (``data_columns`` decides which cells may take any); a
document's text takes them at a line's end, inside a sentence before its full stop, as a new line after a line,
or as a new heading line before it.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

from workbench.advise.rewrite import DASH, MODEL_CHARACTERS, _label, _parts
from workbench.core.model import Document, Fact, Section, Span
from workbench.core.quoting import FULL_WIDTH_STOPS, STOPS, plain
from workbench.read.markdown import parse_markdown


@dataclass(frozen=True)
class Edit:
    """``text`` inserted at offset ``at`` of the document's text. On a spreadsheet ``at`` is the end of the
    cell (``row``, ``column``) it is appended to; in a document, ``line`` is the 1-based line it goes on (or
    before, for a heading)."""

    at: int
    text: str
    row: int | None = None
    column: str | None = None
    line: int | None = None


def line_number(document: Document, offset: int) -> int:
    return document.text.count("\n", 0, offset) + 1


def append_to_cell(fact: Fact, text: str) -> Edit:
    """Words at the end of a spreadsheet cell."""
    return Edit(fact.span[1], text, row=fact.row, column=fact.column)


def append_to_line(document: Document, fact: Fact, text: str) -> Edit:
    """Words at the end of a document's line (its stripped end, so a Markdown line break stays at the end)."""
    if fact.column is not None:
        return append_to_cell(fact, text)
    return Edit(fact.span[1], text, line=line_number(document, fact.span[0]))


def line_after(document: Document, fact: Fact, text: str) -> Edit:
    """A new line right after the line of ``fact``."""
    end = document.text.find("\n", fact.span[1])
    end = len(document.text) if end < 0 else end
    return Edit(end, "\n" + text, line=line_number(document, fact.span[0]) + 1)


def before_stop(document: Document, start: int, limit: int, text: str) -> Edit:
    """Words inside the sentence that holds ``start``: before the first full stop (or ! ?, or "。") at or after ``start``
    that ends a sentence (``limit``, a capital, or a space and a digit come next, a closing quote or bracket
    aside: "2.5 kg" and "e.g. a" go on), else at ``limit``, the end of its paragraph. A line of their own would
    be a piece of their own wherever a cut reads sentences or lines (small-to-big): short, with its section's
    heading words, it thins those words' weight for every other piece; and put after a line that the paragraph
    wraps, it cuts a sentence, and maybe another question's answer, in two. When the text before ``start`` ends
    with the stop (an answer quoted with its full stop), right after it: before it would cut that answer."""
    at = start if 0 < start and document.text[start - 1] in STOPS else limit
    for index in range(start, at):
        if document.text[index] not in STOPS:
            continue
        if document.text[index] in FULL_WIDTH_STOPS:  # "。" always ends a sentence: no capital follows in Japanese
            at = index
            break
        after = document.text[index + 1 : limit].lstrip("\"')]")
        word = after.lstrip()
        if not word or word[0].isupper() or (word[0].isdigit() and word != after):
            at = index
            break
    return Edit(at, text, line=line_number(document, at))


def as_read(document: Document, edit: Edit) -> str:
    """An edit inside a line as the owner will read it: the line's last words before it (at most 60 characters,
    from a whole word), the words, the stop after them."""
    text = document.text
    line = text.rfind("\n", 0, edit.at) + 1
    # The line read as words first (a link as its words, ``plain``), then its last 60 characters: cut from the
    # raw text, a link's address filled the quote.
    before = plain(text[line : edit.at])
    if len(before) > 60:  # from a whole word, and marked as cut
        before = "… " + before[-60:].split(" ", 1)[-1]
    stop = text[edit.at] if edit.at < len(text) and text[edit.at] in STOPS else ""
    return f"{before}{edit.text}{stop}"


def line_before(document: Document, offset: int, text: str) -> Edit:
    """A new line (a heading) before the line holding ``offset``, followed by a blank line."""
    start = document.text.rfind("\n", 0, offset) + 1
    return Edit(start, text + "\n\n", line=line_number(document, start))


def inserted(text: str, edits: list[Edit]) -> str:
    """``text`` with each edit's words inserted at its offset (offsets of the text as it was)."""
    parts, last = [], 0
    for edit in sorted(edits, key=lambda e: e.at):
        parts += [text[last : edit.at], edit.text]
        last = edit.at
    return "".join(parts) + text[last:]


def apply(document: Document, edits: list[Edit]) -> Document:
    """A copy of ``document`` with ``edits`` made: a spreadsheet's facts grow in place (their product, row and
    column stay as they are); a document's text is read again, as its loader reads Markdown."""
    if not edits:
        return document
    text = inserted(document.text, edits)
    if not document.form.table:
        parsed = parse_markdown(text, document.name, encoding=document.encoding, warnings=list(document.warnings))
        return replace(parsed, kind=document.kind, converted_from=document.converted_from,
                       risky_links=document.risky_links)
    inserts = _Inserts(sorted((edit.at, len(edit.text)) for edit in edits))
    return replace(document, text=text, sections=tuple(_shift_section(s, inserts) for s in document.sections))


class _Inserts:
    """Where text goes in and how much, sorted, with the characters inserted before each place added up: a graded
    copy of a spreadsheet shifts every cell after its first insertion (thousands of spans per copy)."""

    def __init__(self, inserts: list[tuple[int, int]]) -> None:
        self.at = [at for at, _ in inserts]
        self.before = [0]  # before[k]: the characters the first k insertions add
        for _, length in inserts:
            self.before.append(self.before[-1] + length)

    def shift(self, span: Span) -> Span:
        """A span after the insertions: text inserted before its start moves it, text inserted at or before its end
        (a cell's words appended at its end) makes it longer. An empty span moves as a point."""
        start, end = span
        moved = start + self.before[bisect.bisect_left(self.at, start)]
        if end == start:
            return moved, moved
        return moved, end + self.before[bisect.bisect_right(self.at, end)]


def _shift_section(section: Section, inserts: _Inserts) -> Section:
    # sorted: a section wholly before the first insertion is the section as it was
    if max(section.span[1], section.heading_span[1], *(f.span[1] for f in section.facts)) < inserts.at[0]:
        return section
    shift = inserts.shift
    return replace(section, span=shift(section.span), heading_span=shift(section.heading_span),
                   facts=tuple(Fact(shift(f.span), f.section_id, f.column, f.row) for f in section.facts))


def split_section(document: Document, section: Section, limit: int | None = None) -> list[Edit]:
    """Subheadings that split a long section into parts the model reads whole, as the bot-ready copy splits it
    (``rewrite``: at blank lines first, never inside a code block; each part headed by its own first line)."""
    if document.form.table or not section.heading:
        return []
    start = section.heading_span[1]
    lines, offsets, at = [], [], start
    for line in document.text[start : section.span[1]].split("\n"):
        lines.append(line)
        offsets.append(at)
        at += len(line) + 1
    while lines and not lines[0].strip():
        lines.pop(0)
        offsets.pop(0)
    parts = _parts(lines, limit or MODEL_CHARACTERS)
    edits, cursor = [], 0
    level = "#" * min(section.level + 1, 6)
    for number, part in enumerate(parts):
        first = next((line for line in part if line.strip()), None)
        if first is None:
            continue
        while cursor < len(lines) and lines[cursor] != first:
            cursor += 1
        if cursor == len(lines):
            break
        if number:
            heading = f"{level} {section.heading}{DASH}{_label(part, section.heading)}"
            edits.append(line_before(document, offsets[cursor], heading))
        cursor += 1
    return edits
