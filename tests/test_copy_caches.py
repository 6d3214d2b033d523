"""The to-do's graded copies reuse what the file's reading already worked out: each cut checked against the copy
read whole, on the sample and the real files, to the same bits."""

from __future__ import annotations

import pytest

from workbench.advise import proof
from workbench.advise.advice import advise
from workbench.advise.edits import Edit, apply
from workbench.core.model import Settings
from workbench.cut import make_strategy
from workbench.grade.confidence import WordEvidence, line_words
from workbench.read.loaders import load_path, parse_markdown
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate

from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS, real_data_files


def _with_questions() -> list[tuple]:
    found = [(SAMPLE_MD, SAMPLE_QUESTIONS)]
    for path in real_data_files():
        own = ROOT / "bench" / "questions" / f"{path.stem}.questions.csv"
        if own.is_file():
            found.append((path, own))
    return found


def _evidence(evidence: WordEvidence, questions: list[str], chunks) -> list:
    """Every value a grading reads from word evidence, for each question against each piece."""
    return [(evidence.question(q), [evidence.top_coverage(q, c) for c in chunks]) for q in questions]


def test_a_copys_word_evidence_takes_the_files_values_only_for_words_it_leaves_alone():
    """Copies graded one after another against one file's evidence: each copy's IDFs and coverages are the ones its
    whole reading gives, though the file's caches hold what earlier copies found (the first copy adds "jumper",
    which the later ones do not have); a copy with a line more keeps none of them (every IDF differs)."""
    text = SAMPLE_MD.read_text(encoding="utf-8")
    document = parse_markdown(text, "shop.md")
    questions = [q.question for q in parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)]
    questions.append("Is there a warm jumper?")
    line_end = text.index("\n", 100)
    copies = [apply(document, [Edit(line_end, " jumper, pullover")]),
              apply(document, [Edit(line_end, " cosy")]),
              apply(document, [Edit(len(text), "\n## New Fan\nPrice: 9\n")]),
              apply(document, [Edit(line_end, " jumper")])]
    file = WordEvidence(document)
    cut = make_strategy("heading")
    for copy in copies:
        chunks = cut.chunk(copy)
        shared = WordEvidence(copy, like=file)
        assert _evidence(shared, questions, chunks) == _evidence(WordEvidence(copy), questions, chunks)
    # The file's caches were filled by the copies (else nothing was shared), and every value in them is the file's
    # own: "jumper" is in no line of the file or of the copies that left it alone, and in two lines of those that
    # add it.
    fresh = WordEvidence(document)
    assert len(file._covered) > 100 and len(file._idf) > 10 and "jumper" in file._idf
    assert file._idf == {word: fresh.idf(word) for word in file._idf}
    assert file._questions == {question: fresh.question(question) for question in file._questions}
    assert file._covered == {(q, text): fresh.coverage(fresh.question(q)[0], line_words(text, fresh.analyzer))
                             for q, text in file._covered}
    # The copy with a new section has another number of lines: it took nothing from the file.
    assert WordEvidence(copies[2], like=file)._like is None and WordEvidence(copies[0], like=file)._like is file


@pytest.mark.parametrize("path, questions_path", _with_questions(), ids=lambda p: getattr(p, "name", ""))
def test_the_graded_copies_grade_as_each_read_whole(path, questions_path):
    """Every copy the to-do graded (through the file's shared caches, in the order the proof tries them) graded
    again from nothing: the same grade, confidence and evidence for every question, to the bit."""
    document = load_path(path)
    questions = parse_questions(questions_path.read_bytes(), questions_path.name)
    evaluation = evaluate(document, questions, Settings(["heading", "fixed"], ["keyword", "bm25"], ["none"]))
    advise(evaluation, reader="cli")
    provers = [p for p in proof._PROVERS.values() if p.evaluation is evaluation]
    if path == SAMPLE_MD:
        assert provers and provers[0]._graded  # the sample's to-do has words to try
    for prover in provers:
        for _, copy in prover._graded.values():
            whole = evaluate(copy, prover.questions, prover.settings, analyzer=evaluation.analyzer,
                             outcome_only=True).runs[0]
            again = prover.grade(copy)
            assert [(r.grade, r.confidence, r.evidence) for r in again.per_question] \
                == [(r.grade, r.confidence, r.evidence) for r in whole.per_question]
