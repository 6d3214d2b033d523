"""A knowledge base: several files read one by one and joined into one text, as a shop's bot searches them.

Each file keeps its own ``Document`` (``FilePart.document``); the base is one more ``Document`` of kind
``"base"`` whose text is the files' texts one after another, so grading and search work on it unchanged.
Pieces are cut per file and shifted in (``shift_chunks``), so none spans two files. See docs/DESIGN.md,
"A knowledge base of several files".
"""

from __future__ import annotations

import re

from workbench.core.kinds import kind_named
from workbench.core.model import (
    Chunk,
    Document,
    Fact,
    FilePart,
    Section,
    WorkbenchError,
)

BASE_GAP = "\n\n"  # between two files' texts: no file's line runs into the next file's
FILE_MARK = "›"  # "policies.md › Returns": the file, then the section
KIND = "base"


def combine(documents: list[Document], name: str | None = None) -> Document:
    """One base of several files. Names must differ: they prefix the pieces' ids and name the files in every output."""
    if len(documents) < 2:
        raise WorkbenchError("a knowledge base takes two files or more; check one file on its own")
    seen: dict[str, int] = {}
    for document in documents:
        key = document.name.lower()
        if key in seen:
            raise WorkbenchError(f"two files of the knowledge base are called {document.name}; rename one of them")
        seen[key] = 1
    parts: list[FilePart] = []
    sections: list[Section] = []
    warnings: list[str] = []
    texts: list[str] = []
    at = 0
    for number, document in enumerate(documents, start=1):
        if texts:
            at += len(BASE_GAP)
        parts.append(FilePart(document.name, at, at + len(document.text), document, number))
        sections.extend(_shift_section(section, at, number) for section in document.sections)
        warnings.extend(f"{document.name}: {warning}" for warning in document.warnings)
        texts.append(document.text)
        at += len(document.text)
    return Document(
        name=name or " + ".join(d.name for d in documents),
        kind=KIND,
        text=BASE_GAP.join(texts),
        sections=tuple(sections),
        warnings=tuple(warnings),
        risky_links=tuple(link for d in documents for link in d.risky_links),
        files=tuple(parts),
    )


def section_id(number: int, own: str) -> str:
    return f"f{number}.{own}"


def _shift_section(section: Section, at: int, number: int) -> Section:
    new_id = section_id(number, section.id)
    return Section(
        id=new_id,
        heading=section.heading,
        level=section.level,
        path=section.path,
        span=(section.span[0] + at, section.span[1] + at),
        heading_span=(section.heading_span[0] + at, section.heading_span[1] + at),
        facts=tuple(
            Fact((f.span[0] + at, f.span[1] + at), new_id, column=f.column, row=f.row) for f in section.facts
        ),
    )


def shift_chunks(part: FilePart, chunks: list[Chunk]) -> list[Chunk]:
    """A file's pieces placed in the base: spans moved by the file's start, ids prefixed by its name."""
    at = part.start
    return [
        Chunk(
            id=f"{part.name}:{chunk.id}",
            strategy=chunk.strategy,
            spans=tuple((start + at, end + at) for start, end in chunk.spans),
            text=chunk.text,
            prefix=chunk.prefix,
            search=chunk.search,
        )
        for chunk in chunks
    ]


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name else name


def find_file(document: Document, text: str) -> FilePart | None:
    """The base's file named by ``text``: its whole name, else its stem, ignoring case."""
    wanted = re.sub(r"\s+", " ", text).strip().lower()
    for match in (lambda p: p.name.lower() == wanted, lambda p: _stem(p.name).lower() == wanted):
        found = [part for part in document.files if match(part)]
        if found:
            return found[0]
    return None


def split_source(source: str) -> tuple[str, str] | None:
    """ "policies.md › Returns" -> ("policies.md", "Returns"); None when no file is named."""
    if FILE_MARK not in source:
        return None
    file, section = source.split(FILE_MARK, 1)
    return file.strip(), section.strip()


def load_base(paths: list, *, sheet: str | None = None, name_column: str | None = None) -> Document:
    """Read several files from disk into one base (one file: that file's own Document, not wrapped).

    ``sheet`` and ``name_column`` apply to each spreadsheet among them."""
    from pathlib import Path

    from workbench.read.base import LOADERS
    from workbench.read.loaders import load_path

    documents = []
    for path in paths:
        loader = LOADERS.for_name(Path(path).name)  # the loader's kind says whether a sheet and column apply
        table = len(paths) == 1 or (loader is not None and kind_named(loader.kind).table)
        documents.append(load_path(path, sheet=sheet if table else None, name_column=name_column if table else None))
    return documents[0] if len(documents) == 1 else combine(documents)
