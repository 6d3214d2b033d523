"""A button's label is read whole, on a phone and on a computer: Streamlit cut long ones with "…".

Walk-through (walk44): "Undo the import of github_marketplace_terms_de.questio…" at 1300 pixels hid which file the
undo would take back; on a phone, "Download the 11 pieces of “Find a sentence, hand over…" hid which cut.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_browser import CHROMIUM, FLAGS, serve
from .test_browser_phone import DESKTOP, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]
NAME = "breezy_home_questions_checked_by_the_shop_owner_in_december.csv"
# Each button label's text box: cut when what it holds is wider than what it shows.
CUT_LABELS = """
() => [...document.querySelectorAll('[data-testid=stMain] button [data-testid=stMarkdownContainer]')]
  .filter(box => box.clientWidth && box.scrollWidth > box.clientWidth + 1).map(box => box.innerText)
"""


def test_the_undo_buttons_label_names_the_whole_file_on_a_phone_and_a_computer(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    questions = tmp_path / NAME
    questions.write_text("question,expected_source,expected_answer\nDo you sell chairs?,,\n", encoding="utf-8")
    with serve(tmp_path / "data") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(**PHONE)
        page.goto(f"{url}/questions")
        expect(page.get_by_text("Golden questions", exact=True)).to_be_visible(timeout=120000)
        page.locator("input[type=file]").first.set_input_files(str(questions))
        undo = page.get_by_role("button", name=f"Undo the import of {NAME}")
        expect(undo).to_be_visible(timeout=60000)
        page.wait_for_timeout(300)  # the label's box is measured once laid out
        on_phone = page.evaluate(CUT_LABELS)
        page.screenshot(path=str(tmp_path / "phone-undo.png"))
        page.set_viewport_size(DESKTOP["viewport"])
        page.wait_for_timeout(500)
        on_computer = page.evaluate(CUT_LABELS)
        shown = undo.locator("[data-testid=stMarkdownContainer]").inner_text()
        browser.close()
    assert on_phone == [] and on_computer == [], (on_phone, on_computer)
    assert " ".join(shown.split()) == f"Undo the import of {NAME}"
