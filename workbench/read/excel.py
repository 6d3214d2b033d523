"""Excel workbooks (.xlsx, .xlsm): opening one safely, choosing its sheet, and reading that sheet into a Table.

A cell reads as the shop wrote it (``format_cell``); a formula saved without its value, a hidden sheet, an
old .xls or a password-protected file is named in a warning or a plain error.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from pathlib import PurePath

from workbench.core.limits import Budget, check_zip
from workbench.core.model import WorkbenchError
from workbench.core.wording import plural, verb
from workbench.read.header_rows import find_header, first_filled
from workbench.read.table import (
    Table,
    clean_cell,
    header_position,
    name_like_column,
)
from workbench.read.textio import check_size


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
    """The first visible sheet laid out as a table (a header of two cells or more) with a name-like column, else the
    first with a name-like header, else the first visible one; hidden sheets only when all are.

    A sheet of notes whose first line says "Product catalogue" has a name-like header of one cell: read, it was one
    heading per line and nothing under them, while the product sheet came after it.
    """
    hidden = set(hidden_sheets(workbook))
    visible = [title for title in workbook.sheetnames if title not in hidden] or workbook.sheetnames
    named = None
    for title in visible:
        header = _first_row(workbook[title])
        if header and name_like_column(header) is not None:
            if sum(1 for cell in header if cell) > 1:
                return title
            named = named or title
    return named or visible[0]


SHOWN_SHEETS = 5  # a message names this many sheets, then counts the rest


def _other_lists(workbook, chosen: str) -> list[str]:
    """The visible sheets besides ``chosen`` that read as product lists (a header of two cells or more with a
    name-like column, as ``_default_sheet`` picks one): a sheet of notes is not one."""
    hidden = set(hidden_sheets(workbook))
    found = []
    for title in workbook.sheetnames:
        if title == chosen or title in hidden:
            continue
        header = _first_row(workbook[title])
        if header and name_like_column(header) is not None and sum(1 for cell in header if cell) > 1:
            found.append(title)
    return found


def _first_row(sheet, look: int = 50) -> list[str] | None:
    """The header among the first ``look`` rows, as read_xlsx takes it: the first non-empty row, or a later one
    below a title (``header_position``)."""
    sheet.reset_dimensions()  # a wrong <dimension> tag must not hide the header's later columns
    rows = ([clean_cell(format_cell(value)) for value in row] for row in sheet.iter_rows(max_row=look, values_only=True))
    found = [record for _, record in first_filled(rows)]
    return found[header_position(found)] if found else None


def read_xlsx(data: bytes, name: str, sheet: str | None = None) -> Table:
    workbook = _open_workbook(data, name)
    warnings = []
    try:
        if sheet is None:
            sheet = _default_sheet(workbook)
            skipped = [title for title in hidden_sheets(workbook) if title != sheet]
            if skipped:
                warnings.append(
                    f"{name} has {plural(len(skipped), 'hidden sheet')}, left out: {', '.join(repr(t) for t in skipped)}. "
                    f"The visible sheet {sheet!r} was read; choose a hidden one by name to read it instead."
                )
            others = _other_lists(workbook, sheet)
            if others:  # a workbook of a sheet per category: the rest were lost without a word
                shown = ", ".join(repr(t) for t in others[:SHOWN_SHEETS])
                more = f" and {len(others) - SHOWN_SHEETS:,} more" if len(others) > SHOWN_SHEETS else ""
                warnings.append(
                    f"{name} has {plural(len(others), 'other sheet')} laid out as a list of products, not read: "
                    f"{shown}{more}. Only {sheet!r} was read; choose another by name to read it instead, or put the "
                    "products in one sheet."
                )
        if sheet not in workbook.sheetnames:
            raise WorkbenchError(f"{name} has no sheet called {sheet!r}; its sheets are {', '.join(workbook.sheetnames)}.")
        worksheet = workbook[sheet]
        # The sheet's <dimension> tag (which read-only mode trusts) is often wrong in exported files:
        # a 10-product sheet that claims A1:B2 would read as one product. Read every row there is.
        worksheet.reset_dimensions()
        budget = Budget(name)
        # (row number, cells): only rows that hold something, numbered as seen. One stray cell at XFD1048576 is one
        # row of 16,384 cells (the table warns of the cells past its header), not a million empty rows above it.
        records: list[tuple[int, list[str]]] = []
        for number, row in enumerate(worksheet.iter_rows(), start=1):
            record = [clean_cell(format_cell(cell.value, getattr(cell, "number_format", "General"))) for cell in row]
            while record and not record[-1]:  # styled empty cells out to column XFD are no cells
                record.pop()
            budget.row(len(record), sum(map(len, record)), len(record) - record.count(""))  # a bomb stops here
            if record:
                records.append((number, record))
        formula_cells = _formulas_without_values(workbook, worksheet)
        title = sheet if len(workbook.sheetnames) > 1 else PurePath(name).stem
    finally:
        workbook.close()
    if not records:
        raise WorkbenchError(f"Sheet {sheet!r} of {name} is empty.")
    found = find_header(records, name)
    if found.warning:
        warnings.append(found.warning)
    position = found.index
    header, rows = found.header or records[position][1], records[position + 1 + (found.hint_row is not None):]
    for letter, cells in formula_cells.items():
        index = _column_index(letter)
        label = f"{header[index]!r} ({letter})" if index < len(header) and header[index] else letter
        count = len(cells)
        warnings.append(
            f"Column {label} holds {plural(count, 'formula')} saved without "
            f"{verb(count, 'its value', 'their values')}, so {_cells_named(cells)} "
            f"{verb(count, 'reads', 'read')} as empty. Open the file in Excel or LibreOffice Calc and save it again "
            "(both store each formula's value with it), then upload it again."
        )
    return Table(title, header, rows, warnings=tuple(warnings), header_row=records[position][0])


FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")


def _formulas_without_values(workbook, worksheet) -> dict[str, list[str]]:
    """Columns (letters) of formula cells that have no saved value, with those cells; read straight from the XML.

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
    missing: dict[str, list[str]] = {}
    with workbook._archive.open(path) as source:
        for _, element in ET.iterparse(source, events=("end",)):
            if element.tag.rsplit("}", 1)[-1] != "c":
                continue
            children = {child.tag.rsplit("}", 1)[-1]: child for child in element}
            value = children.get("v")
            if "f" in children and (value is None or not (value.text or "").strip()):
                reference = element.get("r") or ""
                letter = re.match(r"[A-Z]+", reference)
                if letter:
                    missing.setdefault(letter.group(), []).append(reference)
            element.clear()
    return missing


