"""One paragraph per chunk: the cut most text splitters make first, at blank lines."""

from __future__ import annotations

import re

from workbench.core.model import Chunk, Document, Span
from workbench.cut.base import STRATEGIES, Strategy, trim

BLANK_RUN = re.compile(r"\n[ \t]*\n\s*")  # a blank line (and any more after it) ends a paragraph
HEADING = re.compile(r"#{1,6}[ \t]")


@STRATEGIES.register("paragraph")
class Paragraph(Strategy):
    order = 35
    label = "One paragraph each"
    explanation = ("Cuts at every blank line, so a paragraph, a list or a product's block of lines is one piece; a "
                   "heading alone on its line stays with the paragraph under it.")

    def chunk(self, document: Document) -> list[Chunk]:
        text = document.text
        pieces: list[Span] = []
        start = 0
        for number, gap in enumerate(BLANK_RUN.finditer(text)):
            self._heard(number)
            pieces.append((start, gap.start()))
            start = gap.end()
        pieces.append((start, len(text)))
        merged: list[Span] = []
        held: int | None = None  # the start of a heading paragraph waiting for the paragraph under it
        for piece in pieces:
            trimmed = trim(text, piece)  # no blank space at either end; None when nothing else is left
            if trimmed is None:
                continue
            begin, end = trimmed
            if held is not None:
                begin, held = held, None
            if HEADING.match(text, begin) and "\n" not in text[begin:end].strip():
                held = begin  # a lone heading line: it opens the next paragraph
                continue
            merged.append((begin, end))
        if held is not None:
            merged.append((held, len(text.rstrip())))  # a heading with nothing under it
        return self._chunks(document, (([span], "") for span in merged))
