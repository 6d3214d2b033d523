"""One registry per extension point: classes registered under stable ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from workbench.core.model import WorkbenchError

T = TypeVar("T")


class Registry(Generic[T]):
    """Maps stable ids to classes; refuses a duplicate id and names unknown ones.

    Each class says where it is listed with an ``order`` number (lower first): the order the app and the
    command line list and run them in, and, among setups that tie, the one preferred (plainer first). It is
    a fact of the class, not of which module happened to be imported first, so two classes may not share one.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self._classes: dict[str, type[T]] = {}

    def register(self, id: str) -> Callable[[type[T]], type[T]]:
        def decorate(cls: type[T]) -> type[T]:
            if id in self._classes:
                raise ValueError(f"{self.what} id {id!r} is already registered")
            order = getattr(cls, "order", None)
            if isinstance(order, bool) or not isinstance(order, int):
                raise ValueError(f"{self.what} {id!r} needs a whole-number order (where it is listed), not {order!r}")
            taken = next((other for other, known in self._classes.items() if known.order == order), None)  # type: ignore[attr-defined]
            if taken is not None:
                raise ValueError(f"{self.what} {id!r} has order {order}, already {taken!r}'s")
            cls.id = id  # type: ignore[attr-defined]
            self._classes[id] = cls
            self._classes = dict(sorted(self._classes.items(), key=lambda item: item[1].order))  # type: ignore[attr-defined]
            return cls

        return decorate

    def ids(self) -> list[str]:
        return list(self._classes)

    def get(self, id: str) -> type[T]:
        try:
            return self._classes[id]
        except KeyError:
            raise WorkbenchError(f"unknown {self.what} {id!r}; choose from {', '.join(self._classes)}") from None

    def parse_list(self, value: str) -> list[str]:
        """Split a comma-separated list of ids, checking each one."""
        ids = [part.strip() for part in value.split(",") if part.strip()]
        if not ids:
            raise WorkbenchError(f"no {self.what} given; choose from {', '.join(self._classes)}")
        for id in ids:
            self.get(id)
        return ids
