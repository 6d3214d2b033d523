"""The document a session has open (one file, or a knowledge base of several), with its questions: the work kept
from the last visit when a session starts (else the sample), other files when the user opens them, files added to
or removed from a knowledge base, and the documents kept on this computer.

``init_session_state`` fills in every key once per browser session; ``ensure_app`` sends a page opened by its
address on a fresh server through ``app.py`` first.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.document import current_files, load_document, load_file
from ui.keys import (
    CUT_STRATEGIES,
    DOC_KEY,
    DOC_NAME,
    EDITOR_VERSION,
    FILES,
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
    SAMPLE_FILES,
    SAVED_SETTINGS,
    SIZE,
    THRESHOLD,
    THRESHOLD_AUTO,
    TOP_K,
    UNDO,
    WANTED_PAGE,
    WORKSPACE,
    WORKSPACE_PROBLEM,
    LoadedFile,
)
from ui.questions_table import frame_questions, questions_frame, sample_questions, tidy_questions
from ui.saved_work import keep, open_workspace, session_undo
from workbench.core.model import WorkbenchError
from workbench.output.highlight import escape_markdown
from workbench.read.base_of_files import split_source
from workbench.read.loaders import NoNameColumn
from workbench.read.questions import generate_questions
from workbench.run import defaults
from workbench.store.workspace import BASE_SEPARATOR, StoredBase, Workspace, base_key, file_key

STARTER_QUESTIONS = 10  # a new spreadsheet starts with this many generated questions


def init_session_state() -> None:
    """Fill in every key once per browser session: the work kept from the last visit, else the sample."""
    first_visit = WORKSPACE not in st.session_state
    # The settings a run starts from: the one object the command line and the benchmarks read too (read here, at
    # the session's start, so a test that replaces it reaches the app).
    start = defaults.DEFAULTS
    initial = {
        FILES: sample_files(),
        DOC_NAME: document_name(sample_files()),
        QUESTIONS: sample_questions(),
        EDITOR_VERSION: 0,
        CUT_STRATEGIES: ["fixed", "heading"],
        SIZE: start.size,
        OVERLAP: start.overlap,
        # The setups that won on the real files (docs/DESIGN.md, "The default setups"); the rest when asked.
        RUN_STRATEGIES: list(start.strategies),
        RUN_RETRIEVERS: list(start.retrievers),
        RUN_RERANKERS: list(start.rerankers),
        TOP_K: start.top_k,
        THRESHOLD: start.threshold if isinstance(start.threshold, float) else 0.0,
        THRESHOLD_AUTO: start.threshold == "auto",  # the bot refuses what the file cannot answer, as the verdict expects
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
    for key, value in initial.items():
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
    if isinstance(stored, StoredBase):
        set_files(tuple(LoadedFile(f.name, f.data, f.sheet, f.name_column) for f in stored.files))
    elif stored is not None and stored.data is not None:
        set_files((LoadedFile(stored.name, stored.data, stored.sheet, stored.name_column),))
    else:
        set_files(current_files())
    frame, notice = questions_for_document()
    st.session_state[QUESTIONS] = frame
    st.session_state[NOTICE] = notice


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
    # An earlier version's set that is all the app's own (never edited or accepted) is written afresh from this
    # version: carried over, its questions asked for the old prices and were left out ("the answer '159,00 zł' is
    # not in …") though the owner had written none of them.
    if saved is not None and (saved.same_version(key) or not all(q.generated for q in saved.questions)):
        frame = tidy_questions(questions_frame(saved.questions))
        if saved.same_version(key):
            return frame, None
        keep(state[WORKSPACE].save_questions, key, name, saved.questions)
        return frame, (
            f"The {len(saved.questions)} questions you kept for {name} (saved {saved.saved_at[:16].replace('T', ' ')} "
            "UTC for an earlier version of this file) are back, checked against this version."
        )
    if is_sample(key) or key == file_key(SAMPLE_DOCUMENT.read_bytes()):  # its price list alone: its own questions
        frame, notice = sample_questions(base=is_sample(key)), None
    else:
        frame, notice = starter_questions()
    keep(state[WORKSPACE].save_questions, key, name, frame_questions(frame))
    return frame, notice


def starter_questions() -> tuple[pd.DataFrame, str | None]:
    """A new spreadsheet starts with a few generated questions, spread over its products and columns."""
    try:
        document = load_document(current_files())
        generated = generate_questions(document)
    except WorkbenchError:  # unreadable, or no spreadsheet to write questions from
        return tidy_questions(questions_frame([])), None
    if len(generated) > STARTER_QUESTIONS:  # evenly spaced, so they are not all about the first product
        step = len(generated) / STARTER_QUESTIONS
        generated = [generated[int(i * step)] for i in range(STARTER_QUESTIONS)]
    if not generated:
        return tidy_questions(questions_frame([])), None
    return tidy_questions(questions_frame(generated)), (
        f"{len(generated)} questions were written from the columns of {document.name} to start with; "
        "edit them, or add the ones your customers really ask."
    )


# --- Another file, or files added to and removed from a knowledge base ------------------------

def sample_files() -> tuple[LoadedFile, ...]:
    return tuple(LoadedFile(path.name, path.read_bytes()) for path in SAMPLE_FILES)


def document_name(files) -> str:
    """A file's name, or a knowledge base's: its files' names joined, as ``combine`` names the base."""
    return BASE_SEPARATOR.join(file.name for file in files)


