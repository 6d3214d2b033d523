"""What ``evaluate`` and ``sweep`` do with the run history: open it, read the baseline, save a run, check the bars.

The history's module (SQLite, hashing, dates) is imported where a run opens or gates it, not with the command line:
a run with --no-history and no --fail-below never loads it (BENCHMARKS.md, "Stop 46").
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from workbench.core.model import Settings, WorkbenchError
from workbench.core.results import Evaluation
from workbench.output.cli_io import say
from workbench.read.base_of_files import label

if TYPE_CHECKING:
    from workbench.store.history import History


def baseline_of(args, history: History | None, document, settings: Settings, questions_hash: str) -> dict | None:
    """The last saved run to compare with (``--baseline last``), or None."""
    if history is None or args.baseline != "last":
        return None
    # Needed: a history that cannot be read here is an error. Only a run with the same questions and
    # settings is a baseline; with none, say so and judge by the bars alone.
    baseline = history.baseline(document.name, settings, questions_hash)
    if baseline is None:
        from workbench.store.history import NO_BASELINE  # here: see the module's text

        say("note", f"{label(document)}: {NO_BASELINE}")
    return baseline


def save_and_gate(history: History | None, evaluation: Evaluation, questions_hash: str, baseline: dict | None,
                  bars: dict) -> list[str]:
    """Save a run to the history (after its output is written), then check it against the bars and baseline."""
    # The history is written after the output is saved: a damaged history never costs the run's results.
    if history is not None and evaluation.pending:  # as in the app: only a complete result is kept
        say("note", f"{label(evaluation.document)}: a --quick result is not saved to the history")
    elif history is not None:
        try:
            history.save(evaluation, questions_hash)
        except WorkbenchError as error:
            say("warning", f"this run was not saved to the history: {error}")
    if not (bars or baseline):
        return []
    from workbench.store.history import gate  # here: see the module's text

    return gate(evaluation, bars, baseline)


def bars_of(args: argparse.Namespace) -> dict:
    """The bars --fail-below sets, {} without it."""
    if args.fail_below is None:
        return {}
    from workbench.store.history import parse_bars  # here: see the module's text

    return parse_bars(args.fail_below)  # "" is refused


def open_history(args: argparse.Namespace) -> History | None:
    """The run history, or None: without --baseline a history that cannot be opened only warns."""
    if args.no_history:
        return None
    from workbench.store.history import History  # here: see the module's text

    try:
        return History(args.db)
    except WorkbenchError as error:
        if args.baseline:
            raise
        say("warning", f"this run will not be saved to the history: {error}")
        return None
