"""The settings a run starts from unless asked otherwise: one ``Defaults`` object, ``DEFAULTS``.

The command line's ``evaluate`` and ``sweep`` (their flags' defaults and ``--help``), the app's Results page (its
settings on a first visit) and ``bench/default_setup.py`` all read ``DEFAULTS``, so the same file and questions
get the same verdict everywhere (docs/DESIGN.md, "The default setups"). Each reads the module's attribute when it
starts (``defaults.DEFAULTS``), never a copy taken at import, so a test that replaces it reaches all three.

The cuts, searches and re-checks are the ones that won on real files; ``fixed`` (300-character windows) is always
among the cuts: every verdict compares the recommended setup with it. The refusal threshold is fitted on the
questions ("auto"), as the verdict expects a bot that hands what its file cannot answer to a person.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.model import Settings
from workbench.cut.windows import WINDOW_SIZE


@dataclass(frozen=True)
class Defaults:
    strategies: tuple[str, ...] = ("fixed", "heading", "breadcrumb", "small-to-big")
    retrievers: tuple[str, ...] = ("bm25", "dense", "hybrid")
    rerankers: tuple[str, ...] = ("none", "maxsim")
    top_k: int = 5  # pieces handed to the bot per question
    size: int = WINDOW_SIZE  # characters per piece, for the cuts that take a size (windows, recursive splitting)
    overlap: int = 45  # characters a window repeats of the one before (fixed-overlap's 15 % of 300)
    threshold: float | str | None = "auto"  # refuse below this confidence; "auto": fitted on the questions
    depth: int = 50  # candidates a re-check reads again

    def settings(self) -> Settings:
        """A fresh ``Settings`` of these values (its own lists: a caller may change them)."""
        return Settings(list(self.strategies), list(self.retrievers), list(self.rerankers), top_k=self.top_k,
                        size=self.size, overlap=self.overlap, threshold=self.threshold, depth=self.depth)


def overlap_for(size: int, overlap: int | None = None) -> int:
    """The overlap a run uses with pieces of ``size``: the one asked for, else the default, at most half the size
    (so a small size never makes the default overlap an error), as the app's overlap slider is held to half the
    size."""
    return overlap if overlap is not None else min(DEFAULTS.overlap, size // 2)


DEFAULTS = Defaults()
