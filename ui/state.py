"""Session state under named keys, and the caches the pages share.

Per-user data lives in ``st.session_state`` and the workspace on disk; models are cached with
``st.cache_resource``; documents and chunks with ``st.cache_data`` keyed by the file's bytes and
the settings, so moving between pages never reloads a model or re-cuts an unchanged document.
Finished results are kept for every tab under the stamp of what they were computed from
(``remembered_results``): a reload shows them again, and only for exactly those inputs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import streamlit as st

from workbench.core.model import Chunk, Document, Question, Settings, WorkbenchError
from workbench.core.results import Evaluation
from workbench.cut import chunk_document
from workbench.cut.windows import WINDOW_SIZE
from workbench.output.highlight import escape_markdown
from workbench.read.loaders import NoNameColumn, default_sheet, load_bytes, sheet_names
from workbench.read.questions import (
    COLUMNS,
    FIRST_ROW,
    GENERATED,
    generate_questions,
    parse_questions,
    questions_to_csv,
)
from workbench.read.sample import Head, head
from workbench.run.defaults import DEFAULT_RERANKERS, DEFAULT_RETRIEVERS, DEFAULT_STRATEGIES
from workbench.run.estimate import Estimate, estimate, uses_model
from workbench.run.evaluate import RunStopped
from workbench.run.staged import evaluate_in_stages, word_stage
from workbench.store.history import History
from workbench.store.history import default_path as history_path
from workbench.store.remembered import Remembered
from workbench.store.stamp import Stamp
from workbench.store.workspace import Workspace, file_key

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
SAMPLE_DOCUMENT = SAMPLES / "breezy_home_price_list.md"
SAMPLE_QUESTIONS = SAMPLES / "breezy_home_questions.csv"

# Permanent keys (never bound to a widget, so they survive moving between pages).
DOC_DATA = "doc_data"
DOC_NAME = "doc_name"
SHEET = "sheet"
NAME_COLUMN = "name_column"
QUESTIONS = "questions"  # a DataFrame with the FRAME_COLUMNS below
EDITOR_VERSION = "editor_version"  # bumped whenever QUESTIONS is replaced, to reset the table editor
CUT_STRATEGIES = "cut_strategies"
SIZE = "size"
OVERLAP = "overlap"
RUN_STRATEGIES = "run_strategies"
RUN_RETRIEVERS = "run_retrievers"
RUN_RERANKERS = "run_rerankers"
TOP_K = "top_k"
THRESHOLD = "threshold"
THRESHOLD_AUTO = "threshold_auto"
RERANKER_MODEL = "reranker_model"
RESULT = "result"
RESULT_ERROR = "result_error"
ESTIMATE_MEMO = "estimate_memo"
RUN_STOPPED = "run_stopped"  # the user pressed Stop: say so, and do not start a run by itself again
RESULT_STAMP = "result_stamp"  # what RESULT was computed from (workbench.store.stamp.Stamp)
RESULT_ERROR_STAMP = "result_error_stamp"  # what the failed run was asked to compute
NOTICE = "notice"
DOC_KEY = "doc_key"  # the content hash of DOC_DATA: the key of its question set
WORKSPACE = "workspace"  # workbench.store.workspace.Workspace: the work kept on this computer
WORKSPACE_PROBLEM = "workspace_problem"  # why the work is not being kept, shown once
WANTED_PAGE = "wanted_page"  # the page opened by its address before app.py had run (see ensure_app)
UNDO = "undo"  # a Change: the last change of the table, what Undo puts back
REDO = "redo"  # a Change: the change just undone, what Redo makes again

# Settings saved as the user works and restored on the next visit.
SAVED_SETTINGS = ("cut_strategies", "size", "overlap", "run_strategies", "run_retrievers", "run_rerankers",
                  "top_k", "threshold", "threshold_auto", "reranker_model")
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


def sample_questions() -> pd.DataFrame:
    return tidy_questions(questions_frame(parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)))


# --- The work kept on this computer ------------------------------------------------------------

def open_workspace() -> Workspace:
    """The saved work; when its file cannot be opened, a session-only store and a plain warning."""
    try:
        return Workspace()
    except WorkbenchError as error:
        st.session_state[WORKSPACE_PROBLEM] = (
            f"Your work is not being kept for your next visit: {escape_markdown(error)}"
        )
        return Workspace(memory=True)


def keep(action, *args) -> None:
    """Save something to the workspace; a failure warns (in the sidebar) instead of stopping the page."""
    try:
        action(*args)
    except WorkbenchError as error:
        st.session_state[WORKSPACE_PROBLEM] = f"Your last change was not saved for your next visit: {escape_markdown(error)}"


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


def save_settings() -> None:
    keep(st.session_state[WORKSPACE].set_preference, "settings", {name: st.session_state[name] for name in SAVED_SETTINGS})


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


def bind(name: str) -> str:
    """A widget key seeded from the permanent key ``name``; pair it with ``on_change=store, args=(name,)``.

    Streamlit forgets a widget's state when its page is not shown; the permanent key does not.
    """
    key = "w_" + name
    st.session_state[key] = st.session_state[name]
    return key


def store(name: str) -> None:
    st.session_state[name] = st.session_state["w_" + name]
    if name in SAVED_SETTINGS:
        save_settings()
    elif name in (SHEET, NAME_COLUMN):
        remember_reading()


def remember_reading() -> None:
    """Keep the sheet and name column chosen for this file, so it reopens the same way."""
    state = st.session_state
    keep(state[WORKSPACE].remember_reading, state[DOC_KEY], state[SHEET], state[NAME_COLUMN])


# --- The document -----------------------------------------------------------------------------

# Documents, heads and pieces are frozen records: cache_resource hands out the one copy, where cache_data
# would unpickle a fresh one on every call (seconds each for a 100,000-row file, several calls a page).
@st.cache_resource(show_spinner=False, max_entries=16)
def _load(data: bytes, name: str, sheet: str | None, name_column: str | None) -> Document:
    return load_bytes(data, name, sheet=sheet, name_column=name_column)


def load_document(data: bytes, name: str, sheet: str | None, name_column: str | None) -> Document:
    """The document, read once: naming the sheet or column the reader found by itself reads nothing again.

    The Document page fills in the found sheet and column after the first read; a 100,000-row file
    takes half a minute to read, so that must not count as a new file.
    """
    sheet, plain_column = own_reading(data, name, sheet, name_column)
    if plain_column is None and name_column is not None:  # the column the reader finds by itself
        return _load(data, name, sheet, None)
    return _load(data, name, sheet, name_column)


def own_reading(data: bytes, name: str, sheet: str | None, name_column: str | None) -> tuple[str | None, str | None]:
    """The sheet and name column, each None when it is the one the reader finds by itself.

    Results are stamped with these, so the Document page filling in what was found (without the user
    choosing anything) does not make a finished result look out of date.
    """
    if sheet is not None and name.lower().endswith((".xlsx", ".xlsm")) and sheet == workbook_default_sheet(data, name):
        sheet = None
    if name_column is not None:
        try:
            found = _load(data, name, sheet, None)
        except WorkbenchError:  # no column found by itself: the one named is the user's choice
            found = None
        if found is not None and found.name_column == name_column:
            name_column = None
    return sheet, name_column


@st.cache_data(show_spinner=False, max_entries=16)
def workbook_sheets(data: bytes, name: str) -> list[str]:
    return sheet_names(data, name)


@st.cache_data(show_spinner=False, max_entries=16)
def workbook_default_sheet(data: bytes, name: str) -> str:
    return default_sheet(data, name)


def choose_sheet() -> None:
    """Another sheet has other columns: its product-name column is found afresh."""
    store(SHEET)
    st.session_state[NAME_COLUMN] = None
    remember_reading()


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


def document_args() -> tuple[bytes, str, str | None, str | None]:
    state = st.session_state
    return state[DOC_DATA], state[DOC_NAME], state[SHEET], state[NAME_COLUMN]


def current_document(pick_column: bool = False) -> Document | None:
    """The loaded document, or None after showing the loader's plain error.

    With ``pick_column`` (the Document page), a sheet with no name-like column gets a select box of its
    columns; elsewhere a pointer to that page. The loader's own message is for the command line.
    """
    try:
        return load_document(*document_args())
    except NoNameColumn as missing:
        if pick_column:
            st.warning(
                "No column here looks like a product name (a heading such as Name, Title, Product or Item). "
                "Pick the column that names each product:"
            )
            st.selectbox("Which column holds the product name?", missing.columns, index=None,
                         placeholder="Choose a column", key="pick_name_column", on_change=_picked_name_column)
        else:
            st.warning("Pick the column that holds the product names on the **Document** page.")
        return None
    except WorkbenchError as error:
        st.error(f"This file cannot be read: {escape_markdown(error)}")
        return None


def _picked_name_column() -> None:
    st.session_state[NAME_COLUMN] = st.session_state["pick_name_column"]
    remember_reading()


def require_document() -> Document:
    """Stop the page with a pointer to the Document page when nothing readable is loaded."""
    document = current_document()
    if document is None:
        st.info("Load a readable file on the **Document** page first.")
        st.stop()
    return document


@st.cache_resource(show_spinner=False, max_entries=16)
def page_head(data: bytes, name: str, sheet: str | None, name_column: str | None) -> Head:
    return head(load_document(data, name, sheet, name_column))


def head_note(part: Head, what: str) -> None:
    """Say plainly that a page looks at the start of a long file only."""
    if part.partial:
        kind = "products" if part.document.kind == "spreadsheet" else "sections"
        st.info(
            f"Your file is long ({part.total_sections:,} {kind}), so {what} the first "
            f"{part.sections:,} of them, to answer in seconds. The **Results** page uses the whole file."
        )


@st.cache_resource(show_spinner=False, max_entries=64)
def cut(data: bytes, name: str, sheet: str | None, name_column: str | None, strategy: str, size: int, overlap: int) -> list[Chunk]:
    """The pieces of the document's head (the whole of a short one), as the Cuts page draws them."""
    document = page_head(data, name, sheet, name_column).document
    return chunk_document(document, strategy, size=size, overlap=overlap)


