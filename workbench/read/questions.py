"""Golden questions: reading them, tying them to the document, generating them."""

from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata

from workbench.core import limits
from workbench.core.exports import csv_text, unescape_cell
from workbench.core.model import (
    BadQuestion,
    Document,
    Question,
    ResolvedQuestion,
    SameDocument,
    Section,
    Span,
    WorkbenchError,
)
from workbench.read.base_of_files import FILE_MARK, find_file, section_id, split_source
from workbench.read.markdown import clean_heading
from workbench.read.textio import decode_text

COLUMNS = ("question", "expected_source", "expected_answer", "kind")
# Optional: "yes" on a question the app generated that its owner has not yet edited or accepted.
GENERATED = "generated"
# Optional: the file of a knowledge base the answer is in (else written "file › section" in expected_source).
SOURCE_FILE = "source_file"

# A question's number everywhere (app table, command line, report, downloads, to-do) is its row in the
# questions file as a spreadsheet shows it: the header is row 1, so the first question is row 2.
FIRST_ROW = 2
YES = re.compile(r"^(yes|y|true|1)$", re.IGNORECASE)


def parse_questions(data: bytes, name: str, rejected: list[tuple[int, str]] | None = None) -> list[Question]:
    """Read a questions CSV with columns ``question,expected_source,expected_answer[,kind][,generated]``.

    ``generated`` (yes, or empty) marks a question the app wrote that its owner has not checked yet.

    With a ``rejected`` list, a row that cannot be taken is noted there (row, reason) instead of
    stopping the whole file.
    """
    text, _, _ = decode_text(data, name)
    limits.allow_long_cells()  # a long cell is named below, with its row, not by the csv module's own limit
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [(field or "").strip().lower() for field in reader.fieldnames or []]
    except csv.Error as error:
        raise WorkbenchError(f"{name}, line 1: not readable as CSV ({error}).") from None
    missing = [column for column in COLUMNS[:3] if column not in header]
    if missing:
        raise WorkbenchError(
            f"{name} lacks the column(s) {', '.join(missing)}; its first row must read "
            "question,expected_source,expected_answer[,kind]."
        )
    reader.fieldnames = header
    questions = []
    records = iter(reader)
    number = 1
    while True:
        try:
            record = next(records)
        except StopIteration:
            break
        except csv.Error as error:  # a cell past the csv module's size limit, a stray NUL…
            raise WorkbenchError(f"{name}, line {reader.line_num + 1}: not readable as CSV ({error}).") from None
        number += 1
        if number - 1 > limits.MAX_QUESTIONS:  # each question is graded under every setup: bound the work first
            raise WorkbenchError(
                f"{name} has more than {limits.MAX_QUESTIONS:,} questions; the workbench reads "
                f"{limits.questions_sentence()}. Keep a sample of them in another file."
            )
        longest = max((len(value) for value in record.values() if isinstance(value, str)), default=0)
        if longest > limits.MAX_QUESTION_CELL:
            raise WorkbenchError(
                f"{name}, row {number}: a cell holds {longest:,} characters; the workbench reads "
                f"{limits.questions_sentence()}."
            )
        # Our own export escapes a formula-like cell with an apostrophe; read back, it is the text typed.
        values = {column: unescape_cell((record.get(column) or "").strip()) for column in COLUMNS}
        if not any(values.values()):
            continue
        if not values["question"]:
            if rejected is None:
                raise WorkbenchError(f"{name}, row {number}: the question is empty.")
            rejected.append((number, "the question is empty"))
            continue
        generated = bool(YES.match((record.get(GENERATED) or "").strip()))
        source_file = unescape_cell((record.get(SOURCE_FILE) or "").strip())
        if source_file and values["expected_source"]:  # a knowledge base's file, written as the source's first step
            values["expected_source"] = f"{source_file} › {values['expected_source']}"
        questions.append(Question(**values, row=number, generated=generated))
    if not questions and rejected is None:
        raise WorkbenchError(f"{name} holds no questions.")
    return questions


def questions_to_csv(questions: list[Question]) -> str:
    """The questions as CSV that a spreadsheet opens safely and ``parse_questions`` reads back unchanged.

    The ``generated`` column is written only when some question is still the app's own, so a set the
    owner wrote reads as it always did."""
    rows = [[q.question, q.expected_source, q.expected_answer, q.kind] for q in questions]
    if not any(q.generated for q in questions):
        return csv_text([COLUMNS, *rows])
    return csv_text([(*COLUMNS, GENERATED), *(row + ["yes" if q.generated else ""] for row, q in zip(rows, questions))])


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


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", fold(clean_heading(text))).strip().lower()


