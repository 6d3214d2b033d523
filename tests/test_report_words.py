"""Issue 25: the HTML report is read by someone without the app. It names setups by their display names, never
by the ids behind them, and sends its reader to no page or setting of the app."""

from __future__ import annotations

import pytest

from workbench.advise.advice import advise
from workbench.core.model import Settings
from workbench.output.handover import report_html
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS


@pytest.fixture(scope="module")
def evaluation():
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    for question in questions[:2]:
        question.generated = True  # written by the app, not yet checked by the owner
    # No refusal threshold: the questions the file cannot answer are answered anyway, so the to-do says to refuse.
    return evaluate(load_path(SAMPLE_MD), questions, Settings(["fixed", "heading"], ["keyword"], ["none"]))


def test_the_reports_settings_name_every_setup_by_its_display_name_only(evaluation):
    page = report_html(evaluation)
    # Before: "300-character windows (fixed); Cut at headings (heading)", "Word-match search (keyword)", …
    assert "<tr><th>Ways of cutting</th><td>300-character windows; Cut at headings</td></tr>" in page
    assert "<tr><th>Search</th><td>Word-match search</td></tr>" in page
    assert "<tr><th>Re-check</th><td>Not re-checked</td></tr>" in page
    for id in ("fixed", "heading", "keyword", "none"):
        assert f"({id})" not in page and f"title='{id}'" not in page
    assert "heading / keyword / none" not in page  # the recommendation's tooltip held the ids


def test_the_report_sends_its_reader_to_no_page_of_the_app(evaluation):
    page = report_html(evaluation)
    assert ("<p><b>2 of your 24 questions are the app&#x27;s own and not yet checked: check them, or write your "
            "customers&#x27; own, to be sure.</b></p>") in page
    assert ("<li><b>Let the bot refuse: have it hand a question to a person when it is not sure enough, at a level "
            "picked from your questions.</b>") in page
    assert ("k is how many pieces the bot is handed per question (“Pieces handed to the bot” under Settings used, "
            "at the end).") in page
    for app_words in ("Questions page", "Results ›", "Results settings", "on Results", "tick “", "Download the"):
        assert app_words not in page, app_words
    # The app itself still points to its own pages and settings.
    advice = advise(evaluation)
    assert any("edit or accept them on the Questions page" in condition for condition in advice.verdict.conditions)
    assert any("Results settings" in item.edit for item in advice.todo)


def test_the_reports_window_settings_say_characters_and_no_overlap_as_none():
    """An overlap of 0 read "default", as an unset one does."""
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    page = report_html(evaluate(load_path(SAMPLE_MD), questions,
                                Settings(["fixed"], ["keyword"], ["none"], size=120, overlap=0)))
    assert "<tr><th>Window size / overlap</th><td>120 characters / none</td></tr>" in page


def test_the_report_names_the_code_page_a_japanese_export_was_read_in_as_the_app_does():
    """Walk-through (walk42): the report of the Shift_JIS export said "read as cp932" in its settings, a codec's name
    the owner had never seen; the Document page names it, and the Windows it comes from, in words."""
    from .conftest import ROOT

    written = ROOT / "tests" / "data" / "written"
    questions = parse_questions((written / "chaki_makeshop_ja.questions.csv").read_bytes(), "q.csv")[:2]
    japanese = evaluate(load_path(written / "chaki_makeshop_ja.csv"), questions,
                        Settings(["heading"], ["keyword"], ["none"]))
    page = report_html(japanese)
    assert ("<tr><th>Document</th><td>chaki_makeshop_ja.csv (spreadsheet), read as Shift_JIS (cp932), as Excel saves "
            "text on a Japanese computer</td></tr>") in page
    assert "Written in Japanese" in page and "read as cp932" not in page
    assert "南部鉄器 急須 あられ 0.6L" in page  # the product's name as the file writes it, no mojibake
    # A UTF-8 file is named as UTF-8, not by its codec's lower-case id.
    english = parse_questions(SAMPLE_QUESTIONS.read_bytes(), "q.csv")[:2]
    page = report_html(evaluate(load_path(SAMPLE_MD), english, Settings(["heading"], ["keyword"], ["none"])))
    assert "<td>breezy_home_price_list.md (markdown), read as UTF-8</td>" in page


def test_the_report_counts_a_documents_sections_and_a_spreadsheets_products_as_the_document_page_does(evaluation):
    """Walk-through (walk44): the German terms' report said "11 products or sections" of a Markdown file the
    Document page counted as 11 sections. The sample price list has 11 sections holding its 99 facts."""
    from .conftest import ROOT

    page = report_html(evaluation)
    assert "<p>11 sections, 99 facts, 2,270 characters." in page and "products or sections," not in page
    written = ROOT / "tests" / "data" / "written"
    questions = parse_questions((written / "chaki_makeshop_ja.questions.csv").read_bytes(), "q.csv")[:2]
    table = load_path(written / "chaki_makeshop_ja.csv")
    page = report_html(evaluate(table, questions, Settings(["heading"], ["keyword"], ["none"])))
    products = sum(1 for section in table.sections if section.facts)
    assert f"<p>{products:,} products, {len(table.facts):,} facts," in page
