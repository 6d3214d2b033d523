"""The document loaded now: read once and cached, its sheet and product-name column, and its head for pages
that look at the start of a long file only.

Documents, heads and pieces are cached with ``st.cache_resource`` keyed by the file's bytes and the settings,
so moving between pages never re-reads or re-cuts an unchanged document.
"""

from __future__ import annotations

import streamlit as st

from ui.keys import DOC_DATA, DOC_NAME, NAME_COLUMN, SHEET
from ui.saved_work import remember_reading, store
from workbench.core.model import Chunk, Document, WorkbenchError
from workbench.cut import chunk_document
from workbench.output.highlight import escape_markdown
from workbench.read.loaders import NoNameColumn, default_sheet, load_bytes, sheet_names
from workbench.read.sample import Head, head


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
