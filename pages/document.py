"""Document page: upload a file (or keep the sample) and see what was read."""

import streamlit as st

from ui.document import choose_sheet, current_document, workbook_default_sheet, workbook_sheets
from ui.keys import DOC_DATA, DOC_KEY, DOC_NAME, NAME_COLUMN, SAMPLE_DOCUMENT, SHEET
from ui.saved_work import bind, store
from ui.session import ensure_app, forget, recent_documents, reopen, use_document
from workbench.core.model import WorkbenchError
from workbench.output.explain import GLOSSARY
from workbench.output.highlight import escape_markdown
from workbench.read.language import model_language_note
from workbench.read.loaders import CONVERSION_NOTES, SUPPORTED

ensure_app("pages/document.py")  # opened by its address before app.py ever ran: go through app.py
st.title("Your document")
top = st.container()  # the introduction names the file loaded, so it is written after an upload is read

uploaded = st.file_uploader(
    "Upload a price list or product document",
    type=[ext.lstrip(".") for ext in SUPPORTED],
    # A new key after "Go back to the sample" empties the box: the browser would not report the same file
    # chosen again into a box that still holds it, and the box would show a file that is not loaded.
    key="uploader" if not st.session_state.get("uploader_version") else f"uploader_{st.session_state['uploader_version']}",
    help="A spreadsheet (CSV or Excel .xlsx) with one product per row, or a document with headings: Markdown or "
    "text, Word (.docx), a web page (.html) or a PDF. Word, web pages and PDF are converted to Markdown first.",
)
# Each upload has its own file id: the same file chosen again (after "Go back to the sample") is a new upload.
upload_id = (uploaded.name, uploaded.size, getattr(uploaded, "file_id", None)) if uploaded is not None else None
if uploaded is not None and upload_id != st.session_state.get("uploaded_id"):
    st.session_state["uploaded_id"] = upload_id
    use_document(uploaded.getvalue(), uploaded.name)

name = st.session_state[DOC_NAME]
if st.button("Go back to the sample", disabled=name == SAMPLE_DOCUMENT.name):
    use_document(SAMPLE_DOCUMENT.read_bytes(), SAMPLE_DOCUMENT.name)
    st.session_state["uploader_version"] = st.session_state.get("uploader_version", 0) + 1
    st.rerun()

with top:
    intro = (
        "The Breezy Home sample is loaded so you can see the effect at once; upload your own file to check it."
        if st.session_state[DOC_NAME] == SAMPLE_DOCUMENT.name
        else f"You are checking **{escape_markdown(st.session_state[DOC_NAME])}**; upload another file "
        "or go back to the sample below."
    )
    st.write(
        GLOSSARY["chunk"]
        + " Where those cuts fall decides whether it quotes the right product. "
        + intro
    )

recent = [doc for doc in recent_documents() if doc.key != st.session_state[DOC_KEY]]
if recent:
    with st.expander(f"Reopen a recent file ({len(recent)})"):
        st.caption("Kept on this computer with their questions; see the README to delete them.")
        for doc in recent:
            when = doc.used_at[:16].replace("T", " ")
            left, right = st.columns([5, 1])
            # A button's label is Markdown: a name that is a Markdown image would make the browser fetch it.
            label = f"{escape_markdown(doc.name)} — {doc.size:,} bytes, last opened {when} UTC"
            if left.button(label, key=f"reopen_{doc.key[:16]}"):
                reopen(doc.key)
                st.rerun()
            right.button("Forget", key=f"forget_{doc.key[:16]}", on_click=forget, args=(doc.key,),
                         help="Deletes this file and its questions from this computer.")

data = st.session_state[DOC_DATA]
if name.lower().endswith((".xlsx", ".xlsm")):
    try:
        sheets = workbook_sheets(data, name)
    except WorkbenchError:  # a corrupt workbook: the loader below says so in plain words
        sheets = []
    if len(sheets) > 1:
        if st.session_state[SHEET] not in sheets:  # the first sheet with a product-name column
            st.session_state[SHEET] = workbook_default_sheet(data, name)
        st.selectbox("Sheet", sheets, key=bind(SHEET), on_change=choose_sheet)

document = current_document(pick_column=True)
if document is None:
    st.stop()

if document.kind == "spreadsheet":
    header = [c for c in [document.name_column, *document.columns] if c]
    if st.session_state[NAME_COLUMN] is None:
        st.session_state[NAME_COLUMN] = document.name_column
    st.selectbox(
        "Which column holds the product name?",
        header,
        key=bind(NAME_COLUMN),
        on_change=store,
        args=(NAME_COLUMN,),
        help="Each product becomes one section. Rows with an empty name are variants of the product above "
        "(or of the product with the same handle/slug).",
    )

st.subheader(f"What was read from {escape_markdown(name)}")
sections = [s for s in document.sections if s.facts]
words = len(document.text.split())
a, b, c, d = st.columns(4)
a.metric("Products" if document.kind == "spreadsheet" else "Sections", f"{len(sections):,}")
b.metric("Facts (lines)", f"{len(document.facts):,}",
         help="Lines that state something a customer could ask about: " + (
             "one per filled cell (“Colour: red”)." if document.kind == "spreadsheet" else
             "every line of text that is not a heading, a rule, a table border or other decoration.")
         + " A piece that holds facts of several products or sections is graded “mixed”.")
c.metric("Characters", f"{len(document.text):,}")
d.metric("Tokens (about)", f"{round(len(document.text) / 4):,}", help="A token is about four characters of English.")
if document.converted_from:
    st.caption(f"{words:,} words, in the converted text below.")
    st.info(CONVERSION_NOTES[document.converted_from] + " Every place the workbench points to (pieces, answers, "
            "offsets in exports) is in this converted text.")
else:
    st.caption(f"Read as {document.encoding}. {words:,} words.")
for warning in document.warnings:
    st.warning(escape_markdown(warning))
note = model_language_note(document.text)
if note:
    st.info(note)

converted = bool(document.converted_from)
with st.expander("The converted text (Markdown) the bot would search" if converted else
                 "The text the bot would search (as read)", expanded=converted):
    limit = 20000
    # Wrapped: a long CSV cell ran off behind a sideways scroll.
    st.code(document.text[:limit] + ("\n…" if len(document.text) > limit else ""), language=None, wrap_lines=True)
st.info("Next: see how each strategy cuts it on the **Cuts** page.")
