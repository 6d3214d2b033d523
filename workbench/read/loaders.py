"""Loaders turn a file's bytes into a Document; one loader per kind of file."""

from __future__ import annotations

import csv
import sys
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import TypeVar
from xml.etree.ElementTree import ParseError
from xml.parsers.expat import ExpatError

from workbench.core import limits
from workbench.core.model import Document, WorkbenchError

# Each module registers its loaders (read/base.py); ``order`` on each class, not this list, sets the listing.
from workbench.read import (  # noqa: F401  (registers the loaders)
    converted,
    json_feed,
    markdown,
    spreadsheet,
)
from workbench.read.base import LOADERS, Loader
from workbench.read.converted import NOTES as CONVERSION_NOTES
from workbench.read.excel import default_sheet as _default_sheet
from workbench.read.excel import sheet_names as _sheet_names
from workbench.read.markdown import parse_markdown
from workbench.read.table import NoNameColumn
from workbench.read.textio import display_name, file_info, read_file

T = TypeVar("T")

SUPPORTED = LOADERS.extensions()


def loader_for(name: str) -> Loader:
    suffix = PurePath(name).suffix.lower()
    found = LOADERS.for_extension(suffix)
    if found is not None:
        return found()
    if suffix == ".xls":
        raise WorkbenchError(f"{name} is an old Excel file (.xls). Open it in Excel and save it as .xlsx or .csv.")
    raise WorkbenchError(
        f"{name}: the workbench reads {', '.join(SUPPORTED)} files, not {suffix or 'files without an extension'}."
    )


# What the libraries under the loaders raise on a damaged or hostile file, in plain words. A file that
# is not what its name says can make a parser fail in ways no one listed, so the last few are broad.
READ_ERRORS: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str], ...] = (
    ((zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError), "it is damaged or cut short"),
    ((ParseError, ExpatError), "the XML inside it is damaged"),
    (csv.Error, "it is not readable as CSV"),
    (UnicodeError, "its text is damaged (it cannot be decoded)"),
    (OSError, "it could not be read"),
    ((KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError), "its contents are not laid out as "
     "such a file's should be"),
)


def _read_errors() -> tuple:
    """READ_ERRORS, and SQLite's once a library has imported it (before, none can be raised): not imported here,
    for the start-up of a command that reads no database."""
    sqlite3 = sys.modules.get("sqlite3")
    return READ_ERRORS + (((sqlite3.Error, "a database it needs is damaged"),) if sqlite3 is not None else ())


def read_boundary(name: str, call: Callable[[], T]) -> T:
    """Run a reader; any library error becomes a WorkbenchError naming the file and the cause.

    Every loader (and whatever reads a user's file) goes through here, so a damaged file gives
    the user one plain line and never a traceback.
    """
    try:
        return call()
    except WorkbenchError:
        raise
    except tuple(kind for kinds, _ in _read_errors() for kind in (kinds if isinstance(kinds, tuple) else (kinds,))) as error:
        why = next(words for kinds, words in _read_errors() if isinstance(error, kinds))
        detail = (error.strerror if isinstance(error, OSError) else None) or str(error) or type(error).__name__
        raise WorkbenchError(
            f"{name} cannot be read: {why} ({detail}). Open it in the program that made it and save it again."
        ) from None


def sniff(data: bytes) -> str | None:
    """What the bytes are, from their first bytes and a zip's directory: "pdf", "docx", "xlsx", "ole2", or None
    for text (or anything else, left to the loader its name picks)."""
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF-"):
        return "pdf"
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return "ole2"
    if data[:4] == b"PK\x03\x04":
        names = _zip_names(data)
        if "word/document.xml" in names:
            return "docx"
        if "xl/workbook.xml" in names:
            return "xlsx"
    return None


def _zip_names(data: bytes) -> set[str]:
    import io

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:  # the directory only: nothing is unpacked
            return set(archive.namelist()[: limits.MAX_ZIP_PARTS])
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        return set()


WHAT = {"pdf": ("a PDF", ".pdf"), "docx": ("a Word file", ".docx"), "xlsx": ("an Excel file", ".xlsx"),
        "ole2": ("an old Office file (.xls or .doc) or a password-protected one", None)}
FITS = {"pdf": (".pdf",), "docx": (".docx",), "xlsx": (".xlsx", ".xlsm"), "ole2": (".xlsx", ".xlsm", ".docx")}


def _check_content(data: bytes, name: str) -> None:
    """Refuse a file whose bytes are another kind than its name says, naming both (a PDF saved as .md)."""
    kind = sniff(data)
    suffix = PurePath(name).suffix.lower()
    if kind is None or suffix in FITS[kind]:
        return
    what, extension = WHAT[kind]
    rename = f" Rename it to {PurePath(name).stem}{extension} and open it again." if extension else (
        " Open it in the program that made it and save it as .xlsx, .docx or .csv.")
    raise WorkbenchError(f"{name} is {what}, not the {suffix or 'extensionless'} file its name says.{rename}")


def load_bytes(data: bytes, name: str, *, sheet: str | None = None, name_column: str | None = None) -> Document:
    """Read an uploaded file. ``name`` decides the loader by its extension, once the bytes agree with it."""
    loader = loader_for(name)
    _check_content(data, name)
    return read_boundary(name, lambda: loader.load(data, name, sheet=sheet, name_column=name_column))


def sheet_names(data: bytes, name: str) -> list[str]:
    """The sheets of an Excel file, in workbook order."""
    return read_boundary(name, lambda: _sheet_names(data, name))


def default_sheet(data: bytes, name: str) -> str:
    """The sheet read when none is chosen: the first with a product-name column (else the first)."""
    return read_boundary(name, lambda: _default_sheet(data, name))


def load_path(path: str | Path, *, sheet: str | None = None, name_column: str | None = None) -> Document:
    """Read a file from disk, with a plain error when it is missing."""
    path = Path(path)
    file_info(path)  # a folder is called a folder, before its name is taken for a file's without an extension
    loader_for(path.name)  # refuse an unknown extension before reading a possibly huge file
    return load_bytes(read_file(path), display_name(path.name), sheet=sheet, name_column=name_column)


__all__ = ["CONVERSION_NOTES", "SUPPORTED", "NoNameColumn", "default_sheet", "load_bytes", "load_path", "parse_markdown", "sheet_names"]
