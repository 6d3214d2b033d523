"""Document page: upload a file, or several checked together as one knowledge base (or keep the sample), and see
what was read from each."""

import streamlit as st

from ui.document import (
    choose_name_column,
    choose_sheet,
    current_document,
    current_files,
    file_kind,
    file_problem,
    load_file,
    unreadable,
    widget_key,
    workbook_default_sheet,
    workbook_sheets,
)
from ui.keys import DOC_KEY, DOC_NAME
from ui.session import (
    add_files,
    ensure_app,
    forget,
    is_sample,
    recent_documents,
    remove_file,
    reopen,
    sample_files,
    use_files,
)
from workbench.core.model import Document, WorkbenchError
from workbench.core.text_size import TOKENS_HELP, estimated_tokens, length_words
from workbench.core.wording import grouped_rows, parts_named, recent_line
from workbench.encode.multilingual import file_language, model_language_note
from workbench.output.explain import GLOSSARY
from workbench.output.highlight import escape_markdown
from workbench.read.headers import columns_read
from workbench.read.loaders import CONVERSION_NOTES, SUPPORTED
from workbench.run.names import reading_help, reading_words
from workbench.store.workspace import KEEP_DOCUMENTS

TYPES = [ext.lstrip(".") for ext in SUPPORTED]
ensure_app("pages/document.py")  # opened by its address before app.py ever ran: go through app.py
st.title("Your document")
top = st.container()  # the introduction names the file loaded, so it is written after an upload is read


def uploader_key(name: str) -> str:
    # A new key empties the box: the browser would not report the same file chosen again into a box that still
    # holds it, and the box would show a file that is not loaded.
    version = st.session_state.get(f"{name}_version")
    return name if not version else f"{name}_{version}"


def empty_box(name: str) -> None:
    st.session_state[f"{name}_version"] = st.session_state.get(f"{name}_version", 0) + 1


uploaded = st.file_uploader(
    "Upload a price list or product document — or several files (price list, policies, FAQ) to check together",
    type=TYPES,
    accept_multiple_files=True,
    key=uploader_key("uploader"),
    help="A spreadsheet (CSV or Excel .xlsx) with one product per row, or a document with headings: Markdown or "
    "text, Word (.docx), a web page (.html) or a PDF. Word, web pages and PDF are converted to Markdown first. "
    "Several files are one knowledge base, searched together as a shop's bot searches them.",
)
# Each upload has its own file id: the same file chosen again (after "Go back to the sample") is a new upload.
upload_ids = tuple((f.name, f.size, getattr(f, "file_id", None)) for f in uploaded or [])
if upload_ids and upload_ids != st.session_state.get("uploaded_ids"):
    before = st.session_state.get("uploaded_ids") or ()
    st.session_state["uploaded_ids"] = upload_ids
    shown = [(name, size) for name, size, _ in before]  # by name and size: a re-run may give files new ids
    joined = bool(shown) and len(upload_ids) > len(shown) and [(n, s) for n, s, _ in upload_ids[:len(shown)]] == shown
    # A file the box still shows that could not be read is not joined by the next: the walk-through dropped an empty
    # CSV, then the file it meant, and got a knowledge base of both that nothing could be read from until "Remove".
    broken = [f.name for f in current_files() if unreadable(f)] if joined else []
    kept = [f for i, f in enumerate(uploaded) if i >= len(shown) or f.name not in broken]
    use_files([(f.name, f.getvalue()) for f in kept])
    added = ", ".join(name for name, _, _ in upload_ids[len(before):])
    if broken:
        left = len(kept) - len(upload_ids) + len(shown)  # the box's readable files, still checked with the new
        st.session_state["files_notice"] = (
            f"{', '.join(broken)} could not be read, so it is left out: {added} "
            + (f"joined the readable file{'s' if left > 1 else ''} already in the box above, checked together as one "
               "knowledge base." if left else "is checked on its own."))
        empty_box("uploader")  # the box showed the unreadable file: it would be joined again by the next upload
        st.rerun()
    if joined:
        # Dropped into the box beside a file it still showed: the walk-through meant to switch to another file and
        # got both checked together, with no word of why.
        one = len(shown) == 1
        st.session_state["files_notice"] = (
            f"{added} joined the file{'' if one else 's'} already in the box above: they are checked together as one "
            f"knowledge base. To check a file on its own, take the other{'' if one else 's'} out with “Remove” below.")

