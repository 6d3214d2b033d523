"""Where a to-do item goes in the user's file: a section's place (a product's rows, a Markdown section's
lines, in a knowledge base the file first), its offsets, and one place as the command line's JSON carries it.
"""

from __future__ import annotations

import bisect
import functools

from workbench.core.model import Document, SameDocument, Section, Span
from workbench.grade.places import Places, line_at, line_breaks, row_runs


def section_place(document: Document, places: Places, section: Section | None) -> str:
    """A section's place in the user's file: a product's rows, a Markdown section's lines; in a knowledge base the
    file first, then the place in that file's own rows or lines."""
    if section is None:
        return ""
    if document.files:
        part, _ = document.file_at(section.span[0])
        own = part.document.section(section.id.split(".", 1)[1])  # base ids are "f2.s4": the file's own is "s4"
        return f"{part.name} {section_place(part.document, Places(part.document), own)}"
    if section.facts:
        first, last = places.of(section.facts[0].span), places.of(section.facts[-1].span)
        if document.form.table:
            return row_runs([f.row for f in section.facts if f.row])
        return first if first == last else f"{first}–{last.removeprefix('line ')}".replace("line ", "lines ", 1)
    return places.of(section.span)


def section_spans(document: Document, section: Section) -> list[Span]:
    """Where a section is, as offsets: a Markdown section's heading line (its first fact when it has none); a
    spreadsheet product's first cell on each of its rows."""
    if document.form.table:
        rows: dict[int | None, Span] = {}
        for fact in section.facts:
            rows.setdefault(fact.row, fact.span)
        return list(rows.values()) or [section.span]
    if section.heading_span[1] > section.heading_span[0]:
        return [section.heading_span]
    return [section.facts[0].span] if section.facts else [section.span]


@functools.lru_cache(maxsize=4)
def _section_starts(same: SameDocument) -> list[int]:
    """Where each section starts, made once per document, not once per place (200,000 sections)."""
    return [section.span[0] for section in same.document.sections]


@functools.lru_cache(maxsize=4)
def _line_breaks(same: SameDocument):
    """The text's line breaks, found once per document, not counted from the start for each place."""
    return line_breaks(same.document.text)


def place_record(document: Document, span: Span) -> dict:
    """One place as the JSON carries it: the product or heading it lies in, and a spreadsheet's row and column
    (the file's own: header = row 1) or a Markdown file's 1-based line; null where it does not apply."""
    offset = span[0]
    found = document.file_at(offset) if document.files else None
    if found is not None:  # a knowledge base: the file, then the place in its own rows or lines
        part, own = found
        return {"file": part.name} | place_record(part.document, (own, own + span[1] - span[0]))
    index = bisect.bisect_right(_section_starts(SameDocument(document)), offset) - 1
    section = document.sections[max(index, 0)] if document.sections else None
    record = {"section": (section.heading or None) if section else None, "row": None, "column": None, "line": None}
    if document.form.table:
        fact = next((f for f in section.facts if f.span[0] <= offset < f.span[1]), None) if section else None
        if fact is not None:
            record["row"], record["column"] = fact.row, fact.column
        elif section is not None and any(f.row for f in section.facts):  # the product's name: its first row
            record["row"] = min(f.row for f in section.facts if f.row)
    else:
        record["line"] = line_at(_line_breaks(SameDocument(document)), offset)
    return record
