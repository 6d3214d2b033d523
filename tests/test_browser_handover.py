"""The hand-over errand in Chromium: the bot-ready file beside the original, the pieces, a PDF policy page."""

from __future__ import annotations

import json

import pytest

from . import policy_files as policy
from .serving import upload_document
from .test_browser import CHROMIUM, FLAGS, app_url, keep_local, open_on_sample  # noqa: F401  (app_url: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
pytest.importorskip("markitdown")
pytest.importorskip("fpdf")


def test_bot_ready_file_pieces_and_a_pdf_policy_in_chromium(app_url, tmp_path):  # noqa: F811
    from pathlib import Path

    from playwright.sync_api import expect, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium: apt-get install chromium")
    pdf = tmp_path / "policy.pdf"
    pdf.write_bytes(policy.pdf_bytes())
    questions = tmp_path / "policy-questions.csv"
    questions.write_text(policy.QUESTIONS, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1400, "height": 1800}, accept_downloads=True)
        outside = keep_local(context)
        page = context.new_page()
        open_on_sample(page, app_url)

        # Results: the sample is a knowledge base; its first file, the price list, rewritten and graded in the base,
        # answers no more questions cleanly (0 -> 0 of 22), so it is said and not offered for download.
        page.get_by_role("link", name="Results").click()
        expect(page.get_by_text("A bot-ready version of your file")).to_be_visible(timeout=120000)
        expect(page.get_by_text("Tried on your file and not offered: a bot-ready copy")).to_be_visible()
        expect(page.get_by_text("answers 0 of 22 of your questions cleanly with 300-character windows, BM25 word "
                                "search, not re-checked, no more than your own file (0 of 22).", exact=False)).to_be_visible()
        expect(page.get_by_role("button", name="Download the bot-ready file (.md)")).to_have_count(0)
        page.get_by_text("A bot-ready version of your file").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "1-rewrite.png"))
        with page.expect_download() as download:
            page.get_by_role("button", name="Download the 14 pieces of “Cut at headings”").click()
        records = [json.loads(line) for line in Path(download.value.path()).read_text(encoding="utf-8").splitlines()]
        assert len(records) == 14 and records[1]["metadata"]["section"] == "Aurora Ceiling Fan"
        assert {r["metadata"]["source"] for r in records} == {"breezy_home_price_list.md", "breezy_home_policies.md"}

        # Document: a PDF policy page, converted, with what may be lost and the converted text.
        page.get_by_role("link", name="Document").click()
        upload_document(page, pdf)
        expect(page.get_by_text("Converted from PDF to text")).to_be_visible()
        expect(page.get_by_text("## Nimbus Air Purifier").first).to_be_visible()
        page.screenshot(path=str(tmp_path / "2-pdf-document.png"), full_page=True)

        # Its questions, then Results: cut at the headings answers all four cleanly.
        page.get_by_role("link", name="Questions").click()
        # Wait for the Questions page itself: until then the first file input is the Document page's.
        expect(page.get_by_text("Questions for policy.pdf")).to_be_visible(timeout=30000)
        page.locator("input[type=file]").first.set_input_files(str(questions))
        expect(page.get_by_text("from policy-questions.csv").first).to_be_visible(timeout=60000)
        page.get_by_role("link", name="Results").click()
        run = page.get_by_role("button", name="Run the questions")
        if run.is_visible():
            run.click()
        expect(page.get_by_text("4 of 4 questions your file answers got a clean answer")).to_be_visible(timeout=120000)
        page.screenshot(path=str(tmp_path / "3-pdf-results.png"), full_page=True)

        # Cuts: the pieces of a cut to take away.
        page.get_by_role("link", name="Cuts").click()
        expect(page.get_by_text("Take the pieces away")).to_be_visible(timeout=60000)
        with page.expect_download() as download:
            page.get_by_role("button", name="Download the").click()
        assert Path(download.value.path()).read_text(encoding="utf-8").startswith('{"id": "policy.pdf:')
        page.screenshot(path=str(tmp_path / "4-cuts.png"), full_page=True)
        browser.close()
    assert outside == [], f"the app asked another host for: {outside}"
