"""What the owner takes away: the bot-ready file beside the original, and the pieces for a pipeline.

Kept out of the pages so Results and Cuts each place a panel with one call.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from ui.document import current_files
from ui.keys import RESULT_STAMP
from workbench.advise.edits import Edit, apply
from workbench.advise.findings import shown_setup
from workbench.advise.proof import Fix
from workbench.advise.rewrite import Before, Recommended, grade_rewrite, rewrite, rewrite_name, what_the_rewrite_does
from workbench.advise.verdict import BASELINE, Verdict
from workbench.core.model import Chunk, Document, Question, WorkbenchError
from workbench.core.results import Evaluation
from workbench.cut.windows import WINDOW_SIZE
from workbench.output.fixed_file import fixed_bytes, fixed_name
from workbench.output.highlight import escape_markdown
from workbench.output.pieces import export_pieces
from workbench.output.report import download_stem
from workbench.run.names import lower_first, reranker_name, retriever_name, strategy_name
from workbench.search.reads import any_uses_model

WINDOWS = WINDOW_SIZE  # the usual default the rewrite is graded with
SHOWN = 20000  # characters of each file shown side by side


@st.cache_data(show_spinner="Writing the bot-ready file and grading it…", max_entries=8)
def _graded_rewrite(content: str, sheet: str | None, name_column: str | None, files: tuple, index: int,
                    questions: tuple[tuple[str, str, str, str], ...], size: int, retriever: str, reranker: str,
                    _document: Document, fix_edits: tuple[Edit, ...] = (),
                    threshold: float | str | None = None) -> tuple[str, list[str], Before]:
    """The rewrite of the file a result was computed from (keyed by its content hash, sheet and name
    column, a knowledge base's files' own and which file), never of the file loaded now: an out-of-date result
    must not show another file's rewrite. In a knowledge base, one file's rewrite, graded in the base. With
    ``fix_edits``, the file with the to-do's fixes is graded the same way, as a third row."""
    base = _document if _document.files else None
    document = base.files[index].document if base is not None else _document
    result = rewrite(document)
    asked = [Question(q, s, a, k) for q, s, a, k in questions]
    fixed = apply(document, list(fix_edits)) if fix_edits and base is None else None
    return result.text, result.summary(), grade_rewrite(document, asked, size=size, base=base, retriever=retriever,
                                                        reranker=reranker, fixed=fixed, threshold=threshold)


def graded_under(result: Evaluation) -> tuple[str, str]:
    """The search and re-check the bot-ready file is graded with: the verdict's (the recommended setup's), so
    its "your file" figure is the verdict's figure for the same windows; BM25 word search, not re-checked, when
    the verdict's reads with a language model (reading a whole rewritten file with it would take minutes)."""
    retriever, reranker = shown_setup(result.runs)
    if any_uses_model([retriever], [reranker]):
        return "bm25", "none"
    return retriever, reranker


def two_numbers(result: Evaluation, before: Before) -> str:
    """One sentence when the verdict's figure for the same windows is under another search: what each number
    is measured with, so the owner never sees two scores for one thing without the reason."""
    retriever, reranker = shown_setup(result.runs)
    same_search = (retriever, reranker) == (before.retriever, before.reranker)
    if result.settings.size != before.size:  # another window size chosen: the panel's windows are not the verdict's
        search = "" if same_search else (
            f" They are graded with {lower_first(retriever_name(before.retriever))}, "
            f"{lower_first(reranker_name(before.reranker))}, which takes seconds without the language model.")
        return (f"Why these figures can differ from your results: the bot-ready check always cuts both files into "
                f"{before.size}-character windows, the usual size, as one fixed yardstick; your results use the "
                f"{result.settings.size}-character windows you chose, so its “your file” figure is not one of "
                f"theirs.{search}")
    if same_search:
        return ""
    window = next((run for run in result.runs_under(retriever, reranker) if run.strategy == BASELINE), None)
    figure = f" ({window.counts['clean']} of {window.answerable} clean)" if window is not None else ""
    return (f"Why this figure for {before.size}-character windows can differ from the verdict's{figure}: these two "
            f"files are graded with {lower_first(retriever_name(before.retriever))}, "
            f"{lower_first(reranker_name(before.reranker))}, which takes seconds without the language model; the "
            f"verdict uses the recommended setup's {lower_first(retriever_name(retriever))}, "
            f"{lower_first(reranker_name(reranker))}.")


def recommended_bar(verdict: Verdict | None) -> Recommended | None:
    """What the verdict's recommended setup gets from the file as it is: a rewrite is handed over only above it."""
    if verdict is None or verdict.recommended is None or not verdict.answerable:
        return None
    return Recommended(verdict.setup_label, verdict.clean, verdict.answerable)


