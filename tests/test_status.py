"""The status rests only on what was measured: Ready needs 90 % clean, at least 3 questions the file cannot
answer and questions the owner wrote or checked; refusing is its own measured line, and when no threshold can
refuse, the status is set by the answers with that condition named beside it."""

from __future__ import annotations

import dataclasses

import pytest

from workbench.advise.verdict import LOOKS_READY, NEEDS_WORK, NOT_READY, READY, assess, handed_pieces, status_of
from workbench.core.model import Question, Settings
from workbench.grade.refusal import trade_off
from workbench.output.handover import report_html
from workbench.read.loaders import parse_markdown
from workbench.run.evaluate import evaluate

SHOP = """# Shop
## Alpha Lamp
Price: 10 euros.
Warranty: 1 year.
## Beta Chair
Price: 25 euros.
Warranty: 2 years.
## Gamma Desk
Price: 90 euros.
Warranty: 5 years.
"""
ANSWERABLE = [
    Question("What is the price of the Alpha Lamp?", "Alpha Lamp", "Price: 10 euros."),
    # "come" is no stop word (it asks about something): the search counts it, and no piece holds it.
    Question("What warranty does the Beta Chair come with?", "Beta Chair", "Warranty: 2 years."),
    Question("What is the price of the Gamma Desk?", "Gamma Desk", "Price: 90 euros."),
    Question("What warranty does the Gamma Desk come with?", "Gamma Desk", "Warranty: 5 years."),
]
# Made of the file's own words: the search score is as sure of them as of the real questions.
LOOK_ALIKE = [Question(f"What is the price of the {name} warranty?") for name in ("Alpha Lamp", "Beta Chair", "Gamma Desk")]
# Words the file never uses: the score refuses them.
FOREIGN = [Question("Do you ship to Canada?"), Question("Can I pay with PayPal?"), Question("Do you sell sofas?")]


def run(questions: list[Question], threshold="auto"):
    questions = [dataclasses.replace(q, row=number) for number, q in enumerate(questions, start=2)]
    return evaluate(parse_markdown(SHOP, "shop.md"), questions, Settings(["heading"], ["keyword"], ["none"],
                                                                          threshold=threshold))


def test_a_file_whose_score_cannot_refuse_is_judged_by_its_answers_with_the_condition_beside_it():
    evaluation = run(ANSWERABLE + LOOK_ALIKE)
    results = evaluation.runs[0].per_question
    # Confidences (keyword search, cut at headings): the two price questions 0.933, the two warranty questions 0.8,
    # the three look-alikes 0.9. Refusing 2 of the 3 (ceil(3 / 2)) needs a threshold above 0.9, which also
    # refuses both warranty questions: 2 of 4 real ones, over 5 % of 4 (0.2), so no threshold separates them.
    assert [round(r.confidence, 3) for r in results] == [0.933, 0.8, 0.933, 0.8, 0.9, 0.9, 0.9]
    tradeoff = trade_off(results)
    assert (tradeoff.target, tradeoff.wrongly, tradeoff.separable) == (2, 2, False)
    verdict = assess(evaluation)
    # Leave-one-out the fitted rule refused both warranty questions (2 of 4 clean: Not ready before), and no
    # look-alike: judged by its answers, 4 of 4 are clean.
    assert (verdict.refused, verdict.wrongly_refused, verdict.refusal_separable) == (0, 2, False)
    assert verdict.status == READY and verdict.clean == 4
    assert verdict.reason == (
        "with cut at headings, word-match search, 4 of 4 questions your file answers got a clean answer (100%) when "
        "it answers (measured on your 7 questions; each refusal judged by a threshold fitted on the other questions)."
    )
    assert verdict.conditions == [
        "This holds only if the bot is told in its instructions to answer only from the pieces it is handed and to "
        "hand the question to a person otherwise: the search score cannot tell the questions your file cannot "
        "answer from real ones here (see the refusal line)."
    ]
    assert verdict.refusal.startswith(
        "Refusing, with each question judged by a threshold fitted on the other questions: it refused 0 of the 3 "
        "questions your file cannot answer and wrongly refused 2 of the 4 it can. On this file, any threshold that "
        "refuses at least half of the 3 (2) also refuses at least 2 of the 4 real ones, judged on all the "
        "questions. No threshold refuses "
        "at least half of them while wrongly refusing at most 5 % of real ones: the search score cannot tell these "
        "questions apart from real ones on this file."
    )
    # The test for the bot's instructions: the three look-alikes, each with the pieces the bot is handed.
    assert [r.question.row for r in verdict.refusal_test] == [6, 7, 8]
    assert handed_pieces(evaluation, verdict.refusal_test[0])[0].text.startswith("## Alpha Lamp")
    assert verdict.lines()[1] == verdict.conditions[0] and verdict.refusal in verdict.lines()
    page = report_html(evaluation)
    assert "The test for the bot's instructions" in page and "What is the price of the Alpha Lamp warranty?" in page


