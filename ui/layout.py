"""Layout help the pages share: on a phone, the sidebar gets out of the way once a page is picked."""

from __future__ import annotations

import time

import streamlit as st

# Streamlit's own breakpoint for its narrow layout (768 px). It closes the sidebar after a page is picked
# only when the browser says it is a phone; a narrow window on a computer keeps it open over the page.
NARROW = 768

_CLOSE = """
<script>
const app = window.parent;
if (app.innerWidth < %d) {
  const sidebar = app.document.querySelector('[data-testid="stSidebar"]');
  const button = app.document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (sidebar && button && sidebar.getBoundingClientRect().right > 0) button.click();
}
</script>
<!-- page: %s -->
"""


# The sidebar's frames hold only scripts (this module's): ``st.iframe`` takes no zero height, so each was a frame
# one pixel tall whose page (8 pixels of body margin) overflowed it, and Chrome drew its scroll bar there as a small
# dash, under a 16-pixel gap. Taken out of the sidebar's flow and clipped to nothing, the frame still loads and runs
# its script: it is not display:none, and it has no lazy loading to hold it back.
_SCRIPT_FRAMES_CSS = """<style>
[data-testid="stSidebar"] [data-testid="stElementContainer"]:has(> [data-testid="stIFrame"]) {
  position: absolute !important; width: 0 !important; height: 0 !important; overflow: hidden !important; }
</style>"""


def close_sidebar_on_narrow_screens(page: str) -> None:
    """Close the open sidebar on a narrow screen after moving to ``page``.

    The page's name is in the snippet, so Streamlit renders it afresh on every page change
    (and not on reruns within a page, where the sidebar should stay as the user left it).
    """
    # Our own fixed script, no user text in it. ``st.iframe`` replaces ``components.html`` (deprecated).
    st.html(_SCRIPT_FRAMES_CSS)  # style only: Streamlit puts it where it takes no room
    with st.sidebar:
        st.iframe(_CLOSE % (NARROW, page.replace("-", "")), height=1)


_TO_TOP = """
<script>
const main = window.parent.document.querySelector('[data-testid="stMain"]');
if (main) main.scrollTo({top: 0});
</script>
<!-- run: %d -->
"""


def scroll_to_top() -> None:
    """Bring the page back to its top, where a run in progress shows its live verdict and its progress bar.

    Pressed below a long to-do list, Run empties the page's verdict (so only the live one shows), and the page,
    now shorter, would leave the reader among the last run's greyed charts. The number makes each call a new
    frame, whose script runs again (a frame of the same text is kept as it was).
    """
    with st.sidebar:
        st.iframe(_TO_TOP % time.monotonic_ns(), height=1)


# Plotly's mode bar (zoom, pan, download) is always shown on a touch screen, where it sits over legends and
# labels; nobody needs it on these small charts, and the HTML report has the same charts to keep.
CHART_CONFIG = {"displayModeBar": False}


def chart(figure, key: str) -> None:
    """A plotly figure at the container's width, without the mode bar."""
    st.plotly_chart(figure, key=key, config=CHART_CONFIG)


# Streamlit's own texts that it cuts with an ellipsis on a phone: the upload box's list of file types; and the
# words of a wrapping table too wide for a phone.
_NARROW_CSS = """<style>
[data-testid="stFileUploaderDropzoneInstructions"] span,
[data-testid="stFileUploaderDropzoneInstructions"] small { white-space: normal; overflow-wrap: break-word; }
/* A wrapping table (Check-up's shared lines, Compare's key figures) with five columns of long words overflowed
   a phone's 356 pixels by a few. Lines break between words only: "overflow-wrap: anywhere" let the table squeeze
   a column below its words ("cle an", "mis sed"); "break-word" breaks only a word longer than the line. The
   cells' side padding and the text's size give the few pixels instead. */
/* The text as read (Document page) laid out line by line in its own direction: an Arabic or Hebrew line right to
   left from the right edge, as the pieces on Cuts are (``output.highlight``). */
[data-testid="stCode"] :is(pre, pre > div, code) { unicode-bidi: plaintext; text-align: start !important; }
/* A button's label wraps instead of ending in "…": "Undo the import of github_marketplace_terms_de.questio…" hid
   which file, even at 1300 pixels, and on a phone "Download the 11 pieces of “Find a sentence, hand over…" which
   cut. A file name without spaces breaks where it must. */
:is([data-testid="stButton"], [data-testid="stDownloadButton"]) button [data-testid="stMarkdownContainer"] {
  white-space: normal !important; overflow-wrap: break-word; text-overflow: clip !important; }
:is([data-testid="stButton"], [data-testid="stDownloadButton"]) button [data-testid="stMarkdownContainer"] p {
  white-space: normal !important; }
@media (max-width: 640px) {
  [data-testid="stTable"] :is(th, td) { padding-left: 0.25rem !important; padding-right: 0.25rem !important;
                                       font-size: 0.8rem !important; }
  [data-testid="stTable"] :is(th, td), [data-testid="stTable"] :is(th, td) * { overflow-wrap: break-word !important; }
}
</style>"""


def fit_small_screens() -> None:
    """Let the app's fixed texts wrap instead of being cut on a narrow screen, and the text as read run in its own
    direction (our own CSS, no user text)."""
    st.html(_NARROW_CSS)
