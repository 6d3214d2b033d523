"""Questions page: the golden questions, edited in a table, imported, exported or generated."""

import pandas as pd
import streamlit as st

from ui import state
from workbench.highlight import escape_markdown
from workbench.model import WorkbenchError
from workbench.questions import generate_questions, parse_questions, questions_to_csv

st.title("Golden questions")
st.write(
    "Write the questions your customers ask, the product or section that holds the answer, and the answer "
    "as it is written in your file. Leave the product empty for a question your file cannot answer: "
    "the right behaviour there is to refuse. Each row is checked against the document as you type."
)
document = state.require_document()

if st.session_state[state.NOTICE]:
    st.success(escape_markdown(st.session_state[state.NOTICE]))
    st.session_state[state.NOTICE] = None

base = st.session_state[state.QUESTIONS]
shown = base.copy()
shown["check"] = state.check_column(document, base)
sources = sorted({s.heading for s in document.sections if s.heading} | set(base["expected_source"]) - {""})
edited = st.data_editor(
    shown,
    # A new key whenever the saved table is replaced, so the editor starts from it with no pending edits.
    key=f"questions_editor_{st.session_state[state.EDITOR_VERSION]}",
    num_rows="dynamic",
    hide_index=True,
    disabled=["check"],
    column_config={
        "question": st.column_config.TextColumn("Question", width="large", required=True),
        "expected_source": st.column_config.SelectboxColumn(
            "Product or section", options=sources, help="Where the answer is. Empty: the file cannot answer it."
        ),
        "expected_answer": st.column_config.TextColumn("Answer (as written in the file)", width="medium"),
        "kind": st.column_config.SelectboxColumn(
            "Kind", options=["exact", "paraphrase", "unanswerable", "generated", ""]
        ),
        "check": st.column_config.TextColumn("Check", width="medium"),
    },
)
edited = state.tidy_questions(edited)
if not edited.equals(base):
    # Save the edit so it survives leaving the page, then show the table again with fresh checks.
    state.replace_questions(edited)
    st.rerun()
problems = [check for check in shown["check"] if check.startswith("⚠")]
if problems:
    st.warning(
        f"{len(problems)} question(s) cannot be graded as written (see the Check column); "
        "they are left out of the results until fixed."
    )

st.subheader("Import, export, generate")
left, middle, right = st.columns(3)


def import_questions() -> None:
    upload = st.session_state.get("questions_upload")
    if upload is None:
        return
    try:
        questions = parse_questions(upload.getvalue(), upload.name)
    except WorkbenchError as error:
        st.session_state[state.NOTICE] = None
        st.session_state["import_error"] = str(error)
        return
    st.session_state["import_error"] = None
    state.replace_questions(state.questions_frame(questions), f"Imported {len(questions)} questions from {upload.name}.")


with left:
    st.file_uploader(
        "Import a questions CSV", type=["csv"], key="questions_upload", on_change=import_questions,
        help="Columns: question, expected_source, expected_answer, and optionally kind. It replaces the table.",
    )
    if st.session_state.get("import_error"):
        st.error(f"Nothing was imported, your table is unchanged: {escape_markdown(st.session_state['import_error'])}")
with middle:
    st.download_button(
        "Export the questions as CSV",
        questions_to_csv(state.frame_questions(base)),
        file_name="golden_questions.csv",
        mime="text/csv",
    )
with right:
    if document.kind == "spreadsheet":
        columns = st.multiselect("Columns to ask about", list(document.columns), key="generate_columns")

        st.number_input("At most this many questions", min_value=1, max_value=1000, value=50, step=10,
                        key="generate_limit")

        def add_generated() -> None:
            generated = generate_questions(document, st.session_state.get("generate_columns") or None,
                                           limit=int(st.session_state.get("generate_limit") or 50))
            frame = state.questions_frame(generated)
            merged = pd.concat([st.session_state[state.QUESTIONS], frame], ignore_index=True)
            state.replace_questions(merged, f"Added {len(generated)} generated questions; edit them as you like.")

        st.button("Add questions generated from the columns", key="generate", on_click=add_generated, help=(
            "Adds the questions a customer would ask about each product (“How much is …?”, “What colours does … "
            "come in?”, an FAQ column's own question), with the cell as the answer: one per product and kind of "
            "column, products taking turns, up to the number above. ID, link, image, SKU and handle columns are "
            "skipped; all columns are used when none are chosen."
        ))
    else:
        st.caption("Questions can be generated from a spreadsheet's columns; for a document, type them.")
