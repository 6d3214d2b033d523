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
from collections.abc import Callable

from workbench.core.model import WorkbenchError

MB = 1024 * 1024
MAX_BYTES = 50 * MB  # the file itself: past this a browser tab and a laptop both struggle
MAX_UNPACKED_BYTES = 250 * MB  # everything inside an Excel file, unpacked (a 100,000-row catalog is ~100 MB)
MAX_ZIP_PARTS = 10_000  # files inside an Excel file (a normal workbook has a few dozen)
MAX_CHARACTERS = 60_000_000  # the text the workbench makes of the file
MAX_ROWS = 1_048_576  # Excel's own limit for one sheet
MAX_COLUMNS = 16_384  # Excel's own limit, XFD: one CSV row of a million cells made one product of a million facts
# Cells that hold something: each is a fact, about 1.2 KB through a check-up, so this keeps one under 2.5 GB.
# 2,000,000 of them in 10-column rows peaked at 1.9 GB, in 16,384-column rows at 2.54 GB (1.77 million: 2.26 GB);
# the 4.9 million the old limit let through (it counted empty cells too) took 6.0 GB and 11 minutes (BENCHMARKS.md,
# "Read as meant"). E.g. 90,000 products x 20 filled columns.
MAX_CELLS = 1_800_000
# Cells as read, empty ones too (a file of nothing but commas), and rows padded to the header: a pointer each.
MAX_GRID = 10_000_000
MAX_PART_BYTES = 200 * MB  # one part inside an Excel file, unpacked (a sheet of 100,000 rows is ~100 MB)
MAX_PART_RATIO = 200  # how much one large part may unpack to per packed byte (real sheets: 5-20 times)
RATIO_FROM = 10 * MB  # parts smaller than this unpacked are not held to the ratio (a tiny part of zeros is fine)
MAX_CONVERTED_BYTES = 4 * MB  # a Word part or a web page: converters hold 20-40 times this and take ~5 s a MB
MAX_PDF_STREAM_BYTES = 64 * MB  # one PDF stream, inflated (a page's text is far less; a flate image can be this)
MAX_QUESTIONS = 10_000  # rows of a questions file (a golden set is dozens to hundreds; each is graded per setup)
MAX_QUESTION_CELL = 20_000  # characters in one cell of a questions file (a question or an answer, not a book)
MAX_RANKED = 1_000  # --top-k and --depth: pieces a bot is handed or a reranker reads (a bot reads 3-20)
# One evaluate run on the command line: the text times the cuts made of it, each cut, searched and graded. On
# 200,000 products (12.5 million characters) two cuts took 24 s of CPU and 0.9 GB; all fifteen took 102 s and 2.8 GB.
MAX_RUN_CHARACTERS = 30_000_000
MAX_SIZE = MAX_CHARACTERS  # --size and --overlap, in characters: no piece can be longer than the text
MAX_JOBS = 64  # sweep --jobs: processes at once, each holding a file and its grades (a laptop has 2-16 cores)
# A knowledge base of several files, on the command line, checked from the files' sizes before any is read (80
# Markdown files of 800 KB, each within its own limits, were all read first: 3 GB and 42 s before the base was
# refused). 30 MB: a Markdown or text file makes about a character a byte, so a bigger base could not be evaluated
# cut even one way (MAX_RUN_CHARACTERS); and the check-up of 40 such files (37 MB) peaked at 1.8 GB, as each file is
# checked and then all of them across. The files' text together is held to MAX_CHARACTERS as they are read.
MAX_BASE_BYTES = 30 * MB
MAX_BASE_FILES = 1_000  # a shop's base is a handful of files to a few dozen; each is one more document to cut and check
BIGGEST_NAMED = 3  # the files a message about the base's size names, biggest first; the rest are counted
# One run that reads with the language model (meaning-based search, maxsim): the text times the cuts, each cut's
# pieces read as texts of their own. Its memory past the model's fixed share (the model, one pass's intermediate
# vectors, the token vectors held and maxsim's blocks, all bounded by rows whatever the file: BLOCK_ROWS, NEW_ROWS,
# Encoder.token_memory) grows slowly with the texts read (their sentence vectors, maxsim's columns). The default
# setups (4 cuts), cold, measured (BENCHMARKS.md, "Memory of a meaning-based run"): a 3,400-product synthetic
# catalog, 1,049,862 bytes, 1,348,534 characters (5,394,136 read), peaked at 1,015 MB with each vector held once
# (1,172 MB before; at the commit before the bound, a 3,000-product one of 925,902 bytes at 1,573 MB, refused at
# 1.6 M). The limit is that 1 MB file's: a 4-cut run of up to 1,350,000 characters of text, 1 cut of 5.4 M.
MAX_MODEL_CHARACTERS = 5_400_000
MEMORY_BUDGET = "1 GB"  # what MAX_MODEL_CHARACTERS keeps a run within, as measured


