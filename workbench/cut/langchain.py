"""What many bots run today: LangChain's RecursiveCharacterTextSplitter, the real library.

These setups exist to be compared against, so they call ``langchain-text-splitters``
itself rather than imitate it. The library returns strings; each piece's place is
found again by searching forward from the previous piece (never from the start of
the text), which is exact even when lines repeat: see ``locate``.
"""

from __future__ import annotations

import re

from workbench.core.model import Chunk, Document, Span, WorkbenchError
from workbench.cut.base import STRATEGIES, Strategy

NON_BLANK = re.compile(r"\S")  # \s is what str.strip() strips: Unicode white space


def locate(text: str, pieces: list[str], overlap: int) -> list[Span]:
    """The span of each piece, in order, found from the previous piece's position.

    The splitter emits pieces in document order, each starting after the previous one's
    start and no further back than ``overlap`` characters before its end (that is all it
    carries over), and leaves out only blank space between them. So the next piece is
    searched from ``max(previous start + 1, previous end - overlap)`` (or is a longer piece from the previous
    start) and must begin by
    the first non-blank character after the previous end; anything else means the offsets
    cannot be trusted, and the run stops rather than grade wrong pieces.
    """
    spans: list[Span] = []
    previous: Span | None = None
    for piece in pieces:
        # The first non-blank character at or after the previous end (found in place: slicing off the
        # rest of the text for every piece made a 20 MB file take 20 s).
        after = 0 if previous is None else previous[1]
        found = NON_BLANK.search(text, after)
        latest = found.start() if found else len(text)
        earliest = 0 if previous is None else max(previous[0] + 1, previous[1] - overlap)
        start = text.find(piece, earliest, latest + len(piece))
        if (
            start < 0
            and previous is not None
            and previous[1] - previous[0] < len(piece)
            and text.startswith(piece, previous[0])
        ):
            # A line longer than the piece size is split at its spaces, and the overlap can then carry the
            # previous piece whole: "- item" then "- item 495", both from the same start (a deeply indented list).
            start = previous[0]
        if start < 0:
            raise AssertionError(
                f"LangChain returned a piece that is not in the text where it should be: {piece[:60]!r}"
            )
        spans.append((start, start + len(piece)))
        previous = spans[-1]
    return spans


class LangChainRecursive(Strategy):
    """RecursiveCharacterTextSplitter with its own separators (blank line, line, space, character)."""

    chunk_size = 4000
    chunk_overlap = 200

    def chunk(self, document: Document) -> list[Chunk]:
        try:  # imported here: the library pulls in langchain-core, which the other strategies never need
            from langchain_text_splitters import RecursiveCharacterTextSplitter
        except ImportError:
            raise WorkbenchError(
                f"{self.id} needs the langchain-text-splitters package: pip install -r requirements.txt"
            ) from None
        splitter = RecursiveCharacterTextSplitter(chunk_size=self.chunk_size, chunk_overlap=self.chunk_overlap)
        pieces = splitter.split_text(document.text)
        spans = locate(document.text, pieces, self.chunk_overlap)
        return self._chunks(document, [([span], "") for span in spans])


@STRATEGIES.register("langchain-recursive")
class LangChainDefault(LangChainRecursive):
    order = 110
    label = "LangChain default (4,000 / 200)"
    explanation = (
        "What a bot built with LangChain does when nobody changed the settings: its recursive splitter "
        "with the library's defaults, pieces of up to 4,000 characters repeating 200 of the one before."
    )


@STRATEGIES.register("langchain-recursive-1000")
class LangChainCommon(LangChainRecursive):
    order = 120
    chunk_size = 1000
    label = "LangChain common (1,000 / 200)"
    explanation = (
        "LangChain's recursive splitter as most tutorials set it up: pieces of up to 1,000 characters, "
        "each repeating up to 200 of the one before."
    )
