"""Finished results kept for the life of the app, so a reload or a second tab shows them again.

A result is filed under the ``Stamp`` it was computed from (file bytes, sheet, questions and
settings), so it is only ever found for exactly those inputs; a changed file or question misses.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Remembered(Generic[K, V]):
    """A small least-recently-used store shared by every browser session of one app (hence the lock)."""

    def __init__(self, limit: int = 16) -> None:
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.limit:  # a result can be large: keep the recent ones only
                self._items.popitem(last=False)

    def items(self) -> list[tuple[K, V]]:
        """Every (key, value), the most recently used last (a copy: the store may change meanwhile)."""
        with self._lock:
            return list(self._items.items())

    def __contains__(self, key: K) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
