"""Chunking Workbench: would a chat bot answer correctly from this document, and why not?

Plain Python with no Streamlit import: the command line, the tests and the app
share this one code path. Heavy parts (torch, the model) load only when a
meaning-based retriever or reranker is asked for.
"""

__version__ = "0.1.0"



import os as _os

# openpyxl quietly switches to lxml's parser and writer, and to defusedxml's, when those are
# installed (python-docx and markitdown bring them). The spreadsheet loader's error messages and
# limits were built and tested (tests/test_hostile_files.py: damaged XML, entity bombs, outside
# entities) on the standard-library parser, so keep that one whatever else is installed. Set
# before any openpyxl import, and only as defaults.
_os.environ.setdefault("OPENPYXL_LXML", "False")
_os.environ.setdefault("OPENPYXL_DEFUSEDXML", "False")
