"""Where a CSV file's or an Excel sheet's header is, among its first rows that hold anything: the first row, or a
later one below a title (``table.header_position``); and the row under it that is no product: a seller template's
hint ("Число", "Не более 200 символов"), left out, or the header's second row, naming the columns under a cell merged
across them, joined to it; each said in a warning. Both readers ask here, so a file reads the same whichever format
it came in."""

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
    header: list[str] | None = None  # the header read with its second row (``two_row_header``), None when one row


def find_header(filled: list[tuple[int, list[str]]], name: str) -> HeaderFound:
    """The header of a CSV file or an Excel sheet, read from its rows that hold anything, as (row number, cells):
    the first 2 * PREAMBLE_ROWS + 1 of them are enough. Blank rows are skipped here as everywhere else in a table:
    a blank row under the header, then a template's hint, is the same file as the hint right under it, and the hint
    is looked for in the same ten rows below it whatever blank rows sit among them."""
    position = header_position([record for _, record in filled[:PREAMBLE_ROWS]])
    hint = template_hint([record for _, record in filled[position + 1:position + 2 + PREAMBLE_ROWS]])
    joined = two_row_header(filled[position][1], filled[position + 1][1]) if hint else None
    if not position and joined is None:
        return HeaderFound(0)
    hint_row = filled[position + 1][0] if hint else None
    warning = preamble_warning(name, filled[position][0], filled[0][1], None if joined else hint_row) if position else ""
    if joined is not None:  # said as the other warnings quote the shop's text
        named = next(both for both, top in zip(joined, filled[position][1] + [""] * len(joined)) if both != top)
        warning += (" " if warning else "") + (f"Row {hint_row} of {name} is its header's second row: a column under "
                                               f"a cell merged across several is named by both rows (“{named}”).")
    return HeaderFound(position, hint_row, warning, joined)


def preamble_warning(name: str, header_row: int, first: list[str], hint_row: int | None = None) -> str:
    """Says that the rows above a header found below a title were left out, naming the first, and the row under
    it (``hint_row``, past any blank rows) when it was a template's hint (``template_hint``)."""
    title = next(cell for cell in first if cell)
    under = f", and row {hint_row} under it, which says what to write in each column," if hint_row else ""
    above = "the fields' codes for the shop's system" if field_keys(first) else "a title or instructions"
    # Quoted as the other warnings quote the shop's text; repr's 'Preisliste …' stood beside them in Python's quotes.
    return (f"The header of {name} is row {header_row}: the rows above it ({above}, first "
            f"“{title[:60]}”){under} were left out.")


def two_row_header(header: list[str], under: list[str]) -> list[str] | None:
    """The header read with the row under it, when that row is its second row: it names a column the header leaves
    blank, right of a named one, as a cell merged across two columns leaves the second blank ("দাম (টাকা)" over
    "খুচরা" and "পাইকারি (১০ কেজির বেশি)": "দাম (টাকা) খুচরা", "দাম (টাকা) পাইকারি (১০ কেজির বেশি)"). A column named
    in one row only keeps that name (a cell merged down both rows, "পণ্যের নাম"). None when the row names no such
    column: a template's hint fills the cells under a named header, as a product's row does (blind45: the second
    row was left out as a hint, the wholesale prices read as "Column 5")."""
    width = max(len(header), len(under))
    header, under = header + [""] * (width - len(header)), under + [""] * (width - len(under))
    if not any(under[index] and not header[index] and any(header[:index]) for index in range(width)):
        return None
    joined, group = [], ""
    for top, sub in zip(header, under):
        group = top or (group if sub else "")
        joined.append(" ".join(part for part in (top or group, sub) if part) if sub else top)
    return joined
