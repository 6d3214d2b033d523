"""Exact grades on a three-product document, and hand-computed metrics."""

from __future__ import annotations

import math

import pytest

from workbench.core.model import Question, Settings, make_chunk
from workbench.grade.grading import ChunkMap, grade
from workbench.grade.metrics import hit_at, ndcg, reciprocal_rank
from workbench.read.loaders import parse_markdown
from workbench.read.resolve import resolve
from workbench.run.evaluate import evaluate

THREE = (
    "# Fans\n\n"
    "## Ceiling Fan\nPrice: 120\nWarranty: 2 years.\n\n"
    "## Table Fan\nPrice: 30\nWarranty: 1 year.\n\n"
    "## Desk Fan\nPrice: 25\nWarranty: 1 year.\n"
)
DOC = parse_markdown(THREE, "fans.md")


def span_of(text: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = THREE.index(text, start + 1)
    return start, start + len(text)


def section_span(heading: str) -> tuple[int, int]:
    section = next(s for s in DOC.sections if s.heading == heading)
    return section.span[0], section.facts[-1].span[1]


def chunks_from(*spans):
    return [make_chunk(DOC, "test", i, [span]) for i, span in enumerate(spans)]


def grade_of(question: Question, chunks, order):
    resolved = resolve(DOC, question)
    return grade(resolved, order, chunks, ChunkMap(DOC, chunks))


CEILING_PRICE = Question("What is the price of the ceiling fan?", "Ceiling Fan", "Price: 120")
DESK_WARRANTY = Question("What is the warranty of the desk fan?", "desk fan", "Warranty: 1 year.")
CEILING_WARRANTY = Question("What is the warranty of the ceiling fan?", "Ceiling", "Warranty: 2 years.")


def test_clean():
    chunks = chunks_from(section_span("Ceiling Fan"), section_span("Table Fan"))
    result = grade_of(CEILING_PRICE, chunks, [0, 1])
    assert (result.grade, result.reason, result.rank) == ("clean", "", 1)


def test_mixed():
    chunks = chunks_from((0, len(THREE)))  # the whole list in one chunk holds every product's facts
    result = grade_of(CEILING_PRICE, chunks, [0])
    assert (result.grade, result.rank) == ("mixed", 1)


def test_decoy_the_table_fans_warranty_for_the_desk_fan():
    chunks = chunks_from(section_span("Table Fan"), section_span("Desk Fan"))
    result = grade_of(DESK_WARRANTY, chunks, [0, 1])
    # The top chunk says "Warranty: 1 year." too, but of the Table Fan.
    assert (result.grade, result.reason, result.rank) == ("missed", "decoy", 2)


def test_split_a_boundary_runs_through_the_answer():
    cut = span_of("Warranty: 2 years.")[0] + 10  # between "Warranty: " and "2 years."
    chunks = chunks_from((0, cut), (cut, len(THREE)))
    result = grade_of(CEILING_WARRANTY, chunks, [0, 1])
    assert (result.grade, result.reason, result.rank) == ("missed", "split", None)


def test_ranked_a_chunk_holds_it_lower_down():
    chunks = chunks_from(section_span("Table Fan"), section_span("Desk Fan"), section_span("Ceiling Fan"))
    result = grade_of(CEILING_PRICE, chunks, [0, 1, 2])
    assert (result.grade, result.reason, result.rank) == ("missed", "ranked", 3)


def test_an_unanswerable_question_is_graded_as_answered_until_refused():
    # grade() never refuses: refusal.refuse_below is the one place that does (tests/test_refusal.py).
    chunks = chunks_from(section_span("Ceiling Fan"))
    assert grade_of(Question("Do you sell lamps?"), chunks, [0]).grade == "false-answer"


def test_empty_answer_means_the_source_itself():
    source = Question("Tell me about the table fan", "Table Fan", "")
    table = section_span("Table Fan")
    # Holds: a whole fact of the Table Fan, and more of its text than of any other product.
    chunks = chunks_from(table, (table[0], span_of("Price: 25")[1]), section_span("Desk Fan"))
    assert grade_of(source, chunks, [0, 1, 2]).grade == "clean"
    assert grade_of(source, chunks, [1, 0, 2]).grade == "mixed"
    assert grade_of(source, chunks, [2, 0, 1]).rank == 2


def test_answer_repeated_within_its_source_counts_anywhere_in_it():
    text = "# S\n\n## Fan\nWhite: 10\nOak: 10\n\n## Lamp\nPrice: 10\n"
    doc = parse_markdown(text, "s.md")
    resolved = resolve(doc, Question("price of fan in oak", "Fan", "10"))
    assert [text[a:b] for a, b in resolved.answer_spans] == ["10", "10"]


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        (Question("q", "Standing Fan", "Price: 30"), "no product or section is called 'Standing Fan'"),
        (Question("q", "an", "Price: 30"), "could mean several sections"),
        (Question("q", "Table Fan", "Price: 31"), "the answer 'Price: 31' is not in 'Table Fan'"),
    ],
)
def test_bad_questions_say_why(question, reason):
    result = resolve(DOC, question)
    assert reason in result.reason


