"""The rows under a header that are not products: a seller template's hint ("Число", "Не более 200 символов") and a
header's second row, which names the columns under a cell merged across them. Read by ``read.table.find_header``."""

from __future__ import annotations

from workbench.read.data_columns import NUMBER

PREAMBLE_ROWS = 10  # rows that hold anything, looked at for a header below a title (``read.table.find_header``)


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
