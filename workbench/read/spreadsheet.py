"""Spreadsheets (CSV, XLSX): one section per product, one fact per non-empty cell.

The two loaders, and reading a CSV file into a ``Table``. An Excel file is read in ``excel`` (its sheet is
chosen there); a ``Table`` becomes the Document in ``table`` (the product-name column, variant rows, the
Markdown text).
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from pathlib import PurePath

from workbench.core import limits
from workbench.core.limits import Budget
from workbench.core.model import Document, WorkbenchError
from workbench.core.wording import plural, rows_named, verb
from workbench.read.base import LOADERS, Loader
from workbench.read.excel import read_xlsx
from workbench.read.header_rows import find_header, first_filled
from workbench.read.table import (
    PREAMBLE_ROWS,
    Table,
    clean_cell,
    header_position,
    table_to_document,
)
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
BY_EXTENSION = {".tsv": "\t"}  # what a file's name says its delimiter is, when the rows leave it open
SNIFF_CHARACTERS = 65536
SNIFF_RECORDS = 50


def sniff_delimiter(text: str, name: str = "", records: int = SNIFF_RECORDS) -> str:
    """The delimiter under which the file's first records have as many cells as its header, read as the csv module
    reads them (quoted cells whole, with their own delimiters and line breaks).

    Among the delimiters that split the header into two cells or more: the most records agreeing with it, then the
    delimiter the file's extension names (``.tsv``: a tab), then the most cells, then the order of ``DELIMITERS``.
    When none splits the header the file has one column, read whole with a delimiter found nowhere in it: a
    delimiter that split some rows would only drop their cells past the header. Linear in the sample: one pass of
    the csv module per candidate over at most 64 KB (``csv.Sniffer`` tries every quote and delimiter pattern and
    took 17 s on a 20 KB file). Counting raw delimiter characters per line read a quoted catalog, whose descriptions
    held commas and the odd semicolon, as split by semicolons: one heading per product and nothing under them.
    """
    sample = text[:SNIFF_CHARACTERS]
    preferred = BY_EXTENSION.get(PurePath(name).suffix.lower())
    best, best_key = None, None
    for delimiter in DELIMITERS:
        widths = _widths(sample, delimiter, records, cut=len(text) > len(sample))
        if not widths or widths[0] < 2:
            continue
        key = (sum(1 for width in widths if width == widths[0]), delimiter == preferred, widths[0])
        if best_key is None or key > best_key:
            best, best_key = delimiter, key
    if best is None:
        best = _below_title(sample)
    if best is None:
        candidates = itertools.chain((preferred or "",), DELIMITERS, map(chr, itertools.count(0xE000)))
        best = next(candidate for candidate in candidates if candidate and candidate not in text)
    return best


def _below_title(sample: str) -> str | None:
    """The delimiter that splits a header found below a title line (``header_position``: "Mis publicaciones -
    Exportado el 07/12/2026", then "Título;Precio;Stock") into the most cells; None when no delimiter finds one, and
    the file is one column as before."""
    best, best_width = None, 1
    for delimiter in DELIMITERS:
        records = [record for _, record in first_filled(_stripped_records(sample, delimiter))]
        position = header_position(records)
        width = sum(1 for cell in records[position] if cell) if position else 0
        if width > best_width:
            best, best_width = delimiter, width
    return best


def _stripped_records(sample: str, delimiter: str):
    """The sample's records, each cell stripped, up to a NUL or a stray quote that stops the csv module (the records
    read so far still count)."""
    try:
        for record in csv.reader(io.StringIO(sample), delimiter=delimiter):
            yield [cell.strip() for cell in record]
    except csv.Error:
        return


def _widths(sample: str, delimiter: str, records: int, cut: bool) -> list[int]:
    """The number of cells of each of the first ``records`` non-empty records, from the header on (trailing empty
    cells past the header's width are no cells: some exporters end every row with a delimiter)."""
    widths: list[int] = []
    reader = csv.reader(io.StringIO(sample), delimiter=delimiter)
    try:
        for record in reader:
            if not any(cell.strip() for cell in record):
                continue
            while widths and len(record) > widths[0] and not record[-1].strip():
                record.pop()
            widths.append(len(record))
            if len(widths) > records:
                return widths[:records]
    except csv.Error:  # a NUL or a stray quote at the sample's end: the records read so far still count
        return widths
    return widths[:-1] if cut and len(widths) > 1 else widths  # the sample's last record may be cut short


def read_csv(data: bytes, name: str) -> Table:
    text, encoding, warnings = decode_text(data, name)
    return read_csv_text(text, name, encoding, warnings)


def tab_table(text: str) -> bool:
    """Whether a text file is a table with tabs between its cells, as Excel saves "Unicode text" and "Text (tab
    delimited)" (a .txt file): a header of two cells or more, each named, and most of the records below as wide."""
    sample = text[:SNIFF_CHARACTERS]
    widths = _widths(sample, "\t", SNIFF_RECORDS, cut=len(text) > len(sample))
    if len(widths) < 2 or widths[0] < 2:
        return False
    header = next(csv.reader(io.StringIO(sample.lstrip("\n").split("\n", 1)[0]), delimiter="\t"), [])
    same = sum(1 for width in widths[1:] if width == widths[0])
    return all(cell.strip() for cell in header) and same * 2 > len(widths) - 1


# Nothing but separators and quotes between empty cells: a sheet saved from an empty Excel range.
ONLY_EMPTY_CELLS = re.compile(r'[\s,;|"]*')


def read_csv_text(text: str, name: str, encoding: str, warnings: list[str], delimiter: str | None = None) -> Table:
    """A decoded CSV (or tab-separated text) as a Table: ``delimiter`` found from the rows when not given."""
    if ONLY_EMPTY_CELLS.fullmatch(text):  # read, ",,," was one column called ",,,", offered as the product name
        raise WorkbenchError(f"{name} is empty: its rows hold only empty cells, there is nothing to read.")
    delimiter = delimiter or sniff_delimiter(text, name)
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
    filled = first_filled(records, 2 * PREAMBLE_ROWS + 1)
    if not filled:
        raise WorkbenchError(f"{name} has no header row: every row is empty.")
    found = find_header(filled, name)
    if found.warning:
        warnings.append(found.warning)
    header_index = filled[found.index][0] - 1
    header = found.header or records[header_index]
    rows = [(number + 1, record) for number, record in enumerate(records)
            if number > header_index and number + 1 != found.hint_row]
    if delimiter == ",":
        mended = mend_decimal_commas(rows, len(header))
        if mended:
            warnings.append(
                f"{rows_named(mended)} of {name} {verb(len(mended), 'holds', 'hold')} a number written with a decimal "
                "comma in a file whose cells are split by commas (\"6,50\" is two cells there); "
                f"{verb(len(mended), 'it was', 'they were')} read as one number. Put such numbers in quotes, or save "
                "the file with semicolons between its cells.")
    shape = _shape_warning(name, header, [record for _, record in rows[:SNIFF_RECORDS] if any(record)])
    if shape:
        warnings.append(shape)
    return Table(PurePath(name).stem, header, rows, encoding, tuple(warnings), header_index + 1)


# A price cut in two by its decimal comma in a comma-separated row: "6" (or "€ 6", "1.299") and "50" (or "50 €").
WHOLE_PART = re.compile(r"^(?:[^\w\s]{1,2}\s?|[A-Z]{3}\s|[A-Za-z]{1,2}\$\s?)?\d{1,3}(?:[. ]\d{3})*$")
DECIMAL_PART = re.compile(r"^\d{1,2}(?:\s?(?:[^\w\s]{1,2}|[^\W\d_]{1,3}))?$")


def mend_decimal_commas(rows: list[tuple[int, list[str]]], width: int) -> list[int]:
    """Join the cells a decimal comma split ("6", "50" -> "6,50") in each row that is wider than the header by as
    many such pairs as it holds, so the row fits its columns again; the rows mended. A row wider for another reason
    is left as it is (``table`` says its extra cells were left out). The fixed copy mends the same rows
    (``output.fixed_file``), so an edit's column is the one read."""
    mended = []
    for index, (number, record) in enumerate(rows):
        cells = list(record)
        while len(cells) > width and not cells[-1]:
            cells.pop()  # an exporter's trailing delimiter
        extra = len(cells) - width
        if extra <= 0:
            continue
        pairs = [i for i in range(len(cells) - 1)
                 if WHOLE_PART.match(cells[i].strip()) and DECIMAL_PART.match(cells[i + 1].strip())]
        chosen: list[int] = []
        for i in pairs:  # pairs that do not overlap, from the left
            if not chosen or i > chosen[-1] + 1:
                chosen.append(i)
        if len(chosen) != extra:
            continue
        for i in reversed(chosen):
            cells[i : i + 2] = [f"{cells[i]},{cells[i + 1]}"]
        rows[index] = (number, cells)
        mended.append(number)
    return mended


DELIMITER_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "bars (|)"}


