"""Spreadsheets (CSV, XLSX): one section per product, one fact per non-empty cell.

The canonical text is Markdown: ``# {title}``, then for each product
``## {name}`` and one ``{Column}: {value}`` line per cell. Rows with an empty
name are variants of a product (matched by a handle/slug column when there is
one, else the nearest named row above); their cells join that product.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import PurePath

from workbench.core import limits
from workbench.core.limits import Budget, check_zip
from workbench.core.model import Document, Fact, Section, WorkbenchError
from workbench.read.base import LOADERS, Loader
from workbench.read.textio import check_size, decode_text

# Headers that name the product, best first; then any header containing one of the words.
NAME_HEADERS = ("name", "product name", "product", "title", "product title", "item", "item name", "product_name")
NAME_WORDS = ("name", "title", "product", "item")
HANDLE_HEADERS = ("handle", "slug", "url key", "url_key", "product handle", "parent", "parent sku")


class NoNameColumn(WorkbenchError):
    """No header looks like a product name; ``columns`` are the ones the user can choose from.

    The message names no way of choosing (a command-line flag or a select box): each caller adds its own.
    """

    def __init__(self, message: str, columns: list[str]) -> None:
        super().__init__(message)
        self.columns = columns


@dataclass
class Table:
    """A grid of stripped cell strings with the row numbers the user sees."""

    title: str
    header: list[str]
    rows: list[tuple[int, list[str]]]
    encoding: str = "utf-8"
    warnings: tuple[str, ...] = ()


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
    runaway: tuple[int, int] | None = None  # (row, physical lines) of the first cell that swallowed rows
    width: int | None = None  # the header's cells: what a swallowed row splits into
    try:
        line = 0
        for record in reader:  # counted as read: a file of nothing but commas is millions of cells
            budget.row(len(record), 0)
            spanned = reader.line_num - line
            if width is None and any(record):
                width = len(record)
            elif runaway is None and spanned > 2 and any(_swallowed_rows(cell, delimiter, width) for cell in record):
                runaway = (len(records) + 1, spanned - 1)
            line = reader.line_num
            records.append([_clean(cell) for cell in record])
    except csv.Error as error:
        raise WorkbenchError(f"{name}, line {reader.line_num + 1}, is not readable CSV: {error}.") from None
    if runaway is not None:
        row, swallowed = runaway
        warnings.append(
            f"Row {row} of {name} opens a quote (\") that is closed only {swallowed} line(s) later, or never: those "
            f"{swallowed} line(s) were read as one cell of row {row}. Check the quote marks in row {row}; a quote "
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


def sheet_names(data: bytes, name: str) -> list[str]:
    """The sheets of an Excel file, in workbook order."""
    workbook = _open_workbook(data, name)
    try:
        return workbook.sheetnames
    finally:
        workbook.close()


def default_sheet(data: bytes, name: str) -> str:
    """The sheet to read when none is chosen: the first with a name-like header, else the first.

    A workbook often opens on a note ("About", "Read me") before the product sheet.
    """
    workbook = _open_workbook(data, name)
    try:
        return _default_sheet(workbook)
    finally:
        workbook.close()


def hidden_sheets(workbook) -> list[str]:
    """Sheets the workbook's owner hid (or made "very hidden"): old lists, lookups, notes."""
    return [title for title in workbook.sheetnames if workbook[title].sheet_state != "visible"]


def _default_sheet(workbook) -> str:
    """The first visible sheet with a name-like header, else the first visible one; hidden sheets only when all are."""
    hidden = set(hidden_sheets(workbook))
    visible = [title for title in workbook.sheetnames if title not in hidden] or workbook.sheetnames
    for title in visible:
        header = _first_row(workbook[title])
        if header and name_like_column(header) is not None:
            return title
    return visible[0]


def _first_row(sheet, look: int = 50) -> list[str] | None:
    """The first non-empty row among the first ``look`` (the header, as read_xlsx takes it)."""
    sheet.reset_dimensions()  # a wrong <dimension> tag must not hide the header's later columns
    for row in sheet.iter_rows(max_row=look, values_only=True):
        record = [_clean(format_cell(value)) for value in row]
        if any(record):
            return record
    return None


