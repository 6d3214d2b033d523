"""The user's own file with the advised edits made: a CSV stays a CSV (its delimiter, encoding, header, column
order and line ends), a workbook keeps its sheets, a Markdown file stays Markdown.

The edits (``advise/edits.py``) only insert words: every original cell's text stays inside its cell, and the
file less the inserted words is the file as it was (a line may take words inside it, before a sentence's stop).
A spreadsheet's edit names its row and column, and its words are appended to that cell of the file as written;
a document's edits are made in its text at their offsets.
"""

from __future__ import annotations

import codecs
import csv
import io
from pathlib import PurePath

from workbench.advise.edits import Edit, inserted
from workbench.core import limits
from workbench.core.model import Document, WorkbenchError
from workbench.read.spreadsheet import mend_decimal_commas, sniff_delimiter
from workbench.read.table import clean_cell
from workbench.read.textio import codec, decode_text, windows_1258_form

WRITES = (".csv", ".tsv", ".txt", ".md", ".markdown", ".xlsx", ".xlsm")


def fixed_name(name: str) -> str:
    """ "shop.fixed.csv" for "shop.csv": the copy is never saved over the file."""
    path = PurePath(name)
    return f"{path.stem}.fixed{path.suffix}"


def fixed_bytes(data: bytes, name: str, document: Document, edits: list[Edit], sheet: str | None = None) -> bytes:
    """``data`` (the file ``document`` was read from) with ``edits`` made, in the file's own format."""
    suffix = PurePath(name).suffix.lower()
    if suffix not in WRITES or document.files:
        raise WorkbenchError(
            f"{name}: the fixes can be written into CSV, Excel (.xlsx) and Markdown files; for this file, make the "
            "to-do's changes in the program that made it."
        )
    if not document.form.table:
        return _text(data, name, document, edits)
    if suffix in (".xlsx", ".xlsm"):
        return _workbook(data, name, edits, sheet)
    return _delimited(data, name, edits)


def _encode(text: str, data: bytes, encoding: str) -> bytes:
    """The text in the file's own encoding and line ends (a BOM kept where the file had one)."""
    if b"\r\n" in data[:65536]:
        text = text.replace("\n", "\r\n")
    if encoding == "utf-16":  # Python's utf-16 writes its BOM
        return text.encode("utf-16")
    if encoding == "windows-1258":  # Vietnamese letters the page lacks, written as Windows writes them
        text = windows_1258_form(text)
    out = text.encode(codec(encoding), errors="strict")
    return out if encoding != "utf-8" or not data.startswith(codecs.BOM_UTF8) else codecs.BOM_UTF8 + out


def _text(data: bytes, name: str, document: Document, edits: list[Edit]) -> bytes:
    text, encoding, _ = decode_text(data, name)
    if text != document.text:
        raise WorkbenchError(f"{name} has changed since it was graded: grade it again before writing the fixes.")
    return _encode(inserted(text, edits), data, encoding)


def _cell_edits(edits: list[Edit]) -> dict[tuple[int, str], str]:
    out: dict[tuple[int, str], str] = {}
    for edit in edits:
        if edit.row is None or edit.column is None:
            raise WorkbenchError("a spreadsheet's fix names no row and column")  # never made: data_columns' edits do
        out[(edit.row, edit.column)] = out.get((edit.row, edit.column), "") + edit.text
    return out


def _header_index(header: list[str]) -> dict[str, int]:
    """Each column's index by the name the document gives it (an empty header is "Column N", as the reader
    names it); a repeated header keeps its first column."""
    names: dict[str, int] = {}
    for index, cell in enumerate(header):
        names.setdefault(clean_cell(str(cell or "")) or f"Column {index + 1}", index)
    return names


def _delimited(data: bytes, name: str, edits: list[Edit]) -> bytes:
    text, encoding, _ = decode_text(data, name)
    delimiter = sniff_delimiter(text)
    limits.allow_long_cells()
    records = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    header_at = next((i for i, record in enumerate(records) if any(cell.strip() for cell in record)), 0)
    if delimiter == "," and records:  # "6,50" split in two, mended as it was read: the columns are the ones read
        numbered = [(number + 1, record) for number, record in enumerate(records) if number > header_at]
        mend_decimal_commas(numbered, len(records[header_at]))
        for number, record in numbered:
            records[number - 1] = record
    columns = _header_index(records[header_at])
    for (row, column), words in _cell_edits(edits).items():
        index = columns.get(column)
        if index is None or not 0 < row <= len(records):
            raise WorkbenchError(f"{name} has no cell at row {row}, column {column!r}: grade it again.")
        record = records[row - 1]
        record += [""] * (index + 1 - len(record))
        record[index] += words
    first = text.split("\n", 1)[0]
    quote_all = bool(first) and all(cell.startswith('"') for cell in first.split(delimiter))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n",
                        quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
    writer.writerows(records)
    written = out.getvalue()
    if not text.endswith("\n"):
        written = written.removesuffix("\n")
    return _encode(written, data, encoding)


def _workbook(data: bytes, name: str, edits: list[Edit], sheet: str | None) -> bytes:
    from openpyxl import load_workbook

    from workbench.read.excel import default_sheet

    chosen = sheet or default_sheet(data, name)
    workbook = load_workbook(io.BytesIO(data))  # formulas as written, every sheet kept
    worksheet = workbook[chosen]
    rows = list(worksheet.iter_rows(min_row=1, max_row=worksheet.max_row))
    header_at = next((i for i, row in enumerate(rows) if any(cell.value not in (None, "") for cell in row)), 0)
    columns = _header_index([cell.value for cell in rows[header_at]]) if rows else {}
    for (row, column), words in _cell_edits(edits).items():
        index = columns.get(column)
        if index is None:
            raise WorkbenchError(f"{name}, sheet {chosen!r}, has no column {column!r}: grade it again.")
        cell = worksheet.cell(row=row, column=index + 1)
        cell.value = ("" if cell.value is None else str(cell.value)) + words
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
