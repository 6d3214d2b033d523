"""Chunking strategies, registered by the stable ids listed in docs/DESIGN.md."""

from __future__ import annotations

from collections.abc import Callable

from workbench.core.model import Chunk, Document, WorkbenchError, check_chunk

# Each module registers its strategies; each class's ``order``, not this line, sets the listing (docs/DESIGN.md).
from workbench.cut import (  # noqa: F401  (registers the strategies)
    concern,
    controls,
    langchain,
    paragraph,
    recursive,
    sections,
    sentence,
    structure,
    windows,
)
from workbench.cut.base import STRATEGIES, Strategy


def make_strategy(id: str, *, size: int | None = None, overlap: int | None = None) -> Strategy:
    """Build a registered strategy, passing only the parameters it takes.

    A bad parameter raises ``WorkbenchError`` naming the value.
    """
    cls = STRATEGIES.get(id)
    given = {"size": size, "overlap": overlap}
    kwargs = {name: value for name, value in given.items() if name in cls.params and value is not None}
    try:
        return cls(**kwargs)
    except ValueError as error:
        raise WorkbenchError(f"{id}: {error}") from None


def chunk_document(
    document: Document,
    strategy: str,
    size: int | None = None,
    overlap: int | None = None,
    between: Callable[[], None] | None = None,
) -> list[Chunk]:
    """Cut the document with one strategy and check every offset.

    ``between`` is a chance to stop, given every 2,000 sections, lines or pieces while cutting and checking.
    """
    cutter = make_strategy(strategy, size=size, overlap=overlap)
    cutter.between = between
    if document.files:  # a knowledge base: each file cut on its own, so no piece spans two files
        from workbench.read.base_of_files import shift_chunks

        chunks = [chunk for part in document.files for chunk in shift_chunks(part, cutter.chunk(part.document))]
    else:
        chunks = cutter.chunk(document)
    for number, chunk in enumerate(chunks):
        cutter._heard(number)  # the strategy's own stop hook: the same rule while cutting and checking
        check_chunk(document, chunk)
    return chunks


__all__ = ["STRATEGIES", "Strategy", "chunk_document", "make_strategy"]