def read_xlsx(data: bytes, name: str, sheet: str | None = None) -> Table:
    workbook = _open_workbook(data, name)
    warnings = []
    try:
        if sheet is None:
            sheet = _default_sheet(workbook)
            skipped = [title for title in hidden_sheets(workbook) if title != sheet]
            if skipped:
                warnings.append(
                    f"{name} has {len(skipped)} hidden sheet(s), left out: {', '.join(repr(t) for t in skipped)}. "
                    f"The visible sheet {sheet!r} was read; choose a hidden one by name to read it instead."
                )
        if sheet not in workbook.sheetnames:
            raise WorkbenchError(f"{name} has no sheet called {sheet!r}; its sheets are {', '.join(workbook.sheetnames)}.")
        worksheet = workbook[sheet]
        # The sheet's <dimension> tag (which read-only mode trusts) is often wrong in exported files:
        # a 10-product sheet that claims A1:B2 would read as one product. Read every row there is.
        worksheet.reset_dimensions()
        budget = Budget(name)
        records = []
        for row in worksheet.iter_rows():
            record = [_clean(format_cell(cell.value, getattr(cell, "number_format", "General"))) for cell in row]
            while record and not record[-1]:  # styled empty cells out to column XFD are no cells
                record.pop()
            budget.row(len(record), sum(map(len, record)))  # checked as read: a bomb stops here, not at the end
            records.append(record)
        formula_columns = _formulas_without_values(workbook, worksheet)
        title = sheet if len(workbook.sheetnames) > 1 else PurePath(name).stem
    finally:
        workbook.close()
    header_index = next((i for i, record in enumerate(records) if any(record)), None)
    if header_index is None:
        raise WorkbenchError(f"Sheet {sheet!r} of {name} is empty.")
    header = records[header_index]
    rows = [(number + 1, record) for number, record in enumerate(records) if number > header_index]
    for letter, count in formula_columns.items():
        index = _column_index(letter)
        label = f"{header[index]!r} ({letter})" if index < len(header) and header[index] else letter
        warnings.append(
            f"Column {label} holds {count} formula(s) saved without their values, so those cells read as empty. "
            "Open the file in Excel and save it again (Excel stores the values), then upload it again."
        )
    return Table(title, header, rows, warnings=tuple(warnings))


FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")


def _formulas_without_values(workbook, worksheet) -> dict[str, int]:
    """Columns (letters) of formula cells that have no saved value, with how many; read straight from the XML.

    openpyxl's value-only mode reads such a cell as empty, indistinguishable from a blank one.
    Most shop exports hold no formulas, so the sheet's bytes are first searched for one.
    """
    import xml.etree.ElementTree as ET

    path = worksheet._worksheet_path
    with workbook._archive.open(path) as source:
        tail, found = b"", False
        while chunk := source.read(1 << 20):
            if FORMULA.search(tail + chunk):
                found = True
                break
            tail = chunk[-16:]
    if not found:
        return {}
    missing: dict[str, int] = {}
    with workbook._archive.open(path) as source:
        for _, element in ET.iterparse(source, events=("end",)):
            if element.tag.rsplit("}", 1)[-1] != "c":
                continue
            children = {child.tag.rsplit("}", 1)[-1]: child for child in element}
            value = children.get("v")
            if "f" in children and (value is None or not (value.text or "").strip()):
                letter = re.match(r"[A-Z]+", element.get("r") or "")
                if letter:
                    missing[letter.group()] = missing.get(letter.group(), 0) + 1
            element.clear()
    return missing


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the container of old .xls files, and of encrypted .xlsx ones
ENCRYPTED = "EncryptedPackage".encode("utf-16-le")


def _open_workbook(data: bytes, name: str):
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    check_size(data, name)
    if data[:8] == OLE2:
        if ENCRYPTED in data:
            raise WorkbenchError(
                f"{name} is protected with a password, so it cannot be read. Open it in Excel, remove the password "
                "(File > Info > Protect Workbook), save it, and upload it again; or export it as CSV."
            )
        raise WorkbenchError(f"{name} is an old Excel file (.xls). Open it in Excel and save it as .xlsx or .csv.")
    try:
        check_zip(data, name)  # before anything is unpacked
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except WorkbenchError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, InvalidFileException, KeyError, OSError, ValueError, TypeError,
            EOFError) as error:  # damaged XML is said by the loaders' boundary
        detail = (str(error) or type(error).__name__).split("\n")[0].rstrip(".")  # openpyxl adds lines of advice
        raise WorkbenchError(
            f"{name} is not a readable Excel file (.xlsx): {detail}. Open it in Excel and save it again, or export CSV."
        ) from None


def format_cell(value: object, number_format: str | None = "General") -> str:
    """A cell as the shop wrote it: ``1299`` not ``1299.0``, ``12.50`` when formatted so."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (int, float)):
        fmt = (number_format or "General").split(";")[0]
        if "%" in fmt:
            return _format_number(value * 100, fmt.replace("%", "")) + "%"
        return _format_number(value, fmt)
    return str(value)


def _format_number(value: float, fmt: str) -> str:
    decimals = re.search(r"\.([0#]+)", fmt)
    thousands = "," if re.search(r"[0#],[0#]", fmt) else ""
    if decimals and fmt != "General":
        return f"{value:{thousands}.{len(decimals.group(1).rstrip('#')) or 0}f}"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):{thousands}d}"
    return f"{value:.15g}"


def _clean(cell: str) -> str:
    """Strip the cell; keep a multi-line cell's lines but drop its blank ones."""
    cell = cell.replace("\r\n", "\n").replace("\r", "\n").strip()
    if "\n" in cell:
        cell = "\n".join(line.rstrip() for line in cell.split("\n") if line.strip())
    return cell


