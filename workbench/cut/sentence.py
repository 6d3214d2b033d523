"""One sentence per chunk: the "too small" failure."""

from __future__ import annotations

from workbench.core.model import Chunk, Document
from workbench.cut.base import STRATEGIES, Strategy, sentence_spans


@STRATEGIES.register("sentence")
class Sentence(Strategy):
    order = 30
    label = "One sentence each"
    explanation = "Every sentence or line is its own piece, so a fact loses the product it belongs to."

    def chunk(self, document: Document) -> list[Chunk]:
        spans = sentence_spans(document.text, (0, len(document.text)), self._heard)
        return self._chunks(document, (([span], "") for span in spans))  # one at a time: 888,000 on a big file
