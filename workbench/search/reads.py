"""What a setup reads with, answered once for a grid: words alone, or a language model.

Each retriever and reranker class says it of itself (``needs_encoder``: the shared, process-wide model;
``uses_model()``: any model, the shared one or a reranker's own). Two questions follow, and everything that
asks them (the run, its estimate, its stages, the app's "quick" and the bot-ready file's grading) asks here:

- ``needs_encoder``: must the shared model load? The run loads it, the estimate counts its texts to read.
- ``uses_model``: is it more than a word search? A word search is quick (seconds, run on its own as the inputs
  change, the first stage of a staged run); a setup with any model, a cross-encoder of the user's own
  included, is not.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.core.model import Settings
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS


def needs_encoder(settings: Settings) -> bool:
    """Whether these settings read with the shared language model (so it must load, and a first run takes longer)."""
    return (any(RETRIEVERS.get(r).needs_encoder for r in settings.retrievers)
            or any(RERANKERS.get(r).needs_encoder for r in settings.rerankers))


def any_uses_model(retrievers: Iterable[str], rerankers: Iterable[str]) -> bool:
    """Whether any of these searches or re-checks reads with a language model."""
    return (any(RETRIEVERS.get(r).uses_model() for r in retrievers)
            or any(RERANKERS.get(r).uses_model() for r in rerankers))


def uses_model(settings: Settings) -> bool:
    """Whether any setup of these settings reads with a language model: not a word search, so not quick."""
    return any_uses_model(settings.retrievers, settings.rerankers)
