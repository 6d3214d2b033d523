"""Every evaluation saved to a local SQLite file, so a shop can see its score move as the list changes.

Also the regression gate: fail a scheduled job when the new run falls below
fixed bars or below the last saved run of the same document.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import math
import sqlite3
from dataclasses import asdict
from pathlib import Path

from workbench.core.model import Settings, WorkbenchError
from workbench.core.results import Evaluation
from workbench.store.paths import history_path as default_path  # noqa: F401  (its callers' name)
from workbench.store.storage import LOCKED_PATIENCE, check_ours, connect, tables_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    document TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    questions_hash TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    strategy TEXT NOT NULL,
    retriever TEXT NOT NULL,
    reranker TEXT NOT NULL,
    clean INTEGER, mixed INTEGER, missed INTEGER, refused INTEGER, answerable INTEGER,
    hit_rate REAL, mrr REAL, ndcg REAL, refusal_accuracy REAL
);
CREATE INDEX IF NOT EXISTS runs_by_document ON runs(document, id);
"""
METRICS = ("clean", "mixed", "missed", "refused", "answerable", "hit_rate", "mrr", "ndcg", "refusal_accuracy")
GATED = ("clean", "hit_rate", "mrr", "ndcg", "refusal_accuracy")  # higher is better


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class History:
    """The run history. Every SQLite or disk error (a damaged page, a full disk, a folder in its place)
    comes out as a WorkbenchError naming the file, so callers decide: the CLI and app only warn."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_path()
        check_ours(self.path, tables_of(SCHEMA), "the run history")  # a user's own file is refused, never replaced
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = connect(self.path, SCHEMA, patience=LOCKED_PATIENCE)
        except (OSError, sqlite3.Error) as error:
            raise WorkbenchError(f"the run history {self.path} cannot be opened: {error}") from None

    @contextlib.contextmanager
    def _reading_or_writing(self, doing: str):
        try:
            yield
        except (OSError, sqlite3.Error) as error:
            raise WorkbenchError(f"the run history {self.path} could not be {doing}: {error}") from None

    def save(self, evaluation: Evaluation, questions_hash: str, repeat: bool = True) -> int:
        """Store one evaluation; returns its run number.

        ``repeat=False`` (the app): when this file, these questions and these settings are already saved,
        return that run instead, since grading is deterministic. Opening the app recomputes the
        quick results, and each opening must not add a point to the history chart.
        """
        settings = asdict(evaluation.settings)
        inputs = (evaluation.document.name, content_hash(evaluation.document.text), questions_hash,
                  json.dumps(settings, default=str))
        with self._reading_or_writing("written"), self._connection:  # one transaction: a run and its results land together or not at all
            if not repeat:
                row = self._connection.execute(
                    "SELECT id FROM runs WHERE document = ? AND content_hash = ? AND questions_hash = ? AND settings = ? "
                    "ORDER BY id DESC LIMIT 1", inputs).fetchone()
                if row:
                    return row[0]
            cursor = self._connection.execute(
                "INSERT INTO runs (at, document, content_hash, questions_hash, settings) VALUES (?, ?, ?, ?, ?)",
                (dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), *inputs),
            )
            run_id = cursor.lastrowid
            self._connection.executemany(
                f"INSERT INTO results VALUES (?, ?, ?, ?, {', '.join('?' * len(METRICS))})",
                [
                    (run_id, run.strategy, run.retriever, run.reranker, *[_metric(run, m) for m in METRICS])
                    for run in evaluation.runs
                ],
            )
        return run_id

    def baseline(
        self, document: str, settings: Settings, questions_hash: str, before: int | None = None
    ) -> dict[tuple[str, str, str], dict] | None:
        """The metrics of the latest saved run of this document with the same questions and the same
        settings (before run ``before``); None when there is none. Another set of questions or other
        settings measure something else: comparing with them would read an edit as a drop."""
        saved = json.dumps(asdict(settings), default=str)  # as save() writes it
        query = (
            "SELECT id FROM runs WHERE document = ? AND questions_hash = ? AND settings = ?"
            + (" AND id < ?" if before else "")
            + " ORDER BY id DESC LIMIT 1"
        )
        arguments = (document, questions_hash, saved) + ((before,) if before else ())
        with self._reading_or_writing("read"):
            row = self._connection.execute(query, arguments).fetchone()
            return self._results(row[0]) if row else None

    def _results(self, run_id: int) -> dict[tuple[str, str, str], dict]:
        rows = self._connection.execute(
            f"SELECT strategy, retriever, reranker, {', '.join(METRICS)} FROM results WHERE run_id = ?", (run_id,)
        ).fetchall()
        return {tuple(row[:3]): dict(zip(METRICS, row[3:])) for row in rows}

    def series(self, document: str) -> list[dict]:
        """Every saved result of this document, oldest first: one row per run and configuration."""
        with self._reading_or_writing("read"):
            rows = self._connection.execute(
                f"SELECT runs.id, runs.at, content_hash, questions_hash, settings, strategy, retriever, reranker, "
                f"{', '.join(METRICS)} FROM runs JOIN results ON results.run_id = runs.id WHERE document = ? "
                "ORDER BY runs.id",
                (document,),
            ).fetchall()
        # What each run was computed from comes along, so a chart can keep to runs that compare.
        keys = ("run", "at", "content_hash", "questions_hash", "settings", "strategy", "retriever", "reranker", *METRICS)
        return [dict(zip(keys, row)) for row in rows]

    def close(self) -> None:
        self._connection.close()


def _metric(run, name: str):
    if name in ("clean", "mixed", "missed", "refused"):
        return run.counts[name]
    return getattr(run, name)


ABSENT = {  # why a gated metric can be missing from a run
    "refusal_accuracy": "none of the questions is one the document cannot answer",
}
NO_BASELINE = (
    "no earlier saved run of this document has the same questions and settings, so there is nothing to compare "
    "with: this run is judged by the --fail-below bars only"
)


def parse_bars(text: str) -> dict[str, float]:
    """``clean=18,hit_rate=0.9`` as a dict, naming any unknown metric or bad number."""
    bars = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in GATED:
            raise WorkbenchError(f"--fail-below: unknown metric {name!r}; use {', '.join(GATED)}")
        try:
            bars[name] = float(value)
        except ValueError:
            raise WorkbenchError(f"--fail-below: {name} needs a number, not {value.strip()!r}") from None
        if not math.isfinite(bars[name]):  # nan compares false with everything: the bar would never fail
            raise WorkbenchError(f"--fail-below: {name} needs a number, not {value.strip()!r}")
    if not bars:  # an unset variable in a CI job (--fail-below "$BARS") must not check nothing and pass
        raise WorkbenchError(
            f"--fail-below names no bar ({text!r}): give one or more, e.g. clean=18,hit_rate=0.9, or leave the option out"
        )
    return bars


def gate(evaluation: Evaluation, bars: dict[str, float], baseline: dict | None) -> list[str]:
    """Plain sentences for every configuration below a bar or below the baseline run; empty when all is well."""
    failures = []
    for run in evaluation.runs:
        label = f"{run.strategy}/{run.retriever}/{run.reranker}"
        for name, bar in bars.items():
            value = _metric(run, name)
            if value is None:  # a bar nobody can meet must not pass in silence
                failures.append(f"{label}: {name} has no value in this run ({ABSENT.get(name, 'not measured')}), "
                                f"so the bar of {bar:g} cannot be met")
            elif value < bar:
                failures.append(f"{label}: {name} is {value:g}, below the bar of {bar:g}")
        before = (baseline or {}).get((run.strategy, run.retriever, run.reranker))
        if before:
            for name in ("clean", "hit_rate"):
                value = _metric(run, name)
                if before[name] is not None and value < before[name] - 1e-9:
                    failures.append(
                        f"{label}: {name} fell from {before[name]:g} to {value:g} since the last saved run with the "
                        "same questions and settings"
                    )
    return failures