def rewrite_panel(result: Evaluation, verdict: Verdict | None = None, fix: Fix | None = None) -> None:
    """The original and its rewrite side by side, graded with the same questions, and the download.

    ``verdict``: the page's; the panel says to hand the rewrite over only when it beats what the verdict's
    recommended setup already gets from the original. ``fix``: the to-do's fixes, graded as a third row beside
    the two files, with the download of the user's file with the fixes made."""
    document = result.document
    asked = tuple(
        (q.question, q.expected_source, q.expected_answer, q.kind)
        for q in [r.question for r in result.questions] + [b.question for b in result.bad_questions]
    )
    made_from = st.session_state[RESULT_STAMP]
    st.subheader("A bot-ready version of your file")
    index = 0
    if document.files:  # a knowledge base: one file at a time, graded in the base with the rewrite in its place
        names = [part.name for part in document.files]
        index = st.selectbox("File of the knowledge base", range(len(names)), format_func=names.__getitem__,
                             key=f"rewrite_file_{hash(made_from) & 0xFFFFFFFF:08x}")
        st.caption("Each file is rewritten on its own; the grades below are the whole knowledge base's, first as it "
                   "is, then with the bot-ready file in this file's place.")
    edits = tuple(fix.edits) if fix is not None and not document.files else ()
    text, summary, before = _graded_rewrite(made_from.content, made_from.sheet, made_from.name_column, made_from.files,
                                            index, asked, WINDOWS, *graded_under(result), result.document, edits,
                                            result.settings.threshold)
    if document.files:
        document = document.files[index].document
    differs = two_numbers(result, before)
    if not before.gains:  # no answer it makes clean: said in a sentence, with nothing to download or compare
        st.write(escape_markdown(before.not_offered()))
        if differs:
            st.caption(escape_markdown(differs))
        if before.fixed is not None:
            fixed_download(document, fix, before, made_from.content, made_from.sheet)
        return
    st.write(what_the_rewrite_does(document) + " " + before.hand_over(recommended_bar(verdict)))
    st.markdown(f"**{escape_markdown(before.sentence())}**",
                help=f"Both files graded with your questions: {before.under()}.")
    if differs:
        st.caption(escape_markdown(differs))
    # Folded: side by side, the two files filled more than a screen of a phone (one under the other there).
    with st.expander("Your file and the bot-ready file, side by side"):
        left, right = st.columns(2)
    with left:
        st.markdown(f"**Your file** ({escape_markdown(document.name)})")
        st.caption(escape_markdown(before.line("original")))
        with st.container(height=420, key="rewrite_original"):
            st.code(document.text[:SHOWN] + ("\n…" if len(document.text) > SHOWN else ""), language=None, wrap_lines=True)
    with right:
        st.markdown(f"**Bot-ready file** ({escape_markdown(rewrite_name(document.name))})")
        st.caption(escape_markdown(before.line("rewrite")))
        with st.container(height=420, key="rewrite_ready"):
            st.code(text[:SHOWN] + ("\n…" if len(text) > SHOWN else ""), language="markdown", wrap_lines=True)
    for line in summary[:3]:
        st.caption(escape_markdown(line))
    if len(summary) > 3:  # a catalog can have dozens of split sections: the rest folded away
        with st.expander(f"{len(summary) - 3} more changes"):
            for line in summary[3:]:
                st.caption(escape_markdown(line))
    st.download_button("Download the bot-ready file (.md)", data=text.encode("utf-8"),
                       file_name=rewrite_name(document.name), mime="text/markdown", key="download_rewrite",
                       on_click="ignore")
    if before.fixed is not None:
        fixed_download(document, fix, before, made_from.content, made_from.sheet)


def fixed_download(document: Document, fix: Fix, before: Before, content: str, sheet: str | None) -> None:
    """The user's own file with the to-do's fixes made, in its own format, beside the bot-ready file."""
    st.caption(escape_markdown(f"Your file with the fixes ({len(fix.items)} change{'s' if len(fix.items) > 1 else ''} "
                               f"from the to-do list): with the recommended setup ({lower_first(fix.measured.setup)}), "
                               f"{fix.measured.clean_before} → {fix.measured.clean_after} clean; with "
                               f"{before.under()}, {before.line('fixed')} (your file as it is: "
                               f"{before.line('original')})."))
    data = next((file.data for file in current_files() if hashlib.sha256(file.data).hexdigest() == content), None)
    if data is None:  # the result is of a file no longer open: its bytes are not at hand
        st.caption("Open that file again to download it with the fixes.")
        return
    try:
        written = fixed_bytes(data, document.name, document, fix.edits, sheet=sheet)
    except WorkbenchError as error:
        st.caption(escape_markdown(str(error)))
        return
    st.download_button("Download your file with the fixes", data=written, file_name=fixed_name(document.name),
                       key="download_fixed", on_click="ignore")


def pieces_download(document: Document, chunks: list[Chunk], strategy: str, size: int | None, key: str) -> None:
    """A download of one cut's pieces as JSON lines or CSV, in the shape pipelines load (see the README)."""
    left, right = st.columns([1, 2])
    shape = left.radio("Format", ["JSON lines", "CSV"], horizontal=True, key=f"{key}_format",
                       help="JSON lines: one piece a line, with its text and where in your file it comes from, "
                       "the shape bot-building tools such as LangChain or Chroma load as it is. The CSV opens in a "
                       "spreadsheet.")
    fmt = "jsonl" if shape == "JSON lines" else "csv"
    stem = download_stem(document)
    right.download_button(
        f"Download the {len(chunks)} pieces of “{strategy_name(strategy, size)}”",
        data=export_pieces(document, chunks, fmt).encode("utf-8"),
        file_name=f"{stem}.{strategy}.{fmt}",
        mime="application/jsonl" if fmt == "jsonl" else "text/csv",
        key=f"{key}_download",
        on_click="ignore",
    )
