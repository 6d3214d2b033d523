"""What a knowledge base of several files shows that no file shows alone.

- ``file_lines``: the base's verdict with a line per file (its questions, how many clean, how many lost to
  another file's piece).
- ``other_file_answers``: each question whose top piece came from another file, saying which file and why.
- ``cross_findings``: the check-up across files: the same label stated differently in two files (a conflict),
  a line shared word for word by two files, a spreadsheet's product named in another file.
- ``cross_todo``: those findings as to-do items, with the questions they touch.

See docs/DESIGN.md, "A knowledge base of several files".
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from workbench.advise.todo_items import Todo
from workbench.core.model import Chunk, Document, Fact, FilePart, Span
from workbench.core.quoting import shown
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.core.wording import plural
from workbench.grade.grading import REASON_WORDS
from workbench.grade.places import Places, join_places, row_runs

LABELLED = re.compile(r"^[\s>*+\-•]*\**([A-Za-z][\w /&'()-]{0,40}?)\**\s*:\s*(.+)$")
MIN_SHARED_WORDS = 3  # "Yes." or "Price: 45" shared by two files says nothing worth an edit
MIN_NAME = 4  # a product's name shorter than this ("Pro") is found everywhere
SHOWN_VALUES = 3
GROUPED = 3  # more lines than this shared by the same files are one finding


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower().rstrip(".")


def _file_of(document: Document, offset: int) -> FilePart:
    found = document.file_at(offset)
    assert found is not None, "only a knowledge base has files"
    return found[0]


def question_file(document: Document, section_id: str | None) -> FilePart | None:
    """The file a resolved question's answer is in (None for an unanswerable question)."""
    if section_id is None:
        return None
    return _file_of(document, document.section(section_id).span[0])


def _top(evaluation: Evaluation, run: Run, result: QuestionResult) -> Chunk | None:
    chunks = evaluation.chunks[run.strategy]
    return chunks[result.ranking[0][0]] if result.ranking else None


def file_lines(evaluation: Evaluation, run: Run) -> list[str]:
    """One line per file under ``run``: its answerable questions, how many clean, and what other files took."""
    document = evaluation.document
    sources = {id(q.question): q.section_id for q in evaluation.questions}
    lines = []
    for part in document.files:
        mine = [r for r in run.per_question if r.answerable
                and (f := question_file(document, sources.get(id(r.question)))) is not None and f.number == part.number]
        clean = sum(r.grade == "clean" for r in mine)
        lost: dict[str, int] = defaultdict(int)
        for result in mine:
            top = _top(evaluation, run, result)
            if result.grade != "clean" and top is not None and _file_of(document, top.start).number != part.number:
                lost[_file_of(document, top.start).name] += 1
        if not mine:
            lines.append(f"{part.name}: no question answered from it yet.")
            continue
        # A share, not a status: a status also rests on the questions no file answers and on who wrote them, which
        # belong to the base ("Ready on its own questions" beside a file with no such question broke the rule).
        line = f"{part.name}: {clean} of {len(mine)} question{'s' if len(mine) > 1 else ''} clean ({clean / len(mine):.0%})"
        if lost:
            line += "; the top piece came from another file for " + ", ".join(
                f"{n} ({name})" for name, n in lost.items())
        lines.append(line + ".")
    return lines


def other_file_answers(evaluation: Evaluation, run: Run) -> list[str]:
    """Each answerable question whose top piece is from another file than its answer's, with the reason."""
    document = evaluation.document
    places = Places(document)
    sources = {id(q.question): q.section_id for q in evaluation.questions}
    lines = []
    for result in run.per_question:
        own = question_file(document, sources.get(id(result.question)))
        top = _top(evaluation, run, result)
        if own is None or top is None:
            continue
        other = _file_of(document, top.start)
        if other.number == own.number:
            continue
        why = (f"a decoy from {other.name}: its piece holds the same words" if result.answered_reason == "decoy"
               else REASON_WORDS.get(result.answered_reason, result.answered_grade))
        lines.append(f"row {result.question.row}: “{result.question.question}” has its answer in {own.name}, but the top "
                     f"piece is from {places.of(top.spans[0])} — {why}.")
    return lines


