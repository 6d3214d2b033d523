"""The document loaded now: read once and cached, each file's sheet and product-name column, and its head for
pages that look at the start of a long file only.

The document is one file or a knowledge base of several (``FILES``, a tuple of ``LoadedFile``): each file is read
exactly as it is read alone, and two or more are joined by ``read.base_of_files.combine``. Documents, heads and
pieces are cached with ``st.cache_resource`` keyed by the files' bytes and the settings, so moving between pages
never re-reads or re-cuts an unchanged document.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ui.keys import DOC_KEY, FILES, LoadedFile
from ui.saved_work import remember_reading
from workbench.core.model import BadQuestion, Chunk, Document, Question, WorkbenchError
from workbench.core.wording import plural
from workbench.cut import chunk_document
from workbench.output.highlight import escape_markdown
from workbench.read.base_of_files import combine
from workbench.read.loaders import NoNameColumn, default_sheet, load_bytes, sheet_names
from workbench.read.sample import Head, head

Files = tuple[LoadedFile, ...]


# Documents, heads and pieces are frozen records: cache_resource hands out the one copy, where cache_data
# would unpickle a fresh one on every call (seconds each for a 100,000-row file, several calls a page).
@st.cache_resource(show_spinner=False, max_entries=16)
def _load(data: bytes, name: str, sheet: str | None, name_column: str | None) -> Document:
    return load_bytes(data, name, sheet=sheet, name_column=name_column)


def load_file(file: LoadedFile) -> Document:
    """One file, read once: naming the sheet or column the reader found by itself reads nothing again.

    The Document page fills in the found sheet and column after the first read; a 100,000-row file
    takes half a minute to read, so that must not count as a new file.
    """
    sheet, plain_column = own_reading(file.data, file.name, file.sheet, file.name_column)
    if plain_column is None and file.name_column is not None:  # the column the reader finds by itself
        return _load(file.data, file.name, sheet, None)
    return _load(file.data, file.name, sheet, file.name_column)


@st.cache_resource(show_spinner=False, max_entries=16)
def _combine(files: Files) -> Document:
    return combine([load_file(file) for file in files])


def load_document(files: Files) -> Document:
    """The document: one file's own, or the knowledge base of several (each file read as it is read alone)."""
    return load_file(files[0]) if len(files) == 1 else _combine(files)


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


def readings(files: Files) -> list[tuple[str, bytes, str | None, str | None]]:
    """Each file as a result is stamped with it: name, bytes, and the sheet and column as the reader found them."""
    return [(file.name, file.data, *own_reading(file.data, file.name, file.sheet, file.name_column)) for file in files]


@st.cache_data(show_spinner=False, max_entries=16)
def workbook_sheets(data: bytes, name: str) -> list[str]:
    return sheet_names(data, name)


@st.cache_data(show_spinner=False, max_entries=16)
def workbook_default_sheet(data: bytes, name: str) -> str:
    return default_sheet(data, name)


KINDS = {".md": "a Markdown file", ".markdown": "a Markdown file", ".txt": "a text file", ".csv": "a spreadsheet (CSV)", ".tsv": "a spreadsheet (TSV)", ".xlsx": "an Excel workbook",
         ".xlsm": "an Excel workbook", ".json": "a JSON product feed", ".docx": "a Word document",
         ".html": "a web page", ".htm": "a web page", ".pdf": "a PDF"}


def file_kind(name: str, document: Document | None) -> str:
    """What a file is and what was read from it, in words: "a spreadsheet (CSV): 10 products, 80 facts"."""
    suffix = name[name.rfind("."):].lower() if "." in name else ""
    kind = KINDS.get(suffix, "Markdown or text")
    if document is None:
        return kind
    if document.converted_from:
        kind += ", converted to Markdown"
    parts = sum(1 for section in document.sections if section.facts)
    noun = document.form.parts() if parts != 1 else document.form.part
    return (f"{kind}: {parts:,} {noun}, {len(document.facts):,} facts, "
            f"{len(document.text):,} characters" + (f", {plural(len(document.warnings), 'warning')} below"
                                                    if document.warnings else ""))


def current_files() -> Files:
    return st.session_state[FILES]


def widget_key(what: str, index: int) -> str:
    """The key of a file's sheet or column chooser: the one file's as ever ("w_sheet"), a base's per file."""
    return f"w_{what}" if len(current_files()) == 1 else f"w_{what}_{index}"


def set_reading(index: int, **reading) -> None:
    """Change one file's sheet or name column, and keep it for that file (alone or in any base)."""
    files = list(current_files())
    files[index] = replace(files[index], **reading)
    st.session_state[FILES] = tuple(files)
    remember_reading(files[index])


def choose_sheet(index: int) -> None:
    """Another sheet has other columns: its product-name column is found afresh."""
    set_reading(index, sheet=st.session_state[widget_key("sheet", index)], name_column=None)


def choose_name_column(index: int) -> None:
    set_reading(index, name_column=st.session_state[widget_key("name_column", index)])


def _picker_key(index: int) -> str:
    return "pick_name_column" if len(current_files()) == 1 else f"pick_name_column_{index}"


def _picked_name_column(index: int) -> None:
    set_reading(index, name_column=st.session_state[_picker_key(index)])


