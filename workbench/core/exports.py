"""The one way every file a spreadsheet may open is written: no cell can run as a formula.

Excel, LibreOffice and Google Sheets run a cell that starts with ``=``, ``+``, ``-`` or ``@``
(and some a tab or carriage return before one) as a formula, so a product name or a generated
question such as ``=HYPERLINK(…)`` or ``+cmd|' /C calc'!A0`` would run when the owner opens the
export. Such a cell gets a leading apostrophe, which the spreadsheet shows as text. Every text
cell of a CSV holding a delimiter any spreadsheet might split on (``,``, ``;``, a tab, ``|``) is
quoted; and since a spreadsheet that splits on ``;`` does not honour quotes that open mid-field,
a formula sign right after such a delimiter inside a CSV cell gets the apostrophe too
(``a;=1+1`` becomes ``a;'=1+1``), so no split of the line can start a cell with a formula.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Sequence

# Full-width forms too: some spreadsheets fold them to their ASCII twins before reading a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


SIGNS = "=+\\-@\uff1d\uff0b\uff0d\uff20"
# A line break inside a quoted cell is a new row to a reader splitting on another delimiter. Text that already
# has apostrophes before the sign ("a;'=1", typed so) gets one more, so reading it back takes off only ours.
AFTER_DELIMITER = re.compile(f"([,;\t|\r\n])(?='*[{SIGNS}])")
ESCAPED_AFTER_DELIMITER = re.compile(f"([,;\t|\r\n])'(?='*[{SIGNS}])")


def safe_cell(value: object, *, delimited: bool = False) -> object:
    """Text a spreadsheet would run as a formula gets a leading apostrophe; other values pass unchanged.

    ``delimited`` (a CSV cell): a formula sign right after a delimiter inside the text is escaped as well.
    """
    if not isinstance(value, str):
        return value
    if delimited:
        value = AFTER_DELIMITER.sub(r"\1'", value)
    # "'=1+1" as typed is escaped too: unescape_cell takes off one apostrophe, and it must be ours.
    return "'" + value if value.lstrip("'").startswith(FORMULA_START) else value


def unescape_cell(text: str) -> str:
    """Undo ``safe_cell`` on a cell read back from one of our own exports (questions round-trip unchanged)."""
    text = ESCAPED_AFTER_DELIMITER.sub(r"\1", text)
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_START):
        return text[1:]
    return text


QUOTE = re.compile(r'[,;\t|"\n\r]|^\s|\s$')


def _csv_field(cell: object) -> str:
    if cell is None:
        return ""
    text = str(safe_cell(cell, delimited=True))
    # csv's own writer quotes only its one delimiter; a ';'-splitting Excel would cut "a;b" in two.
    return '"' + text.replace('"', '""') + '"' if QUOTE.search(text) else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV text (RFC 4180, "\n" line ends): every cell through ``safe_cell``, delimiters quoted."""
    return "".join(",".join(_csv_field(cell) for cell in row) + "\n" for row in rows)


def xlsx_cell(value: object) -> object:
    """A cell Excel accepts and never runs: control characters dropped (openpyxl refuses them), formulas escaped."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    return safe_cell(value)


def spreadsheet_bytes(text: str) -> bytes:
    """CSV text as a downloaded file: UTF-8 with a BOM, the mark by which Excel knows UTF-8. Without it, Excel on a
    Japanese, Arabic or Greek Windows reads the file in its own code page and shows the file's language as mojibake."""
    return codecs.BOM_UTF8 + text.encode("utf-8")
