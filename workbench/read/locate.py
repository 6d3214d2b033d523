"""Where a question's answer sits, said in plain words while the user types it.

"found in Aurora Ceiling Fan, line 6" or "not found there — did you mean …", and the short
check the questions table shows per row (a row with an answer but no source is a warning).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from workbench.core.model import BadQuestion, Document, Question, Section
from workbench.read.base_of_files import FILE_MARK, find_file, section_id, split_source
from workbench.read.resolve import answer_pattern, find_answer, find_sources, resolve


@dataclass(frozen=True)
class Check:
    ok: bool
    short: str  # fits the table's Check column
    detail: str  # the whole sentence, shown under the table and beside the form


def where(document: Document, section: Section, start: int) -> str:
    """'line 6' in a Markdown file; 'row 4, column Price' in a spreadsheet (as the user sees their file); in a
    knowledge base the file first and its own line ('policies.md line 4')."""
    found = document.file_at(start) if document.files else None
    file = f"{found[0].name} " if found else ""
    for fact in section.facts:
        if fact.span[0] <= start < fact.span[1] and fact.row is not None:
            return f"{file}row {fact.row}" + (f", column {fact.column}" if fact.column else "")
    if found:
        return f"{file}line {found[0].document.text.count(chr(10), 0, found[1]) + 1}"
    return f"line {document.text.count(chr(10), 0, start) + 1}"


def sections_named(document: Document, source: str) -> list[Section]:
    """The sections ``source`` names (``find_sources``); in a knowledge base, "file › section" in that file, and a
    bare name in every file."""
    if not document.files:
        return find_sources(document, source)
    named = split_source(source)
    parts = [find_file(document, named[0])] if named else list(document.files)
    wanted = named[1] if named else source
    return [document.section(section_id(part.number, own.id)) for part in parts if part is not None
            for own in find_sources(part.document, wanted)]


def source_names(document: Document) -> list[str]:
    """The names a question's source can take, for a chooser: each heading once; in a knowledge base a heading
    found in several files is written "file › heading" for each."""
    if not document.files:
        return list(dict.fromkeys(s.heading for s in document.sections if s.heading))
    files_of: dict[str, set[int]] = {}
    for part in document.files:
        for own in part.document.sections:
            if own.heading:
                files_of.setdefault(own.heading.lower(), set()).add(part.number)
    names = []
    for part in document.files:
        for own in part.document.sections:
            if own.heading:
                shared = len(files_of[own.heading.lower()]) > 1
                names.append(f"{part.name} {FILE_MARK} {own.heading}" if shared else own.heading)
    return list(dict.fromkeys(names))


def lines_of(document: Document, section: Section) -> list[str]:
    """The section's lines the user can pick an answer from."""
    return list(dict.fromkeys(document.slice(fact.span).strip() for fact in section.facts if document.slice(fact.span).strip()))


def _found_elsewhere(document: Document, answer: str, skip: set[str]) -> str | None:
    pattern = answer_pattern(answer)
    for section in document.sections:
        if not section.heading or section.id in skip:
            continue
        match = pattern.search(document.text, section.span[0], section.span[1])
        if match:
            return f"{section.heading}, {where(document, section, match.start())}"
    return None


def locate(document: Document, source: str, answer: str) -> Check:
    """Check one answer against one product or section, suggesting where it is when it is not there."""
    source, answer = source.strip(), answer.strip()
    if not source:
        if not answer:
            return Check(True, "✓ should refuse", "No product: the file cannot answer it, so the bot should refuse.")
        elsewhere = _found_elsewhere(document, answer, set()) if answer.split() else None
        hint = f" It is in {elsewhere}." if elsewhere else ""
        return Check(False, "⚠ answer but no product",
                     f"An answer but no product or section: pick where the answer is, or clear the answer if the "
                     f"file cannot answer it.{hint}")
    sections = sections_named(document, source)
    if not sections:
        return Check(False, "⚠ no such product", f"No product or section is called “{source}”.")
    if not answer:
        return Check(True, "✓ ready", f"No answer given: any piece from {sections[0].heading} counts.")
    for section in sections:
        spans = find_answer(document, section, answer) if answer.split() else ()
        if spans:
            return Check(True, "✓ ready", f"Found in {section.heading}, {where(document, section, spans[0][0])}.")
    elsewhere = _found_elsewhere(document, answer, {section.id for section in sections}) if answer.split() else None
    if elsewhere:
        return Check(False, "⚠ answer is elsewhere",
                     f"“{answer}” is not in {sections[0].heading}; it is in {elsewhere}.")
    close = difflib.get_close_matches(answer, lines_of(document, sections[0]), n=1, cutoff=0.5)
    hint = f" — did you mean “{close[0]}”?" if close else "."
    return Check(False, "⚠ answer not found", f"“{answer}” is not found in {sections[0].heading}{hint}")


def check_question(document: Document, question: Question) -> Check:
    """The table's check for one row: the grader's own verdict (``resolve``), explained by ``locate``."""
    if not question.question.strip():
        return Check(False, "no question yet", "This row has no question yet.")
    result = resolve(document, question)
    if isinstance(result, BadQuestion):
        located = locate(document, question.expected_source, question.expected_answer)
        if located.ok:  # e.g. a source name that fits several sections: the grader's reason says it best
            return Check(False, "⚠ " + result.reason[:40], result.reason[0].upper() + result.reason[1:] + ".")
        return located
    located = locate(document, question.expected_source, question.expected_answer)
    if located.ok or result.section_id is None:
        return located
    # The grader found it where ``locate`` looks for one name: "A | B", sections that each answer it. The table said
    # "No product or section is called “A | B”" and "left out of the results", for a row the results graded.
    section = document.section(result.section_id)
    if not result.answer_spans:
        return Check(True, "✓ ready", f"No answer given: any piece from {section.heading} counts.")
    return Check(True, "✓ ready", f"Found in {section.heading}, {where(document, section, result.answer_spans[0][0])}.")