def _shape_warning(name: str, header: list[str], rows: list[list[str]]) -> str | None:
    """Why most rows are one cell, when they are: a list of names, or a title line above the column names (told by
    the rows' own delimiter, which the title lacks, or which splits the title otherwise)."""
    single = [record[0] for record in rows if len(record) == 1]
    if not single or (len(header) > 1 and len(single) * 2 <= len(rows)):
        return None
    held = max(DELIMITERS, key=lambda candidate: sum(1 for line in single if candidate in line))
    if sum(1 for line in single if held in line) * 2 > len(single):
        first = f"{header[0]!r}" if len(header) == 1 else f"starting {header[0]!r}"
        return (f"{name} was read as one column: its first row, {first}, is not split as most rows below it, which "
                f"hold {DELIMITER_NAMES[held]}. If that row is a title above the column names, delete it and save the "
                "file again.")
    if len(header) > 1:
        return None
    return (f"{name} was read as one column: no comma, semicolon, tab or bar (|) splits its first row into cells. "
            "If it has columns, save it again as CSV with commas between them.")


def _swallowed_rows(cell: str, delimiter: str, width: int | None) -> bool:
    """A cell whose lines look like rows of the file (two or more that split into as many cells as the header
    has): a stray quote's work. A description's own lines hold commas too, but seldom exactly a row's worth."""
    if "\n" not in cell or not width or width < 2:
        return False
    rows = sum(1 for line in cell.split("\n") if line.count(delimiter) >= width - 1
               and len(next(csv.reader([line], delimiter=delimiter), [])) == width)
    return rows >= 2
