"""Chunking Workbench: the entry file only routes; each page lays out its widgets."""

import streamlit as st

from ui import guard
from ui.keys import WANTED_PAGE
from ui.layout import close_sidebar_on_narrow_screens, fit_small_screens
from ui.session import init_session_state

# An emoji icon is drawn by the browser itself; a ":material/…:" page icon would be fetched from fonts.gstatic.com.
st.set_page_config(page_title="Chunking Workbench", page_icon="✂️", layout="wide")
guard.install()  # no look-ups of this machine's addresses; the server's own address an allowed Host (ui/guard.py)
init_session_state()

document = st.Page("pages/document.py", title="Document", icon=":material/description:", url_path="document")


def front_door() -> None:
    """The app's bare address opens the Document page at its own address, ``/document``.

    Streamlit serves its default page at the empty path only, so a Document page made the default
    could not be opened (or bookmarked) as ``/document``: "Page not found". This hidden page is the
    default instead and moves on to the real one.
    """
    st.switch_page(document)


navigation = st.navigation(
    [
        st.Page(front_door, title="Chunking Workbench", url_path="start", default=True, visibility="hidden"),
        document,
        st.Page("pages/cuts.py", title="Cuts", icon=":material/content_cut:"),
        st.Page("pages/questions.py", title="Questions", icon=":material/help:"),
        st.Page("pages/results.py", title="Results", icon=":material/bar_chart:"),
        st.Page("pages/compare.py", title="Compare & report", icon=":material/balance:"),
        st.Page("pages/checkup.py", title="Check-up", icon=":material/health_and_safety:"),
    ]
)
wanted = st.session_state.pop(WANTED_PAGE, None)  # a page opened by its address on a fresh server
if wanted:
    st.switch_page(wanted)
st.sidebar.caption(
    "Would a chat bot answer your customers correctly from this file? "
    "Everything runs on this computer: no account, no key, no internet."
)
close_sidebar_on_narrow_screens(navigation.url_path or "document")
fit_small_screens()
navigation.run()