def _folded_pattern(word: str) -> str:
    """One word of an answer as a pattern that matches it however its quotes and dashes were typed, as written
    or in its NFKC form ("ﬁ" or "fi")."""
    forms = dict.fromkeys([word.translate(_TYPOGRAPHIC_TABLE), fold(word)])
    parts = [
        "".join(f"[{re.escape(_VARIANTS[c])}]" if c in _VARIANTS else re.escape(c) for c in form) for form in forms
    ]
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


@functools.lru_cache(maxsize=4096)  # the grading asks for it under every setup a question is graded in
def answer_pattern(answer: str) -> re.Pattern[str]:
    """The answer, ignoring case, runs of blank space, and how its quotes, apostrophes and dashes were typed
    (the answer is NFKC-folded; the document's text is matched as it is, so offsets stay true)."""
    return re.compile(r"\s+".join(_folded_pattern(word) for word in answer.split()), re.IGNORECASE)


def find_answer(document: Document, section: Section, answer: str) -> tuple[Span, ...]:
    """Every place the answer occurs in the section (a price repeated on each variant, say)."""
    pattern = answer_pattern(answer)
    return tuple((m.start(), m.end()) for m in pattern.finditer(document.text, section.span[0], section.span[1]))


@functools.lru_cache(maxsize=4)
def _headings(same: SameDocument) -> list[tuple[str, Section]]:
    """Every named section with its normalised heading, worked out once per document, not once per question."""
    return [(_norm(section.heading), section) for section in same.document.sections if section.heading]


def find_sources(document: Document, source: str) -> list[Section]:
    """Sections named by ``source``: exact (case-insensitive) matches, else unique prefix, else substring."""
    wanted = _norm(source)
    named = _headings(SameDocument(document))
    exact = [section for heading, section in named if heading == wanted]
    if exact:
        return exact
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
    if len(names) <= 1 or any(heading == whole for heading, _ in _headings(SameDocument(document))):  # "A | B" is a name
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
            files = ", ".join(p.name for p in document.files)
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


# Column kinds a customer asks about, the words that name them, and how a customer would ask.
ASKED = (
    ("price", r"price|cost|mrp|amount", "How much is the {product}?"),
    ("colour", r"colou?rs?", "What colours does the {product} come in?"),
    ("size", r"sizes?", "What sizes does the {product} come in?"),
    ("material", r"materials?|fabrics?", "What is the {product} made of?"),
    ("stock", r"stock|inventory|qty|quantity|availability", "Is the {product} in stock?"),
    ("warranty", r"warranty|guarantee", "What warranty does the {product} have?"),
    ("returns", r"returns?|refunds?|exchanges?", "Can I return the {product}?"),
    ("care", r"care|washing|cleaning", "How do I look after the {product}?"),
    ("weight", r"weight", "How much does the {product} weigh?"),
    ("dimensions", r"dimensions?|size_?cm", "What are the dimensions of the {product}?"),
    ("width", r"width|wide", "How wide is the {product}?"),
    ("height", r"height|tall", "How tall is the {product}?"),
    ("depth", r"depth|deep", "How deep is the {product}?"),
    ("length", r"length|long", "How long is the {product}?"),
    ("delivery", r"shipping|delivery|dispatch", "How long does delivery of the {product} take?"),
)
# Columns no customer asks about: identifiers, links, pictures, codes, search-engine text.
SKIPPED = re.compile(
    r"^(id|ids|url|urls|link|links|slug|handle|image|images|img|src|photo|picture|thumbnail|sku|skus|barcode|ean|upc|"
    r"gtin|mpn|meta|seo|code|uuid|guid|position|status|published|tags?|vendor|template|currency|unit|name|tax|"
    r"backorderable|track|tracking|visible|visibility|discontinue|available|assets?|facets?|attribute|options?|new|sale|"
    r"featured|recommends|file|path|filename)$"
)
# Values a shop system writes when nobody filled the cell in: no customer's answer.
YES_NO = re.compile(r"^(1|yes|no|y|n)$", re.IGNORECASE)  # a flag, not a fact a customer asks for
UNFILLED = re.compile(r"^(0+([.,]0+)?|-+|n/?a|none|null|nil|tbd|false|true)$", re.IGNORECASE)
FAQ_QUESTION_COLUMN = re.compile(r"faq.*question|question.*\d|^q\d+$", re.IGNORECASE)
FAQ_ANSWER_COLUMN = re.compile(r"faq.*answer|answer.*\d|^a\d+$", re.IGNORECASE)
COUNT = re.compile(r"^\d[\d,. ]*$")  # a number of items, as a stock column holds
SPELLING = {"color": "colour", "colors": "colours", "gray": "grey"}
# A returns column asks about its own word: "Can I return …?" does not test a column of exchange terms.
RETURNS_ASKED = (
    ("exchange", "Can I exchange the {product}?"),
    ("refund", "Can I get a refund on the {product}?"),
    ("return", "Can I return the {product}?"),
)


