"""A header found below a title, and a seller template's hint row under it, read the same from a CSV file and an
Excel sheet (``read.header_rows.find_header``): blank rows are skipped, so blank rows between the header and the hint, or
between the hint and the products, change neither which row is the hint nor whether it is one."""

from __future__ import annotations

import io

import openpyxl
import pytest

from workbench.read.loaders import load_bytes

TITLE = [["Price list template"], ["Fill in one row per product"]]
HEADER = ["Name", "Price", "Colour"]
HINT = ["Up to 200 characters", "Number", "One word"]
PRODUCTS = [[f"Teapot {i}", str(10 + i), "red"] for i in range(1, 6)]


def _csv(rows: list[list[str]]) -> bytes:
    return "".join(",".join(row) + "\n" for row in rows).encode("utf-8")


def _xlsx(rows: list[list[str]]) -> bytes:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)  # [] is a blank row: the next one is numbered past it
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _load(kind: str, rows: list[list[str]]):
    return load_bytes(_csv(rows) if kind == "csv" else _xlsx(rows), f"template.{kind}")


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
@pytest.mark.parametrize("blanks", [0, 1, 8])
def test_blank_rows_under_the_header_leave_the_hint_row_found_and_named(kind, blanks):
    # Rows 1-2 the title, row 3 the header, then ``blanks`` blank rows, the hint, the five products. With eight
    # blank rows a CSV looked for the hint in the eleven rows under the header, blank ones included: the hint and
    # two products, too few to tell, so the hint was read as a product "Up to 200 characters"; the sheet, which
    # counted only rows that hold something, found it.
    document = _load(kind, [*TITLE, HEADER, *[[]] * blanks, HINT, *PRODUCTS])
    assert [section.heading for section in document.sections[1:]] == [f"Teapot {i}" for i in range(1, 6)]
    hint_row = 4 + blanks
    assert document.warnings[0] == (
        f"The header of template.{kind} is row 3: the rows above it (a title or instructions, first “Price list "
        f"template”), and row {hint_row} under it, which says what to write in each column, were left out.")
    # the products keep their own rows: Teapot 1 is the row after the hint
    assert [fact.row for fact in document.sections[1].facts] == [hint_row + 1, hint_row + 1]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_blank_row_under_the_header_changes_nothing_about_the_hint(kind):
    # Ten products under the hint, the tenth priced "on request": the Price column is not numbers all the way
    # down the ten rows under the hint, so "Number" is no sure hint, and the row is read as written. A CSV with a
    # blank row under its header looked at the hint and nine products only, and left the hint row out.
    products = [[f"Teapot {i}", str(10 + i), "red"] for i in range(1, 10)] + [["Teapot 10", "on request", "red"]]
    read = {blanks: _load(kind, [*TITLE, HEADER, *[[]] * blanks, HINT, *products]) for blanks in (0, 1)}
    headings = [[section.heading for section in read[blanks].sections[1:]] for blanks in (0, 1)]
    assert headings[0] == headings[1] == ["Up to 200 characters", *[f"Teapot {i}" for i in range(1, 11)]]
    assert "under it" not in read[1].warnings[0]
