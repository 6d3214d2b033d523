"""A knowledge base: several files read one by one and joined into one text, as a shop's bot searches them.

Each file keeps its own ``Document`` (``FilePart.document``); the base is one more ``Document`` of kind
``"base"`` whose text is the files' texts one after another, so grading and search work on it unchanged.
Pieces are cut per file and shifted in (``shift_chunks``), so none spans two files. See docs/DESIGN.md,
"A knowledge base of several files".
"""

from __future__ import annotations

import re
from dataclasses import replace

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


NAMED_FILES = 3  # the files a message names when it names a knowledge base; the rest are counted


def label(document: Document) -> str:
    """The document as a message names it: a file's name, or a base's files' names (" + "), or for a base of many
    files the first few and how many more, so one line never lists 300 names."""
    if len(document.files) <= NAMED_FILES:
        return document.name
    names = ", ".join(part.name for part in document.files[:NAMED_FILES])
    return f"the knowledge base of {len(document.files):,} files ({names} and {len(document.files) - NAMED_FILES:,} more)"


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

    Before any file is read, every one is looked at on disk: a missing file, a folder or an unknown kind is named,
    the same file named twice (another spelling of its path, or a link to it) is kept once with a note, and the
    files' sizes together are held to the knowledge base's limit (``limits.check_base``), so a base too big is
    refused without reading it. ``sheet`` and ``name_column`` apply to each spreadsheet among them."""
    from pathlib import Path

    from workbench.core import limits
    from workbench.read.base import LOADERS
    from workbench.read.loaders import load_path, loader_for
    from workbench.read.textio import display_name, file_info

    seen: dict[tuple[int, int], Path] = {}
    kept: list[tuple[Path, int]] = []
    notes: list[str] = []
    for path in map(Path, paths):
        info = file_info(path)
        if len(paths) > 1:
            loader_for(path.name)  # an unknown kind among many is named before any file is read
        first = seen.setdefault((info.st_dev, info.st_ino), path)
        if first is not path:
            twice = (f"{display_name(str(path))} is named twice" if str(path) == str(first) else
                     f"{display_name(str(path))} is the same file as {display_name(str(first))} (a link to it or "
                     "another way of writing its path)")
            notes.append(f"{twice}: it is read once")
            continue
        kept.append((path, info.st_size))
    if len(kept) > 1:
        limits.check_base([(display_name(path.name), size) for path, size in kept])
    documents = []
    characters = 0
    for path, _ in kept:
        loader = LOADERS.for_name(path.name)  # the loader's kind says whether a sheet and column apply
        table = len(kept) == 1 or (loader is not None and kind_named(loader.kind).table)
        documents.append(load_path(path, sheet=sheet if table else None, name_column=name_column if table else None))
        characters += len(documents[-1].text)
        if len(kept) > 1:
            limits.check_base_text(documents[-1].name, characters)
    document = documents[0] if len(documents) == 1 else combine(documents)
    return replace(document, warnings=(*notes, *document.warnings)) if notes else document
