"""Tying golden questions to the document: the section a question names, and where in it its answer is.

Names and answers are compared as people type them (``fold``); an answer is matched however its quotes,
apostrophes and dashes were typed (``answer_pattern``).
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

from workbench.core.model import (
    BadQuestion,
    Document,
    Question,
    ResolvedQuestion,
    SameDocument,
    Section,
    Span,
)
from workbench.read.base_of_files import FILE_MARK, find_file, section_id, split_source
from workbench.read.markdown import clean_heading

# What a keyboard types for what a word processor or a shop system writes: curly quotes and apostrophes, primes,
# and the dashes and minus signs, each to its plain ASCII form.
TYPOGRAPHIC = {
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u00b4\u0060", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
}
_TYPOGRAPHIC_TABLE = str.maketrans(TYPOGRAPHIC)
# Each plain form, and every character that folds to it: an answer's pattern accepts any of them in the text.
_VARIANTS = {plain: "".join(sorted({plain, *(k for k, v in TYPOGRAPHIC.items() if v == plain)})) for plain in "'\"-"}


def fold(text: str) -> str:
    """Text as people type it: NFKC (full-width letters, ligatures, non-breaking spaces) and typographic quotes,
    apostrophes and dashes as their keyboard forms, so "Manager’s Desk Chair" is "Manager's Desk Chair"."""
    return unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHIC_TABLE)


@functools.lru_cache(maxsize=1 << 16)  # every heading of the file, again for each copy the to-do grades
def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", fold(clean_heading(text))).strip().lower()


# A decimal or thousands separator between digits: "6,50" as a Spanish owner reads the cell, "6.50" as the
# workbook holds it (Excel shows its numbers in the computer's locale, and the file keeps no locale).
SEPARATOR = re.compile(r"(?<=\d)[.,](?=\d)")


def _folded_pattern(word: str) -> str:
    """One word of an answer as a pattern that matches it however its quotes and dashes were typed, as written,
    decomposed (NFD) or in its NFKC form ("ﬁ" or "fi"), and a number with either separator ("6,50" or "6.50", "1.299,00" or
    "1,299.00")."""
    forms = dict.fromkeys([word.translate(_TYPOGRAPHIC_TABLE), fold(word)])
    if not word.isascii():  # and decomposed, each accent a mark after its letter, as some systems save Vietnamese
        forms.update(dict.fromkeys([unicodedata.normalize("NFD", form) for form in forms]))
    parts = [
        "[.,]".join("".join(f"[{re.escape(_VARIANTS[c])}]" if c in _VARIANTS else re.escape(c) for c in piece)
                    for piece in SEPARATOR.split(form))
        for form in forms
    ]
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


@functools.lru_cache(maxsize=4096)  # the grading asks for it under every setup a question is graded in
def answer_pattern(answer: str) -> re.Pattern[str]:
    """The answer, ignoring case, runs of blank space, and how its quotes, apostrophes and dashes were typed
    (the answer is NFKC-folded; the document's text is matched as it is, so offsets stay true)."""
    return re.compile(r"\s+".join(_folded_pattern(word) for word in answer.split()), re.IGNORECASE)


def find_answer(document: Document, section: Section, answer: str) -> tuple[Span, ...]:
    """Every place the answer occurs in the section (a price repeated on each variant, say)."""
    start, end = section.span
    return tuple((start + a, start + b) for a, b in _places(sys.intern(document.text[start:end]), answer))


# Found once per section text and answer in the process: the to-do's graded copies of a file repeat all but a few
# of its sections (each text held once: interned). The pattern has no anchor, boundary or lookaround, so it finds
# in the section's text alone what it finds between the section's offsets of the document's.
@functools.lru_cache(maxsize=1 << 13)
def _places(text: str, answer: str) -> tuple[Span, ...]:
    return tuple((m.start(), m.end()) for m in answer_pattern(answer).finditer(text))


@functools.lru_cache(maxsize=4)
def _headings(same: SameDocument) -> tuple[list[tuple[str, Section]], dict[str, list[Section]]]:
    """Every named section with its normalised heading, and the sections of each normalised heading in order,
    worked out once per document, not once per question (a catalog's questions each scanned every product)."""
    named = [(_norm(section.heading), section) for section in same.document.sections if section.heading]
    by_heading: dict[str, list[Section]] = {}
    for heading, section in named:
        by_heading.setdefault(heading, []).append(section)
    return named, by_heading


def find_sources(document: Document, source: str) -> list[Section]:
    """Sections named by ``source``: exact (case-insensitive) matches, else unique prefix, else substring."""
    wanted = _norm(source)
    named, by_heading = _headings(SameDocument(document))
    if wanted in by_heading:
        return list(by_heading[wanted])
    prefix = [section for heading, section in named if heading.startswith(wanted)]
    if prefix:
        return prefix
    return [section for heading, section in named if wanted in heading]


def subsections(document: Document, section: Section) -> list[Section]:
    """The sections under ``section``: those after it with a deeper level, up to the next of its level or above."""
    index = document.sections.index(section)
    below = []
    for other in document.sections[index + 1 :]:
        if other.level <= section.level:
            break
        below.append(other)
    return below


ALTERNATIVES = " | "  # between the names of sections that each answer a question: "Wi-Fi | Network settings"


def resolve(document: Document, question: Question) -> ResolvedQuestion | BadQuestion:
    """Find the question's section and answer span, or say plainly why it cannot be graded.

    ``expected_source`` may name alternatives ("A | B") when two sections answer the question: each must be
    found, and the answer is looked for in every one of them that holds it; a piece holding it in any of them
    holds the answer, and the others' lines do not make it mixed."""
    if not question.answerable:
        if question.expected_answer.strip():  # an answer with nowhere to find it: a slip, not a refusal
            return BadQuestion(
                question, "it has an answer but no product or section; name where the answer is, or clear the answer"
            )
        return ResolvedQuestion(question, None)
    if document.files:  # a knowledge base: first the file, then the section in it
        return _resolve_in_base(document, question)
    names = [name.strip() for name in question.expected_source.split(ALTERNATIVES) if name.strip()]
    whole = _norm(question.expected_source)
    if len(names) <= 1 or whole in _headings(SameDocument(document))[1]:  # "A | B" is a name
        return _resolve_one(document, question, question.expected_source)
    found: list[ResolvedQuestion] = []
    for name in names:
        result = _resolve_one(document, question, name)
        if isinstance(result, BadQuestion):
            if not question.expected_answer.strip() or "is not in" not in result.reason:
                return result  # a name that matches no section, or several: say so
            continue
        found.append(result)
    if not found:
        return BadQuestion(
            question, f"the answer {question.expected_answer!r} is in none of {', '.join(map(repr, names))}"
        )
    ids = list(dict.fromkeys(r.section_id for r in found))
    spans = tuple(sorted({span for r in found for span in r.answer_spans}))
    return ResolvedQuestion(question, ids[0], spans, tuple(ids[1:]))


def _resolve_one(document: Document, question: Question, source: str) -> ResolvedQuestion | BadQuestion:
    sections = find_sources(document, source)
    if not sections:
        return BadQuestion(question, f"no product or section is called {source!r}")
    exact = _norm(sections[0].heading) == _norm(source)
    if not exact and len(sections) > 1:
        names = ", ".join(repr(section.heading) for section in sections[:5])
        return BadQuestion(question, f"{source!r} could mean several sections ({names}); write the full name")
    if not question.expected_answer.strip():
        return ResolvedQuestion(question, sections[0].id)
    for section in sections:  # repeated headings: the one that holds the answer
        spans = find_answer(document, section, question.expected_answer)
        if spans:
            return ResolvedQuestion(question, section.id, spans)
    for section in sections:  # a product split into parts under its own subheadings (a rewrite, say)
        for part in subsections(document, section):
            spans = find_answer(document, part, question.expected_answer)
            if spans:
                return ResolvedQuestion(question, part.id, spans)
    return BadQuestion(
        question,
        f"the answer {question.expected_answer!r} is not in {sections[0].heading!r}",
    )


def _resolve_in_base(document: Document, question: Question) -> ResolvedQuestion | BadQuestion:
    """An answerable question tied to one file of the base, then to its section as in that file alone."""
    named = split_source(question.expected_source)
    if named is not None:
        part = find_file(document, named[0])
        if part is None:
            files = ", ".join(p.name for p in document.files[:10])  # a base of 300 files: the first ten, then a count
            files += f" and {len(document.files) - 10:,} more" if len(document.files) > 10 else ""
            return BadQuestion(question, f"no file of the knowledge base is called {named[0]!r} (the files: {files})")
        source = named[1]
    else:
        source = question.expected_source
        found = [(p, find_sources(p.document, source)) for p in document.files]
        found = [(p, sections) for p, sections in found if sections]
        if not found:
            return BadQuestion(question, f"no product or section of any file is called {source!r}")
        exact = [(p, s) for p, s in found if any(_norm(x.heading) == _norm(source) for x in s)]
        candidates = exact or found
        if len(candidates) > 1:
            names = ", ".join(
                f"{p.name} {FILE_MARK} {s.heading}"
                for p, sections in candidates
                for s in sections
                if not exact or _norm(s.heading) == _norm(source)
            )
            return BadQuestion(
                question,
                f"{source!r} is in several files ({names}); write it as file {FILE_MARK} section",
            )
        part = candidates[0][0]
    own = Question(question.question, source, question.expected_answer, question.kind, question.row, question.generated)
    result = resolve(part.document, own)
    if isinstance(result, BadQuestion):
        return BadQuestion(question, f"{part.name}: {result.reason}")
    at = part.start
    return ResolvedQuestion(
        question,
        None if result.section_id is None else section_id(part.number, result.section_id),
        tuple((start + at, end + at) for start, end in result.answer_spans),
    )


def resolve_all(document: Document, questions: list[Question]) -> tuple[list[ResolvedQuestion], list[BadQuestion]]:
    good, bad = [], []
    for question in questions:
        result = resolve(document, question)
        (bad if isinstance(result, BadQuestion) else good).append(result)
    return good, bad
