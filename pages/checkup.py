"""Check-up page: is this list ready for a bot? The traps it holds, in plain words, most harmful first."""

import pandas as pd
import streamlit as st

from ui.document import Files, choose_file, current_files, file_questions, head_note, page_head, require_document
from ui.keys import DOC_NAME, QUESTIONS, SIZE
from ui.questions_table import frame_questions
from ui.session import ensure_app
from workbench.advise.audit import PROMPT_LIMIT_TOKENS, audit, size_advice
from workbench.advise.crossfile import cross_findings
from workbench.core.text_size import estimated_tokens, length
from workbench.core.wording import isolated, plural, verb
from workbench.grade.places import join_names, join_places
from workbench.output.highlight import escape_markdown

HARM = {
    "varies": "other products say something else here",
    "repeats": "repeated word for word",
}

ensure_app("pages/checkup.py")  # opened by its address before app.py ever ran: go through app.py
st.title("Check-up: is your file ready for a bot?")
st.write(
    "Before any testing, some things in a file are known to trip a bot up: the same line under many "
    "products or sections, unfilled values, text under no heading, very long sections, pieces that lose the name "
    "of their product or section, and text that tries to give the bot orders or send customers to other sites."
)
base = require_document()
files = current_files()
questions = frame_questions(st.session_state[QUESTIONS])

KINDS = {"conflict": "Stated differently", "shared": "The same line in two files", "named": "Named in another file"}


@st.cache_data(show_spinner="Checking the files against each other…", max_entries=8)
def across(files: Files, _base):
    """What only the files together show: conflicts, lines shared across files, products named in another file
    (``_base``: the knowledge base of ``files``, keyed by them)."""
    return [(f.kind, f.text, f.edit) for f in cross_findings(_base)]


if base.files:
    st.subheader("Across the files")
    st.write("A bot searches all these files together, so a line in one can answer a question about another: "
             "the same thing said differently in two files, a line copied from one to another, a product named in a "
             "file other than its own.")
    found = across(files, base)
    for kind, text, edit in found:
        st.warning(f"**{KINDS.get(kind, kind)}:** {escape_markdown(text)}.  \n{escape_markdown(edit)}")
    if not found:
        st.success("The files do not contradict or repeat each other, and no product is named outside its own file.")
    index = choose_file(base, "checkup_file", "The check-up of one file")
    document = base.files[index].document
else:
    index, document = 0, base
st.markdown(f"Check-up of **{escape_markdown(document.name if base.files else st.session_state[DOC_NAME])}**.")


@st.cache_data(show_spinner="Checking…", max_entries=8)
def checkup(files: Files, index: int, asked: tuple[tuple, ...], size: int, meaning: bool):
    from workbench.core.model import Question

    # The start of a long file: the check cuts it three ways and maps every piece, minutes on 100,000 rows.
    # The meaning check loads the model only when a line speaks of instructions or of what the reader was told
    # (most files have none); the first verdict's to-do never waits for it (audit's ``meaning``).
    return audit(page_head(files, index).document,
                 questions=[Question(q, s, a, k, row) for q, s, a, k, row in asked], size=size, meaning=meaning)


# In a knowledge base a file's own check-up reads the questions about that file, named as in that file alone.
asked = tuple((q.question, q.expected_source, q.expected_answer, q.kind, q.row)
              for q in file_questions(base, index, questions))
part = page_head(files, index)
head_note(part, "the check-up looks at")
result = checkup(files, index, asked, int(st.session_state[SIZE]), True)  # the runs' size
st.subheader("Size")
if part.partial:  # the size is the whole file's, not the part checked
    tokens = estimated_tokens(document.text)
    count, unit = length(document.text)
    st.info(size_advice(count, tokens, tokens < PROMPT_LIMIT_TOKENS, unit))
else:
    st.info(result.recommendation)

if result.placeholders:
    st.subheader("Values nobody filled in")
    for shared in result.placeholders:
        st.warning(f"{escape_markdown(result.placeholder_sentence(shared))} Where: {escape_markdown(join_places(shared.places))}.")

noun = result.noun  # a spreadsheet's products, a document's sections
st.subheader(f"Lines shared by several {noun}s")
if result.shared_lines:
    st.write(
        f"{plural(len(result.shared_lines), 'identical line')} {verb(len(result.shared_lines), 'appears', 'appear')} "
        f"under more than one {noun}. A piece holding "
        f"such a line but not its {noun}'s name is how a bot quotes one {noun}'s warranty for another. "
        "Most harmful first: lines that answer one of your questions, then lines of a kind your questions ask "
        f"about, yes/no flags last; among equals, lines whose kind says something else for other {noun}s."
    )
    # A table whose text wraps (st.table), as Compare's key figures: every column reads on a phone (a scrolling
    # table showed two of six there) and a long list of products is never cut, even at 1366 pixels.
    st.table(
        pd.DataFrame([
            {
                "line": s.line,
                "why it matters": HARM.get(s.harm, s.harm),
                "answers your questions": ", ".join(str(n) for n in s.questions) or "none yet",
                f"which {noun}s": f"{len(s.sections)}: " + join_names(isolated(*s.sections)),  # Hebrew in its place
                "where in your file": join_places(s.places, limit=12),
            }
            for s in result.shared_lines
        ]),
        hide_index=True,
    )
else:
    st.success(f"No line is shared by two {noun}s.")
if result.store_wide:
    st.write("• " + escape_markdown(result.store_wide_sentence()))

st.subheader("Structure")
structure = result.structure_lines()
for line in structure:
    st.write("• " + escape_markdown(line))
if result.missing_columns:
    st.dataframe([{"product": n, "missing": ", ".join(c)} for n, c in result.missing_columns], hide_index=True)
if not structure and not result.missing_columns:  # the heading stood alone over nothing on a tidy file
    st.success(f"Nothing to report: no text under no heading, no {result.noun} too long for the search model to read "
               f"at once, and no two {result.noun}s with the same name.")

st.subheader("Risky content")
if result.risky:
    st.warning(
        "These lines try to give a bot orders, or point at other sites a bot could be tricked into repeating. "
        "Check that each is meant to be there."
    )
    what = {"instruction": "orders to a bot", "script": "code that would run in a web page",
            "link": "link to another site", "image": "image from another site"}
    st.dataframe([{"where": f.where or f"line {f.line_number}", "what": what[f.kind], "text": f.text}
                  for f in result.risky], hide_index=True)
else:
    st.success("No text that gives a bot orders, and no links or images pointing to other sites.")
if result.own_hosts:
    st.caption("Links to " + ", ".join(result.own_hosts) + " are taken as your own site (most of the file's "
               "links point there), so they are not listed as risky.")
