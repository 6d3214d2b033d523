"""What the Results page adds for a knowledge base of several files: the verdict's line per file, the answers that
came from another file, the to-do across the files, and the file a decoy came from.

The words are the engine's (``workbench.advise.crossfile``), the same the command line and the report print.
"""

from __future__ import annotations

import streamlit as st

from workbench.advise.crossfile import file_lines, other_file_answers, question_file
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.output.highlight import escape_markdown


def file_lines_panel(result: Evaluation, run: Run) -> None:
    """Under the verdict: the base's files one by one, and each answer taken from another file than its own."""
    files = result.document.files
    st.markdown(f"**The knowledge base, file by file** ({len(files)} files, graded under the recommended setup)")
    st.markdown("\n".join(f"- {escape_markdown(line)}" for line in file_lines(result, run)))
    crossed = other_file_answers(result, run)
    if crossed:
        st.markdown("**Answered from another file**")
        st.markdown("\n".join(f"- {escape_markdown(line)}" for line in crossed))


def across_todo(items: list, first: int) -> None:
    """The to-do across the files (the advice's ``across``): each conflict, shared line or product named elsewhere, naming
    both files and their rows or lines, numbered on from the file-by-file to-do."""
    if not items:
        return
    st.markdown("**What to change across the files**")
    for number, item in enumerate(items, start=first):
        where = f" *Where:* {escape_markdown(item.where)}." if item.where else ""
        st.markdown(f"**{number}. {escape_markdown(item.edit)}** {escape_markdown(item.why)}{where} "
                    f"— *{escape_markdown(item.affects)}*")


def decoy_from(result: Evaluation, run: Run, answer: QuestionResult) -> str | None:
    """The drill-down's words for a decoy from another file of the base ("a decoy from policies.md: …"); None for
    any other answer, and always in a single file."""
    document = result.document
    if not document.files or answer.reason != "decoy" or not answer.ranking:
        return None
    resolved = next((q for q in result.questions if q.question is answer.question), None)
    own = question_file(document, resolved.section_id) if resolved is not None else None
    top = result.chunks[run.strategy][answer.ranking[0][0]]
    found = document.file_at(top.start)
    if own is None or found is None or found[0].number == own.number:
        return None
    return f"a decoy from {found[0].name}: its piece holds the same words"
