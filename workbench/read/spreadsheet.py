"""Spreadsheets (CSV, XLSX): one section per product, one fact per non-empty cell.

The two loaders, and reading a CSV file into a ``Table``. An Excel file is read in ``excel`` (its sheet is
chosen there); a ``Table`` becomes the Document in ``table`` (the product-name column, variant rows, the
Markdown text).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import PurePath

from workbench.core import limits
from workbench.core.limits import Budget
from workbench.core.model import Document, WorkbenchError
from workbench.core.wording import plural, verb
from workbench.read.base import LOADERS, Loader
from workbench.read.excel import read_xlsx
from workbench.read.table import Table, clean_cell, table_to_document
from workbench.read.textio import decode_text


@LOADERS.register("csv")
class CsvLoader(Loader):
    order = 20
    kind = "spreadsheet"
    extensions = (".csv", ".tsv")

    def load(self, data: bytes, name: str, *, name_column: str | None = None, **_options: object) -> Document:
        return table_to_document(read_csv(data, name), name, name_column)


@LOADERS.register("xlsx")
class XlsxLoader(Loader):
    order = 30
    kind = "spreadsheet"
    extensions = (".xlsx", ".xlsm")

    def load(
        self, data: bytes, name: str, *, sheet: str | None = None, name_column: str | None = None, **_options: object
    ) -> Document:
        return table_to_document(read_xlsx(data, name, sheet), name, name_column)


DELIMITERS = ",;\t|"


def sniff_delimiter(text: str, lines: int = 50) -> str:
    """The delimiter that splits the first lines into the same number of cells most often (ties: most cells).

    Linear in the sample: ``csv.Sniffer`` tries every quote and delimiter pattern and took 17 s on a
    20 KB file. Quoted delimiters are counted too; they rarely agree from line to line, so they rarely win.
    """
    sample = [line for line in text[:65536].split("\n")[:lines] if line.strip()]
    best, best_key = ",", (0, 0)
    for delimiter in DELIMITERS:
        counts = Counter(line.count(delimiter) for line in sample)
        counts.pop(0, None)
        if not counts:
            continue
        cells, agreeing = max(counts.items(), key=lambda item: (item[1], item[0]))
        if (agreeing, cells) > best_key:
            best, best_key = delimiter, (agreeing, cells)
    return best


def read_csv(data: bytes, name: str) -> Table:
    text, encoding, warnings = decode_text(data, name)
    delimiter = sniff_delimiter(text)
    budget = Budget(name)
    records = []
    # A long product description is one cell: the csv module's 131,072-character default would refuse it,
    # though the file is within the workbench's limits. The whole text is the bound.
    limits.allow_long_cells()
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    plain = '"' not in text and "\r" not in text  # no cell can hold a line break: clean_cell is a strip
    runaway: tuple[int, int] | None = None  # (row, physical lines) of the first cell that swallowed rows
    width: int | None = None  # the header's cells: what a swallowed row splits into
    try:
        line = 0
        for record in reader:  # counted as read: a file of nothing but commas is millions of cells
            budget.row(len(record), 0, len(record) - record.count(""))
            spanned = reader.line_num - line
            if width is None and any(record):
                width = len(record)
            elif runaway is None and spanned > 2 and any(_swallowed_rows(cell, delimiter, width) for cell in record):
                runaway = (len(records) + 1, spanned - 1)
            line = reader.line_num
            records.append([cell.strip() for cell in record] if plain else [clean_cell(cell) for cell in record])
    except csv.Error as error:
        raise WorkbenchError(f"{name}, line {reader.line_num + 1}, is not readable CSV: {error}.") from None
    if runaway is not None:
        row, swallowed = runaway
        warnings.append(
            f"Row {row} of {name} opens a quote (\") that is closed only {plural(swallowed, 'line')} later, or never: "
            f"{verb(swallowed, 'that line was', f'those {swallowed:,} lines were')} read as one cell of row {row}. Check the quote marks in row {row}; a quote "
            "inside a cell is written twice (\"\")."
        )
    header_index = next((i for i, record in enumerate(records) if any(record)), None)
    if header_index is None:
        raise WorkbenchError(f"{name} has no header row: every row is empty.")
    header = records[header_index]
    rows = [(number + 1, record) for number, record in enumerate(records) if number > header_index]
    return Table(PurePath(name).stem, header, rows, encoding, tuple(warnings))


def _swallowed_rows(cell: str, delimiter: str, width: int | None) -> bool:
    """A cell whose lines look like rows of the file (two or more that split into as many cells as the header
    has): a stray quote's work. A description's own lines hold commas too, but seldom exactly a row's worth."""
    if "\n" not in cell or not width or width < 2:
        return False
    rows = sum(1 for line in cell.split("\n") if line.count(delimiter) >= width - 1
               and len(next(csv.reader([line], delimiter=delimiter), [])) == width)
    return rows >= 2
