"""Recursive splitting: cut at the coarsest boundary that keeps pieces under the size.

Written on offsets rather than with a text-splitter library: a library returns
strings whose positions must then be searched for again (and repeated lines make
that search ambiguous); splitting positions directly gives exact spans.
"""

from __future__ import annotations

import re

from workbench.core.model import Chunk, Document, Span
from workbench.cut.base import SENTENCE_END, STRATEGIES, Strategy, check_size, trim

BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")
LINE = re.compile(r"\n")
WORD = re.compile(r"\s+")


@STRATEGIES.register("recursive")
class Recursive(Strategy):
    order = 40
    label = "Recursive splitting"
    explanation = (
        "Cuts at headings first, then blank lines, then line ends, then sentences, then words, "
        "only as far as needed to stay under the size."
    )
    params = ("size",)

    def __init__(self, size: int = 500) -> None:
        self.size = check_size(size)

    def chunk(self, document: Document) -> list[Chunk]:
        headings = sorted(section.span[0] for section in document.sections)
        spans = self._split(document.text, (0, len(document.text)), 0, headings)
        trimmed = [piece for piece in (trim(document.text, span) for span in spans) if piece]
        return self._chunks(document, [([span], "") for span in trimmed])

    def _cuts(self, text: str, span: Span, level: int, headings: list[int]) -> list[int]:
        """Positions inside ``span`` where a level-``level`` boundary falls."""
        start, end = span
        if level == 0:
            return [position for position in headings if start < position < end]
        pattern = (BLANK_LINE, LINE, SENTENCE_END, WORD)[level - 1]
        return [match.end() for match in pattern.finditer(text, start, end) if start < match.end() < end]

    def _split(self, text: str, span: Span, level: int, headings: list[int]) -> list[Span]:
        start, end = span
        if end - start <= self.size:
            return [span]
        if level > 4:  # one word longer than the size: cut it hard
            return [(position, min(position + self.size, end)) for position in range(start, end, self.size)]
        cuts = self._cuts(text, span, level, headings)
        if not cuts:
            return self._split(text, span, level + 1, headings)
        pieces = list(zip([start, *cuts], [*cuts, end]))
        result: list[Span] = []
        current: Span | None = None
        for piece in pieces:
            if piece[1] - piece[0] > self.size:
                if current:
                    result.append(current)
                    current = None
                result.extend(self._split(text, piece, level + 1, headings))
            elif current and piece[1] - current[0] <= self.size:
                current = (current[0], piece[1])
            else:
                if current:
                    result.append(current)
                current = piece
        if current:
            result.append(current)
        return result
