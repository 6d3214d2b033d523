"""Questions page: the current document's golden questions, edited in a table, added with a form,
imported, exported or generated."""

import pandas as pd
import streamlit as st

from ui.document import require_document
from ui.keys import DOC_NAME, EDITOR_VERSION, NOTICE, QUESTIONS
from ui.questions_table import (
    NO_KIND,
    UNANSWERABLE,
    frame_questions,
    not_in_table,
    questions_frame,
    shown_cells,
    tidy_questions,
    typed_cells,
)
from ui.saved_work import (
    accept_generated,
    edit_questions,
    redo_last,
    redo_offer,
    replace_questions,
    undo_last,
    undo_offer,
)
from ui.session import ensure_app
from workbench.core.model import Question, WorkbenchError
from workbench.core.wording import plural, verb
from workbench.output.highlight import escape_markdown
from workbench.output.report import download_stem
from workbench.read.locate import check_question, lines_of, locate, sections_named, source_names
from workbench.read.question_sets import import_questions
from workbench.read.questions import FIRST_ROW, generate_questions, questions_file

ensure_app("pages/questions.py")  # opened by its address before app.py ever ran: go through app.py
st.title("Golden questions")
st.write(
    "Write the questions your customers ask, the product or section that holds the answer, and the answer "
    "as it is written in your file. Leave the product empty for a question your file cannot answer: "
    "the right behaviour there is to refuse. Each row is checked against the document as you type."
)
document = require_document()
st.markdown(
    f"Questions for **{escape_markdown(st.session_state[DOC_NAME])}**: each file (and each knowledge base) keeps its "
    "own, saved on this computer as you work."
    + (" In a knowledge base, a product or section found in several files is written “file › section”."
       if document.files else "")
)

if st.session_state[NOTICE]:
    st.success(escape_markdown(st.session_state[NOTICE]))
    st.session_state[NOTICE] = None
for row, reason in st.session_state.pop("import_rejected", []):
    st.warning(f"Row {row} of the file was not imported: {escape_markdown(reason)}.")
undo, redo = undo_offer(), redo_offer()
# Always placed, empty or not: an element appearing above the table after an edit would move it, and the
# browser would draw it afresh, scrolled back to its top.
undo_column, redo_column = st.columns(2)
# A label is Markdown, and these name the user's file: escaped, so a file name is read as text.
if undo:  # only the last change; it says so when it would also discard changes it does not know of
    undo_column.button(escape_markdown(undo), key="undo_button", on_click=undo_last, icon=":material/undo:")
if redo:
    redo_column.button(escape_markdown(redo), key="redo_button", on_click=redo_last, icon=":material/redo:")

base = st.session_state[QUESTIONS]
with st.container(border=True):
    st.markdown("**Add a question**")
    first, second, third, fourth = st.columns([3, 2, 2, 2])
    first.text_input("Question", key="add_question", placeholder="What is the warranty on …?")
    headings = source_names(document)  # in a knowledge base, "file › section" where a name is in several files
    source = second.selectbox(
        "Product or section (type to search)", ["", *headings], key="add_source",
        # Short enough for a quarter of the page at 1366 pixels ("None: the file cannot a…" was cut).
        format_func=lambda h: h or UNANSWERABLE,
        help="Pick none for a question your file cannot answer: the bot should refuse it.",
    )
    sections = sections_named(document, source) if source else []
    options = lines_of(document, sections[0]) if sections else []
    pick_key = f"add_pick_{headings.index(source) if source in headings else 'none'}"  # a new list per source

    def pick() -> None:
        st.session_state["add_answer"] = st.session_state.get(pick_key) or ""

    third.selectbox("Pick the answer from its lines…", options, index=None, key=pick_key, on_change=pick,
                    placeholder="Pick a line of that section" if source else "Pick a product first", disabled=not source)
    answer = fourth.text_input("…or type it as written in the file", key="add_answer")
    found = locate(document, source or "", answer or "")
    verdict, action = st.columns([7, 2], vertical_alignment="center")
    if source or answer:
        (verdict.success if found.ok else verdict.warning)(escape_markdown(found.detail))
    else:
        verdict.caption("Leave the product empty for a question your file cannot answer: the bot should refuse it.")

    def add_row() -> None:
        question = (st.session_state.get("add_question") or "").strip()
        if not question:
            st.session_state["add_problem"] = "Type the question first."
            return
        where, what = st.session_state.get("add_source") or "", (st.session_state.get("add_answer") or "").strip()
        row = pd.DataFrame([[question, where, what, "exact" if where else "unanswerable", ""]], columns=base.columns)
        number = len(st.session_state[QUESTIONS]) + FIRST_ROW
        replace_questions(pd.concat([st.session_state[QUESTIONS], row], ignore_index=True),
                                f"Added row {number}: {question}", undo=f"adding row {number}")
        st.session_state["add_question"] = ""
        st.session_state["add_answer"] = ""
        # The picked line goes too (popping its key left the picker showing it beside "No answer given");
        # the product stays chosen, for the next question about it.
        st.session_state[pick_key] = None

    action.button("Add to the table", key="add_row", type="primary", on_click=add_row, use_container_width=True)
    if st.session_state.get("add_problem"):
        st.error(st.session_state.pop("add_problem"))


