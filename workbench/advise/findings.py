"""What a set of runs may honestly claim: which configuration to recommend, whether the questions can
tell the strategies from chance, and which configurations are the same finding twice.

Every output (table, JSON, HTML report, app) takes these from here, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.advise.verdict import CHANCE, WHAT_TO_ADD, recommended
from workbench.core.results import Run
from workbench.run.names import is_control, lower_first, reranker_name, retriever_name, strategy_name


def shown_setup(runs: list[Run]) -> tuple[str, str]:
    """The search and re-check the charts, drill-down and comparisons show: the recommended setup's, so the
    figures under a headline are about the setup it names (the first run's when only controls ran)."""
    best = recommended(runs) or runs[0]
    return best.retriever, best.reranker


def _under(run: Run) -> str:
    """ "with word-match search, not re-checked": the search and re-check in words, never ids."""
    return f"with {lower_first(retriever_name(run.retriever))}, {lower_first(reranker_name(run.reranker))}"


@dataclass(frozen=True)
class ChanceWarning:
    control: Run
    strategy: Run  # the best real strategy under the same retriever and reranker
    size: int | None = None  # the windows' size, for their names

    @property
    def sentence(self) -> str:
        c, s = self.control, self.strategy
        relation = "beats" if c.counts["clean"] > s.counts["clean"] else "ties with"
        return (
            f"Careful: {CHANCE}. The “{strategy_name(c.strategy, self.size)}” ({c.counts['clean']} clean) "
            f"{relation} “{strategy_name(s.strategy, self.size)}” ({s.counts['clean']} clean) {_under(c)}. "
            f"{WHAT_TO_ADD}"
        )


def chance_warnings(runs: list[Run], size: int | None = None) -> list[ChanceWarning]:
    """Each retriever x reranker where a control ties or beats the best real strategy on clean answers."""
    warnings = []
    for pair in dict.fromkeys((run.retriever, run.reranker) for run in runs):
        group = [run for run in runs if (run.retriever, run.reranker) == pair]
        best = recommended(group)
        if best is None:
            continue
        controls = [run for run in group if is_control(run.strategy) and run.counts["clean"] >= best.counts["clean"]]
        if controls and best.answerable:
            warnings.append(ChanceWarning(max(controls, key=lambda run: run.counts["clean"]), best, size))
    return warnings


def chance_sentence(runs: list[Run], size: int | None = None) -> str | None:
    """One sentence for every output, or None when every control falls behind the best real strategy."""
    warnings = chance_warnings(runs, size)
    if not warnings:
        return None
    if len(warnings) == 1:
        return warnings[0].sentence
    pairs = "; ".join(
        f"“{strategy_name(w.control.strategy, size)}” {w.control.counts['clean']} vs "
        f"“{strategy_name(w.strategy.strategy, size)}” {w.strategy.counts['clean']} ({_under(w.control)})"
        for w in warnings
    )
    return f"Careful: {CHANCE}. A control ties or beats the best real cut: {pairs}. {WHAT_TO_ADD}"


def _signature(run: Run) -> tuple:
    return (
        run.strategy,
        run.reranker,
        tuple((tuple(i for i, _ in r.ranking), r.grade, r.reason) for r in run.per_question),
    )


def fold_identical(runs: list[Run]) -> list[list[Run]]:
    """Runs of one strategy and reranker whose every question got the same ranking and grade, grouped
    (in first-seen order). A reranker that re-scores every piece (depth >= pieces) makes the
    retrievers' rankings identical: that is one finding, not several."""
    groups: dict[tuple, list[Run]] = {}
    for run in runs:
        groups.setdefault(_signature(run), []).append(run)
    return list(groups.values())
