"""The work kept on this computer as the user works: settings, the sheet and column chosen for each file, and
the questions table, whose every change is recorded so the last one can be undone (and redone).

A failure to save never stops a page: it warns once in the sidebar (``keep``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from ui.keys import (
    CHANGES,
    DOC_KEY,
    DOC_NAME,
    EDITOR_VERSION,
    NOTICE,
    QUESTIONS,
    REDO,
    SAVED_SETTINGS,
    UNDO,
    WORKSPACE,
    WORKSPACE_PROBLEM,
    LoadedFile,
)
from ui.questions_table import frame_questions, tidy_questions
from workbench.core.model import WorkbenchError
from workbench.core.wording import plural, verb
from workbench.output.highlight import escape_markdown
from workbench.read.questions import COLUMNS, FIRST_ROW, GENERATED
from workbench.store.workspace import Workspace, file_key


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


def save_settings() -> None:
    keep(st.session_state[WORKSPACE].set_preference, "settings", {name: st.session_state[name] for name in SAVED_SETTINGS})


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


def remember_reading(file: LoadedFile) -> None:
    """Keep the sheet and name column chosen for this file, so it reopens the same way (alone or in a base)."""
    keep(st.session_state[WORKSPACE].remember_reading, file_key(file.data), file.sheet, file.name_column)


# --- Changes of the questions table, and their Undo and Redo -----------------------------------

@dataclass
class Change:
    """The last change of a file's table, for Undo (or, once undone, for Redo): the table before and after it."""

    document: str  # the content hash of the file whose table it changed
    what: str  # in words: "the import of more.csv", "adding row 41"
    before: pd.DataFrame
    after: pd.DataFrame


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
    """What Undo and Redo would do, for the file open now, in this session only: an Undo kept on disk was offered
    in the next session ("Undo the import of …" after a reload, where nothing had been imported)."""
    state = st.session_state
    state[UNDO], state[REDO] = undo, redo
    state.setdefault(CHANGES, {})[state[DOC_KEY]] = (undo, redo)


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
    replace_questions(frame, f"Accepted {plural(count, 'generated question')} as checked: {verb(count, 'it now counts', 'they now count')} "
                      "as yours.",
                      undo=f"accepting {plural(count, 'generated question')}")


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


def session_undo() -> tuple[Change | None, Change | None]:
    """The open file's last change in this session, for Undo (or Redo): a switch to another file and back keeps
    it; a new session has none."""
    state = st.session_state
    return state.get(CHANGES, {}).get(state.get(DOC_KEY), (None, None))
