"""Session state under named keys, and the caches the pages share.

Per-user data lives only in ``st.session_state``; models are cached with
``st.cache_resource``; documents, chunks and results with ``st.cache_data``
keyed by the file's bytes and the settings, so moving between pages never
reloads a model or re-cuts an unchanged document.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import streamlit as st

from workbench.estimate import Estimate, estimate, uses_model
from workbench.evaluate import Evaluation, chunk_document, evaluate
from workbench.highlight import escape_markdown
from workbench.history import History
from workbench.loaders import NoNameColumn, default_sheet, load_bytes, sheet_names
from workbench.model import BadQuestion, Chunk, Document, Question, Settings, WorkbenchError
from workbench.questions import COLUMNS, parse_questions, resolve
from workbench.sample import Head, head

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
SAMPLE_DOCUMENT = SAMPLES / "breezy_home_price_list.md"
SAMPLE_QUESTIONS = SAMPLES / "breezy_home_questions.csv"

# Permanent keys (never bound to a widget, so they survive moving between pages).
DOC_DATA = "doc_data"
DOC_NAME = "doc_name"
SHEET = "sheet"
NAME_COLUMN = "name_column"
QUESTIONS = "questions"  # a DataFrame with the COLUMNS of workbench.questions
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
RESULT_MEMO = "result_memo"
ESTIMATE_MEMO = "estimate_memo"
RUN_STOPPED = "run_stopped"  # the user pressed Stop: say so, and do not start a run by itself again
NOTICE = "notice"


def init_session_state() -> None:
    """Fill in every key once per browser session: the sample is loaded before the user does anything."""
    defaults = {
        DOC_DATA: SAMPLE_DOCUMENT.read_bytes(),
        DOC_NAME: SAMPLE_DOCUMENT.name,
        SHEET: None,
        NAME_COLUMN: None,
        QUESTIONS: tidy_questions(
            questions_frame(parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name))
        ),
        EDITOR_VERSION: 0,
        CUT_STRATEGIES: ["fixed", "heading"],
        SIZE: 300,
        OVERLAP: 45,
        RUN_STRATEGIES: [
            "fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern",
            "langchain-recursive-1000",  # what many bots run today, for comparison
        ],
        RUN_RETRIEVERS: ["keyword"],
        RUN_RERANKERS: ["none", "heading"],
        TOP_K: 5,
        THRESHOLD: 0.0,
        THRESHOLD_AUTO: True,  # the bot refuses what the file cannot answer, as the verdict expects
        RERANKER_MODEL: "",
        RESULT: None,
        RESULT_ERROR: None,
        NOTICE: None,
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)


def bind(name: str) -> str:
    """A widget key seeded from the permanent key ``name``; pair it with ``on_change=store, args=(name,)``.

    Streamlit forgets a widget's state when its page is not shown; the permanent key does not.
    """
    key = "w_" + name
    st.session_state[key] = st.session_state[name]
    return key


def store(name: str) -> None:
    st.session_state[name] = st.session_state["w_" + name]


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
    if sheet is not None and name.lower().endswith((".xlsx", ".xlsm")) and sheet == workbook_default_sheet(data, name):
        sheet = None
    if name_column is not None:
        try:
            found = _load(data, name, sheet, None)
        except WorkbenchError:  # no column found by itself: read with the one named
            found = None
        if found is not None and found.name_column == name_column:
            return found
    return _load(data, name, sheet, name_column)


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


def use_document(data: bytes, name: str) -> None:
    """Make this file the document: its sheet and name column are found afresh, the old result dropped."""
    st.session_state[DOC_DATA] = data
    st.session_state[DOC_NAME] = name
    st.session_state[SHEET] = None
    st.session_state[NAME_COLUMN] = None
    st.session_state[RESULT] = None


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

def questions_frame(questions: list[Question]) -> pd.DataFrame:
    return pd.DataFrame(
        [[q.question, q.expected_source, q.expected_answer, q.kind] for q in questions], columns=list(COLUMNS)
    ).astype(str)


def frame_questions(frame: pd.DataFrame) -> list[Question]:
    """The table's rows as questions; blank rows are skipped, row numbers are the table's (from 1)."""
    questions = []
    for number, record in enumerate(frame.fillna("").astype(str).to_dict("records"), start=1):
        values = {column: str(record.get(column, "") or "").strip() for column in COLUMNS}
        if values["question"]:
            questions.append(Question(**values, row=number))
    return questions


def check_column(document: Document, frame: pd.DataFrame) -> list[str]:
    """A plain-words verdict per row: ready, unanswerable, or why it cannot be graded."""
    checks = []
    for record in frame.fillna("").astype(str).to_dict("records"):
        question = Question(*(str(record.get(column, "") or "").strip() for column in COLUMNS))
        if not question.question:
            checks.append("no question yet")
            continue
        result = resolve(document, question)
        if isinstance(result, BadQuestion):
            checks.append(f"⚠ {result.reason}")
        else:
            checks.append("✓ ready" if question.answerable else "✓ unanswerable: the bot should refuse")
    return checks


def tidy_questions(frame: pd.DataFrame) -> pd.DataFrame:
    """The question columns only, as text, blanks for missing cells, numbered from 0."""
    frame = frame.reindex(columns=list(COLUMNS))
    return frame.astype(object).where(frame.notna(), "").astype(str).reset_index(drop=True)


def replace_questions(frame: pd.DataFrame, notice: str | None = None) -> None:
    st.session_state[QUESTIONS] = tidy_questions(frame)
    st.session_state[EDITOR_VERSION] += 1
    st.session_state[NOTICE] = notice


# --- Evaluation -------------------------------------------------------------------------------

@st.cache_resource(show_spinner=False)
def shared_encoder():
    """The packaged model, loaded once per server process and shared by every session."""
    from workbench.embedding import get_encoder

    return get_encoder()


def model_reading():
    """(encoder, window) to count pieces in the model's word pieces (its tokenizer only, the model is not
    loaded), or None when the model package is missing."""
    try:
        encoder = shared_encoder()
        return encoder, encoder.window
    except WorkbenchError:
        return None


def run_evaluation(
    data: bytes,
    name: str,
    sheet: str | None,
    name_column: str | None,
    questions_csv: str,
    settings: Settings,
    progress=None,
    should_stop=None,
) -> Evaluation:
    """Evaluate, remembering results per session by file content, questions and settings.

    Not ``st.cache_data``: its replay refuses a progress bar created outside the
    function. The model and every embedding are still shared process-wide.
    A stopped run (``should_stop``, or Streamlit ending the script) raises before anything is remembered or saved.
    """
    key = run_key(data, name, sheet, name_column, questions_csv, settings)
    questions_hash = key[4]
    memo = st.session_state.setdefault(RESULT_MEMO, {})
    if key not in memo:
        document = load_document(data, name, sheet, name_column)
        questions = parse_questions(questions_csv.encode("utf-8"), "the questions table")
        for question in questions:
            question.row -= 1  # numbered as the table shows them, not as lines of the CSV (which has a header)
        if len(memo) >= 8:  # keep a few recent results, not every one ever run
            memo.pop(next(iter(memo)))
        memo[key] = evaluate(document, questions, settings, encoder_factory=shared_encoder, progress=progress,
                             should_stop=should_stop)
        save_to_history(memo[key], questions_hash)
        from workbench.embedding import cache_warnings

        for warning in cache_warnings():  # the disk cache failed and was worked around: said once per server
            st.warning(escape_markdown(warning))
    return memo[key]


def run_key(data: bytes, name: str, sheet: str | None, name_column: str | None, questions_csv: str,
            settings: Settings) -> tuple:
    questions_hash = hashlib.sha256(questions_csv.encode()).hexdigest()
    return hashlib.sha256(data).hexdigest(), name, sheet, name_column, questions_hash, repr(settings)


def keep_going() -> bool:
    """Whether a long run should stop: asked between its questions and slices of model work.

    Reading session state is also where Streamlit ends a running script: when Stop (or any other
    control) was pressed or the tab was closed, it raises its own exception here, inside the engine's
    loop, so the work ends within seconds and nothing of it is kept.
    """
    return bool(st.session_state.get(RUN_STOPPED))


def stop_run() -> None:
    """The Stop button: its click reruns the page, which ends the running script (see ``keep_going``)."""
    st.session_state[RUN_STOPPED] = True


def run_estimate(data: bytes, name: str, sheet: str | None, name_column: str | None, questions_csv: str,
                 settings: Settings) -> Estimate | None:
    """How long Run will take; None when its result is remembered (it shows at once)."""
    key = run_key(data, name, sheet, name_column, questions_csv, settings)
    if key in st.session_state.get(RESULT_MEMO, {}):
        return None
    encoder = shared_encoder() if uses_model(settings) else None
    # Re-estimated once the model has run (its speed is then measured) or has read more texts.
    key += (encoder.encoded, encoder.loaded) if encoder is not None else ()
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
        History().save(evaluation, questions_hash)
    except WorkbenchError as error:
        st.warning(f"This run was not saved to the history: {escape_markdown(error)}")