checks = [check_question(document, q) for q in (Question(*r[:4]) for r in base.itertuples(index=False, name=None))]
generated = int((base["generated"] == "yes").sum())
if generated:
    left_note, accept_column = st.columns([3, 1], vertical_alignment="center")
    left_note.info(
        f"{generated} of these {len(base)} questions are the app's own (ticked under “App's own”), written from your "
        "file's columns: the status on Results is never a plain Ready on them. Edit them, untick the ones you have "
        "checked, or accept them all once you have read them."
    )
    accept_column.button(f"Accept all {generated}", key="accept_generated", on_click=accept_generated,
                         help="You have read them and they ask what your customers ask: they then count as yours.")
with st.container():
    shown = shown_cells(base)
    shown.insert(0, "check", [c.short for c in checks])
    shown["generated"] = base["generated"] == "yes"
    shown["remove"] = False
    # Rows of the questions file (header = row 1), as the warnings below, Results, the report and downloads say them.
    shown.index = range(FIRST_ROW, len(shown) + FIRST_ROW)
    edited = st.data_editor(
        shown,
        # Fixed rows with a key: Streamlit then keeps the editor (its scroll, its pending edits) while cell
        # values change, so the table does not jump after each edit; rows are added with the form above it.
        # The key changes only when the table is replaced as a whole.
        # Column widths are the narrowest each column is drawn; a wider screen adds the same number of pixels to
        # every column but Row. Row, Question, Product or section and Answer add up to the 356 pixels a phone
        # (390 wide) shows, so what is asked, where and what the answer is read there without scrolling
        # sideways. The other four start at the grid's least (50), so at 1366 pixels (about 50 added to each)
        # the whole table fits and every header is read whole: with Check 110, Kind 70, App's own 88 and
        # Remove 80, the spare width went as much to them, and the headers read "Product or sect" and
        # "Answer as writ" (tests/test_browser_phone.py measures the drawn headers).
        key=f"questions_editor_{st.session_state[EDITOR_VERSION]}",
        num_rows="fixed",
        hide_index=False,
        # What is asked, where and what the answer is come first: on a phone only the first columns show
        # before scrolling sideways, and the check reads only beside them.
        column_order=["question", "expected_source", "expected_answer", "check", "kind", "generated", "remove"],
        disabled=["check"],
        height=min(38 + 35 * max(len(shown), 1), 560),
        column_config={
            "_index": st.column_config.NumberColumn(
                "Row", width=40, help="The row in the questions file you export (its header is row 1): every page, "
                "report and download numbers the question so."),
            "check": st.column_config.TextColumn("Check", width=50, help="Full reasons are listed under the table."),
            "question": st.column_config.TextColumn("Question", width=120, required=True),
            "expected_source": st.column_config.SelectboxColumn(
                "Product or section", width=98,
                options=[UNANSWERABLE, *sorted(set(headings) | set(base["expected_source"]) - {""})],
                help="Where the answer is. Empty: the file cannot answer it.",
            ),
            "expected_answer": st.column_config.TextColumn("Answer as written", width=98,
                                                           help="The answer as it is written in your file."),
            "kind": st.column_config.SelectboxColumn(
                # An imported file's own kinds ("price", "specs") are choices too, or their cells would show empty.
                "Kind", width=50, options=list(dict.fromkeys(
                    ["exact", "paraphrase", "unanswerable", "generated", *sorted(set(base["kind"]) - {""}), NO_KIND])),
                help="Your own label for the question, for sorting; it does not change how it is graded.",
            ),
            "generated": st.column_config.CheckboxColumn(
                "App's own", width=50, help="Written by the app from your file's columns. Untick once you have "
                "checked it (editing it does the same): only your own questions can make the file Ready."),
            "remove": st.column_config.CheckboxColumn("Remove", width=50, help="Tick, then press Remove below."),
        },
    )
    kept = edited.drop(columns=["check", "remove"]).reset_index(drop=True)
    kept["generated"] = kept["generated"].map(lambda ticked: "yes" if ticked else "")
    kept = typed_cells(tidy_questions(kept))
    if not kept.equals(base):
        # Save the edit (it survives leaving the page and a reload) as the last change, then re-check the rows.
        edit_questions(base, kept)
        st.rerun()
    ticked = [i for i, flag in enumerate(edited["remove"]) if flag]
    if ticked:
        def remove_ticked() -> None:
            frame = st.session_state[QUESTIONS]
            replace_questions(frame.drop(index=ticked), f"Removed {plural(len(ticked), 'question')}.",
                                    undo=f"remove {plural(len(ticked), 'question')}")

        st.button(f"Remove {plural(len(ticked), 'ticked question')}", key="remove_ticked", on_click=remove_ticked)
    problems = [(number, check) for number, check in enumerate(checks, start=FIRST_ROW) if not check.ok]
    if problems:
        st.warning(
            f"{plural(len(problems), 'question')} cannot be graded as written; {verb(len(problems), 'it is', 'they are')} "
            "left out of the results until fixed."
        )
        for number, check in problems[:30]:
            st.markdown(f"- Row {number}: {escape_markdown(check.detail)}")
        if len(problems) > 30:
            st.caption(f"…and {len(problems) - 30} more.")