def column_words(column: str) -> list[str]:
    """A column's name as words: "custom_field.custom.noise_level" -> ["noise", "level"]."""
    last = re.split(r"[.>/]", column.strip())[-1] or column
    return [w for w in re.split(r"[^a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", last).lower()) if w]


def humanize(column: str) -> str:
    """A column's name as a customer would say it: "noise_level" -> "noise level", "colors" -> "colours"."""
    return " ".join(SPELLING.get(word, word) for word in column_words(column))


def column_kind(column: str) -> str | None:
    """The kind of question a column answers ("price", "colour", …), "faq", "other", or None to skip it."""
    if FAQ_QUESTION_COLUMN.search(column):
        return "faq"
    words = column_words(column)
    if not words or any(SKIPPED.match(word) for word in words) or FAQ_ANSWER_COLUMN.search(column):
        return None
    for kind, pattern, _ in ASKED:
        if any(re.fullmatch(pattern, word) for word in words):
            return kind
    return "other"


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _short(value: str, limit: int = 80) -> str:
    """The start of a long cell, cut at a word, still found word for word in the text."""
    if len(value) <= limit:
        return value
    return value[:limit].rsplit(" ", 1)[0]


def generate_questions(document: Document, columns: list[str] | None = None, limit: int = 50) -> list[Question]:
    """Questions a customer would ask, from a spreadsheet's columns; the answer is the cell.

    At most one question per product per kind of column (price, colour, warranty, …), phrased for
    that kind; identifier, link, image, SKU and handle columns are skipped; an FAQ column gives its
    own question with its answer, with the product's name in front when the question does not name it; a
    returns, refund or exchange column asks about its own word. Every question is marked ``generated``
    until its owner edits or accepts it. Products take turns, each starting at a different kind, so a
    capped list (``limit``, 50 by default) still covers many products and kinds.
    """
    if document.files:  # a knowledge base: every spreadsheet in it, each question naming its file
        tables = [part for part in document.files if part.document.kind == "spreadsheet"]
        if not tables:
            raise WorkbenchError("Questions can be generated from a spreadsheet's columns only, and this knowledge "
                                 "base has none; type them.")
        found = []
        for part in tables:
            for question in generate_questions(part.document, columns, limit):
                question.expected_source = f"{part.name} {FILE_MARK} {question.expected_source}"
                found.append(question)
        return found[:limit]
    if document.kind != "spreadsheet":
        raise WorkbenchError("Questions can be generated from a spreadsheet's columns only; type them for a document.")
    if limit < 1:
        raise WorkbenchError(f"the number of questions to generate must be 1 or more, not {limit}")
    wanted = set(columns) if columns is not None else set(document.columns)
    templates = {kind: template for kind, _, template in ASKED}
    per_product: list[list[Question]] = []
    for section in document.sections:
        if not section.heading:
            continue
        found: list[Question] = []
        kinds: set[str] = set()
        facts = list(section.facts)
        for index, fact in enumerate(facts):
            if fact.column not in wanted:
                continue
            kind = column_kind(fact.column)
            if kind is None or (kind != "faq" and kind in kinds):
                continue
            value = document.slice(fact.span)[len(fact.column) + 2 :].strip()
            if not value or "\n" in value or UNFILLED.match(value):
                continue
            if kind == "faq":
                answer = next((f for f in facts[index + 1 :] if FAQ_ANSWER_COLUMN.search(f.column or "")), None)
                if answer is None:
                    continue
                text = document.slice(answer.span)[len(answer.column) + 2 :].strip()
                question, expected = value, _short(text)
                if _fold(section.heading) not in _fold(question):  # "Is it quiet?" must say which product
                    question = f"{section.heading}: {question}"
            elif kind == "other":
                if len(value) > 80 or YES_NO.match(value):
                    continue  # long descriptions make poor expected answers
                kind = fact.column
                question, expected = f"What is the {humanize(fact.column)} of the {section.heading}?", value
            else:
                if len(value) > 80:
                    continue
                template = templates[kind]
                if kind == "returns":
                    words = column_words(fact.column)
                    template = next(t for stem, t in RETURNS_ASKED if any(w.startswith(stem) for w in words))
                if kind == "stock" and COUNT.match(value):  # "5000" answers "how many", not "is it in stock?"
                    template = "How many of the {product} are in stock?"
                question, expected = template.format(product=section.heading), value
            kinds.add(kind)
            found.append(Question(question, section.heading, expected, "generated", generated=True))
        if found:
            per_product.append(found)
    # Round robin over products, each starting at a different kind, until the cap.
    questions: list[Question] = []
    turn = 0
    while len(questions) < limit and any(per_product):
        for number, found in enumerate(per_product):
            if found and len(questions) < limit:
                questions.append(found.pop((number + turn) % len(found) if turn == 0 else 0))
        turn += 1
    return questions