# --- Questions --------------------------------------------------------------------------------

# The table's columns: the questions file's, and "generated" ("yes" on a question the app wrote and the owner
# has not yet edited or accepted; empty otherwise).
FRAME_COLUMNS = (*COLUMNS, GENERATED)


def questions_frame(questions: list[Question]) -> pd.DataFrame:
    return pd.DataFrame(
        [[q.question, q.expected_source, q.expected_answer, q.kind, "yes" if q.generated else ""] for q in questions],
        columns=list(FRAME_COLUMNS),
    ).astype(str)


def frame_questions(frame: pd.DataFrame) -> list[Question]:
    """The table's rows as questions; blank rows are skipped, numbered as rows of the questions file (header = 1)."""
    questions = []
    for number, record in enumerate(frame.fillna("").astype(str).to_dict("records"), start=FIRST_ROW):
        values = {column: str(record.get(column, "") or "").strip() for column in COLUMNS}
        if values["question"]:
            generated = str(record.get(GENERATED, "") or "").strip() == "yes"
            questions.append(Question(**values, row=number, generated=generated))
    return questions




def tidy_questions(frame: pd.DataFrame) -> pd.DataFrame:
    """The question columns only, as text, blanks for missing cells, numbered from 0."""
    frame = frame.reindex(columns=list(FRAME_COLUMNS))
    return frame.astype(object).where(frame.notna(), "").astype(str).reset_index(drop=True)


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


