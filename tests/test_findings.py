"""Controls are never recommended, a control tying a real cut is called chance everywhere, and identical
configurations are one row."""

from __future__ import annotations

import json
import subprocess
import sys

from workbench.advise.findings import chance_sentence, fold_identical
from workbench.advise.verdict import recommended
from workbench.core.model import Question, Settings
from workbench.output.handover import report_html
from workbench.output.report import to_json, to_table
from workbench.read.loaders import load_path, parse_markdown
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate

from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS

ONE_PRODUCT = "# Shop\n\n## Fan\nPrice: 10\nWarranty: 1 year\n"
CHANCE = "your questions cannot tell these strategies from chance here"


def tied():
    # One product: shuffling its one path changes nothing, so the placebo ties the real cut.
    document = parse_markdown(ONE_PRODUCT, "one.md")
    questions = [Question("What is the price of the fan?", "Fan", "Price: 10"),
                 Question("How long is the warranty on the fan?", "Fan", "Warranty: 1 year")]
    return evaluate(document, questions, Settings(["placebo", "breadcrumb"], ["keyword"], ["none"]))


def test_a_control_that_ties_is_never_recommended():
    evaluation = tied()
    assert [run.counts["clean"] for run in evaluation.runs] == [2, 2]  # placebo listed first, and as good
    assert recommended(evaluation.runs).strategy == "breadcrumb"


def test_every_output_says_a_tie_with_a_control_cannot_be_told_from_chance():
    evaluation = tied()
    sentence = chance_sentence(evaluation.runs)
    assert sentence.startswith(f"Careful: {CHANCE}. The “Shuffled-headings control” (2 clean) ties with "
                               "“Cut at headings, with their path” (2 clean) with word-match search, not re-checked.")
    assert "placebo" not in sentence and "keyword" not in sentence  # names a reader knows, never the ids
    assert sentence in to_table(evaluation)
    assert to_json(evaluation)["chance_warning"] == sentence
    assert to_json(evaluation)["recommended"]["strategy"] == "breadcrumb"
    assert CHANCE in report_html(evaluation)


def test_no_warning_when_the_real_cut_beats_every_control():
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    evaluation = evaluate(document, questions, Settings(["heading", "placebo", "whole"], ["keyword"], ["none"]))
    assert chance_sentence(evaluation.runs) is None  # heading 20 clean, placebo 10, whole 0
    assert CHANCE not in to_table(evaluation)


def test_a_reranker_that_rescored_every_piece_folds_the_retrievers_into_one_row():
    out = subprocess.run(
        [sys.executable, "-m", "workbench", "evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS),
         "--strategies", "heading", "--retrievers", "keyword,bm25", "--rerankers", "none,heading", "--depth", "100",
         "--no-history", "--format", "json"],
        cwd=ROOT, capture_output=True, text=True,
    )
    data = json.loads(out.stdout)
    # none: keyword and bm25 rank differently (20 vs 15 clean); heading re-scores all 11 pieces, so both agree.
    assert [(r["retriever"], r["reranker"], [i["retriever"] for i in r["identical"]]) for r in data["runs"]] == [
        ("keyword", "none", []), ("keyword", "heading", ["bm25"]), ("bm25", "none", []),
    ]
    table = subprocess.run(
        [sys.executable, "-m", "workbench", "evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS),
         "--strategies", "heading", "--retrievers", "keyword,bm25", "--rerankers", "none,heading", "--depth", "100",
         "--no-history"],
        cwd=ROOT, capture_output=True, text=True,
    ).stdout
    assert "heading       keyword+bm25 heading" in table


def test_folding_keeps_runs_that_differ_apart():
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    evaluation = evaluate(document, questions, Settings(["heading"], ["keyword", "bm25"], ["none"]))
    assert [len(group) for group in fold_identical(evaluation.runs)] == [1, 1]
