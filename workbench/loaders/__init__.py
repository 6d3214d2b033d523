"""Loaders turn a file's bytes into a Document; one loader per kind of file."""

from __future__ import annotations

from pathlib import Path, PurePath

from ..model import Document, WorkbenchError
from ..textio import read_file
from .markdown import MarkdownLoader, parse_markdown
from .spreadsheet import CsvLoader, XlsxLoader, sheet_names

LOADERS = (MarkdownLoader(), CsvLoader(), XlsxLoader())
SUPPORTED = tuple(ext for loader in LOADERS for ext in loader.extensions)


def loader_for(name: str):
    suffix = PurePath(name).suffix.lower()
    for loader in LOADERS:
        if suffix in loader.extensions:
            return loader
    if suffix == ".xls":
        raise WorkbenchError(f"{name} is an old Excel file (.xls). Open it in Excel and save it as .xlsx or .csv.")
    raise WorkbenchError(
        f"{name}: the workbench reads {', '.join(SUPPORTED)} files, not {suffix or 'files without an extension'}."
    )


def load_bytes(data: bytes, name: str, *, sheet: str | None = None, name_column: str | None = None) -> Document:
    """Read an uploaded file. ``name`` decides the loader by its extension."""
    return loader_for(name).load(data, name, sheet=sheet, name_column=name_column)


def load_path(path: str | Path, *, sheet: str | None = None, name_column: str | None = None) -> Document:
    """Read a file from disk, with a plain error when it is missing."""
    path = Path(path)
    loader_for(path.name)  # refuse an unknown extension before reading a possibly huge file
    return load_bytes(read_file(path), path.name, sheet=sheet, name_column=name_column)


__all__ = ["SUPPORTED", "load_bytes", "load_path", "parse_markdown", "sheet_names"]