@dataclass
class Change:
    """The last change of a file's table, for Undo (or, once undone, for Redo): the table before and after it."""

    document: str  # the content hash of the file whose table it changed
    what: str  # in words: "the import of more.csv", "adding row 41"
    before: pd.DataFrame
    after: pd.DataFrame

    def as_dict(self) -> dict:
        return {"document": self.document, "what": self.what, "questions": self.before.to_dict("records"),
                "after": self.after.to_dict("records")}

    @classmethod
    def of(cls, saved) -> Change | None:
        """A change kept in the workspace, or None when it is missing or written by another version."""
        if not isinstance(saved, dict) or not isinstance(saved.get("after"), list):
            return None  # an Undo kept without the table after it cannot say what else it would discard
        try:
            return cls(str(saved["document"]), str(saved.get("what", "the last change")),
                       tidy_questions(pd.DataFrame(saved["questions"])), tidy_questions(pd.DataFrame(saved["after"])))
        except (KeyError, TypeError, ValueError):
            return None


def replace_questions(frame: pd.DataFrame, notice: str | None = None, undo: str | None = None) -> None:
    """A change of the table (import, generate, add, edit, remove); ``undo`` names it for the Undo button.

    Only the last change can be undone, and a new change forgets what Redo would have put back."""
    state = st.session_state
    new = tidy_questions(frame)
    if undo:
        remember_change(Change(state[DOC_KEY], undo, state[QUESTIONS], new), None)
    state[QUESTIONS] = new
    state[EDITOR_VERSION] += 1
    state[NOTICE] = notice
    save_questions()


