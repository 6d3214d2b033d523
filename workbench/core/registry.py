"""One registry per extension point: classes registered under stable ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from workbench.core.model import WorkbenchError

T = TypeVar("T")


class Registry(Generic[T]):
    """Maps stable ids to classes; refuses a duplicate id and names unknown ones."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._classes: dict[str, type[T]] = {}

    def register(self, id: str) -> Callable[[type[T]], type[T]]:
        def decorate(cls: type[T]) -> type[T]:
            if id in self._classes:
                raise ValueError(f"{self.what} id {id!r} is already registered")
            cls.id = id  # type: ignore[attr-defined]
            self._classes[id] = cls
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