def test_source_matching_exact_then_prefix_then_substring_ignoring_case_and_space():
    assert resolve(DOC, Question("q", "  table   FAN ", "price: 30")).section_id == "s2"
    assert resolve(DOC, Question("q", "Desk", "")).section_id == "s3"
    assert resolve(DOC, Question("q", "eiling", "")).section_id == "s1"


# --- Metrics, by hand ----------------------------------------------------------------------

def test_metrics_hand_computed():
    ranks = [2, 4]  # relevant chunks at ranks 2 and 4
    assert hit_at(ranks, 1) == 0.0
    assert hit_at(ranks, 2) == 1.0
    assert reciprocal_rank(ranks) == 0.5  # 1 / 2
    # DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161
    # IDCG = 1/log2(2) + 1/log2(3) = 1 + 0.63093 = 1.63093;  nDCG = 1.06161 / 1.63093 = 0.65093
    assert ndcg(ranks) == pytest.approx(0.65093, abs=1e-5)
    assert ndcg([1]) == 1.0
    assert ndcg([11]) == 0.0  # outside the top 10
    assert reciprocal_rank([11]) == 0.0


def test_metrics_no_match():
    assert hit_at([], 5) == 0.0
    assert reciprocal_rank([]) == 0.0
    assert ndcg([]) == 0.0


def test_evaluate_end_to_end_on_the_three_products():
    questions = [CEILING_PRICE, DESK_WARRANTY, Question("Do you sell lamps?"), Question("q", "Nope", "x", row=9)]
    settings = Settings(strategies=["heading", "fixed"], retrievers=["keyword"], rerankers=["none"], top_k=2, size=1000)
    evaluation = evaluate(DOC, questions, settings)
    assert [(bad.question.row, bad.reason) for bad in evaluation.bad_questions] == [(9, "no product or section is called 'Nope'")]
    heading = evaluation.run("heading", "keyword", "none")
    # Keyword scores: "price ceiling fan" -> Ceiling Fan chunk 3, others 2; "warranty desk fan" -> Desk Fan 3.
    assert [r.grade for r in heading.per_question] == ["clean", "clean", "false-answer"]
    assert heading.hit_rate == 1.0 and heading.mrr == 1.0
    assert heading.refusal_accuracy == 0.0
    fixed = evaluation.run("fixed", "keyword", "none")
    assert fixed.chunks == 1  # a 1000-character window holds the whole list
    assert [r.grade for r in fixed.per_question] == ["mixed", "mixed", "false-answer"]
    # Characters handed to a model at k=2. Heading chunks: Ceiling 44, Table 40, Desk 39 characters.
    # Ceiling price: Ceiling (3 words), then Table (2, ties broken by document order) = 84;
    # desk warranty: Desk (3), then Ceiling (2) = 83; "Do you sell lamps?": all 0, Ceiling + Table = 84.
    assert [len(c.text) for c in evaluation.chunks["heading"]] == [44, 40, 39]
    assert heading.context_chars == pytest.approx((84 + 83 + 84) / 3)
    assert math.isclose(fixed.context_chars, len(THREE))  # the one window, trailing newline included


def test_a_window_starting_with_the_previous_sections_rule_is_clean_not_mixed():
    text = "## Ceiling Fan\nPrice: 120\n\n-----\n\n## Table Fan\nPrice: 30\n"
    document = parse_markdown(text, "ruled.md")
    start = text.index("-----")
    window = make_chunk(document, "test", 0, [(start, len(text))])  # "-----\n\n## Table Fan\nPrice: 30"
    question = resolve(document, Question("Table fan price?", "Table Fan", "Price: 30"))
    result = grade(question, [0], [window], ChunkMap(document, [window]))
    assert result.grade == "clean"


def test_the_drill_down_marks_the_expected_products_line_not_anothers_identical_one():
    from workbench.core.model import Question
    from workbench.cut import STRATEGIES
    from workbench.output.highlight import chunk_with_answer
    from workbench.read.loaders import parse_markdown
    from workbench.read.resolve import resolve

    document = parse_markdown("# Shop\n\n## Alpha\nWarranty: 1 year.\n\n## Beta\nWarranty: 1 year.\n", "shop.md")
    resolved = resolve(document, Question("Warranty of the Beta?", "Beta", "Warranty: 1 year."))
    [whole] = STRATEGIES.get("whole")().chunk(document)  # one piece holding both identical lines
    assert chunk_with_answer(whole, "Warranty: 1 year.").count("<mark>") == 2  # every occurrence, without spans
    marked = chunk_with_answer(whole, "Warranty: 1 year.", list(resolved.answer_spans))
    assert marked.count("<mark>") == 1
    # Beta's line is the second: the mark sits after "## Beta".
    assert marked.index("## Beta") < marked.index("<mark>")


# --- a line that names its own product is no decoy and mixes nothing -------------------------------------------

LABELLED = (
    "# Fans\n\n"
    "## Table Fan\nTable Fan — Price: 30\nTable Fan — Warranty: 1 year.\n\n"
    "## Desk Fan\nPrice: 25\nWarranty: 1 year.\n"
)
LABELLED_DOC = parse_markdown(LABELLED, "fans.md")


