"""Wall time per stage of an evaluation, for the benchmark and the time estimate."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Timings:
    """Wall time per stage, for the benchmark."""

    STAGES = ("load", "chunk", "index", "embed", "search", "rerank", "grade")

    def __init__(self) -> None:
        self.seconds: dict[str, float] = dict.fromkeys(self.STAGES, 0.0)
        self.model_texts = 0  # distinct texts the run's plan gave the model (read or found in the cache)
        self.shared_texts = 0  # of those, texts more than one cut holds: read once for all of them

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds


class Clock:
    """Charges elapsed time to a stage, less what the encoder spent (charged to "embed")."""

    def __init__(self, timings: Timings, encoder_seconds: Callable[[], float] | None) -> None:
        """``encoder_seconds`` is None when the run uses no model: there is nothing to take out."""
        self.timings = timings
        self.encoder_seconds = encoder_seconds

    def run(self, stage: str, work: Callable[[], T]) -> T:
        if self.encoder_seconds is None:  # a word search's run: this is asked five times a question
            before = time.perf_counter()
            result = work()
            self.timings.add(stage, time.perf_counter() - before)
            return result
        before, encoding = time.perf_counter(), self.encoder_seconds()
        result = work()
        spent_encoding = self.encoder_seconds() - encoding
        self.timings.add("embed", spent_encoding)
        self.timings.add(stage, time.perf_counter() - before - spent_encoding)
        return result
