"""Where something is in the user's own file: a spreadsheet's row and column, or a Markdown line.

The canonical text is built from the file, so its line numbers mean nothing in a
spreadsheet; every fact of a spreadsheet carries the row and column it came from.
"""

from __future__ import annotations

import bisect
import re
from array import array

from workbench.core.model import Document, Fact, Section, Span


class Places:
    """Names the place of any offset of one document, in the words of the user's file."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self._facts = sorted(document.facts, key=lambda fact: fact.span)
        self._starts = [fact.span[0] for fact in self._facts]
        self._sections = sorted(document.sections, key=lambda section: section.span[0])
        self._section_starts = [section.span[0] for section in self._sections]
        self._rows = {
            section.id: min((f.row for f in section.facts if f.row), default=None) for section in document.sections
        }
        self._newlines: array | None = None  # made on the first line asked for: a spreadsheet never needs it

    def fact_at(self, offset: int) -> Fact | None:
        """The fact whose own text holds ``offset``; None on a heading, a blank line or between facts.

        Never the fact before: a heading piece starts on its heading line, and crediting that offset to the
        previous fact named the previous product's last cell as the piece's place.
        """
        index = bisect.bisect_right(self._starts, offset) - 1
        if index >= 0 and self._facts[index].span[0] <= offset < self._facts[index].span[1]:
            return self._facts[index]
        return None

    def section_at(self, offset: int) -> Section | None:
        """The section ``offset`` lies in: the last one starting at or before it (its heading, its blank lines
        and the line break after its last line included)."""
        index = bisect.bisect_right(self._section_starts, offset) - 1
        return self._sections[index] if index >= 0 else None

    def line(self, offset: int) -> int:
        """The line ``offset`` lies on, counted from 1.

        The line breaks' offsets are found once and searched by halves: counting them from the start for each
        offset made a check-up quadratic in the headings (160,000 headings, still running after 9 minutes).
        """
        if self._newlines is None:
            self._newlines = line_breaks(self.document.text)
        return line_at(self._newlines, offset)

    def of(self, span: Span) -> str:
        """ "row 5, column Warranty" in a spreadsheet, "line 12" in a Markdown file; in a knowledge base the file
        first ("prices.csv row 5, column Warranty"), in that file's own rows and lines.

        In a spreadsheet an offset on no cell (a product's name line, a blank line) is placed at the first row of
        the product it lies in.
        """
        if self.document.files:
            return self._in_file(span, lambda places, own: places.of(own))
        if self.document.form.table:
            fact = self.fact_at(span[0])
            if fact is not None and fact.row:
                return f"row {fact.row}, column {fact.column}"
            section = self.section_at(span[0])
            row = self._rows.get(section.id) if section is not None else None
            if row:
                return f"row {row}"
        return f"line {self.line(span[0])}"

    def _in_file(self, span: Span, name) -> str:
        found = self.document.file_at(span[0])
        if found is None:
            return f"line {self.line(span[0])}"
        part, start = found
        if not hasattr(self, "_parts"):
            self._parts: dict[int, Places] = {}
        places = self._parts.setdefault(part.number, Places(part.document))
        return f"{part.name} {name(places, (start, start + span[1] - span[0]))}"

    def of_fact(self, fact: Fact) -> str:
        if self.document.files:
            return self._in_file(fact.span, lambda places, own: places.of(own))
        if fact.row:
            return f"row {fact.row}, column {fact.column}"
        return f"line {self.line(fact.span[0])}"


def line_breaks(text: str) -> array:
    """Every line break's offset, in order: made once per text, then ``line_at`` is a search by halves."""
    return array("q", (match.start() for match in re.finditer("\n", text)))


def line_at(breaks: array, offset: int) -> int:
    """The 1-based line of ``offset``: the line breaks before it, plus one (``text.count("\n", 0, offset) + 1``)."""
    return bisect.bisect_left(breaks, offset) + 1


def row_runs(rows: list[int], limit: int = 4) -> str:
    """ "rows 38–40, 97 and 154": a product's rows as runs of neighbours, so the range never takes in the
    rows of other products between them (variants of one product can sit far apart)."""
    rows = sorted(set(rows))
    runs: list[list[int]] = []
    for row in rows:
        if runs and row == runs[-1][-1] + 1:
            runs[-1].append(row)
        else:
            runs.append([row])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    return f"row{'s' if len(rows) > 1 else ''} {_and(parts, limit)}"


IN_FILE = re.compile(r"^(.+?) ((?:row|line)s? \d.*)$")  # a knowledge base's place: "prices.csv row 5, column X"


def join_places(places: list[str], limit: int = 6) -> str:
    """ "rows 2, 5 and 9 (column Warranty)" reads better than the same column named each time; in a knowledge
    base the places of one file are joined after its name ("prices.csv rows 2 and 5 (column Warranty)")."""
    if not places:
        return ""
    files = [IN_FILE.match(p) for p in places]
    if all(files) and any(not p.startswith(("row", "line")) for p in places):
        by_file: dict[str, list[str]] = {}
        for match in files:
            by_file.setdefault(match.group(1), []).append(match.group(2))
        return "; ".join(f"{name} {join_places(own, limit)}" for name, own in by_file.items())
    columns = {p.split(", column ", 1)[1] for p in places if ", column " in p}
    if len(columns) == 1 and all(", column " in p for p in places):
        rows = [p.split(", column ", 1)[0].removeprefix("row ") for p in places]
        return f"row{'s' if len(rows) > 1 else ''} {_and(rows, limit)} (column {columns.pop()})"
    if all(p.startswith("line ") for p in places):
        lines = [p.removeprefix("line ") for p in places]
        return f"line{'s' if len(lines) > 1 else ''} {_and(lines, limit)}"
    return "; ".join(places[:limit]) + (f"; and {len(places) - limit} more" if len(places) > limit else "")


def _and(items: list[str], limit: int) -> str:
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def join_names(names: list[str], limit: int = 8) -> str:
    """ "Aurora Ceiling Fan, Boreal Ceiling Fan and 3 more": a long list of products shortened to be read."""
    return _and(list(names), limit) if names else ""