def labelled_grade(question: Question, spans: list[tuple[int, int]], order: list[int]):
    chunks = [make_chunk(LABELLED_DOC, "test", i, [span]) for i, span in enumerate(spans)]
    return grade(resolve(LABELLED_DOC, question), order, chunks, ChunkMap(LABELLED_DOC, chunks))


def labelled_span(heading: str) -> tuple[int, int]:
    section = next(s for s in LABELLED_DOC.sections if s.heading == heading)
    return section.span[0], section.facts[-1].span[1]


def test_a_fact_names_its_section_when_its_own_text_holds_the_heading():
    from workbench.grade.grading import named_facts

    named = sorted(LABELLED_DOC.slice(span) for span in named_facts(LABELLED_DOC))
    assert named == ["Table Fan — Price: 30", "Table Fan — Warranty: 1 year."]
    # Whole words, ignoring case and typographic dashes: "fan" alone or "Table Fanfare" is no name.
    doc = parse_markdown("## Table Fan\nThe table fan is quiet.\nA Table Fanfare.\nFan: 3 blades.\n", "t.md")
    assert [doc.slice(span) for span in named_facts(doc)] == ["The table fan is quiet."]
    # A part of a product (the rewrite's "Table Fan — Speeds") may be named by the product's heading.
    doc = parse_markdown("## Table Fan\nPrice: 30\n### Table Fan — Speeds\nTable Fan — Speeds: 2.\n", "t.md")
    assert [doc.slice(span) for span in named_facts(doc)] == ["Table Fan — Speeds: 2."]


def test_the_same_words_on_a_line_naming_another_product_are_no_decoy():
    # The Table Fan's piece on top says "Warranty: 1 year." too, but on a line that says it is the Table Fan's:
    # the Desk Fan's answer is only lower down (rank 2), so the reason is "ranked", not "decoy".
    desk_warranty = Question("What is the warranty of the desk fan?", "Desk Fan", "Warranty: 1 year.")
    result = labelled_grade(desk_warranty, [labelled_span("Table Fan"), labelled_span("Desk Fan")], [0, 1])
    assert (result.grade, result.reason, result.rank) == ("missed", "ranked", 2)


def test_lines_naming_their_own_product_do_not_make_a_piece_mixed():
    desk_price = Question("How much is the desk fan?", "Desk Fan", "Price: 25")
    both = (labelled_span("Table Fan")[0], labelled_span("Desk Fan")[1])
    # The piece holds the Desk Fan's lines and both of the Table Fan's, each saying it is the Table Fan's: clean.
    assert labelled_grade(desk_price, [both], [0]).grade == "clean"
    # The other way round the Desk Fan's unnamed lines are in the Table Fan's piece: mixed, as before.
    table_price = Question("How much is the table fan?", "Table Fan", "Price: 30")
    assert labelled_grade(table_price, [both], [0]).grade == "mixed"
    from workbench.grade.grading import labelled_lines

    chunk = make_chunk(LABELLED_DOC, "test", 0, [both])
    desk = next(s.id for s in LABELLED_DOC.sections if s.heading == "Desk Fan")
    # What the drill-down names under the piece for the Desk Fan's question.
    assert labelled_lines(LABELLED_DOC, chunk, desk) == ["Table Fan — Price: 30", "Table Fan — Warranty: 1 year."]


def test_a_line_whose_label_is_its_heading_does_not_name_an_owner():
    from workbench.grade.grading import named_facts

    document = parse_markdown(
        "# Shop\n\n## Returns\nReturns: 30 days.\n\n## Kettle\nKettle returns: 14 days.\n", "s.md"
    )
    named = {document.slice(span) for span in named_facts(document)}
    # "Returns: 30 days." under Returns says what the line is about, not whose it is: it can still be a decoy.
    assert named == {"Kettle returns: 14 days."}


def test_the_lines_that_name_their_section_are_read_per_section_names_and_lines():
    """``named_facts`` remembers each section's answer by its names and lines (the to-do's copies repeat them):
    the same lines under another heading, or a line grown under the same heading, are read again."""
    from workbench.grade.grading import named_facts

    def named(text: str) -> list[str]:
        document = parse_markdown(text, "shop.md")
        return sorted(document.text[start:end] for start, end in named_facts(document))

    lines = "Table Fan — Warranty: 1 year.\nDesk Fan price: 20 EUR.\nReturns: 30 days.\n"
    assert named(f"# Table Fan\n{lines}") == ["Table Fan — Warranty: 1 year."]
    assert named(f"# Desk Fan\n{lines}") == ["Desk Fan price: 20 EUR."]
    assert named(f"# Returns\n{lines}") == []  # a label that is the heading names a topic, not an owner
    grown = lines.replace("Returns: 30 days.", "Returns: 30 days for the Table Fan.")
    assert named(f"# Table Fan\n{grown}") == ["Returns: 30 days for the Table Fan.", "Table Fan — Warranty: 1 year."]
    assert named(f"# Table Fan\n{lines}") == ["Table Fan — Warranty: 1 year."]
