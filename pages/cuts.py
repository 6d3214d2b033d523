"""Cuts page: the document cut side by side under the strategies the user picks."""

import streamlit as st

from ui import handover_panels, layout
from ui.document import base_pieces, choose_file, current_files, cut, head_note, page_head, require_document
from ui.keys import CUT_STRATEGIES, OVERLAP, SIZE
from ui.running import model_reading
from ui.saved_work import bind, store
from ui.session import ensure_app
from workbench.core.wording import part_word
from workbench.cut import STRATEGIES
from workbench.encode.model_window import piece_counts
from workbench.grade.grading import ChunkMap
from workbench.output.charts import size_histogram
from workbench.output.explain import word_pieces_note
from workbench.output.highlight import cut_view, page_windows
from workbench.read.markdown import front_matter_lines
from workbench.run.names import strategy_name

ensure_app("pages/cuts.py")  # opened by its address before app.py ever ran: go through app.py
st.title("How each strategy cuts your document")
st.write(
    "Each coloured block is one chunk (piece) the bot can find. A red bar with a number marks where a "
    "piece starts; striped red text sits in two pieces at once (overlap); grey text is in no piece. "
    "The numbers on the red bars count the pieces on any screen; with a mouse, hover over the text to see a "
    "piece's number and size (a touch screen shows no hover)."
)
base = require_document()
files = current_files()
if base.files:  # a knowledge base: each file is cut on its own (no piece spans two files), one file shown at a time
    index = choose_file(base, "cuts_file", "File of the knowledge base to see cut")
    st.caption("Each file is cut on its own, as the bot's pipeline cuts it: no piece spans two files, and the "
               "offsets are this file's own. The search then ranks the pieces of all the files together.")
else:
    index = 0
part = page_head(files, index)
document = part.document  # the start of a long file: cutting and drawing all of it would take minutes
head_note(part, "this page cuts")
if front_matter_lines(document.text):  # a Markdown page's own; a table's text opens with its "# " title
    # walk46: the Macedonian FAQ's title, date and tags between "---" lines stood grey under "Cut at headings"
    # and inside the first windows, with no word of why.
    st.caption("The lines between the two “---” at the top of this file are the page's settings for the website "
               "(its title, date, tags), not facts a customer asks about: cuts that follow your headings leave "
               "them out (grey); fixed windows take them in as any other text.")

chosen = st.multiselect(
    "Strategies to compare (2 to 4)",
    STRATEGIES.ids(),
    key=bind(CUT_STRATEGIES),
    on_change=store,
    args=(CUT_STRATEGIES,),
    max_selections=4,
    format_func=lambda id: strategy_name(id, int(st.session_state[SIZE])),
)
left, right = st.columns(2)
left.slider(
    "Window size (characters)", 50, 2000, step=10, key=bind(SIZE), on_change=store, args=(SIZE,),
    help="For fixed windows and recursive splitting: the most characters in one piece.",
)
right.slider(
    "Overlap (characters)", 0, 500, step=5, key=bind(OVERLAP), on_change=store, args=(OVERLAP,),
    help="For fixed windows with overlap: how much of the previous window each one repeats.",
)
size = st.session_state[SIZE]
overlap = st.session_state[OVERLAP]
if overlap >= size:
    st.warning(f"The overlap ({overlap}) must be smaller than the window size ({size}); using {size // 2} for now.")
    overlap = size // 2
if not chosen:
    st.info("Pick at least one strategy above.")
    st.stop()

pages = page_windows(document)
window = pages[0]
if len(pages) > 1:
    number = st.number_input(
        f"This document is long, so it is shown in {len(pages)} parts. Part", 1, len(pages), 1, key=f"cut_part_{index}"
    )
    window = pages[number - 1]

reading = model_reading(document)  # (the file's model, its window) to count word pieces, or None without it
columns = st.columns(len(chosen))
for column, strategy in zip(columns, chosen):
    with column:
        chunks = cut(files, index, strategy, size, overlap)
        chunk_map = ChunkMap(document, chunks)
        mixing = sum(1 for i in range(len(chunks)) if chunk_map.products(i) >= 2)
        st.markdown(f"**{strategy_name(strategy, size)}**", help=f"On the command line: {strategy}")
        st.caption(STRATEGIES.get(strategy).explanation)
        # Side by side only in a wide column: with three or four strategies "Pieces mixing products" was cut
        # to "Pieces mix…" at 1366 pixels.
        a, b = st.columns(2) if len(chosen) <= 2 else (st.container(), st.container())
        a.metric("Pieces", len(chunks))
        b.metric(
            f"Pieces mixing {part_word(document.kind, plural=True)}",
            mixing,
            help="Pieces holding facts of two or more products or sections: the bot may mix them up.",
        )
        layout.chart(size_histogram(chunks, strategy, size), key=f"hist_{strategy}")
        counts, limit = None, None
        if reading is not None:
            encoder, limit = reading
            texts = [chunk.text for chunk in chunks]
            counts = piece_counts(encoder, texts)
            st.caption(word_pieces_note(document, encoder.name, limit, texts, counts))
        st.html(cut_view(document, chunks, window, counts, limit))

st.subheader("Take the pieces away")
picked = st.selectbox("Pieces of", chosen, format_func=lambda id: strategy_name(id, size), key="cuts_pieces_of")
if base.files:  # every file's pieces, each naming its file (its "source"), as a pipeline loads a knowledge base
    st.caption(f"The download holds the pieces of all {len(base.files)} files, each naming its file as its source, "
               "as a pipeline loads a knowledge base.")
    handover_panels.pieces_download(base, base_pieces(files, picked, size, overlap), picked, size, key="cuts_pieces")
else:
    handover_panels.pieces_download(document, cut(files, 0, picked, size, overlap), picked, size, key="cuts_pieces")