def _cells_named(cells: list[str], shown: int = 10) -> str:
    """ "cell B3", "cells B3 and B4", "cells B2, B3, B4, B5, B6, B7, B8, B9, B10, B11 and 90 more": in one line."""
    if len(cells) == 1:
        return f"cell {cells[0]}"
    if len(cells) > shown:
        return f"cells {', '.join(cells[:shown])} and {len(cells) - shown:,} more"
    return f"cells {', '.join(cells[:-1])} and {cells[-1]}"


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
        before, number, after = _format_parts(fmt)
        return " ".join(f"{before}{_format_number(value, number)}{after}".split())
    return str(value)


# A number format's pieces Excel shows around the number: a quoted text ("€", "R$"), an escaped character (\ €),
# a currency tag ([$€-C0A], [$zł-415]); padding (_-), fill (* ) and colours or locales ([Red], [$-409]) show none.
FORMAT_TOKEN = re.compile(r'"([^"]*)"|\\(.)|\[\$([^\]\-]*)[^\]]*\]|\[[^\]]*\]|_.|\*.|([#0?,.]+)|(.)', re.DOTALL)


def _format_parts(fmt: str) -> tuple[str, str, str]:
    """The text before the number, the number's own format and the text after it: '#,##0.00\\ "€"' is
    ("", "#,##0.00", " €"), so a Spanish shop's "6,50 €" cell reads "6.50 €", its currency kept."""
    if fmt == "General" or len(fmt) > 255 or re.search(r"E[+-]", fmt, re.IGNORECASE):
        return "", fmt, ""  # scientific as before; Excel writes no format longer than 255 (an unclosed "[" or '"'
        # would make each later token scan to the end)
    before: list[str] = []
    after: list[str] = []
    number = ""
    for match in FORMAT_TOKEN.finditer(fmt):
        quoted, escaped, currency, digits, other = match.groups()
        if digits is not None and not number:
            number = digits
            continue
        shown = next((part for part in (quoted, escaped, currency, other) if part is not None), "")
        (after if number else before).append(" " if match.group().startswith("_") else shown)
    return ("".join(before), number or "General", "".join(after)) if number else ("", fmt, "")


def _format_number(value: float, fmt: str) -> str:
    decimals = re.search(r"\.([0#]+)", fmt)
    thousands = "," if re.search(r"[0#],[0#]", fmt) else ""
    if decimals and fmt != "General":
        return f"{value:{thousands}.{len(decimals.group(1).rstrip('#')) or 0}f}"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):{thousands}d}"
    return f"{value:.15g}"
