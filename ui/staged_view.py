"""The verdict of a run still in progress: word search's first, marked provisional, replaced as stages finish."""

from __future__ import annotations

import streamlit as st

from workbench.advise.verdict import assess
from workbench.core.results import Evaluation
from workbench.output.highlight import escape_markdown
from workbench.run.names import reranker_name, retriever_name


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


def provisional(place, partial: Evaluation) -> None:
    """Show ``partial``'s verdict in ``place`` (an ``st.empty``), replacing the previous stage's."""
    verdict = assess(partial)
    with place.container():
        st.info(pending_sentence(partial, running=True))
        st.markdown(f"**{verdict.status}** — {escape_markdown(partial.document.name)}: "
                    f"{escape_markdown(verdict.reason)}")
        if verdict.recommendation:
            st.markdown(f"{escape_markdown(verdict.recommendation)} {escape_markdown(verdict.versus_baseline)}")
        finished = dict.fromkeys(f"{retriever_name(run.retriever)}, {reranker_name(run.reranker).lower()}"
                                 for run in partial.runs)
        st.caption("Finished so far: " + escape_markdown(", ".join(finished)) + ".")