@dataclass
class CrossFinding:
    kind: str  # "conflict" | "shared" | "named"
    text: str  # one sentence naming both files and their places
    edit: str
    spans: list[Span] = field(default_factory=list)  # the places in the base, for the to-do's places
    sections: set[str] = field(default_factory=set)  # the base's section ids involved


def _labelled(document: Document, fact: Fact) -> tuple[str, str] | None:
    if fact.column:
        value = document.slice(fact.span)[len(fact.column) + 2:]
        return fact.column, value
    match = LABELLED.match(document.slice(fact.span))
    return (match.group(1).strip(), match.group(2).strip()) if match else None


def cross_findings(document: Document) -> list[CrossFinding]:
    """Conflicts, lines shared word for word, and products named in another file, across the base's files."""
    if not document.files:
        return []
    places = Places(document)
    by_label: dict[str, dict[int, dict[str, list[Fact]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    by_line: dict[str, dict[int, list[Fact]]] = defaultdict(lambda: defaultdict(list))
    labels: dict[str, str] = {}
    for fact in document.facts:
        part = _file_of(document, fact.span[0])
        line = document.slice(fact.span)
        if len(line.split()) >= MIN_SHARED_WORDS:
            by_line[_fold(line.lstrip(">*+-• "))][part.number].append(fact)
        found = _labelled(document, fact)
        if found:
            key = _fold(found[0])
            labels.setdefault(key, found[0])
            by_label[key][part.number][_fold(found[1])].append(fact)
    names = {part.number: part.name for part in document.files}
    findings: list[CrossFinding] = []
    for key, files in by_label.items():
        if len(files) < 2:
            continue
        numbers = sorted(files)
        for a in numbers:  # a file stating the label once, with one value: a rule the others may contradict
            if len(files[a]) != 1:
                continue
            (value, stated), = files[a].items()
            for b in numbers:
                if b == a or (len(files[b]) == 1 and b < a):  # two one-value files: one finding, not two
                    continue
                differ = {v: facts for v, facts in files[b].items() if v != value}
                if not differ:
                    continue
                first = stated[0]
                others = sorted(differ.items(), key=lambda item: -len(item[1]))
                said = "; ".join(_on(document, places, facts) for _, facts in others[:SHOWN_VALUES])
                if len(others) > SHOWN_VALUES:
                    said += f"; and {len(others) - SHOWN_VALUES} more values"
                text = (f"“{shown(document.slice(first.span))}” in {places.of(first.span)} vs {said} in {names[b]}")
                spans = [first.span] + [f.span for _, facts in others for f in facts]
                findings.append(CrossFinding(
                    "conflict", text,
                    f"Make {names[a]} and {names[b]} agree on {labels[key]}: say in {names[a]} which products "
                    f"it does not cover, or change the line that is wrong.",
                    spans, {f.section_id for f in stated} | {f.section_id for _, facts in others for f in facts},
                ))
    by_pair: dict[tuple[int, ...], list[list[Fact]]] = defaultdict(list)
    for _line, files in by_line.items():
        if len(files) >= 2:
            by_pair[tuple(sorted(files))].append([facts[0] for _, facts in sorted(files.items())])
    for numbers, lines in by_pair.items():
        if len(lines) > GROUPED:  # a page copied into another: one finding, not one per line
            first = lines[0]
            where = " and ".join(names[n] for n in numbers)
            findings.append(CrossFinding(
                "shared", f"{len(lines)} lines are word for word in {where}, the first “"
                f"{shown(document.slice(first[0].span))}” ({' and '.join(places.of(f.span) for f in first)})",
                "Keep these lines in one file, or say in each what they are about: the search cannot tell the "
                "copies apart.",
                [f.span for facts in lines for f in facts], {f.section_id for facts in lines for f in facts},
            ))
            continue
        for facts in lines:
            where = " and ".join(places.of(f.span) for f in facts)
            findings.append(CrossFinding(
                "shared", f"“{shown(document.slice(facts[0].span))}” is word for word in {where}",
                "Keep this line in one file, or say in each what it is about: the search cannot tell the copies apart.",
                [f.span for f in facts], {f.section_id for f in facts},
            ))
    findings += _named_elsewhere(document, places)
    return findings


def _on(document: Document, places: Places, facts: list[Fact]) -> str:
    """ "“Returns: 7 days, unopened.” on 2 products (rows 3 and 4)", or "… (line 5)" in a Markdown file."""
    quote = f"“{shown(document.slice(facts[0].span))}”"
    products = {f.section_id for f in facts}
    rows = [f.row for f in facts if f.row]
    where = row_runs(rows) if rows else join_places([places.of(f.span).split(" ", 1)[1] for f in facts])
    if rows:
        return f"{quote} on {len(products)} product{'s' if len(products) > 1 else ''} ({where})"
    return f"{quote} ({where})"


def _named_elsewhere(document: Document, places: Places) -> list[CrossFinding]:
    """A spreadsheet's product named in another file: a question about it may get that file's text."""
    findings = []
    for part in document.files:
        if not part.document.form.table:
            continue
        products = {}
        for section in document.sections:
            if section.level >= part.document.form.part_level and section.facts and len(section.heading) >= MIN_NAME \
                    and _file_of(document, section.span[0]).number == part.number:
                products.setdefault(section.heading.lower(), section)
        if not products:
            continue
        # One pattern for every product, longest first, so a catalog of thousands is one scan of each other file.
        pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in sorted(products, key=len, reverse=True))
                             + r")(?!\w)", re.IGNORECASE)
        for other in document.files:
            if other.number == part.number:
                continue
            seen: dict[str, list[Span]] = {}
            for match in pattern.finditer(document.text, other.start, other.end):
                seen.setdefault(match.group(1).lower(), []).append((match.start(), match.end()))
            for name, spans in seen.items():
                section = products[name]
                own = [f.span for f in section.facts]
                findings.append(CrossFinding(
                    "named",
                    f"{section.heading} is named in {places.of(spans[0])}"
                    + (f" and {plural(len(spans) - 1, 'more place')}" if len(spans) > 1 else "")
                    + f"; its facts are in {part.name} {row_runs([f.row for f in section.facts if f.row])}",
                    f"Check that what {other.name} says of {section.heading} agrees with its row in {part.name}; "
                    f"a question about it may be answered from {other.name}.",
                    spans + own[:1], {section.id} | {s.id for s in document.sections
                                                     if s.span[0] <= spans[0][0] < s.span[1]},
                ))
    return findings


def cross_todo(evaluation: Evaluation, run: Run) -> list[Todo]:
    """The cross-file findings as to-do items, with the questions they touch and, of those, the ones not clean
    under ``run``; most not clean first. A conflict or shared line touches a question whose answer lies on one of
    its lines, or whose top piece holds one of them from another file than the answer's; a product named
    elsewhere touches the questions about that product and those answered where it is named."""
    document = evaluation.document
    resolved = {id(q.question): q for q in evaluation.questions}
    places = Places(document)
    items = []
    for finding in cross_findings(document):
        touched, fixes = [], []
        for number, result in enumerate(run.per_question, start=1):
            question = resolved.get(id(result.question))
            if question is None or question.section_id is None:
                continue
            if finding.kind == "named":
                hit = question.section_id in finding.sections  # the product's, or the other file's entry naming it
            else:
                own = question_file(document, question.section_id)
                top = _top(evaluation, run, result)
                served = top is not None and _file_of(document, top.start).number != own.number and any(
                    _overlaps(top.spans, span) for span in finding.spans)
                hit = served or any(_overlaps(question.answer_spans, span) for span in finding.spans)
            if hit:
                row = result.question.row or number
                touched.append(row)
                if result.grade != "clean":
                    fixes.append(row)
        where = "; ".join(dict.fromkeys(places.of(span) for span in finding.spans[:6]))
        items.append(Todo(finding.kind, finding.edit, finding.text + ".", where, touched, fixes, finding.spans))
    items.sort(key=lambda item: (-len(item.fixes), -len(item.questions)))
    return items


def _overlaps(spans, target: Span) -> bool:
    return any(a < target[1] and target[0] < b for a, b in spans)
