"""Word, web and PDF policy pages in the app: uploaded, explained, shown converted, and graded."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from ui import keys

from . import policy_files as policy
from .test_app import go, metric, open_app, plain, upload

pytest.importorskip("markitdown")
pytest.importorskip("docx")
pytest.importorskip("fpdf")

FILES = {"policy.docx": policy.docx_bytes, "policy.html": policy.html_bytes, "policy.pdf": policy.pdf_bytes}

# About the pages, not the default setups: word search only, no model (tests/test_staged.py has those).
pytestmark = pytest.mark.usefixtures("word_only_defaults")


@pytest.mark.parametrize("name", list(FILES))
def test_a_policy_page_is_converted_shown_and_evaluated(name):
    at = upload(open_app(), name, FILES[name]())
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert metric(at, "Sections") == "4"
    notes = [plain(i.value) for i in at.info]
    assert any(note.startswith("Converted from ") and "in this converted text" in note for note in notes), notes
    if name.endswith(".pdf"):
        assert any("guessed from larger or bold" in note for note in notes)
    shown = [c.value for c in at.code]
    assert any(text.startswith("# Breezy Home warranty and returns") and "## Zephyr Table Fan" in text
               for text in shown)
    at.session_state[keys.QUESTIONS] = pd.read_csv(io.StringIO(policy.QUESTIONS), dtype=str).fillna("")
    at.session_state[keys.RUN_STRATEGIES] = ["fixed", "heading"]
    at = go(at, "pages/results.py")
    assert not at.exception  # (the status may be an error box: one unanswerable question was answered)
    assert not any("The run stopped" in e.value for e in at.error)
    result = at.session_state[keys.RESULT]
    assert result.document.converted_from == name.rsplit(".", 1)[1]
    assert result.run("heading", "keyword", "none").counts["clean"] == 4


def test_an_encrypted_pdf_upload_shows_a_plain_error():
    at = upload(open_app(), "locked.pdf", policy.pdf_bytes(password="secret"))
    assert not at.exception
    assert any("locked.pdf is protected with a password" in plain(e.value) for e in at.error)
