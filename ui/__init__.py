"""Streamlit glue shared by the pages: session state and caches. Logic lives in workbench/."""
