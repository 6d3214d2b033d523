"""Check-up page: is this list ready for a bot? The traps it holds, in plain words."""

import streamlit as st

from ui import state
from workbench.audit import audit
from workbench.highlight import escape_markdown

st.title("Check-up: is your list ready for a bot?")
st.write(
    "Before any testing, some things in a file are known to trip a bot up: the same line under many "
    "products, text under no heading, very long sections, pieces that lose their product's name, and text "
    "that tries to give the bot orders or send customers elsewhere."
)
document = state.require_document()


@st.cache_data(show_spinner="Checking…", max_entries=8)
def checkup(data: bytes, name: str, sheet: str | None, name_column: str | None):
    return audit(state.load_document(data, name, sheet, name_column))


result = checkup(*state.document_args())
st.subheader("Size")
st.info(result.recommendation)

st.subheader("Lines shared by several products")
if result.shared_lines:
    st.write(
        f"{len(result.shared_lines)} identical line(s) appear under more than one product. A piece holding "
        "such a line but not its product's name is how a bot quotes one product's warranty for another."
    )
    st.dataframe(
        [{"line": s.line, "products": len(s.sections), "which": ", ".join(s.sections)} for s in result.shared_lines],
        hide_index=True,
    )
else:
    st.success("No line is shared by two products.")

st.subheader("Structure")
problems = result.lines()[1:]
structure = [line for line in problems if not line.startswith(("Line ", "  “")) and "identical line" not in line]
for line in structure:
    st.write("• " + escape_markdown(line))
if result.missing_columns:
    st.dataframe([{"product": n, "missing": ", ".join(c)} for n, c in result.missing_columns], hide_index=True)

st.subheader("Risky content")
if result.risky:
    st.warning(
        "These lines try to give a bot orders, or point at outside sites a bot could be tricked into repeating. "
        "Check that each is meant to be there."
    )
    st.dataframe([{"line": f.line_number, "what": f.kind, "text": f.text} for f in result.risky], hide_index=True)
else:
    st.success("No text that gives a bot orders, and no links or images pointing outside.")
