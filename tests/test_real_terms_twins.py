"""GitHub Marketplace's terms in English (tests/data/real, SOURCES.md there; CC0): the English original of the German
and French pages beside it, the control that tells the document's kind (long legal sections sharing their wording)
from its language. Read as English, every question resolves, graded exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.model import Settings
from workbench.read.language import document_languages, reading_sentence
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.read.resolve import resolve_all
from workbench.run.evaluate import evaluate

REAL = Path(__file__).parent / "data" / "real"
TERMS = REAL / "github_marketplace_terms_en.md"
QUESTIONS = TERMS.with_name(f"{TERMS.stem}.questions.csv")
GERMAN = REAL / "github_marketplace_terms_de.questions.csv"

pytestmark = pytest.mark.skipif(not TERMS.is_file(), reason="tests/data/real's English terms are not in this clone")


def test_the_english_terms_read_as_english():
    document = load_path(TERMS)
    assert document_languages(document) == ("en",)
    assert reading_sentence(document) == "Written in English; read with English word rules."
    assert [s.heading for s in document.sections][1:4] == [
        "A. GitHub.com's Terms of Service", "B. Use Requirements", "C. Developer Products and Product Providers"]


def test_every_question_resolves_and_matches_the_german_set_row_for_row():
    questions = parse_questions(QUESTIONS.read_bytes(), QUESTIONS.name)
    german = parse_questions(GERMAN.read_bytes(), GERMAN.name)
    assert len(questions) == len(german) == 38
    # The same questions in the same order: the answerable ones where the German has them, from the same letter.
    assert [q.answerable for q in questions] == [q.answerable for q in german]
    assert [q.expected_source[:2] for q in questions] == [q.expected_source[:2] for q in german]
    good, bad = resolve_all(load_path(TERMS), questions)
    assert bad == [] and len(good) == 38


def test_two_questions_grade_exactly_under_headings_and_word_search():
    questions = parse_questions(QUESTIONS.read_bytes(), QUESTIONS.name)
    run = evaluate(load_path(TERMS), questions, Settings(["heading"], ["bm25"], ["none"])).runs[0]
    by_question = {r.question.question: r for r in run.per_question}
    # "law" and "dispute" are both in J's "Governing Law" item; "dispute" is in D and I too, "laws" in B.
    law = by_question["Which law applies if there's ever a dispute?"]
    assert (law.grade, law.rank) == ("clean", 1)
    # "money back" shares no word with "non-refundable": five other pieces rank above section D.
    refund = by_question["Do I get my money back if I end up not needing the app?"]
    assert (refund.grade, refund.reason, refund.rank) == ("missed", "ranked", 6)
    # Measured under this setup: 10 of the 32 answerable questions clean (the German page: 11, the French: 18).
    assert sum(r.grade == "clean" for r in run.per_question if r.answerable) == 10