st.subheader("Import, export, generate")
left, middle, right = st.columns(3)


def import_file() -> None:
    upload = st.session_state.get("questions_upload")
    if upload is None:
        return
    mode = "add" if st.session_state.get("import_mode", "add").startswith("add") else "replace"
    try:
        outcome = import_questions(frame_questions(st.session_state[QUESTIONS]), upload.getvalue(),
                                   upload.name, mode)
    except WorkbenchError as error:
        st.session_state[NOTICE] = None
        st.session_state["import_error"] = str(error)
        return
    st.session_state["import_error"] = None
    st.session_state["import_rejected"] = [] if outcome.all_there else outcome.rejected  # the sentence says it all
    replace_questions(questions_frame(outcome.questions), outcome.sentence(upload.name),
                            undo=f"the import of {upload.name}")


with left:
    # Switching the mode with a file still in the box imports it again that way (an "add" of rows already in
    # the table says, row by row, why nothing was added): a switch that did nothing read as broken.
    st.radio("Imported questions", ["add to the table", "replace the table"], key="import_mode", horizontal=True,
             on_change=import_file)
    st.file_uploader(
        "Import a questions CSV", type=["csv"], key="questions_upload", on_change=import_file,
        help="Columns: question, expected_source, expected_answer, and optionally kind.",
    )
    if st.session_state.get("import_error"):
        st.error(f"Nothing was imported, your table is unchanged: {escape_markdown(st.session_state['import_error'])}")
with middle:
    st.download_button(
        "Export the questions as CSV",
        questions_file(frame_questions(base)),  # Excel opens it in the file's language (a BOM)
        file_name=f"{download_stem(document)}-questions.csv",  # each file keeps its own, so named after it
        mime="text/csv",
        on_click="ignore",  # a download changes nothing on the page: no rerun
    )
with right:
    # A knowledge base's spreadsheets each give their questions, each naming its file.
    tables = document.tables()
    if tables:
        # An empty choice is the usual one: every column a customer asks about, said in the box and under it.
        columns = st.multiselect("Columns to ask about", list(dict.fromkeys(c for t in tables for c in t.columns)),
                                 key="generate_columns", placeholder="Every column a customer asks about")
        if not columns:
            st.caption("None chosen: the questions come from every column a customer would ask about. Codes, links, "
                       "SKUs and the columns your shop's system keeps for itself are left out.")

        st.number_input("At most this many questions", min_value=1, max_value=1000, value=50, step=10,
                        key="generate_limit")

        def add_generated() -> None:
            limit, table = int(st.session_state.get("generate_limit") or 50), st.session_state[QUESTIONS]
            # Up to the limit of questions the table does not ask yet: generating again adds new ones, not the same.
            made = generate_questions(document, st.session_state.get("generate_columns") or None,
                                      limit=limit + len(table))
            generated = not_in_table(table, made)[:limit]
            if not generated:  # nothing changes: no Undo of nothing, only the reason
                st.session_state[NOTICE] = "Every question these columns give is in the table already."
                return
            merged = pd.concat([table, questions_frame(generated)], ignore_index=True)
            replace_questions(merged, f"Added {len(generated)} generated questions; edit them as you like.",
                              undo=f"adding {len(generated)} generated questions")

        st.button("Add questions generated from the columns", key="generate", on_click=add_generated, help=(
            "Adds the questions a customer would ask about each product (“How much is …?”, “What colours does … "
            "come in?”, an FAQ column's own question), with the cell as the answer: one per product and kind of "
            "column, products taking turns, up to the number above. ID, link, image, SKU and handle columns, and "
            "the columns your shop's system keeps for itself, are skipped; all the others are used when none are "
            "chosen."
        ))
    else:
        st.caption("Questions can be generated from a spreadsheet's columns; for a document, type them.")
