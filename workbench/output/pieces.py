"""The pieces of one cut, in the shapes pipelines load: JSON lines and CSV.

One record per piece, in document order::

    {"id": ..., "text": ..., "metadata": {"source": file name, "section": title,
     "breadcrumb": "A › B", "start": first char, "end": end, "strategy": id}}

``text`` is what the bot indexes (a breadcrumb prefix included); ``start``/``end`` are
offsets into the document as read (for a converted Word, web or PDF file: the converted
text), end exclusive, so for a one-part piece ``text`` without its prefix is
``document.text[start:end]``. In a knowledge base, ``source`` is the piece's own file and
``start``/``end`` point into that file's text, so one file holds the whole base.
"""

from __future__ import annotations

import json

from workbench.core.exports import csv_text
from workbench.core.model import Chunk, Document
from workbench.grade.grading import PieceSections

CRUMB = " › "
CSV_COLUMNS = ("id", "text", "source", "section", "breadcrumb", "start", "end", "strategy")


def piece_records(document: Document, chunks: list[Chunk]) -> list[dict]:
    """The records of a cut, in document order."""
    sections = PieceSections(document, chunks)
    records = []
    order = sorted(range(len(chunks)), key=lambda i: (chunks[i].start, i))
    for index in order:
        chunk = chunks[index]
        section = sections.of(chunk)
        source, at, id = document.name, 0, f"{document.name}:{chunk.id}"
        found = document.file_at(chunk.start) if document.files else None
        if found is not None:  # a knowledge base: the piece's own file, offsets into that file's text
            source, at, id = found[0].name, found[0].start, chunk.id  # the id already starts with the file
        records.append(
            {
                "id": id,
                "text": chunk.text,
                "metadata": {
                    "source": source,
                    "section": section.title if section else "",
                    "breadcrumb": CRUMB.join([*section.path, section.title]) if section else "",
                    "start": chunk.start - at,
                    "end": max(end for _, end in chunk.spans) - at,
                    "strategy": chunk.strategy,
                },
            }
        )
    return records


def to_jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def to_csv(records: list[dict]) -> str:
    """One row per piece; cells a spreadsheet would run as formulas get an apostrophe (exports.py),
    so load the JSON lines, not the CSV, where the text must be exact."""
    rows = [CSV_COLUMNS]
    for record in records:
        meta = record["metadata"]
        rows.append((record["id"], record["text"], *(meta[column] for column in CSV_COLUMNS[2:])))
    return csv_text(rows)


def export_pieces(document: Document, chunks: list[Chunk], format: str) -> str:
    records = piece_records(document, chunks)
    return to_jsonl(records) if format == "jsonl" else to_csv(records)
