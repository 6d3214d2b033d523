"""The file a session has open, with its questions: the work kept from the last visit when a session starts
(else the sample), another file when the user opens one, and the files kept on this computer.

``init_session_state`` fills in every key once per browser session; ``ensure_app`` sends a page opened by its
address on a fresh server through ``app.py`` first.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.document import document_args, load_document
from ui.keys import (
    CUT_STRATEGIES,
    DOC_DATA,
    DOC_KEY,
    DOC_NAME,
    EDITOR_VERSION,
    NAME_COLUMN,
    NOTICE,
    OVERLAP,
    QUESTIONS,
    REDO,
    RERANKER_MODEL,
    RESULT,
    RESULT_ERROR,
    RESULT_ERROR_STAMP,
    RESULT_STAMP,
    RUN_RERANKERS,
    RUN_RETRIEVERS,
    RUN_STRATEGIES,
    SAMPLE_DOCUMENT,
    SAVED_SETTINGS,
    SHEET,
    SIZE,
    THRESHOLD,
    THRESHOLD_AUTO,
    TOP_K,
    UNDO,
    WANTED_PAGE,
    WORKSPACE,
    WORKSPACE_PROBLEM,
)
from ui.questions_table import frame_questions, questions_frame, sample_questions, tidy_questions
from ui.saved_work import keep, open_workspace, stored_undo
from workbench.core.model import WorkbenchError
from workbench.cut.windows import WINDOW_SIZE
from workbench.output.highlight import escape_markdown
from workbench.read.questions import generate_questions
from workbench.run.defaults import DEFAULT_RERANKERS, DEFAULT_RETRIEVERS, DEFAULT_STRATEGIES
from workbench.store.workspace import Workspace, file_key

STARTER_QUESTIONS = 10  # a new spreadsheet starts with this many generated questions


def init_session_state() -> None:
    """Fill in every key once per browser session: the work kept from the last visit, else the sample."""
    first_visit = WORKSPACE not in st.session_state
    defaults = {
        DOC_DATA: SAMPLE_DOCUMENT.read_bytes(),
        DOC_NAME: SAMPLE_DOCUMENT.name,
        SHEET: None,
        NAME_COLUMN: None,
        QUESTIONS: sample_questions(),
        EDITOR_VERSION: 0,
        CUT_STRATEGIES: ["fixed", "heading"],
        SIZE: WINDOW_SIZE,
        OVERLAP: 45,
        # The setups that won on the real files (docs/DESIGN.md, "The default setups"); the rest when asked.
        RUN_STRATEGIES: list(DEFAULT_STRATEGIES),
        RUN_RETRIEVERS: list(DEFAULT_RETRIEVERS),
        RUN_RERANKERS: list(DEFAULT_RERANKERS),
        TOP_K: 5,
        THRESHOLD: 0.0,
        THRESHOLD_AUTO: True,  # the bot refuses what the file cannot answer, as the verdict expects
        RERANKER_MODEL: "",
        RESULT: None,
        RESULT_STAMP: None,
        RESULT_ERROR: None,
        RESULT_ERROR_STAMP: None,
        NOTICE: None,
        WORKSPACE_PROBLEM: None,
        UNDO: None,
        REDO: None,
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    if first_visit:
        st.session_state[WORKSPACE] = open_workspace()
        restore()
    if st.session_state[WORKSPACE_PROBLEM]:
        st.sidebar.warning(st.session_state[WORKSPACE_PROBLEM])


def ensure_app(page: str) -> None:
    """Send a page opened by its address on a freshly started server through the entry file.

    Until ``st.navigation`` has run once in the server, Streamlit runs ``pages/NAME.py`` on its own
    (its older pages-folder mode), without ``app.py`` and so without this session's keys: a reload
    of the Results page after restarting the app would fail. Going through ``app.py`` fixes both,
    and ``app.py`` then opens ``page`` (the page asked for, e.g. a bookmark), not the first page.
    """
    if WORKSPACE not in st.session_state:
        st.session_state[WANTED_PAGE] = page
        st.switch_page("app.py")


def restore() -> None:
    """A new session (a reload, or next week): the last document, its questions and the settings."""
    workspace: Workspace = st.session_state[WORKSPACE]
    try:
        saved = workspace.preference("settings", {}) or {}
        stored = workspace.current()
    except WorkbenchError as error:
        st.session_state[WORKSPACE_PROBLEM] = f"Your saved work cannot be read: {escape_markdown(error)}"
        saved, stored = {}, None
    for name, value in saved.items():
        if name in SAVED_SETTINGS and _valid_setting(name, value):
            st.session_state[name] = value
    if stored is not None and stored.data is not None:
        st.session_state[DOC_DATA] = stored.data
        st.session_state[DOC_NAME] = stored.name
        st.session_state[SHEET] = stored.sheet
        st.session_state[NAME_COLUMN] = stored.name_column
    st.session_state[DOC_KEY] = file_key(st.session_state[DOC_DATA])
    frame, notice = questions_for_document()
    st.session_state[QUESTIONS] = frame
    st.session_state[NOTICE] = notice
    st.session_state[UNDO], st.session_state[REDO] = stored_undo()


def _valid_setting(name: str, value) -> bool:
    """A saved setting is used only if today's app still knows it (a strategy may have been renamed)."""
    from workbench.cut import STRATEGIES
    from workbench.search.rerankers import RERANKERS
    from workbench.search.retrievers import RETRIEVERS

    known = {"cut_strategies": STRATEGIES, "run_strategies": STRATEGIES, "run_retrievers": RETRIEVERS,
             "run_rerankers": RERANKERS}
    if name in known:
        return isinstance(value, list) and all(isinstance(v, str) and v in known[name].ids() for v in value)
    if name in ("size", "overlap", "top_k"):
        return isinstance(value, int) and value >= 0
    if name == "threshold":
        return isinstance(value, (int, float)) and value >= 0
    if name == "threshold_auto":
        return isinstance(value, bool)
    return isinstance(value, str)


