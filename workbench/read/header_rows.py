"""Where a CSV file's or an Excel sheet's header is, among its first rows that hold anything: the first row, or a
later one below a title (``table.header_position``), and a seller template's hint row under it, left out with a
warning that says so. Both readers ask here, so a file reads the same whichever format it came in."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from workbench.read.data_columns import NUMBER
from workbench.read.table import PREAMBLE_ROWS, field_keys, header_position


def first_filled(records: Iterable[list[str]], count: int = PREAMBLE_ROWS) -> list[tuple[int, list[str]]]:
    """The first ``count`` rows that hold anything, as (row number from 1, cells): where a header is looked for, in
    a CSV file, an Excel sheet or the sample read to find a CSV's delimiter alike."""
    rows = ((number, record) for number, record in enumerate(records, start=1) if any(record))
    return list(itertools.islice(rows, count))


def template_hint(rows: list[list[str]]) -> bool:
    """Whether the first row under a header found below a title says what to write in each column (Ozon's
    "Число", "Не более 200 символов"), not a product: it holds a word, and no number, in a column whose cells in
    the next rows are numbers (three or more, all of them)."""
    if len(rows) < 4:
        return False
    first, later = rows[0], rows[1:PREAMBLE_ROWS + 1]
    worded = False
    for column, cell in enumerate(first):
        below = [row[column] for row in later if column < len(row) and row[column]]
        if len(below) < 3 or not all(NUMBER.match(value) for value in below) or not cell:
            continue
        if NUMBER.match(cell):
            return False
        worded = True
    return worded


@dataclass(frozen=True)
class HeaderFound:
    """Where a sheet's header is among its rows that hold anything (``index``: 0 unless below a title), the row
    under it that is a template's hint, left out (``hint_row``, the file's number; None when there is none), and
    the warning that says so (None for a header in the first row)."""

    index: int
    hint_row: int | None = None
    warning: str | None = None


def find_header(filled: list[tuple[int, list[str]]], name: str) -> HeaderFound:
    """The header of a CSV file or an Excel sheet, read from its rows that hold anything, as (row number, cells):
    the first 2 * PREAMBLE_ROWS + 1 of them are enough. Blank rows are skipped here as everywhere else in a table:
    a blank row under the header, then a template's hint, is the same file as the hint right under it, and the hint
    is looked for in the same ten rows below it whatever blank rows sit among them."""
    position = header_position([record for _, record in filled[:PREAMBLE_ROWS]])
    if not position:
        return HeaderFound(0)
    hint = template_hint([record for _, record in filled[position + 1:position + 2 + PREAMBLE_ROWS]])
    hint_row = filled[position + 1][0] if hint else None
    return HeaderFound(position, hint_row, preamble_warning(name, filled[position][0], filled[0][1], hint_row))


def preamble_warning(name: str, header_row: int, first: list[str], hint_row: int | None = None) -> str:
    """Says that the rows above a header found below a title were left out, naming the first, and the row under
    it (``hint_row``, past any blank rows) when it was a template's hint (``template_hint``)."""
    title = next(cell for cell in first if cell)
    under = f", and row {hint_row} under it, which says what to write in each column," if hint_row else ""
    above = "the fields' codes for the shop's system" if field_keys(first) else "a title or instructions"
    # Quoted as the other warnings quote the shop's text; repr's 'Preisliste …' stood beside them in Python's quotes.
    return (f"The header of {name} is row {header_row}: the rows above it ({above}, first "
            f"“{title[:60]}”){under} were left out.")
