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

from workbench.evaluate import Evaluation, chunk_document, evaluate
from workbench.highlight import escape_markdown
from workbench.history import History
from workbench.loaders import NoNameColumn, default_sheet, load_bytes, sheet_names
from workbench.model import BadQuestion, Chunk, Document, Question, Settings, WorkbenchError
from workbench.questions import COLUMNS, parse_questions, resolve

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

@st.cache_data(show_spinner=False, max_entries=16)
def load_document(data: bytes, name: str, sheet: str | None, name_column: str | None) -> Document:
    return load_bytes(data, name, sheet=sheet, name_column=name_column)


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


@st.cache_data(show_spinner=False, max_entries=64)
def cut(data: bytes, name: str, sheet: str | None, name_column: str | None, strategy: str, size: int, overlap: int) -> list[Chunk]:
    document = load_document(data, name, sheet, name_column)
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


def run_evaluation(
    data: bytes,
    name: str,
    sheet: str | None,
    name_column: str | None,
    questions_csv: str,
    settings: Settings,
    progress=None,
) -> Evaluation:
    """Evaluate, remembering results per session by file content, questions and settings.

    Not ``st.cache_data``: its replay refuses a progress bar created outside the
    function. The model and every embedding are still shared process-wide.
    """
    questions_hash = hashlib.sha256(questions_csv.encode()).hexdigest()
    key = (hashlib.sha256(data).hexdigest(), name, sheet, name_column, questions_hash, repr(settings))
    memo = st.session_state.setdefault(RESULT_MEMO, {})
    if key not in memo:
        document = load_document(data, name, sheet, name_column)
        questions = parse_questions(questions_csv.encode("utf-8"), "the questions table")
        for question in questions:
            question.row -= 1  # numbered as the table shows them, not as lines of the CSV (which has a header)
        if len(memo) >= 8:  # keep a few recent results, not every one ever run
            memo.pop(next(iter(memo)))
        memo[key] = evaluate(document, questions, settings, encoder_factory=shared_encoder, progress=progress)
        save_to_history(memo[key], questions_hash)
        from workbench.embedding import cache_warnings

        for warning in cache_warnings():  # the disk cache failed and was worked around: said once per server
            st.warning(escape_markdown(warning))
    return memo[key]


def save_to_history(evaluation: Evaluation, questions_hash: str) -> None:
    """Every new result goes to the run history; a history that cannot be written only warns."""
    try:
        History().save(evaluation, questions_hash)
    except WorkbenchError as error:
        st.warning(f"This run was not saved to the history: {escape_markdown(error)}")