def questions_for_document() -> tuple[pd.DataFrame, str | None]:
    """The current document's question set: saved for this version, or for an earlier version of the
    same file name, or the sample's own, or a few generated from a spreadsheet, or none."""
    state = st.session_state
    key, name = state[DOC_KEY], state[DOC_NAME]
    try:
        saved = state[WORKSPACE].questions_for(key, name)
    except WorkbenchError:
        saved = None
    if saved is not None:
        frame = tidy_questions(questions_frame(saved.questions))
        if saved.same_version(key):
            return frame, None
        keep(state[WORKSPACE].save_questions, key, name, saved.questions)
        return frame, (
            f"The {len(saved.questions)} questions you kept for {name} (saved {saved.saved_at[:16].replace('T', ' ')} "
            "UTC for an earlier version of this file) are back, checked against this version."
        )
    if key == file_key(SAMPLE_DOCUMENT.read_bytes()):
        frame, notice = sample_questions(), None
    else:
        frame, notice = starter_questions()
    keep(state[WORKSPACE].save_questions, key, name, frame_questions(frame))
    return frame, notice


def starter_questions() -> tuple[pd.DataFrame, str | None]:
    """A new spreadsheet starts with a few generated questions, spread over its products and columns."""
    try:
        document = load_document(*document_args())
    except WorkbenchError:
        return tidy_questions(questions_frame([])), None
    if document.kind != "spreadsheet":
        return tidy_questions(questions_frame([])), None
    generated = generate_questions(document)
    if len(generated) > STARTER_QUESTIONS:  # evenly spaced, so they are not all about the first product
        step = len(generated) / STARTER_QUESTIONS
        generated = [generated[int(i * step)] for i in range(STARTER_QUESTIONS)]
    if not generated:
        return tidy_questions(questions_frame([])), None
    return tidy_questions(questions_frame(generated)), (
        f"{len(generated)} questions were written from the columns of {document.name} to start with; "
        "edit them, or add the ones your customers really ask."
    )


# --- Another file ----------------------------------------------------------------------------

def use_document(data: bytes, name: str) -> None:
    """Make this file the document, keep it, and switch to its own questions.

    Its sheet and name column are the ones last chosen for it, else found afresh. The old result
    stays only as an out-of-date one: pages compare its stamp with the current inputs.
    """
    state = st.session_state
    state[DOC_DATA] = data
    state[DOC_NAME] = name
    state[DOC_KEY] = file_key(data)
    state[SHEET] = None
    state[NAME_COLUMN] = None
    keep(state[WORKSPACE].open_document, name, data)
    try:
        stored = state[WORKSPACE].document(state[DOC_KEY])
    except WorkbenchError:
        stored = None
    if stored is not None:
        state[SHEET], state[NAME_COLUMN] = stored.sheet, stored.name_column
    frame, notice = questions_for_document()
    state[QUESTIONS] = frame
    state[EDITOR_VERSION] += 1
    state[NOTICE] = notice
    state[UNDO], state[REDO] = stored_undo()  # this file's last change, kept from before the switch


def recent_documents(limit: int = 8) -> list:
    try:
        return st.session_state[WORKSPACE].recent(limit + 1)
    except WorkbenchError:
        return []


def reopen(key: str) -> None:
    """Make a kept file the document again, with its questions and its sheet and name column."""
    try:
        stored = st.session_state[WORKSPACE].document(key)
    except WorkbenchError as error:
        st.session_state[WORKSPACE_PROBLEM] = f"That file cannot be reopened: {escape_markdown(error)}"
        return
    if stored is not None and stored.data is not None:
        use_document(stored.data, stored.name)


def forget(key: str) -> None:
    """Delete a kept file and its questions (never the one open now)."""
    if key != st.session_state[DOC_KEY]:
        keep(st.session_state[WORKSPACE].forget, key)
