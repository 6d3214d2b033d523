"""How much one file may unpack to, checked while it is read.

A 1 MB .xlsx can hold a cell that unpacks to 1 GiB, and a CSV whose header names are long
can turn into far more text than the file holds (each cell becomes "Column: value"). The
50 MB upload limit applies to the bytes on disk only, so these limits bound what reading makes
of them: a file past any of them is refused within seconds, before it fills the memory.
The README states the same figures.
"""

from __future__ import annotations

import io
import struct
import zipfile

from workbench.core.model import WorkbenchError

MB = 1024 * 1024
MAX_BYTES = 50 * MB  # the file itself: past this a browser tab and a laptop both struggle
MAX_UNPACKED_BYTES = 250 * MB  # everything inside an Excel file, unpacked (a 100,000-row catalog is ~100 MB)
MAX_ZIP_PARTS = 10_000  # files inside an Excel file (a normal workbook has a few dozen)
MAX_CHARACTERS = 60_000_000  # the text the workbench makes of the file
MAX_ROWS = 1_048_576  # Excel's own limit for one sheet
MAX_CELLS = 5_000_000  # e.g. 100,000 products x 50 columns
MAX_QUESTIONS = 10_000  # rows of a questions file (a golden set is dozens to hundreds; each is graded per setup)
MAX_QUESTION_CELL = 20_000  # characters in one cell of a questions file (a question or an answer, not a book)
MAX_RANKED = 1_000  # --top-k and --depth: pieces a bot is handed or a reranker reads (a bot reads 3-20)
MAX_SIZE = MAX_CHARACTERS  # --size and --overlap, in characters: no piece can be longer than the text


def limits_sentence() -> str:
    return (
        f"files up to {MAX_BYTES // MB} MB that unpack to at most {MAX_UNPACKED_BYTES // MB} MB, with at most "
        f"{MAX_ROWS:,} rows, {MAX_CELLS:,} cells and {MAX_CHARACTERS:,} characters of text"
    )


def questions_sentence() -> str:
    return f"at most {MAX_QUESTIONS:,} questions a file, each cell at most {MAX_QUESTION_CELL:,} characters"


def allow_long_cells() -> None:
    """Let the csv module read cells as long as the text limit (its default stops at 131,072 characters).

    Process-wide and only ever raised to this one value, so threads calling it agree; each reader checks
    its own, smaller bounds on what it keeps.
    """
    import csv

    if csv.field_size_limit() < MAX_CHARACTERS:
        csv.field_size_limit(MAX_CHARACTERS)


def too_big(name: str, what: str) -> WorkbenchError:
    """The one message for every limit: what this file does, and all the limits."""
    return WorkbenchError(f"{name} {what}; the workbench reads {limits_sentence()}. Split it into smaller files.")


def check_zip(data: bytes, name: str) -> None:
    """Refuse a zip (an .xlsx) whose parts would unpack past the limits, from its directory alone.

    Python's zipfile never hands out more than a part's declared size (a part that holds more fails
    its checksum), so checking the declared sizes bounds what reading can unpack.
    """
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end >= 0 and len(data) >= end + 22:
        parts = struct.unpack("<H", data[end + 10 : end + 12])[0]
        if parts > MAX_ZIP_PARTS:  # 0xFFFF (a ZIP64 file) counts as too many
            raise too_big(name, f"holds {parts:,} files inside it")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        if len(infos) > MAX_ZIP_PARTS:
            raise too_big(name, f"holds {len(infos):,} files inside it")
        unpacked = sum(info.file_size for info in infos)
        if unpacked > MAX_UNPACKED_BYTES:
            raise too_big(name, f"unpacks to {unpacked / MB:,.0f} MB")


class Budget:
    """Counts rows, cells and characters as a reader produces them, and stops it at the first limit passed."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows = self.cells = self.characters = 0

    def row(self, cells: int, characters: int) -> None:
        self.rows += 1
        self.cells += cells
        self.characters += characters
        if self.rows > MAX_ROWS:
            raise too_big(self.name, f"has more than {MAX_ROWS:,} rows")
        if self.cells > MAX_CELLS:
            raise too_big(self.name, f"has more than {MAX_CELLS:,} cells")
        self.text(0)

    def text(self, characters: int) -> None:
        self.characters += characters
        if self.characters > MAX_CHARACTERS:
            raise too_big(self.name, f"makes more than {MAX_CHARACTERS:,} characters of text")