def document_key(files) -> str:
    """A file's content hash, or a base's key (every file's hash and name, in order): its questions' key."""
    return file_key(files[0].data) if len(files) == 1 else base_key([(file.name, file.data) for file in files])


def is_sample(key: str) -> bool:
    """Whether the document is the sample the app opens on."""
    return key == document_key(sample_files())


def set_files(files: tuple[LoadedFile, ...]) -> None:
    """Make these files the document (its name and key follow)."""
    state = st.session_state
    state[FILES], state[DOC_NAME], state[DOC_KEY] = tuple(files), document_name(files), document_key(files)


def _found(files: list[tuple[str, bytes]]) -> tuple[LoadedFile, ...]:
    """The files with the sheet and name column last chosen for each. Of two files with one name, the later is
    taken (a base's files are known by their names)."""
    by_name = {name.lower(): (name, data) for name, data in files}
    loaded = []
    for name, data in by_name.values():
        try:
            stored = st.session_state[WORKSPACE].document(file_key(data), data=False)
        except WorkbenchError:
            stored = None
        loaded.append(LoadedFile(name, data, *((stored.sheet, stored.name_column) if stored else (None, None))))
    return tuple(loaded)


def _readable(files: tuple[LoadedFile, ...]) -> bool:
    """Whether every file reads. A spreadsheet whose product-name column is still to be picked reads: nothing is
    wrong with it, and the column picked is kept with it."""
    for file in files:
        try:
            load_file(file)
        except NoNameColumn:
            continue
        except WorkbenchError:
            return False
    return True


def _keep_open(loaded: tuple[LoadedFile, ...]) -> None:
    """Keep the files on this computer as the document a new session (another tab, a reload) opens on, and in
    "Reopen a recent file"; a file that cannot be read is not kept (it would only be a junk entry to Forget).

    Called once the document's questions are saved: a session opening it then finds them. Made current before,
    a tab opened while a large upload was still being read wrote its own starter questions, so it waited for
    that read (a minute for a 30 MB spreadsheet) before showing anything at all (issue 23).
    """
    if not _readable(loaded):  # an unreadable upload's error is shown; it is no file to reopen later
        return
    workspace = st.session_state[WORKSPACE]
    if len(loaded) == 1:
        keep(workspace.open_document, loaded[0].name, loaded[0].data)
    else:
        keep(workspace.open_base, [(file.name, file.data) for file in loaded])


def use_files(files: list[tuple[str, bytes]]) -> None:
    """Make these files the document (one file, or a knowledge base of several), keep it, and switch to its own
    questions.

    Each file's sheet and name column are the ones last chosen for it, else found afresh. The old result
    stays only as an out-of-date one: pages compare its stamp with the current inputs.
    """
    state = st.session_state
    loaded = _found(files)
    set_files(loaded)
    frame, notice = questions_for_document()  # a new spreadsheet is read here, for its starter questions
    _keep_open(loaded)  # only now what a new tab opens on: one opened during the read opens the last one, at once
    state[QUESTIONS] = frame
    state[EDITOR_VERSION] += 1
    state[NOTICE] = notice
    state[UNDO], state[REDO] = session_undo()  # this document's last change in this session, from before the switch