def limits_sentence() -> str:
    return (
        f"files up to {MAX_BYTES // MB} MB that unpack to at most {MAX_UNPACKED_BYTES // MB} MB, with at most "
        f"{MAX_ROWS:,} rows, {MAX_COLUMNS:,} columns, {MAX_CELLS:,} cells that hold something ({MAX_GRID:,} in all) "
        f"and {MAX_CHARACTERS:,} characters of text"
    )


def converted_sentence() -> str:
    return (
        f"web pages and Word text of at most {MAX_CONVERTED_BYTES // MB} MB (unpacked), and PDFs whose every stream "
        f"unpacks to at most {MAX_PDF_STREAM_BYTES // MB} MB"
    )


def questions_sentence() -> str:
    return f"at most {MAX_QUESTIONS:,} questions a file, each cell at most {MAX_QUESTION_CELL:,} characters"


def run_sentence() -> str:
    return (f"one run cuts, searches and grades at most {MAX_RUN_CHARACTERS:,} characters: the file's text "
            "times the cuts asked for")


def check_run(name: str, characters: int, cuts: list[str],
              choose: Callable[[int, list[str]], str] | None = None) -> None:
    """Refuse a run whose text times its cuts is past MAX_RUN_CHARACTERS, before any cut is made, naming how many
    cuts fit. ``choose(fit, example)`` says how to choose that many (``example``: the cuts to keep, ids, the
    reference and the usual winner first); by default the command line's --strategies."""
    work = characters * len(cuts)
    if work <= MAX_RUN_CHARACTERS:
        return
    fit = MAX_RUN_CHARACTERS // max(characters, 1)
    what = (f"{name} makes {characters:,} characters of text; cut {len(cuts)} way{'' if len(cuts) == 1 else 's'} "
            f"that is {work:,} characters, and "
            f"{run_sentence()}. ")
    if fit >= 1:
        first = [c for c in ("heading", "fixed") if c in cuts]  # the reference and the usual winner, when asked
        example = (first + [c for c in cuts if c not in first])[:fit]
        raise WorkbenchError(what + (choose or _with_strategies)(fit, example))
    raise WorkbenchError(what + "Split it into smaller files.")


