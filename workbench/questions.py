"""Golden questions: reading them, tying them to the document, generating them."""

from __future__ import annotations

import csv
import io
import re

from .loaders.markdown import clean_heading
from .model import BadQuestion, Document, Question, ResolvedQuestion, Section, Span, WorkbenchError
from .textio import decode_text

COLUMNS = ("question", "expected_source", "expected_answer", "kind")


def parse_questions(data: bytes, name: str) -> list[Question]:
    """Read a questions CSV with columns ``question,expected_source,expected_answer[,kind]``."""
    text, _, _ = decode_text(data, name)
    reader = csv.DictReader(io.StringIO(text))
    header = [(field or "").strip().lower() for field in reader.fieldnames or []]
    missing = [column for column in COLUMNS[:3] if column not in header]
    if missing:
        raise WorkbenchError(
            f"{name} lacks the column(s) {', '.join(missing)}; its first row must read "
            "question,expected_source,expected_answer[,kind]."
        )
    reader.fieldnames = header
    questions = []
    for number, record in enumerate(reader, start=2):
        values = {column: (record.get(column) or "").strip() for column in COLUMNS}
        if not any(values.values()):
            continue
        if not values["question"]:
            raise WorkbenchError(f"{name}, row {number}: the question is empty.")
        questions.append(Question(**values, row=number))
    if not questions:
        raise WorkbenchError(f"{name} holds no questions.")
    return questions


def questions_to_csv(questions: list[Question]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for q in questions:
        writer.writerow([q.question, q.expected_source, q.expected_answer, q.kind])
    return out.getvalue()


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", clean_heading(text)).strip().lower()


def answer_pattern(answer: str) -> re.Pattern[str]:
    """The answer, ignoring case and runs of blank space."""
    return re.compile(r"\s+".join(re.escape(word) for word in answer.split()), re.IGNORECASE)


def find_answer(document: Document, section: Section, answer: str) -> tuple[Span, ...]:
    """Every place the answer occurs in the section (a price repeated on each variant, say)."""
    pattern = answer_pattern(answer)
    return tuple((m.start(), m.end()) for m in pattern.finditer(document.text, section.span[0], section.span[1]))


def find_sources(document: Document, source: str) -> list[Section]:
    """Sections named by ``source``: exact (case-insensitive) matches, else unique prefix, else substring."""
    wanted = _norm(source)
    named = [section for section in document.sections if section.heading]
    exact = [section for section in named if _norm(section.heading) == wanted]
    if exact:
        return exact
    prefix = [section for section in named if _norm(section.heading).startswith(wanted)]
    if prefix:
        return prefix
    return [section for section in named if wanted in _norm(section.heading)]


def resolve(document: Document, question: Question) -> ResolvedQuestion | BadQuestion:
    """Find the question's section and answer span, or say plainly why it cannot be graded."""
    if not question.answerable:
        return ResolvedQuestion(question, None)
    sections = find_sources(document, question.expected_source)
    if not sections:
        return BadQuestion(question, f"no product or section is called {question.expected_source!r}")
    exact = _norm(sections[0].heading) == _norm(question.expected_source)
    if not exact and len(sections) > 1:
        names = ", ".join(repr(section.heading) for section in sections[:5])
        return BadQuestion(
            question, f"{question.expected_source!r} could mean several sections ({names}); write the full name"
        )
    if not question.expected_answer.strip():
        return ResolvedQuestion(question, sections[0].id)
    for section in sections:  # repeated headings: the one that holds the answer
        spans = find_answer(document, section, question.expected_answer)
        if spans:
            return ResolvedQuestion(question, section.id, spans)
    return BadQuestion(
        question,
        f"the answer {question.expected_answer!r} is not in {sections[0].heading!r}",
    )


def resolve_all(document: Document, questions: list[Question]) -> tuple[list[ResolvedQuestion], list[BadQuestion]]:
    good, bad = [], []
    for question in questions:
        result = resolve(document, question)
        (bad if isinstance(result, BadQuestion) else good).append(result)
    return good, bad


def generate_questions(document: Document, columns: list[str] | None = None, limit: int = 200) -> list[Question]:
    """'What is the {column} of {product}?' for each product and column; the answer is the cell."""
    if document.kind != "spreadsheet":
        raise WorkbenchError("Questions can be generated from a spreadsheet's columns only; type them for a document.")
    wanted = set(columns) if columns is not None else set(document.columns)
    questions: list[Question] = []
    for section in document.sections:
        seen: set[str] = set()
        for fact in section.facts:
            if fact.column not in wanted or fact.column in seen:
                continue
            seen.add(fact.column)
            value = document.slice(fact.span)[len(fact.column) + 2 :]
            if "\n" in value or len(value) > 80:
                continue  # long descriptions make poor expected answers
            questions.append(
                Question(
                    question=f"What is the {fact.column} of {section.heading}?",
                    expected_source=section.heading,
                    expected_answer=value,
                    kind="generated",
                )
            )
            if len(questions) >= limit:
                return questions
    return questions