def unreadable(file: LoadedFile) -> bool:
    """Whether a file cannot be read at all; a name column still to pick is no fault of the file."""
    try:
        load_file(file)
    except NoNameColumn:
        return False
    except WorkbenchError:
        return True
    return False


def file_problem(index: int, pick_column: bool = False) -> bool:
    """Read one file of the document; on failure say why (with ``pick_column``, a select box of its columns when
    no column looks like a product name) and return True."""
    file = current_files()[index]
    try:
        load_file(file)
        return False
    except NoNameColumn as missing:
        named = f" in {escape_markdown(file.name)}" if len(current_files()) > 1 else " here"
        if pick_column and missing.header_row > 1:
            # Headings are read from the first row that holds anything: with row 1 blank (its headings never
            # typed), that is a product's row, and "nothing is wrong with the file" was not true.
            blank = "Row 1" if missing.header_row == 2 else f"Rows 1 to {missing.header_row - 1}"
            where = named.replace(" here", "")
            st.warning(f"{blank}{where} {'is' if missing.header_row == 2 else 'are'} blank, so row "
                       f"{missing.header_row}, the first that holds anything, was read as the column headings: "
                       f"{escape_markdown(', '.join(missing.columns[:6]))}. If that row is a product, type a heading "
                       "over each column in row 1 (Name, Price, …) and upload the file again; if those are the "
                       "headings, pick the column that names each product.")
        elif pick_column:
            st.info(f"No column{named} looks like a product name (a heading such as Name, Title, Product or Item, "
                    "or Bezeichnung, Titre, Nombre, Nome or Naam). Nothing is wrong with the file: pick the column "
                    "that names each product, and it opens.")
        if pick_column:
            st.selectbox("Which column holds the product name?", missing.columns, index=None,
                         placeholder="Choose a column", key=_picker_key(index),
                         on_change=_picked_name_column, args=(index,))
        else:
            st.warning(f"Pick the column that holds the product names{named.replace(' here', '')} on the "
                       "**Document** page.")
    except WorkbenchError as error:
        st.error(f"This file cannot be read: {escape_markdown(error)}")
    return True


def current_document(pick_column: bool = False) -> Document | None:
    """The loaded document, or None after showing the loader's plain error.

    With ``pick_column`` (the Document page), a sheet with no name-like column gets a select box of its
    columns; elsewhere a pointer to that page. The loader's own message is for the command line.
    """
    files = current_files()
    if any([file_problem(index, pick_column) for index in range(len(files))]):
        return None
    try:
        return load_document(files)
    except WorkbenchError as error:  # two files of one name, say
        st.error(f"These files cannot be checked together: {escape_markdown(error)}")
        return None


def require_document() -> Document:
    """Stop the page with a pointer to the Document page when nothing readable is loaded."""
    document = current_document()
    if document is None:
        st.info("Load a readable file on the **Document** page first.")
        st.stop()
    return document


def choose_file(document: Document, key: str, label: str = "File") -> int:
    """In a knowledge base, a chooser of which file a page shows (its own text, pieces and check-up); 0 for one
    file. Its key carries the document's, so another base opens on its first file."""
    if not document.files:
        return 0
    return st.selectbox(label, range(len(document.files)), format_func=lambda i: document.files[i].name,
                        key=f"{key}_{st.session_state[DOC_KEY][:12]}")


@st.cache_resource(show_spinner=False, max_entries=16)
def page_head(files: Files, index: int = 0) -> Head:
    """The start of one file of the document (of the one file, for a single file): what Cuts and Check-up draw."""
    document = load_document(files)
    return head(document.files[index].document if document.files else document)


def head_note(part: Head, what: str) -> None:
    """Say plainly that a page looks at the start of a long file only."""
    if part.partial:
        kind = part.document.form.parts()
        st.info(
            f"Your file is long ({part.total_sections:,} {kind}), so {what} the first "
            f"{part.sections:,} of them, to answer in seconds. The **Results** page uses the whole file."
        )


@st.cache_resource(show_spinner=False, max_entries=64)
def cut(files: Files, index: int, strategy: str, size: int, overlap: int) -> list[Chunk]:
    """The pieces of one file's head (the whole of a short one), as the Cuts page draws them: offsets into that
    file's own text."""
    return chunk_document(page_head(files, index).document, strategy, size=size, overlap=overlap)


@st.cache_resource(show_spinner=False, max_entries=16)
def base_pieces(files: Files, strategy: str, size: int, overlap: int) -> list[Chunk]:
    """Every file's pieces in the knowledge base, each naming its file: what a pipeline loads."""
    return chunk_document(load_document(files), strategy, size=size, overlap=overlap)


def file_questions(document: Document, index: int, questions: list[Question]) -> list[Question]:
    """The questions answered from one file of a knowledge base, each naming its section as that file alone does
    (for that file's own check-up); all of them for a single file."""
    if not document.files:
        return questions
    from workbench.read.resolve import resolve

    part, kept = document.files[index], []
    for question in questions:
        found = resolve(document, question)
        if isinstance(found, BadQuestion) or found.section_id is None:
            continue
        number, own = found.section_id.split(".", 1)
        if number == f"f{part.number}":
            kept.append(replace(question, expected_source=part.document.section(own).heading))
    return kept
