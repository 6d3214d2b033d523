"""The to-do as a shop owner meets it: only what measured a gain on a copy of the file is counted, on real files.

An item with no change to try on a copy (add the facts, say a line in the customer's words) cannot be measured, so it
is folded with the items that measured no gain, under a label that says so; a Ready file shows at most the items that
measured a gain (``bench/todo_audit.py``, BENCHMARKS.md "The to-do as a shop owner meets it")."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from workbench.advise.advice import advise, folded_heading
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.defaults import DEFAULTS
from workbench.run.evaluate import evaluate

WRITTEN = Path(__file__).parent / "data" / "written"
REAL = Path(__file__).parent / "data" / "real"
WORD_SEARCH = replace(DEFAULTS.settings(), retrievers=["bm25"], rerankers=["none"])  # the first verdict's setups


def advice_on(path: Path):
    questions = path.with_name(f"{path.stem}.questions.csv")
    evaluation = evaluate(load_path(path), parse_questions(questions.read_bytes(), questions.name), WORD_SEARCH)
    return advise(evaluation, reader="cli")


def proven(item) -> bool:
    return item.measured is not None and bool(item.measured.fixed) and not item.measured.worse


@pytest.mark.parametrize("path", [WRITTEN / "kettle_shopify_en.csv", REAL / "azure_free_account_charges_pt.md",
                                  REAL / "bagisto_winter_products_de.csv"], ids=lambda p: p.name)
def test_every_counted_item_measured_a_gain_and_the_rest_is_folded_as_not_measured_to_help(path):
    advice = advice_on(path)
    # Before: "Add the facts these questions ask for …" and "Make …'s line say what the question asks" were counted
    # in the to-do, "not measured (no edit to try on a copy of the file)": the kettle's 2 items, the Portuguese
    # page's 5 of 8, the German export's (Ready) 1 of 3.
    assert all(proven(item) or item.always for item in advice.advised), [i.edit for i in advice.advised]
    unmeasured = [item for item in advice.todo if item.measured is None and not item.always]
    assert unmeasured and all(item in advice.optional for item in unmeasured)
    assert folded_heading(advice).startswith(f"Not measured to help: {len(advice.optional)} item")


def test_a_ready_file_shows_only_items_that_measured_a_gain():
    advice = advice_on(REAL / "bagisto_winter_products_de.csv")
    assert advice.verdict.status == "Ready"
    assert advice.advised and all(proven(item) for item in advice.advised)
    assert all(item.effect.startswith("measured on a copy of your file: ") for item in advice.advised)


@pytest.mark.parametrize("path", [WRITTEN / "kettle_shopify_en.csv", WRITTEN / "candles_woocommerce_en.csv"],
                         ids=lambda p: p.name)
def test_saying_a_products_line_in_the_customers_words_names_its_text_cell_never_its_rows(path):
    from workbench.read.data_columns import data_columns

    advice = advice_on(path)
    [item] = [item for item in advice.todo if item.kind == "other"]
    # Before: "Make Gooseneck Pour-Over Kettle's line say what the question asks …" [rows 2–6]: every cell of the
    # product's rows, its price, SKU and options among them (the Spree export's two such items, BENCHMARKS.md).
    assert item.edit.startswith("Say what the question asks in ") and "leave the other cells as they are" in item.edit
    column = item.where.split(", column ", 1)[1]
    assert item.where.startswith("row ") and data_columns(load_path(path)).get(column) in (None, "HTML markup")


SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "real-data" / "espruino_banglejs2.md"


@pytest.mark.skipif(not SHARED.is_file(), reason="../shared/real-data (the Bangle.js manual) is not here")
def test_the_same_fix_is_never_counted_twice():
    bench = Path(__file__).resolve().parent.parent / "bench" / "questions" / "espruino_banglejs2.questions.csv"
    evaluation = evaluate(load_path(SHARED), parse_questions(bench.read_bytes(), bench.name), WORD_SEARCH)
    advice = advise(evaluation, reader="cli")
    # Before: "Add the word “charger” to Charging" and "Add the words “charger”, “attached” to Charging", each alone
    # fixing questions 20 and 21, both counted: the second was taken back because the fixed file left question 20,
    # which it did not get back either (28 clean with it or without it).
    fixed = [tuple(item.measured.fixed) for item in advice.advised if item.measured is not None]
    assert len(fixed) == len(set(fixed)), [item.edit for item in advice.advised]
    assert sum("“charger”" in item.edit for item in advice.advised) == 1


def test_a_file_that_needs_work_with_nothing_proven_is_not_told_nothing_is_required():
    from workbench.advise.advice import todo_heading

    advice = advice_on(WRITTEN / "kettle_shopify_en.csv")
    assert advice.verdict.status == "Needs work" and not advice.advised
    # Before: its two unmeasured items were counted; with them folded it read "Nothing is required: …" under
    # "Needs work", as if the file were fine.
    assert todo_heading(advice).startswith("No change to list: none tried on a copy of your file answered more")


def test_where_refusing_cannot_be_trusted_the_measured_figures_are_counted_as_the_verdict_counts():
    """"Ready, 14 of 14 clean when it answers" sat over an item "13 → 14 clean" on the Georgian wine shop: the verdict
    counts a real question the bot wrongly refused by the answer it would give, the copy's grading counted it not
    clean. One count everywhere (``grade/refusal.answers_alone``)."""
    from workbench.core.model import Question, Settings
    from workbench.read.loaders import parse_markdown

    shop = ("# Shop\n\n## Cotton Shirt\nWoven cotton, short sleeves.\nPrice: 20 EUR.\n\n"
            "## Rain Jacket\nTaped seams, hood.\nPrice: 90 EUR.\n\n"
            "## Wool Sweater\nKnitted from merino wool.\nPrice: 40 EUR.\n")
    questions = [
        Question("How much is the jumper?", "Wool Sweater", "40 EUR", row=2),
        Question("What is knitted from merino wool?", "Wool Sweater", "merino wool", row=3),
        Question("Does the rain jacket have a hood?", "Rain Jacket", "hood", row=4),
        Question("Are the cotton shirt sleeves short?", "Cotton Shirt", "short sleeves", row=5),
        Question("What would my sweater cost me, if I order today?", "Wool Sweater", "40 EUR", row=6),
        # Three the file cannot answer, each surer than question 6: no threshold refuses them and not it.
        Question("Do you sell a wool jacket?", "", "", row=7),
        Question("Is there a cotton sweater?", "", "", row=8),
        Question("Do you have a rain shirt?", "", "", row=9),
    ]
    settings = Settings(["heading"], ["keyword"], ["none"], threshold=0.2)
    evaluation = evaluate(parse_markdown(shop, "shop.md"), questions, settings)
    run = evaluation.runs[0]
    sweater = run.per_question[4]
    assert sweater.grade == "refused" and sweater.answered_grade == "clean"  # wrongly refused, clean if answered
    advice = advise(evaluation, reader="cli")
    verdict = advice.verdict
    assert "4 of 5 questions your file answers got a clean answer (80%) when it answers" in verdict.reason
    measured = [item.measured for item in advice.todo if item.measured is not None] + [advice.fix.measured]
    # On main: "3 → 4 clean" under "4 of 5 clean", and "cost", "order", "today" advised for fixing question 6,
    # which the verdict already counts clean.
    assert measured and all(m.clean_before == verdict.clean == 4 for m in measured)
    [jumper] = advice.advised
    assert jumper.measured.fixed == [2] and (jumper.measured.clean_before, jumper.measured.clean_after) == (4, 5)
    [cost] = [item for item in advice.todo if "“cost”" in item.edit]
    assert cost.measured.fixed == [] and cost in advice.optional
