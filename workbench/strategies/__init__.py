# isort: skip_file
"""Chunking strategies, registered by the stable ids listed in docs/DESIGN.md."""

from __future__ import annotations

from ..model import WorkbenchError
# Imported in the listing order (docs/DESIGN.md, "A chunking strategy"), which is the order they are listed and run in.
from . import windows, sentence, recursive, sections, concern, controls, langchain, structure  # noqa: F401,I001  (registers the strategies)
from .base import STRATEGIES, Strategy


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


__all__ = ["STRATEGIES", "Strategy", "make_strategy"]
