"""The knowledge-base errand in Chromium: upload three files, see them cut one file at a time, import questions
naming files, run, read the base's verdict with its line per file and a to-do naming both files, reload, remove a
file, run again. Screenshots go to $WORKBENCH_SHOTS (default: the test's own folder) to be looked at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .test_browser import CHROMIUM, FLAGS, keep_local, serve, settle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]
KB = Path(__file__).parent / "kb"
FILES = [KB / "catalog.csv", KB / "policies.md", KB / "faq.md"]
BASE = "catalog.csv + policies.md + faq.md"


def pin_word_search(data: Path) -> None:
    """Word-match search under two cuts, saved as the settings a new session opens on: quick, and the grading
    tests/test_knowledge_base.py works out by hand (the policies page's returns line is the kettle's decoy)."""
    from workbench.store.workspace import Workspace

    workspace = Workspace(data / "workspace.sqlite")
    workspace.set_preference("settings", {"run_strategies": ["fixed", "heading"], "run_retrievers": ["keyword"],
                                          "run_rerankers": ["none"], "cut_strategies": ["fixed", "heading"]})
    workspace.close()


def test_a_knowledge_base_of_three_files_from_upload_to_a_second_run(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    shots = Path(os.environ.get("WORKBENCH_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    data.mkdir()
    pin_word_search(data)
    verdict_box = "[data-testid=stAlert]"
    with serve(data) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 2200})  # a laptop's width; tall, to see it all
        outside = keep_local(context)
        page = context.new_page()
        page.goto(url)
        expect(page.get_by_text("What was read from the 2 files of this knowledge base")).to_be_visible(timeout=120000)

        # Three files at once are one knowledge base, listed with what was read from each.
        page.locator("input[type=file]").first.set_input_files([str(path) for path in FILES])
        expect(page.get_by_text("What was read from the 3 files of this knowledge base")).to_be_visible(timeout=60000)
        for line in ("1. catalog.csv — a spreadsheet (CSV): 3 products, 9 facts, 231 characters",
                     "2. policies.md — a Markdown file: 2 sections, 3 facts, 195 characters",
                     "3. faq.md — a Markdown file: 2 sections, 2 facts, 174 characters"):
            expect(page.get_by_text(line)).to_be_visible()
        expect(page.get_by_role("button", name="Remove", exact=True)).to_have_count(3)
        settle(page)
        page.screenshot(path=str(shots / "1-document.png"), full_page=True)

        # Cuts: one file at a time, chosen by name; policies.md cut in its own text.
        page.get_by_role("link", name="Cuts").click()
        chooser = page.get_by_role("combobox", name="File of the knowledge base to see cut")
        expect(chooser).to_be_visible(timeout=60000)
        chooser.click()
        page.get_by_role("option", name="policies.md").click()
        settle(page)
        expect(page.locator(".wb-cut").first).to_contain_text("Refunds are paid within 5 working days.", timeout=30000)
        expect(page.locator(".wb-cut").first).not_to_contain_text("Kettle Pro")
        page.screenshot(path=str(shots / "2-cuts.png"), full_page=True)

        # Questions naming files, imported in place of the generated ones.
        page.get_by_role("link", name="Questions").click()
        expect(page.get_by_text(f"Questions for {BASE}")).to_be_visible(timeout=60000)
        page.get_by_text("replace the table").click()
        settle(page)
        page.locator("input[type=file]").first.set_input_files(str(KB / "questions.csv"))
        expect(page.get_by_text(re.compile(r"Replaced the table's 9 questions with 3 from questions\.csv"))
               ).to_be_visible(timeout=60000)
        expect(page.get_by_text("cannot be graded")).to_have_count(0)
        settle(page)
        page.screenshot(path=str(shots / "3-questions.png"), full_page=True)

        # Run: the base's verdict, a line per file, the decoy from policies.md, and a to-do naming both files.
        page.get_by_role("link", name="Results").click()
        expect(page.get_by_text(re.compile(re.escape(f"Results for {BASE} with 3 questions.")))).to_be_visible(
            timeout=120000)
        page.get_by_role("button", name="Run the questions").click()
        settle(page)
        expect(page.locator(verdict_box).filter(has_text=f"— {BASE}:").first).to_be_visible(timeout=120000)
        expect(page.get_by_text("The knowledge base, file by file")).to_be_visible()
        expect(page.get_by_text("catalog.csv: 0 of 1 question clean (0%); the top piece "
                                "came from another file for 1 (policies.md).")).to_be_visible()
        expect(page.get_by_text("a decoy from policies.md: its piece holds the same words.").first).to_be_visible()
        expect(page.get_by_text("What to change across the files")).to_be_visible()
        across = page.get_by_text(re.compile(r"^\d+\. Make policies\.md and catalog\.csv agree on Returns"))
        expect(across).to_be_visible()
        expect(page.locator("[data-testid=stMarkdownContainer]", has=across)).to_contain_text(
            "Where: policies.md line 4; catalog.csv row 2, column Returns")
        expect(page.get_by_text(re.compile(r"^Cut at headings: missed — a decoy from policies\.md"))).to_be_visible()
        expect(page.locator(".js-plotly-plot").nth(2)).to_be_visible(timeout=60000)
        page.screenshot(path=str(shots / "4-results.png"), full_page=True)

        # A reload keeps the base, its questions and its result.
        page.reload()
        expect(page.get_by_text(re.compile(re.escape(f"Results for {BASE} with 3 questions.")))).to_be_visible(
            timeout=120000)
        page.get_by_role("link", name="Document").click()
        expect(page.get_by_text("What was read from the 3 files of this knowledge base")).to_be_visible(timeout=60000)
        settle(page)
        expect(page.get_by_text("Products and sections", exact=True)).to_be_visible(timeout=30000)  # drawn, not a placeholder
        expect(page.get_by_role("combobox", name="Which column holds the product name?")).to_be_visible()
        page.screenshot(path=str(shots / "5-reloaded.png"), full_page=True)

        # Remove faq.md, and run again: two files, the FAQ's question left out with its reason.
        settle(page)
        page.locator(".st-key-remove_file_2 button").first.click()
        expect(page.get_by_text("What was read from the 2 files of this knowledge base")).to_be_visible(timeout=60000)
        expect(page.get_by_text("3. faq.md")).to_have_count(0)
        expect(page.get_by_text("Took faq.md out of the knowledge base.")).to_be_visible()
        settle(page)
        page.screenshot(path=str(shots / "6-removed.png"), full_page=True)
        page.get_by_role("link", name="Results").click()
        expect(page.get_by_text("Results for catalog.csv + policies.md with 3 questions.")).to_be_visible(
            timeout=120000)
        page.get_by_role("button", name="Run the questions").click()
        settle(page)
        expect(page.locator(verdict_box).filter(has_text="— catalog.csv + policies.md:").first).to_be_visible(
            timeout=120000)
        expect(page.get_by_text(re.compile(r"Row 4 left out \(Does the Blender Max crush ice\?\)"))).to_be_visible()
        expect(page.get_by_text("The knowledge base, file by file (2 files")).to_be_visible()
        expect(page.get_by_text("faq.md:")).to_have_count(0)
        page.screenshot(path=str(shots / "7-second-run.png"), full_page=True)

        page.get_by_role("link", name="Check-up").click()
        expect(page.get_by_role("heading", name="Across the files")).to_be_visible(timeout=60000)
        expect(page.get_by_text(re.compile(r"^Stated differently: “Returns: 30 days after delivery"))).to_be_visible()
        expect(page.get_by_text("Check-up of catalog.csv.")).to_be_visible()
        expect(page.get_by_role("heading", name="Lines shared by several products")).to_be_visible(timeout=60000)
        settle(page)
        page.screenshot(path=str(shots / "8-checkup.png"), full_page=True)
        browser.close()
    assert outside == [], f"the app asked another host for: {outside}"