def test_a_score_that_refuses_keeps_the_refusal_in_the_status():
    verdict = assess(run(ANSWERABLE + FOREIGN))
    # "Canada", "PayPal", "sofas" are words the file never uses: their confidence is 0, so refusing 2 of 3
    # refuses no real question.
    assert verdict.refusal_separable and verdict.conditions == [] and verdict.refusal_test == []
    assert (verdict.refused, verdict.wrongly_refused, verdict.status) == (3, 0, READY)
    assert "a threshold can refuse at least half of the 3 (2) without refusing any of the 4 real ones" in verdict.refusal
    # Never refusing, where a threshold would: the false answers count, and the status says Not ready.
    never = assess(run(ANSWERABLE + FOREIGN, threshold=None))
    assert never.status == NOT_READY and never.refusal.startswith("The bot never refuses (no threshold is set)")


def test_no_unanswerable_question_or_only_generated_ones_is_never_plain_ready():
    verdict = assess(run(ANSWERABLE))
    assert verdict.status == LOOKS_READY and verdict.clean == 4
    assert verdict.conditions == [
        "None of your questions is one your file cannot answer, so refusing was not tested: add at least 3 (a "
        "product you do not sell, a country you do not ship to), with the product left empty."
    ]
    generated = [dataclasses.replace(q, generated=True) for q in ANSWERABLE]
    verdict = assess(run(generated))
    assert verdict.status == LOOKS_READY and verdict.generated_questions == 4
    assert verdict.conditions[0] == (
        "Looks ready on the app's own questions: write or check your customers' questions to be sure."
    )
    mixed = assess(run(generated[:2] + ANSWERABLE[2:] + FOREIGN))
    assert mixed.status == LOOKS_READY and mixed.conditions == [
        "2 of your 7 questions are the app's own and not yet checked: edit or accept them on the Questions page, "
        "or write your customers' own, to be sure."
    ]
    assert assess(run(ANSWERABLE[2:] + FOREIGN)).status == READY  # the same, all checked: Ready


@pytest.mark.parametrize(
    "clean, answerable, false, unanswerable, separable, expected",
    [
        (18, 20, 4, 4, False, READY),  # every one answered anyway, but no threshold could refuse: by the answers
        (18, 20, 4, 4, True, NOT_READY),  # a threshold could have refused them
        (17, 20, 4, 4, False, NEEDS_WORK),  # 85 %
        (11, 20, 0, 4, False, NOT_READY),  # 55 %
    ],
)
def test_status_by_the_answers_when_the_score_cannot_refuse(clean, answerable, false, unanswerable, separable, expected):
    assert status_of(clean, answerable, false, unanswerable, separable) == expected


def test_the_json_lists_the_refusal_test_with_the_pieces_the_bot_is_handed(tmp_path, capsys):
    """The command line's JSON carries the test for the bot's instructions: each question the score cannot tell
    apart, its row, and the pieces (id and place) the bot would be handed for it."""
    import json

    from workbench.output.cli import main
    from workbench.read.questions import questions_to_csv

    document, questions = tmp_path / "shop.md", tmp_path / "questions.csv"
    document.write_text(SHOP, encoding="utf-8")
    asked = [dataclasses.replace(q, row=n) for n, q in enumerate(ANSWERABLE + LOOK_ALIKE, start=2)]
    questions.write_text(questions_to_csv(asked), encoding="utf-8")
    assert main(["evaluate", str(document), "--questions", str(questions), "--strategies", "heading",
                 "--retrievers", "keyword", "--rerankers", "none", "--threshold", "auto", "--top-k", "2", "--no-history", "--format", "json"]) == 0
    test = json.loads(capsys.readouterr().out)["verdict"]["refusal_test"]
    assert [entry["row"] for entry in test] == [6, 7, 8]
    # "What is the price of the Alpha Lamp warranty?": the Alpha Lamp's section first, then one more (top-k 2).
    assert len(test[0]["pieces"]) == 2
    assert test[0]["pieces"][0]["id"].startswith("heading-") and "Alpha Lamp" in test[0]["pieces"][0]["from"]