if st.button("Go back to the sample", disabled=is_sample(st.session_state[DOC_KEY])):
    use_files([(f.name, f.data) for f in sample_files()])
    empty_box("uploader")
    st.rerun()

files = current_files()
if st.session_state.get("files_notice"):  # a file added to or taken out of the knowledge base, said once
    st.success(escape_markdown(st.session_state.pop("files_notice")))
with top:
    intro = (
        "The Breezy Home sample is loaded so you can see the effect at once; upload your own file to check it."
        if is_sample(st.session_state[DOC_KEY])
        else f"You are checking **{escape_markdown(st.session_state[DOC_NAME])}**; upload another file "
        "or go back to the sample below."
    )
    st.write(
        GLOSSARY["chunk"]
        + " Where those cuts fall decides whether it quotes the right product. "
        + intro
    )

# What to do here, said here: a shop owner does not read the README.
RECENT_NOTE = (f"Kept on this computer only, each with its questions (the last {KEEP_DOCUMENTS} files and "
               f"{KEEP_DOCUMENTS} knowledge bases). Click a name to check it again; “Forget” deletes it and its "
               "questions from this computer.")
recent = recent_documents()
if recent:
    with st.expander(f"Reopen a recent file or knowledge base ({len(recent)})"):
        st.caption(RECENT_NOTE)
        for doc in recent:
            left, right = st.columns([5, 1])
            several = len(getattr(doc, "files", ()))
            what = f" (a knowledge base of {several} files)" if several else ""
            # A button's label is Markdown: a name that is a Markdown image would make the browser fetch it.
            # Sizes and times as a person reads them, the time in this computer's own zone: "19 KB, last opened
            # today 17:10" (it said "19236 bytes, last opened 2026-12-03 16:10 UTC").
            label = f"{escape_markdown(doc.name)}{what} — {recent_line(doc.size, doc.used_at)}"
            if left.button(label, key=f"reopen_{doc.key[:16]}"):
                reopen(doc.key)
                empty_box("uploader")
                st.rerun()
            right.button("Forget", key=f"forget_{doc.key[:16]}", on_click=forget, args=(doc.key,),
                         help="Deletes this file and its questions from this computer (a file also takes the "
                         "knowledge bases that hold it).")


def reading_choosers(index: int) -> bool:
    """A workbook's sheet, and a spreadsheet's product-name column, chosen per file; True (after saying why) when
    the file cannot be read as it is."""
    file = current_files()[index]
    if file.name.lower().endswith((".xlsx", ".xlsm")):
        try:
            sheets = workbook_sheets(file.data, file.name)
        except WorkbenchError:  # a corrupt workbook: the loader says so in plain words
            sheets = []
        if len(sheets) > 1:
            sheet = file.sheet if file.sheet in sheets else workbook_default_sheet(file.data, file.name)
            st.session_state[widget_key("sheet", index)] = sheet  # seeded from the file's own choice
            st.selectbox("Sheet", sheets, key=widget_key("sheet", index), on_change=choose_sheet, args=(index,))
    if file_problem(index, pick_column=True):
        return True
    document = load_file(current_files()[index])
    if document.form.table:
        header = [c for c in [document.name_column, *document.columns] if c]
        st.session_state[widget_key("name_column", index)] = file.name_column or document.name_column
        st.selectbox(
            "Which column holds the product name?", header, key=widget_key("name_column", index),
            on_change=choose_name_column, args=(index,),
            help="Each product becomes one section. Rows with an empty name are variants of the product above "
            "(or of the product with the same handle/slug).",
        )
    return False


def counts(document: Document) -> None:
    sections = [s for s in document.sections if s.facts]
    a, b, c, d = st.columns(4)
    label = parts_named(document).capitalize()  # "Products", "Sections", "Products and sections"
    a.metric(label, f"{len(sections):,}",
             help="In a knowledge base: every file's products and sections." if document.files else None)
    b.metric("Facts (lines)", f"{len(document.facts):,}",
             help="Lines that state something a customer could ask about: " + document.form.facts_are
             + " A piece that holds facts of several products or sections is graded “mixed”.")
    c.metric("Characters", f"{len(document.text):,}")
    d.metric("Tokens (about)", f"{estimated_tokens(document.text):,}", help=TOKENS_HELP)
    grouped = grouped_rows(document)
    if grouped:  # "Products 37" alone reads as rows lost
        st.caption(grouped[:1].upper() + grouped[1:] + ".")
    # The file's language and how it is read, and which columns were understood, in whichever language they are.
    st.caption(escape_markdown(reading_words(document)), help=reading_help(document))
    roles = columns_read(document)  # a spreadsheet's columns and their roles
    if roles:
        st.caption(escape_markdown(roles))


