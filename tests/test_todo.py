"""To-do edits that never make things worse: one rule, one tiny file each (each failed before its rule)."""

from __future__ import annotations

from workbench.audit import audit
from workbench.evaluate import evaluate
from workbench.loaders import load_bytes, parse_markdown
from workbench.model import Question, Settings
from workbench.todo import missing_words, todo_list


def todo(document, questions, strategy="heading", retriever="keyword", encoder=None, **settings):
    evaluation = evaluate(document, questions, Settings([strategy], [retriever], ["none"], **settings),
                          encoder_factory=(lambda: encoder) if encoder else None)
    return evaluation, todo_list(evaluation, evaluation.runs[0], audit(document, questions=questions))


VACUUMS = "# Vacuums\n\n## Robot Vacuum\nWarranty: 1 year.\n\n## Robot Vacuum Pro\nWarranty: 2 years.\nMop: yes.\n"


def test_never_suggest_a_word_that_names_another_product():
    document = parse_markdown(VACUUMS, "vacuums.md")
    question = Question("What warranty does the regular Robot Vacuum have, not the pro?", "Robot Vacuum",
                        "Warranty: 1 year.", row=2)
    evaluation, items = todo(document, [question])
    assert evaluation.runs[0].per_question[0].grade == "missed"  # "pro" puts the Pro's section on top
    words = [i.edit for i in items if i.kind == "words"]
    # Before: "Add the words “regular”, “pro” to Robot Vacuum's “Warranty” line": more like the Pro, not less.
    assert words == ["Add the word “regular” to Robot Vacuum's “Warranty” line, or a synonym line."]
    assert missing_words("Is the pro quieter?", "Warranty: 1 year.", "Robot Vacuum", ["Robot Vacuum Pro"]) == [
        "quieter"]


def test_missing_words_use_a_real_stemmer_and_drop_framing_and_filler_words():
    question = "How long does returning take, and what is the likely cause if I try again?"
    # Before: ["long", "returning", "likely", "cause", "try"]: filler, and "returning" is there as "Returned".
    assert missing_words(question, "Returned items: refunded within 5 days.", "Returns") == []
    # Snowball (Porter2): "batteries" is "battery"; plain -s stripping left "batteri" unmatched.
    assert missing_words("Are batteries included with the clock?", "Battery: included, AA.", "Wall Clock") == []
    # Still a different word: a word search for "colours" misses a line that says "colors".
    assert missing_words("What colours does it come in?", "colors: red", "Saree") == ["colours"]