def use_document(data: bytes, name: str) -> None:
    use_files([(name, data)])


def add_files(files: list[tuple[str, bytes]]) -> None:
    """Add files to the document, making a knowledge base of it; a file of a name already there replaces it (a new
    version). The questions stay: they are about the files that stay."""
    current = [(file.name, file.data) for file in current_files()]
    names = [name.lower() for name, _ in current]
    replaced = []
    for name, data in files:
        if name.lower() in names:
            current[names.index(name.lower())] = (name, data)
            replaced.append(name)
        else:
            current.append((name, data))
            names.append(name.lower())
    added = [name for name, _ in files if name not in replaced]
    said = []
    if added:
        said.append(f"Added {', '.join(added)} to the knowledge base")
    if replaced:
        said.append(f"replaced {', '.join(replaced)} by the version just uploaded")
    _change_files(current, "; ".join(said) + ".")


def remove_file(index: int) -> None:
    """Take one file out of the knowledge base; the last one left is checked on its own. The questions stay; those
    about that file are named as left out until they are changed."""
    files = current_files()
    gone = files[index].name
    rest = [(file.name, file.data) for number, file in enumerate(files) if number != index]
    if not rest:
        return
    alone = f" {rest[0][0]} is now checked on its own." if len(rest) == 1 else ""
    _change_files(rest, f"Took {gone} out of the knowledge base.{alone}")


def _change_files(files: list[tuple[str, bytes]], notice: str) -> None:
    state = st.session_state
    questions = frame_questions(state[QUESTIONS])
    loaded = _found(files)
    set_files(loaded)
    if len(files) == 1:  # "prices.csv › Fan" names the one file left: the section alone says it now
        for question in questions:
            named = split_source(question.expected_source)
            if named and named[0].lower() in (files[0][0].lower(), files[0][0].rsplit(".", 1)[0].lower()):
                question.expected_source = named[1]
    state[QUESTIONS] = tidy_questions(questions_frame(questions))
    state[EDITOR_VERSION] += 1
    state[NOTICE] = notice + (f" Your {len(questions)} questions stay with it." if questions else "")
    state["files_notice"] = notice  # said on the Document page, where the file was added or removed
    keep(state[WORKSPACE].save_questions, state[DOC_KEY], state[DOC_NAME], questions)
    _keep_open(loaded)  # after its questions, as in use_files
    state[UNDO], state[REDO] = session_undo()


def recent_documents(limit: int = 8) -> list:
    """The recent files and knowledge bases to reopen, one a name, without the one open now (by its name too: an
    earlier version of it read as the same file listed twice)."""
    try:
        found = st.session_state[WORKSPACE].recent(limit + 1)
    except WorkbenchError:
        return []
    state = st.session_state
    return [doc for doc in found if doc.key != state[DOC_KEY] and doc.name.lower() != state[DOC_NAME].lower()][:limit]


def reopen(key: str) -> None:
    """Make a kept file or knowledge base the document again, with its questions and each file's sheet and name
    column."""
    workspace = st.session_state[WORKSPACE]
    try:
        stored = workspace.document(key) or workspace.base(key)
    except WorkbenchError as error:
        st.session_state[WORKSPACE_PROBLEM] = f"That file cannot be reopened: {escape_markdown(error)}"
        return
    if isinstance(stored, StoredBase):
        use_files([(file.name, file.data) for file in stored.files])
    elif stored is not None and stored.data is not None:
        use_document(stored.data, stored.name)


def forget(key: str) -> None:
    """Delete a kept file or knowledge base and its questions, with its earlier versions (the list shows one a name;
    never the one open now)."""
    workspace, current = st.session_state[WORKSPACE], st.session_state[DOC_KEY]
    try:
        versions = workspace.versions(key)
    except WorkbenchError:
        versions = [key]
    for version in versions:
        if version != current:
            keep(workspace.forget, version)
