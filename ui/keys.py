"""The names of the session's keys, and the sample every new session starts with.

Per-user data lives in ``st.session_state`` under these keys (and the workspace on disk, ``ui.saved_work``);
the modules beside this one read and write them, and the pages name them when they show a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
SAMPLE_DOCUMENT = SAMPLES / "breezy_home_price_list.md"
SAMPLE_POLICIES = SAMPLES / "breezy_home_policies.md"
SAMPLE_FILES = (SAMPLE_DOCUMENT, SAMPLE_POLICIES)  # the sample is a small knowledge base: price list and policies
SAMPLE_QUESTIONS = SAMPLES / "breezy_home_questions.csv"  # the price list's own
# Added to those for the sample knowledge base: one the policies page answers, one it competes for.
SAMPLE_BASE_QUESTIONS = SAMPLES / "breezy_home_policies_questions.csv"


@dataclass(frozen=True)
class LoadedFile:
    """One file of the document the session has open: its name and bytes, and the sheet and product-name column
    chosen for it (None: the ones the reader finds by itself). Hashable, so caches key on it."""

    name: str
    data: bytes
    sheet: str | None = None
    name_column: str | None = None


# Permanent keys (never bound to a widget, so they survive moving between pages).
FILES = "files"  # a tuple of LoadedFile: one for a single file, two or more for a knowledge base, in order
DOC_NAME = "doc_name"  # the document's name: the file's, or a base's files' names joined by " + "
QUESTIONS = "questions"  # a DataFrame with ui.questions_table.FRAME_COLUMNS
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
RUN_STARTED_AT = "run_started_at"  # time.monotonic() when the last run started (ui.running.run_current)
RUN_STOPPED_AFTER = "run_stopped_after"  # seconds from that start to Stop: a stopped run's time, as the page says it
RUN_WENT_ON = "run_went_on"  # seconds of the stopped run's kept part, when the last run went on from it
RESULT_STAMP = "result_stamp"  # what RESULT was computed from (workbench.store.stamp.Stamp)
RESULT_ERROR_STAMP = "result_error_stamp"  # what the failed run was asked to compute
NOTICE = "notice"
DOC_KEY = "doc_key"  # the file's content hash, or a base's (workspace.base_key): the key of its question set
WORKSPACE = "workspace"  # workbench.store.workspace.Workspace: the work kept on this computer
WORKSPACE_PROBLEM = "workspace_problem"  # why the work is not being kept, shown once
WANTED_PAGE = "wanted_page"  # the page opened by its address before app.py had run (see ui.session.ensure_app)
UNDO = "undo"  # a ui.saved_work.Change: the last change of the table, what Undo puts back
REDO = "redo"  # a Change: the change just undone, what Redo makes again
# {document key: (Undo, Redo)}: each file's last change in this session, so a trip to another file and back keeps
# it. Never kept on disk: a new session (a reload, next week's visit) made no change, so it offers no Undo.
CHANGES = "changes"

# Settings saved as the user works and restored on the next visit.
SAVED_SETTINGS = ("cut_strategies", "size", "overlap", "run_strategies", "run_retrievers", "run_rerankers",
                  "top_k", "threshold", "threshold_auto", "reranker_model")