def remember_change(undo: Change | None, redo: Change | None) -> None:
    """What Undo and Redo would do, in the session and in the workspace (a reload keeps them)."""
    state = st.session_state
    state[UNDO], state[REDO] = undo, redo
    keep(state[WORKSPACE].set_preference, "undo", undo.as_dict() if undo else None)
    keep(state[WORKSPACE].set_preference, "redo", redo.as_dict() if redo else None)


def edit_questions(before: pd.DataFrame, after: pd.DataFrame) -> None:
    """Cells edited in the table: kept at once (the editor stays as it is), and the last change for Undo.

    A generated question whose question, product or answer the owner edits is the owner's from then on."""
    state = st.session_state
    after = tidy_questions(after)
    content = list(COLUMNS)
    rows = [i for i in range(min(len(before), len(after)))
            if not before.loc[i, content].equals(after.loc[i, content])]
    for i in rows:
        after.loc[i, GENERATED] = ""
    changed = rows or [i for i in range(min(len(before), len(after)))
                       if before.loc[i, GENERATED] != after.loc[i, GENERATED]]
    numbers = ", ".join(str(i + FIRST_ROW) for i in changed[:5]) + (" …" if len(changed) > 5 else "")
    what = f"your edit of row{'s' if len(changed) > 1 else ''} {numbers}" if changed else "your edit"
    remember_change(Change(state[DOC_KEY], what, before, after), None)
    state[QUESTIONS] = after
    save_questions()


def accept_generated() -> None:
    """The owner has checked the app's own questions: from now on they count as the owner's."""
    frame = st.session_state[QUESTIONS].copy()
    count = int((frame[GENERATED] == "yes").sum())
    frame[GENERATED] = ""
    replace_questions(frame, f"Accepted {count} generated question(s) as checked: they now count as yours.",
                      undo=f"accepting {count} generated question(s)")


def save_questions() -> None:
    """Keep the current table as the current document's question set."""
    state = st.session_state
    keep(state[WORKSPACE].save_questions, state[DOC_KEY], state[DOC_NAME], frame_questions(state[QUESTIONS]))


def undo_offer() -> str | None:
    """The Undo button's words for the file loaded now, or None: what it undoes, and, when the table was
    changed since in a way Undo does not know (an older version's change), that it discards that too."""
    undo: Change | None = st.session_state[UNDO]
    if undo is None or undo.document != st.session_state[DOC_KEY]:
        return None
    if undo.after.equals(st.session_state[QUESTIONS]):
        return f"Undo {undo.what}"
    return f"Undo {undo.what}, and discard the changes made to the table since"


def redo_offer() -> str | None:
    redo: Change | None = st.session_state[REDO]
    if redo is None or redo.document != st.session_state[DOC_KEY] or not redo.before.equals(st.session_state[QUESTIONS]):
        return None
    return f"Redo {redo.what}"


def undo_last() -> None:
    """Put back the table as it was before the last change, and offer to redo it."""
    undo: Change | None = st.session_state[UNDO]
    if undo is None or undo.document != st.session_state[DOC_KEY]:
        return
    now = st.session_state[QUESTIONS]
    replace_questions(undo.before, f"Undone: {undo.what}.")
    remember_change(None, Change(undo.document, undo.what, undo.before, now))


def redo_last() -> None:
    """Make again the change just undone."""
    redo: Change | None = st.session_state[REDO]
    if redo is None or redo.document != st.session_state[DOC_KEY]:
        return
    replace_questions(redo.after, f"Redone: {redo.what}.")
    remember_change(Change(redo.document, redo.what, redo.before, redo.after), None)