def find_name_column(header: list[str], wanted: str | None, name: str) -> int:
    """The index of the product-name column, found by its header or named by the user."""
    lowered = [cell.strip().lower() for cell in header]
    if wanted is not None:
        if wanted.strip().lower() in lowered:
            return lowered.index(wanted.strip().lower())
        raise WorkbenchError(
            f"{name} has no column called {wanted!r}. Its columns are: {', '.join(h for h in header if h)}."
        )
    index = name_like_column(header)
    if index is None:
        columns = [h for h in header if h]
        raise NoNameColumn(
            f"{name} has no column that looks like a product name (name, title, product, item…). "
            f"Its columns are: {', '.join(columns) or 'none'}.",
            columns,
        )
    return index


def name_like_column(header: list[str]) -> int | None:
    """The index of the column whose header reads like a product name, best first; None when none does."""
    lowered = [cell.strip().lower() for cell in header]
    for candidate in NAME_HEADERS:
        if candidate in lowered:
            return lowered.index(candidate)
    for index, cell in enumerate(lowered):
        if any(word in re.split(r"[^a-z]+", cell) for word in NAME_WORDS):
            return index
    return None


def table_to_document(table: Table, name: str, name_column: str | None = None) -> Document:
    """Render a table as the Markdown of one section per product, recording every span."""
    if len(table.header) * max(len(table.rows), 1) > limits.MAX_CELLS:  # every row is padded to the header's width
        raise limits.too_big(
            name, f"has {len(table.header):,} columns and {len(table.rows):,} rows: more than {limits.MAX_CELLS:,} cells"
        )
    header = [cell or f"Column {index + 1}" for index, cell in enumerate(table.header)]
    name_index = find_name_column(table.header, name_column, name)
    lowered = [cell.lower() for cell in header]
    handle_index = next((lowered.index(h) for h in HANDLE_HEADERS if h in lowered and lowered.index(h) != name_index), None)
    warnings = list(table.warnings)

    # Group rows into products, keeping the order in which products first appear.
    products: list[tuple[str, list[tuple[int, list[str]]]]] = []
    by_handle: dict[str, int] = {}
    for number, record in table.rows:
        record = record + [""] * (len(header) - len(record))
        if len(record) > len(header):
            extra = [cell for cell in record[len(header) :] if cell]
            if extra:
                warnings.append(f"Row {number} has more cells than there are columns; the extra cells were left out.")
            record = record[: len(header)]
        if not any(record):
            continue
        product_name = record[name_index]
        handle = record[handle_index] if handle_index is not None else ""
        if product_name:
            products.append((product_name, [(number, record)]))
            if handle and handle not in by_handle:
                by_handle[handle] = len(products) - 1
        elif handle and handle in by_handle:
            products[by_handle[handle]][1].append((number, record))
        elif products:
            products[-1][1].append((number, record))
        else:
            warnings.append(f"Row {number} has no product name and no named row above it; it was left out.")
    if not products:
        raise WorkbenchError(
            f"{name} has no products: the column {header[name_index]!r} is empty in every row."
        )

    parts: list[str] = []
    length = 0
    budget = Budget(name)  # each cell becomes "Column: value": long headers can multiply the text

    def write(piece: str) -> tuple[int, int]:
        nonlocal length
        start = length
        parts.append(piece)
        length += len(piece)
        budget.text(len(piece))
        return start, length

    title_span = write(f"# {table.title}")
    write("\n\n")
    sections = [Section("s0", table.title, 1, (), (0, title_span[1]), title_span, ())]
    used_columns: set[int] = set()
    for number, (product_name, rows) in enumerate(products, start=1):
        section_id = f"s{number}"
        heading_span = write(f"## {product_name}")
        start = heading_span[0]
        facts: list[Fact] = []
        first_row = rows[0][1]
        for row_index, (row_number, record) in enumerate(rows):
            write("\n" if row_index == 0 else "\n\n")
            lines = []
            for column, value in enumerate(record):
                if not value or column == name_index:
                    continue
                if row_index > 0 and value == first_row[column]:
                    continue  # a variant repeating its product's handle or description adds nothing
                lines.append((column, value))
            for line_index, (column, value) in enumerate(lines):
                if line_index:
                    write("\n")
                span = write(f"{header[column]}: {value}")
                facts.append(Fact(span, section_id, column=header[column], row=row_number))
                used_columns.add(column)
        end = length
        sections.append(
            Section(section_id, product_name, 2, (table.title,), (start, end), heading_span, tuple(facts))
        )
        write("\n\n")
    text = "".join(parts).rstrip("\n") + "\n"
    return Document(
        name=name,
        kind="spreadsheet",
        text=text,
        sections=tuple(sections),
        warnings=tuple(warnings),
        encoding=table.encoding,
        columns=tuple(header[i] for i in sorted(used_columns)),
        name_column=header[name_index],
    )
