"""Controls: cuts that tell whether a strategy's gain is real."""

from __future__ import annotations

import random

from workbench.core.model import Chunk, Document
from workbench.cut.base import STRATEGIES, Strategy, trim
from workbench.cut.sections import Heading


@STRATEGIES.register("random")
class RandomCut(Strategy):
    order = 90
    label = "Random-cuts control"
    control = True
    explanation = (
        "A control: pieces as long as the heading cut's, but cut at random places. If the heading cut "
        "beats this, the gain comes from where it cuts, not from the size of its pieces."
    )

    def __init__(self, seed: int = 7) -> None:
        self.seed = seed

    def chunk(self, document: Document) -> list[Chunk]:
        lengths = [len(chunk.body) for chunk in Heading().chunk(document)] or [len(document.text)]
        rng = random.Random(self.seed)
        pieces, start = [], 0
        while start < len(document.text):
            end = min(start + rng.choice(lengths), len(document.text))
            pieces.append(([(start, end)], ""))
            start = end
        return self._chunks(document, pieces)


@STRATEGIES.register("whole")
class Whole(Strategy):
    order = 100
    label = "Whole-document control"
    control = True
    explanation = (
        "A control: the entire document as one piece, as if pasted into the bot's prompt. It always holds "
        "the answer, buried among every other product: the ceiling for finding, the floor for clean answers."
    )

    def chunk(self, document: Document) -> list[Chunk]:
        span = trim(document.text, (0, len(document.text)))
        return self._chunks(document, [([span], "")] if span else [])
