"""Fixed-size character windows, blind to the document's structure."""

from __future__ import annotations

from workbench.core.model import Chunk, Document
from workbench.cut.base import STRATEGIES, Strategy, check_size

# The usual default of a bot's splitter: every verdict compares the recommended setup with windows of this size.
WINDOW_SIZE = 300


@STRATEGIES.register("fixed")
class Fixed(Strategy):
    order = 10
    label = "Fixed-size windows"
    sized_label = "{size}-character windows"
    default_size = WINDOW_SIZE
    explanation = ("Cuts after a fixed number of characters (the size set above), wherever that falls, even "
                   "mid-word or mid-product.")
    params = ("size",)

    def __init__(self, size: int = WINDOW_SIZE) -> None:
        self.size = check_size(size)
        self.overlap = 0

    def chunk(self, document: Document) -> list[Chunk]:
        step = self.size - self.overlap
        length = len(document.text)
        starts = range(0, max(length - self.overlap, 1), step)
        return self._chunks(document, [([(start, min(start + self.size, length))], "") for start in starts])


@STRATEGIES.register("fixed-overlap")
class FixedOverlap(Fixed):
    order = 20
    label = "Fixed-size windows with overlap"
    sized_label = "{size}-character windows with overlap"
    explanation = "Fixed windows where each one repeats the end of the one before, the usual patch for cut sentences."
    params = ("size", "overlap")

    def __init__(self, size: int = WINDOW_SIZE, overlap: int | None = None) -> None:
        super().__init__(size)
        if overlap is None:
            overlap = round(self.size * 0.15)
        if isinstance(overlap, bool) or not isinstance(overlap, int) or overlap < 0:
            raise ValueError(f"overlap must be a whole number of characters, 0 or more, not {overlap!r}")
        if overlap >= self.size:
            raise ValueError(f"overlap ({overlap}) must be smaller than the size ({self.size})")
        self.overlap = overlap