def stored_undo() -> tuple[Change | None, Change | None]:
    """The last change's Undo (or Redo), kept in the workspace so a reload or a switch of files does not lose
    it; only for the file it was made on."""
    try:
        workspace = st.session_state[WORKSPACE]
        undo, redo = Change.of(workspace.preference("undo", None)), Change.of(workspace.preference("redo", None))
    except WorkbenchError:
        return None, None
    key = st.session_state.get(DOC_KEY)
    return (undo if undo and undo.document == key else None), (redo if redo and redo.document == key else None)


# --- Evaluation -------------------------------------------------------------------------------

@st.cache_resource(show_spinner=False)
def shared_encoder():
    """The packaged model, loaded once per server process and shared by every session."""
    from workbench.encode.embedding import get_encoder

    return get_encoder()


def model_reading():
    """(encoder, window) to count pieces in the model's word pieces (its tokenizer only, the model is not
    loaded), or None when the model package is missing."""
    try:
        encoder = shared_encoder()
        return encoder, encoder.window
    except WorkbenchError:
        return None


def current_settings() -> Settings:
    """The run settings as the Results page shows them."""
    state = st.session_state
    return Settings(
        strategies=list(state[RUN_STRATEGIES]),
        retrievers=list(state[RUN_RETRIEVERS]),
        rerankers=list(state[RUN_RERANKERS]),
        top_k=int(state[TOP_K]),
        size=int(state[SIZE]),
        overlap=min(int(state[OVERLAP]), int(state[SIZE]) // 2),
        threshold="auto" if state[THRESHOLD_AUTO] else (float(state[THRESHOLD]) or None),
        reranker_model=state[RERANKER_MODEL] or None,
    )


def current_stamp(settings: Settings | None = None) -> Stamp:
    """What a result for the current document, questions and settings would be computed from."""
    questions = frame_questions(st.session_state[QUESTIONS])
    return _stamp(*document_args(), questions_to_csv(questions), len(questions), settings or current_settings())


def quick(settings: Settings, document: Document) -> bool:
    """Whether a run is quick enough to do on its own when the inputs change (word search, a small file)."""
    from workbench.run.evaluate import needs_model

    return (not needs_model(settings) and len(document.text) <= 200_000 and len(st.session_state[QUESTIONS]) <= 500
            and not st.session_state.get(RUN_STOPPED))


def run_current(settings: Settings, progress=None, should_stop=None, on_stage=None) -> Evaluation | None:
    """Run the questions on the current inputs; the result is stored with the stamp it was computed from.

    Each finished stage (word search first) is stored at once as a partial result (``Evaluation.pending``),
    then handed to ``on_stage`` to be shown: a Stop keeps it, labelled partial; it is never remembered or
    saved to the history, which only the complete result is.
    """
    state = st.session_state
    stamp = current_stamp(settings)
    started = time.perf_counter()
    state["run_fresh"] = stamp not in remembered_results()  # False: the remembered result is shown

    def stage_done(partial: Evaluation) -> None:
        if partial.pending:
            state[RESULT], state[RESULT_STAMP] = partial, stamp
            if on_stage:
                on_stage(partial)

    try:
        result = run_evaluation(*document_args(), questions_to_csv(frame_questions(state[QUESTIONS])), settings,
                                progress=progress, should_stop=should_stop, on_stage=stage_done)
    except RunStopped:  # asked for (should_stop): what finished stays in RESULT, labelled partial; no error
        state[RUN_STOPPED] = True
        return None
    except WorkbenchError as error:
        state[RESULT_ERROR], state[RESULT_ERROR_STAMP] = str(error), stamp
        return None
    state[RESULT], state[RESULT_STAMP] = result, stamp
    state[RESULT_ERROR], state[RESULT_ERROR_STAMP] = None, None
    state["run_seconds"] = time.perf_counter() - started
    return result


def refresh_result(settings: Settings, document: Document, auto: bool | None = None) -> bool:
    """Bring RESULT up to date when that costs little: a result already computed for these inputs, or a
    quick run (``auto``: the page's own judgement of quick). Returns whether RESULT is now current."""
    state = st.session_state
    stamp = current_stamp(settings)
    if state[RESULT_STAMP] == stamp:
        return True
    known = remembered_results().get(stamp)
    if known is not None:  # run earlier in this app, in this tab or another, or before a reload
        state[RESULT], state[RESULT_STAMP] = known, stamp
        return True
    if (quick(settings, document) if auto is None else auto) and state[RESULT_ERROR_STAMP] != stamp:
        bar = st.progress(0.0, text="Grading the questions on the current file…")
        run_current(settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
        bar.empty()
        return state[RESULT_STAMP] == stamp
    if state[RESULT_ERROR_STAMP] != stamp and quick(word_part(settings), document) and not state.get(RUN_STOPPED):
        # The model's setups wait for Run; word search's verdict is shown at once, labelled provisional.
        bar = st.progress(0.0, text="Word search on the current file…")
        try:
            partial = word_stage(document, table_questions(questions_to_csv(frame_questions(state[QUESTIONS]))),
                                 settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
        except WorkbenchError:
            partial = None
        bar.empty()
        if partial is not None:
            state[RESULT], state[RESULT_STAMP] = partial, stamp
            return True
    return False


def word_part(settings: Settings) -> Settings:
    """The word-search stage of ``settings`` (run by itself when the rest needs the model)."""
    from dataclasses import replace

    from workbench.run.staged import stages

    plan = stages(settings)
    first = plan[0] if plan else None
    if first is None or first.uses_model:
        return replace(settings, retrievers=["dense"])  # no word stage: never quick
    return replace(settings, retrievers=first.retrievers, rerankers=first.rerankers)


def result_caption() -> str:
    """Names the file (and questions) a result is about, for the top of every page that shows one."""
    stamp: Stamp = st.session_state[RESULT_STAMP]
    if stamp != current_stamp():
        return f"Below: the out-of-date results for **{escape_markdown(stamp.describe())}**."
    result: Evaluation | None = st.session_state[RESULT]
    if result is not None and result.pending:
        return (f"Partial results for **{escape_markdown(stamp.describe())}**: not computed yet: "
                f"{escape_markdown(', '.join(result.pending))}.")
    return f"Results for **{escape_markdown(stamp.describe())}**."


def result_key(name: str) -> str:
    """A widget key that belongs to the result on screen: a new result opens its choosers on their defaults
    (its recommended setup) instead of keeping what was picked for another file or run."""
    return f"{name}_{hash(st.session_state[RESULT_STAMP]) & 0xFFFFFFFF:08x}"


def stale_notice(settings: Settings) -> None:
    """Say plainly that the result on screen is not for what is loaded now, and what changed."""
    old: Stamp = st.session_state[RESULT_STAMP]
    now = current_stamp(settings)
    changes = "; ".join(old.changes(now))
    st.warning(
        f"**Out of date — these results are for {escape_markdown(old.describe())}**, not for what is loaded now "
        f"({escape_markdown(changes)}). Press **Run the questions** to grade {escape_markdown(now.describe())}.",
        icon="⚠️",
    )


def result_or_notice(page: str, button: bool = True, auto: bool | None = None) -> Evaluation | None:
    """For a page that shows a result: the current one (computed now when quick or already known), or an
    out-of-date one under a warning with a Run button, or None (the page then says how to get one)."""
    state = st.session_state
    document = require_document()
    if not frame_questions(state[QUESTIONS]):
        st.info(f"{escape_markdown(state[DOC_NAME])} has no questions yet: add some on the **Questions** page.")
        st.stop()
    settings = current_settings()
    if refresh_result(settings, document, auto):
        return state[RESULT]
    if state[RESULT] is None:
        return None
    stale_notice(settings)
    if not button:  # the page has its own Run button
        return state[RESULT]
    if st.button("Run the questions", type="primary", key=f"run_{page}"):
        bar = st.progress(0.0, text="Starting…")
        run_current(settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
        bar.empty()
        st.rerun()
    if state[RESULT_ERROR] and state[RESULT_ERROR_STAMP] == current_stamp(settings):
        st.error(f"The run stopped: {escape_markdown(state[RESULT_ERROR])}")
    return state[RESULT]


def run_evaluation(
    data: bytes,
    name: str,
    sheet: str | None,
    name_column: str | None,
    questions_csv: str,
    settings: Settings,
    progress=None,
    should_stop=None,
    on_stage=None,
) -> Evaluation:
    """Evaluate, remembering results by what they were computed from (a ``Stamp``) for every tab of the app.

    Not ``st.cache_data``: its replay refuses a progress bar created outside the
    function. The model and every embedding are shared process-wide too.
    A stopped run (``should_stop``, or Streamlit ending the script) raises before anything is remembered or saved.
    """
    key = run_key(data, name, sheet, name_column, questions_csv, settings)
    memo = remembered_results()
    result = memo.get(key)
    if result is None:
        document = load_document(data, name, sheet, name_column)
        # Numbered as rows of the questions file (header = row 1), as the table, the command line and every
        # download number them: the table is that file, and it has no blank rows.
        questions = parse_questions(questions_csv.encode("utf-8"), "the questions table")

        questions = table_questions(questions_csv)
        result = evaluate_in_stages(document, questions, settings, encoder_factory=shared_encoder, progress=progress,
                                    should_stop=should_stop, on_stage=on_stage)
        memo.put(key, result)
        # Saved only here, where the result and what it was computed from are one: the history never
        # holds a run under another file's, questions' or settings' name.
        save_to_history(result, key.questions)
        from workbench.encode.embedding import cache_warnings

        for warning in cache_warnings():  # the disk cache failed and was worked around: said once per server
            st.warning(escape_markdown(warning))
    return result


def table_questions(questions_csv: str) -> list[Question]:
    """The questions table's CSV read back, each numbered by its row in a questions file, as the table shows it."""
    return parse_questions(questions_csv.encode("utf-8"), "the questions table")


def remembered_results() -> Remembered[Stamp, Evaluation]:
    """The finished results of this app, for every tab: one store per run history (each test has its own)."""
    return _remembered(str(history_path()))


@st.cache_resource(show_spinner=False)
def _remembered(history: str) -> Remembered[Stamp, Evaluation]:
    return Remembered(limit=16)


def run_key(data: bytes, name: str, sheet: str | None, name_column: str | None, questions_csv: str,
            settings: Settings) -> Stamp:
    """What a run is computed from: its result is remembered, shown and saved under this stamp."""
    count = len(parse_questions(questions_csv.encode("utf-8"), "the questions table"))
    return _stamp(data, name, sheet, name_column, questions_csv, count, settings)


def _stamp(data: bytes, name: str, sheet: str | None, name_column: str | None, questions_csv: str, count: int,
           settings: Settings) -> Stamp:
    """Both stamps (of what is loaded, of what a run reads) name the sheet and column as the reader found them."""
    sheet, name_column = own_reading(data, name, sheet, name_column)
    return Stamp.of(name, data, sheet, name_column, questions_csv, count, settings)


def should_stop() -> bool:
    """Whether a long run should stop: asked between its questions and slices of model work.

    Reading session state is also where Streamlit ends a running script: when Stop (or any other
    control) was pressed or the tab was closed, it raises its own exception here, inside the engine's
    loop, so the work ends within seconds and nothing of it is kept.
    """
    return bool(st.session_state.get(RUN_STOPPED))


def stop_run() -> None:
    """The Stop button: its click reruns the page, which ends the running script (see ``should_stop``)."""
    st.session_state[RUN_STOPPED] = True


def run_estimate(data: bytes, name: str, sheet: str | None, name_column: str | None, questions_csv: str,
                 settings: Settings) -> Estimate | None:
    """How long Run will take; None when its result is remembered (it shows at once)."""
    key = run_key(data, name, sheet, name_column, questions_csv, settings)
    if key in remembered_results():
        return None
    encoder = shared_encoder() if uses_model(settings) else None
    # Re-estimated once the model has run (its speed is then measured) or has read more texts.
    key = (key, encoder.encoded, encoder.loaded) if encoder is not None else key
    memo = st.session_state.setdefault(ESTIMATE_MEMO, {})
    if key not in memo:
        document = load_document(data, name, sheet, name_column)
        questions = parse_questions(questions_csv.encode("utf-8"), "the questions table")
        if len(memo) >= 8:
            memo.pop(next(iter(memo)))
        memo[key] = estimate(document, questions, settings, encoder)
    return memo[key]


def save_to_history(evaluation: Evaluation, questions_hash: str) -> None:
    """Every new result goes to the run history; a history that cannot be written only warns."""
    try:
        History().save(evaluation, questions_hash, repeat=False)
    except WorkbenchError as error:
        st.warning(f"This run was not saved to the history: {escape_markdown(error)}")
