"""The questions a shop owner exports open in Excel in the file's language: downloaded from the real app in Chromium.

Walk-through (walk42): the Japanese (Shift_JIS) export's questions (and its answers) downloaded as "golden_questions.csv" in UTF-8
without a BOM, the name the same for every file, though each file keeps questions of its own; Excel on a Japanese
Windows reads such a file in Shift_JIS, every question mojibake. Only a browser's download shows the bytes a
Streamlit download button sends.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from .conftest import ROOT
from .serving import open_and_upload
from .test_browser import CHROMIUM, FLAGS, keep_local, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]
WRITTEN = ROOT / "tests" / "data" / "written"


def test_the_questions_and_answers_of_a_japanese_export_download_as_files_excel_opens_in_japanese(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from workbench.read.questions import parse_questions

    with serve(tmp_path / "data") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
        outside = keep_local(context)
        page = context.new_page()
        # A click waits for its button to be drawn: the Answers button comes after the word-search run, which can
        # take over a minute on a loaded machine, past Playwright's 30-second default.
        page.set_default_timeout(240000)
        open_and_upload(page, url, WRITTEN / "chaki_makeshop_ja.csv")
        page.get_by_role("link", name="Questions").click()
        expect(page.get_by_text("Questions for chaki_makeshop_ja.csv")).to_be_visible(timeout=60000)
        page.locator("input[type=file]").first.set_input_files(str(WRITTEN / "chaki_makeshop_ja.questions.csv"))
        expect(page.get_by_text("Added 14 questions from chaki_makeshop_ja.questions.csv, in place of the 10")).to_be_visible(timeout=60000)
        with page.expect_download(timeout=60000) as download:
            page.get_by_role("button", name="Export the questions as CSV").click()
        saved = tmp_path / "export.csv"
        download.value.save_as(saved)
        name = download.value.suggested_filename
        # The answers, per question and setup, for the owner's spreadsheet too (word search's, before any Run).
        page.get_by_role("link", name="Compare & report").click()
        with page.expect_download(timeout=240000) as answers:
            page.get_by_role("button", name="Answers (CSV)").click()
        answers_data = Path(answers.value.path()).read_bytes()
        browser.close()
    assert outside == []
    assert name == "chaki_makeshop_ja-questions.csv"
    data = saved.read_bytes()
    assert data.startswith(codecs.BOM_UTF8)  # how Excel knows the file is UTF-8, not the computer's code page
    text = data[len(codecs.BOM_UTF8):].decode("utf-8")
    assert "南部鉄器の急須っていくら？,南部鉄器 急須 あられ 0.6L,\"8,800\"" in text  # the owner's row as imported
    # And the app reads it back as it was: the 14 imported questions, in place of the app's ten starters.
    imported = parse_questions((WRITTEN / "chaki_makeshop_ja.questions.csv").read_bytes(), "q.csv")
    again = [(q.question, q.expected_source, q.expected_answer) for q in parse_questions(data, name)]
    assert [(q.question, q.expected_source, q.expected_answer) for q in imported] == again
    assert not again[0][0].startswith(codecs.BOM_UTF8.decode("utf-8"))
    assert answers_data.startswith(codecs.BOM_UTF8)
    # Row 2, as in the owner's file: the import took the place of the app's own 10 (it put them in rows 2-11).
    assert ",2,南部鉄器の急須っていくら？," in answers_data[len(codecs.BOM_UTF8):].decode("utf-8")
