"""Chunking Workbench: would a chat bot answer correctly from this document, and why not?

Plain Python with no Streamlit import: the command line, the tests and the app
share this one code path. Heavy parts (torch, the model) load only when a
meaning-based retriever or reranker is asked for.
"""

__version__ = "0.1.0"