def processes_within(work: list[int], wanted: int) -> int:
    """How many of ``wanted`` processes may grade at once when each item's work (text times cuts, in characters) is
    ``work``: the largest ones side by side never past what one run may hold alone (MAX_RUN_CHARACTERS), so a
    sweep on a machine of many cores holds no more memory than one big file would; at least one."""
    largest = max(work, default=0)
    return max(1, min(wanted, MAX_RUN_CHARACTERS // max(largest, 1)))


def model_run_sentence() -> str:
    return (f"a run with meaning-based search reads at most {MAX_MODEL_CHARACTERS:,} characters with the language "
            f"model (the file's text times the cuts asked for), to stay within about {MEMORY_BUDGET} of memory")


def check_model_run(name: str, characters: int, cuts: list[str], choose: Callable[[int, list[str]], str]) -> None:
    """Refuse a run that reads with the language model past MAX_MODEL_CHARACTERS, before the model loads, naming the
    limit and how many cuts fit; ``choose(fit, example)`` says how to choose fewer cuts or word search (the command
    line's flags, the app's settings). A word search has no such limit (``check_run`` only)."""
    work = characters * len(cuts)
    if work <= MAX_MODEL_CHARACTERS:
        return
    fit = MAX_MODEL_CHARACTERS // max(characters, 1)
    first = [c for c in ("heading", "fixed") if c in cuts]
    example = (first + [c for c in cuts if c not in first])[:fit]
    ways = "1 way" if len(cuts) == 1 else f"{len(cuts)} ways"
    raise WorkbenchError(f"{name} makes {characters:,} characters of text; cut {ways} that is {work:,} characters, "
                         f"and {model_run_sentence()}. " + choose(fit, example))


def _with_strategies(fit: int, example: list[str]) -> str:
    return (f"Choose at most {_cuts(fit)} with --strategies (e.g. --strategies {','.join(example)}), or split the "
            "file.")


def _cuts(count: int) -> str:
    return f"{count:,} cut{'' if count == 1 else 's'}"


def base_sentence() -> str:
    return (f"the workbench reads a knowledge base of at most {MAX_BASE_FILES:,} files and {MAX_BASE_BYTES // MB} MB "
            f"together, making at most {MAX_CHARACTERS:,} characters of text")


def check_base(sizes: list[tuple[str, int]]) -> None:
    """Refuse a knowledge base whose files (``(name, bytes on disk)``, before any is read) are too many or too big
    together, naming the total, the limit and the biggest few files."""
    total = sum(size for _, size in sizes)
    if len(sizes) <= MAX_BASE_FILES and total <= MAX_BASE_BYTES:
        return
    biggest = sorted(sizes, key=lambda named: -named[1])
    shown = ", ".join(f"{name} {_megabytes(size)}" for name, size in biggest[:BIGGEST_NAMED])
    rest = len(sizes) - BIGGEST_NAMED
    listing = f"the biggest: {shown}" + (f" and {rest:,} more" if rest > 0 else "")
    what = (f"has {len(sizes):,} files" if len(sizes) > MAX_BASE_FILES else
            f"is {len(sizes):,} files of {_megabytes(total)} together")
    raise WorkbenchError(
        f"The knowledge base {what} ({listing}); {base_sentence()}. Check fewer files at once, or shorten the "
        "biggest ones."
    )


def check_base_text(name: str, characters: int) -> None:
    """Refuse a knowledge base whose files, read so far, make more text together than MAX_CHARACTERS."""
    if characters > MAX_CHARACTERS:
        raise WorkbenchError(
            f"The knowledge base makes more than {MAX_CHARACTERS:,} characters of text by {name}; {base_sentence()}. "
            "Check fewer files at once, or shorten the biggest ones."
        )


def _megabytes(size: int) -> str:
    return f"{size / MB:,.1f} MB"


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


def converted_too_big(name: str, what: str) -> WorkbenchError:
    return WorkbenchError(f"{name} {what}; the workbench reads {converted_sentence()}. Split it into smaller files.")


def check_pdf_streams(data: bytes, name: str) -> None:
    """Refuse a PDF with a compressed stream that inflates past the limit, found by inflating each in bounded steps.

    pdfminer inflates a stream whole before it reads it (a 1 MB file held a 1 GB stream, 4.2 GB of memory).
    Each ``stream`` … ``endstream`` body is inflated here with an output cap, so no more than the limit and one
    step is ever held; a body that is not zlib data (another filter, an image) is left to the reader.
    """
    import re
    import zlib

    everything = 0  # many small streams can each stay under the limit and still inflate to gigabytes together
    for match in re.finditer(rb"stream\r?\n", data):
        body_end = data.find(b"endstream", match.end())
        if body_end < 0:
            break
        inflater = zlib.decompressobj()
        total, pending = 0, data[match.end() : body_end]
        try:
            while not inflater.eof and total <= MAX_PDF_STREAM_BYTES:
                out = inflater.decompress(pending, 1 << 20)  # zlib keeps what did not fit for the next call
                pending = inflater.unconsumed_tail
                if not out and not pending:  # the body ends before the stream does (cut short)
                    break
                total += len(out)
        except zlib.error:
            continue
        if total > MAX_PDF_STREAM_BYTES:
            raise converted_too_big(name, f"holds a stream that unpacks to more than {MAX_PDF_STREAM_BYTES // MB} MB")
        everything += total
        if everything > MAX_UNPACKED_BYTES:
            raise too_big(name, f"holds streams that unpack to more than {MAX_UNPACKED_BYTES // MB} MB together")


def check_zip(data: bytes, name: str, part_limit: int = MAX_PART_BYTES) -> None:
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
        for info in infos:  # one part can be the bomb while the whole stays under the limit
            limit = part_limit if info.filename.endswith((".xml", ".rels")) else MAX_PART_BYTES  # not a photo
            if info.file_size > limit:
                what = f"one part inside it ({info.filename}) unpacks to {info.file_size / MB:,.0f} MB"
                raise too_big(name, what) if limit == MAX_PART_BYTES else converted_too_big(name, what)
            if info.file_size > RATIO_FROM and info.file_size > MAX_PART_RATIO * max(info.compress_size, 1):
                raise too_big(
                    name,
                    f"one part inside it ({info.filename}) unpacks to {info.file_size / MB:,.0f} MB from "
                    f"{info.compress_size / MB:,.1f} MB ({info.file_size // max(info.compress_size, 1):,} times; real "
                    f"files stay under {MAX_PART_RATIO})",
                )


def check_columns(name: str, cells: int, row: int | None = None) -> None:
    """Refuse a row of more cells than a sheet has columns: its cells would all be facts of one product (a CSV row
    of a million cells held 2.8 GB through a check-up), and no spreadsheet program could open the file either."""
    if cells > MAX_COLUMNS:
        where = f"row {row:,}" if row is not None else "its header"
        raise too_big(name, f"has {cells:,} cells in {where}, more than the {MAX_COLUMNS:,} columns a sheet can have")


class Budget:
    """Counts rows, cells and characters as a reader produces them, and stops it at the first limit passed."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows = self.grid = self.cells = self.characters = 0

    def row(self, cells: int, characters: int, held: int | None = None) -> None:
        """One row of ``cells`` (empty ones too), ``held`` of them holding something (default: all)."""
        self.rows += 1
        check_columns(self.name, cells, self.rows)
        self.grid += cells
        self.cells += cells if held is None else held
        self.characters += characters
        if self.rows > MAX_ROWS:
            raise too_big(self.name, f"has more than {MAX_ROWS:,} rows")
        if self.cells > MAX_CELLS:
            raise too_big(self.name, f"has more than {MAX_CELLS:,} cells that hold something")
        if self.grid > MAX_GRID:
            raise too_big(self.name, f"has more than {MAX_GRID:,} cells, empty ones included")
        self.text(0)

    def text(self, characters: int) -> None:
        self.characters += characters
        if self.characters > MAX_CHARACTERS:
            raise too_big(self.name, f"makes more than {MAX_CHARACTERS:,} characters of text")
