"""The check-up's shared lines: a line word for word the same under several products, and how much harm it can
do (a value that varies elsewhere, a placeholder, a store-wide line).
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field

from workbench.core.model import Document, Question, Section
from workbench.grade.places import Places
from workbench.read.data_columns import FLAG
from workbench.read.markdown import FENCE
from workbench.read.resolve import resolve_all
from workbench.read.unfilled import is_zero, no_value

MEANINGFUL = re.compile(r"[^\W_]")
# On nearly every product, an "x" or "NA" is unfilled too; on one, it may be a tick or North America, so the table
# reader keeps it (``read.unfilled``, which says what states no fact, and which 0 is a placeholder).
TICK_OR_NA = re.compile(r"^(x+|na)$", re.IGNORECASE)
EVERY_PRODUCT = 0.9  # a line on at least this share of the products is store-wide, not a product's own fact


@dataclass
class SharedLine:
    """An identical line under several products, and how much harm it can do.

    ``harm``: "varies" (the same kind of line says something else for other products, so a piece holding
    only this line answers for the wrong one), "placeholder" (an unfilled value on nearly every product),
    "store-wide" (the same for nearly every product: one line at the top would do) or "repeats".
    """

    line: str
    sections: list[str]
    harm: str = "repeats"
    places: list[str] = field(default_factory=list)  # where it sits in the user's file, one per product
    spans: list[tuple[int, int]] = field(default_factory=list)  # the same places as offsets, one per product
    questions: list[int] = field(default_factory=list)  # golden questions (table rows) it answers
    filled_elsewhere: int = 0  # placeholders: products that also give a real value on another line of this kind

    @property
    def beside_real_values(self) -> bool:
        """A placeholder most of whose products give a real value on another row (a parent row's 0 beside its
        variants' prices): the column is not empty, the placeholder rows are the trap."""
        return self.filled_elsewhere * 2 >= len(self.sections)

    @property
    def key(self) -> str:
        return self.line.split(":", 1)[0].strip() if ":" in self.line else ""

    @property
    def value(self) -> str:
        return self.line.split(":", 1)[1].strip() if ":" in self.line else self.line



def _normal(line: str) -> str:
    return " ".join(line.split())  # what re.sub(r"\s+", " ", line).strip() gives, a third of the time


def is_flag(line: str) -> bool:
    """ "Is featured?: 0", "Position: 1": a yes/no or 0/1 value, the least a customer asks about."""
    return ":" in line and line.split(":", 1)[1].strip().lower() in FLAG


def asks_yes_no(key: str) -> bool:
    """A column named as a yes/no question (WooCommerce's "Backorders allowed?", "Is featured?"): its 0 is "no", a
    value the shop chose, not one left unfilled, however many products say it."""
    return key.rstrip().endswith("?")


def find_shared_lines(
    document: Document,
    titled: list[Section],
    places: Places,
    products: int,
    questions: list[Question] | None,
    not_clean: Collection[int],
) -> tuple[list[SharedLine], list[SharedLine], list[SharedLine]]:
    """The lines found word for word under two or more of the ``titled`` sections, as (shared lines, placeholders,
    store-wide lines), each most harmful first; ``questions`` and ``not_clean`` as ``audit.audit`` takes them."""
    shared_lines: list[SharedLine] = []
    placeholders: list[SharedLine] = []
    store_wide: list[SharedLine] = []
    # Products per line as an ordered set: a line shared by 20,000 products must not be searched as a list.
    lines_in: dict[str, dict[str, None]] = defaultdict(dict)
    where: dict[str, list[str]] = defaultdict(list)
    where_spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    values_of: dict[str, set[str]] = defaultdict(set)  # line kind ("Warranty") -> every value it takes
    fact_line: dict[tuple[int, int], str] = {}  # with questions: each fact's line, to find the line an answer is on
    # Each distinct line read once: a catalog repeats "Colour: red" under thousands of products (the last 50,000
    # kept, so a file of distinct lines holds no second copy of them).
    read: dict[str, tuple[str, tuple[str, str] | None] | None] = {}

    def line_of(raw: str) -> tuple[str, tuple[str, str] | None] | None:
        """The line as compared, and its kind and value in lower case ("warranty", "2 years"); None for a rule."""
        known = read.get(raw, False)
        if known is False:
            if len(read) >= 50_000:
                read.clear()
            text = _normal(raw)
            if not MEANINGFUL.search(text) or FENCE.match(text):
                known = None  # rules and code fences repeat everywhere and say nothing about a product
            elif ":" in text:
                key, value = text.split(":", 1)
                known = (text, (key.strip().lower(), value.strip().lower()))
            else:
                known = (text, None)
            read[raw] = known
        return known

    source = document.text
    for section in titled:
        title = section.title
        for fact in section.facts:
            known = line_of(source[fact.span[0] : fact.span[1]])
            if known is None:
                continue
            text, kind = known
            if questions:
                fact_line[fact.span] = text
            if kind is not None:
                values_of[kind[0]].add(kind[1])
            holding = lines_in[text]
            if title not in holding:
                holding[title] = None
                where[text].append(places.of_fact(fact))
                where_spans[text].append(fact.span)
    answered: dict[str, list[int]] = defaultdict(list)
    if questions:
        resolved, _ = resolve_all(document, questions)
        spans = sorted(fact_line)  # facts never overlap: the last one starting at or before an answer holds it
        starts = [span[0] for span in spans]
        for number, question in enumerate(resolved, start=1):
            for start, end in question.answer_spans:
                index = bisect.bisect_right(starts, start) - 1
                holder = spans[index] if index >= 0 else None
                line = fact_line[holder] if holder and holder[0] <= start and end <= holder[1] else None
                if line and (question.question.row or number) not in answered[line]:
                    answered[line].append(question.question.row or number)
    for line, names in lines_in.items():
        if len(names) < 2:
            continue
        shared = SharedLine(line, list(names), places=where[line], spans=where_spans[line],
                            questions=answered.get(line, []))
        everywhere = products >= 4 and len(names) >= EVERY_PRODUCT * products
        if everywhere and not asks_yes_no(shared.key) and (no_value(shared.value) or is_zero(shared.value)
                                                            or TICK_OR_NA.match(shared.value)):
            shared.harm = "placeholder"
            placeholders.append(shared)
        elif everywhere:
            shared.harm = "store-wide"
            store_wide.append(shared)
        else:
            others = values_of.get(shared.key.lower(), set()) - {shared.value.lower()}
            shared.harm = "varies" if shared.key and others else "repeats"
            shared_lines.append(shared)
    if placeholders:  # which products give a real value on another line of a placeholder's kind
        wanted = {shared.key.lower() for shared in placeholders}
        kinds_in: dict[tuple[str, str], set[str]] = defaultdict(set)  # (product, line kind) -> its values
        for section in titled:
            for fact in section.facts:
                known = line_of(source[fact.span[0] : fact.span[1]])
                if known is not None and known[1] is not None and known[1][0] in wanted:
                    kinds_in[(section.title, known[1][0])].add(known[1][1])
        for shared in placeholders:
            kind, unfilled = shared.key.lower(), shared.value.lower()
            shared.filled_elsewhere = sum(1 for name in shared.sections if kinds_in[(name, kind)] - {unfilled})
    # Most harmful first: lines that answer questions that came out missed or mixed, then lines that answer the
    # most golden questions, then lines of a kind some question asks about ("price"), flags ("Is featured?: 0")
    # last; among equals, lines whose kind takes other values elsewhere (the wrong product's warranty), then by
    # how many products share them.
    failed = set(not_clean)
    asked_words = set()
    for question in questions or ():
        asked_words |= set(re.findall(r"[^\W\d_]{3,}", question.question.lower()))
    asked_kinds = {s.key.lower() for s in shared_lines if s.questions}

    def asked(shared: SharedLine) -> bool:
        from workbench.read.questions import column_words

        key = shared.key.lower()
        return bool(key) and (key in asked_kinds or bool(set(column_words(shared.key)) & asked_words))

    shared_lines.sort(key=lambda s: (
        -sum(1 for n in s.questions if n in failed), -len(s.questions), not asked(s), is_flag(s.line),
        s.harm != "varies", -len(s.sections), s.line))
    placeholders.sort(key=lambda s: (-len(s.sections), s.line))
    store_wide.sort(key=lambda s: (-len(s.sections), s.line))
    return shared_lines, placeholders, store_wide
