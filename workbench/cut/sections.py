"""Cut at the headings: one chunk per section (for a spreadsheet, per product)."""

from __future__ import annotations

import random

from workbench.core.model import Chunk, Document, Section, Span
from workbench.cut.base import STRATEGIES, Strategy, trim


def own_text(document: Document, section: Section) -> Span | None:
    """A section's heading line and its own text, without trailing blank space."""
    if not section.facts:
        return None  # a heading with no text of its own lives on in its children's path
    return trim(document.text, (section.span[0], section.facts[-1].span[1]))


@STRATEGIES.register("heading")
class Heading(Strategy):
    order = 50
    label = "Cut at headings"
    explanation = "One piece per section or product, heading kept, so every fact stays with its product."

    def chunk(self, document: Document) -> list[Chunk]:
        return self._chunks(document, [([span], prefix) for span, prefix in self._pieces(document)])

    def _pieces(self, document: Document) -> list[tuple[Span, str]]:
        pieces = []
        for number, section in enumerate(document.sections):
            self._heard(number)
            span = own_text(document, section)
            if span:
                pieces.append((span, self.prefix(section)))
        return pieces

    def prefix(self, section: Section) -> str:
        return ""


@STRATEGIES.register("breadcrumb")
class Breadcrumb(Heading):
    order = 60
    label = "Cut at headings, with their path"
    explanation = "As cut at the headings, each piece starting with where it sits: Title > Section > Subsection."

    def prefix(self, section: Section) -> str:
        return section.breadcrumb + "\n"


@STRATEGIES.register("placebo")
class Placebo(Heading):
    order = 70
    label = "Shuffled-headings control"
    control = True
    explanation = (
        "A control: the same pieces with the paths shuffled among them. If this scores like the real "
        "paths, the gain came from extra words, not from the right ones."
    )

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed

    def chunk(self, document: Document) -> list[Chunk]:
        pieces = self._pieces(document)
        prefixes = [Breadcrumb.prefix(self, section) for section in document.sections if own_text(document, section)]
        random.Random(self.seed).shuffle(prefixes)
        return self._chunks(document, [([span], prefix) for (span, _), prefix in zip(pieces, prefixes)])