def what_was_read(document: Document, text_label: str) -> None:
    """Warnings, what a conversion may lose, and the text as read."""
    if document.converted_from:
        st.info(CONVERSION_NOTES[document.converted_from] + " Every place the workbench points to (pieces, answers, "
                "offsets in exports) is in this converted text.")
    for warning in document.warnings:
        st.warning(escape_markdown(warning))
    converted = bool(document.converted_from)
    with st.expander(text_label, expanded=converted and not len(current_files()) > 1):
        limit = 20000
        # Wrapped: a long CSV cell ran off behind a sideways scroll.
        st.code(document.text[:limit] + ("\n…" if len(document.text) > limit else ""), language=None, wrap_lines=True)


def add_box(label: str) -> None:
    """More files for the knowledge base: each upload is added, and the box emptied for the next."""
    def added() -> None:
        chosen = st.session_state.get(uploader_key("add_files")) or []
        if chosen:
            add_files([(f.name, f.getvalue()) for f in chosen])
            empty_box("add_files")
            empty_box("uploader")  # the main box no longer shows what is loaded

    st.file_uploader(label, type=TYPES, accept_multiple_files=True, key=uploader_key("add_files"), on_change=added,
                     help="A file with the name of one already there replaces it (a new version).")


if len(files) == 1:
    if reading_choosers(0):
        if recent:  # an upload that cannot be read (yet) replaced what was open: say where that went
            st.caption("What you checked before is kept on this computer with its questions: reopen it under "
                       "“Reopen a recent file or knowledge base” above.")
        st.stop()
    document = load_file(files[0])
    st.subheader(f"What was read from {escape_markdown(document.name)}")
    counts(document)
    words = length_words(document.text)
    # A file not in UTF-8 (the usual encoding) was read by a guess: say so, and what to check, once (a Windows code
    # page's guess is the reader's own warning below; the walk-through saw it said twice, once as "windows-1250").
    said = document.encoding.lower().startswith("utf-8") or any(
        document.encoding.lower() in warning.lower() for warning in document.warnings)
    st.caption(f"{words}, in the converted text below." if document.converted_from
               else f"{words}." if said
               # "utf-16" read as jargon: Excel's "Unicode Text" (a .txt) is where a shop's file gets it.
               else f"{words}. Its characters were read as "
               + ("UTF-16, as Excel's “Unicode Text” saves them" if document.encoding.lower().startswith("utf-16")
                  else document.encoding)
               + ", not the usual UTF-8: check that accented letters below look right.")
    what_was_read(document, "The converted text (Markdown) the bot would search" if document.converted_from else
                  "The text the bot would search (as read)")
    add_box("Add files to check with this one as a knowledge base (its policies, an FAQ…)")
else:
    st.subheader(f"What was read from the {len(files)} files of this knowledge base")
    st.caption("A shop's bot searches all its files together: each file is read on its own, as when it is checked "
               "alone, and their pieces are searched and graded together.")
    problems = []
    for index, file in enumerate(files):
        with st.container(border=True):
            left, right = st.columns([6, 1], vertical_alignment="center")
            right.button("Remove", key=f"remove_file_{index}", on_click=remove_file, args=(index,),
                         help=f"Take {escape_markdown(file.name)} out of the knowledge base (kept on this computer).")
            with left:
                try:
                    own = load_file(file)
                except WorkbenchError:  # said under it, by the choosers
                    own = None
                st.markdown(f"**{index + 1}. {escape_markdown(file.name)}** — {file_kind(file.name, own)}")
            problems.append(reading_choosers(index))
            if own is not None:
                what_was_read(own, f"The text of {escape_markdown(file.name)} as read")
    document = None if any(problems) else current_document()
    if document is None:
        add_box("Add files to this knowledge base")
        st.stop()
    st.markdown("**The knowledge base as a whole**")
    counts(document)
    add_box("Add files to this knowledge base")

note = model_language_note(document.text, file_language(document))
if note:
    st.info(note)
st.info("Next: see how each strategy cuts it on the **Cuts** page.")
