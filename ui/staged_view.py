"""The verdict of a run still in progress: word search's first, marked provisional, replaced as stages finish."""

from __future__ import annotations

import streamlit as st

from workbench.advise.verdict import assess
from workbench.core.results import Evaluation
from workbench.output.highlight import escape_markdown
from workbench.run.names import lower_first, reranker_name, retriever_name


def pending_sentence(result: Evaluation, running: bool, stopped: bool = False) -> str:
    """What a partial result lacks, in words: still being computed (running), cut short (stopped), or waiting
    for Run (word search's verdict, computed by itself when the page opened)."""
    missing = ", ".join(result.pending)
    if running:
        return f"**Provisional verdict**: still being computed: {missing}. It may change when they finish."
    if stopped:
        return (f"**Partial result, provisional verdict**: the run stopped before {missing} finished. This is not "
                "saved to the history; press **Run the questions** for the complete result.")
    return (f"**Provisional verdict, from word search alone** (below). Still to run: {missing}, which read with the "
            "language model. Press **Run the questions** to add them; the verdict may change.")


def time_caption(result: Evaluation, *, stopped: bool, fresh: bool, stopped_after: float | None = None,
                 went_on: float | None = None) -> str:
    """How long the run behind ``result`` took, as the line under the results' caption says it: the whole run's
    time, and a stopped run's time until Stop (``stopped_after``), never only the part that finished (a run
    stopped after 13 s read "The finished part took 0.7 s": word search's part). ``went_on``: the kept part's
    time, when the run went on from a stopped one (its 56 s read as if the last Run had taken them)."""
    if result.pending and not stopped:  # word search's verdict, before any Run
        return "Worked out with word search as the page opened; the rest waits for Run."
    if result.pending:
        return (f"The run was stopped after {stopped_after:.1f} s." if stopped_after is not None else
                "The run was stopped before it finished.")
    if fresh and went_on is not None:
        return (f"This run took {result.seconds:.1f} s: the part finished before you stopped it ({went_on:.1f} s) "
                f"was kept, the rest took {max(result.seconds - went_on, 0.0):.1f} s.")
    if fresh:
        return f"This run took {result.seconds:.1f} s."
    # Nothing was computed now: say so, with what the computing took when it happened.
    return f"These results are from the last run (took {result.seconds:.1f} s)."


def provisional(place, partial: Evaluation) -> None:
    """Show ``partial``'s verdict in ``place`` (an ``st.empty``), replacing the previous stage's."""
    verdict = assess(partial)
    with place.container():
        st.info(pending_sentence(partial, running=True))
        st.markdown(f"**{verdict.status}** — {escape_markdown(partial.document.name)}: "
                    f"{escape_markdown(verdict.reason)}")
        if verdict.recommendation:
            st.markdown(f"{escape_markdown(verdict.recommendation)} {escape_markdown(verdict.versus_baseline)}")
        # "; " between setups: each is "search, re-check", and a capital mid-list read as a new sentence.
        finished = dict.fromkeys(f"{lower_first(retriever_name(run.retriever))}, {reranker_name(run.reranker).lower()}"
                                 for run in partial.runs)
        st.caption("Finished so far: " + escape_markdown("; ".join(finished)) + ".")
