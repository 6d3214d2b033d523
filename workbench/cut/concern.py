"""One chunk per kind of customer question, anchored with the product's name."""

from __future__ import annotations

import re

from workbench.core.model import Chunk, Document, Fact, Section, Span
from workbench.cut.base import STRATEGIES, Strategy

# Column words that say which kind of question a cell answers.
CONCERNS = (
    ("variants", ("colour", "color", "size", "price", "stock", "qty", "quantity", "inventory", "sku",
                  "option", "variant", "compare", "currency", "weight", "width", "height", "depth",
                  "dimension", "capacity", "sale", "special")),
    ("policy", ("return", "exchange", "warranty", "guarantee", "refund", "shipping", "delivery")),
    ("care", ("care", "wash", "clean", "maintenance", "cleaning")),
)
FAQ_QUESTION = re.compile(r"faq|question|^q\d*\b", re.IGNORECASE)
FAQ_ANSWER = re.compile(r"answer|^a\d*\b", re.IGNORECASE)
LIST_ITEM = re.compile(r"^ {0,3}([-*+]|\d+[.)])\s")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def concern_of(column: str) -> str:
    words = re.split(r"[^a-z]+", column.lower())
    for concern, keys in CONCERNS:
        if any(word.startswith(key) for word in words for key in keys):
            return concern
    return "identity"


@STRATEGIES.register("concern")
class Concern(Strategy):
    order = 80
    label = "One topic per piece"  # not "question": that reads as if it came from the golden questions
    explanation = (
        "For a spreadsheet, the product's cells grouped by what customers ask (what it is, variants and "
        "prices, policies, care, each FAQ); for a document, each paragraph or list item. Each piece "
        "starts with its product or section name."
    )

    def chunk(self, document: Document) -> list[Chunk]:
        pieces: list[tuple[list[Span], str]] = []
        for number, section in enumerate(document.sections):
            self._heard(number)
            if not section.facts:
                continue
            groups = self._by_column(section) if document.form.table else self._by_block(document, section)
            anchor = (section.heading or document.name) + "\n"
            pieces.extend((spans, anchor) for spans in groups)
        return self._chunks(document, pieces)

    def _by_column(self, section: Section) -> list[list[Span]]:
        groups: dict[str, list[Span]] = {concern: [] for concern in ("identity", "variants", "policy", "care")}
        faqs: list[list[Span]] = []
        waiting: Fact | None = None  # an FAQ question waiting for its answer
        for fact in section.facts:
            column = fact.column or ""
            if FAQ_ANSWER.search(column):  # before the question test: "FAQ 1 answer" holds "faq" too
                faqs.append([waiting.span, fact.span] if waiting else [fact.span])
                waiting = None
            elif FAQ_QUESTION.search(column):
                if waiting:
                    faqs.append([waiting.span])
                waiting = fact
            else:
                groups[concern_of(column)].append(fact.span)
        if waiting:
            faqs.append([waiting.span])
        return [spans for spans in groups.values() if spans] + faqs

    def _by_block(self, document: Document, section: Section) -> list[list[Span]]:
        """Paragraphs and list items: runs of facts with no blank line between them.

        A code block is one block from its opening fence to its closing one: the fence
        markers are not facts, so they are found in the text, not among the facts.
        """
        fences = _fence_regions(document.text, section.span)
        blocks: list[list[int]] = []
        previous_end = None
        for fact in section.facts:
            fence = next((region for region in fences if region[0] <= fact.span[0] < region[1]), None)
            if fence is not None:
                if not (blocks and blocks[-1][0] == fence[0]):
                    blocks.append([fence[0], fence[1]])
                previous_end = fence[1]
                continue
            joined = previous_end is not None and "\n\n" not in document.text[previous_end : fact.span[0]].replace(" ", "")
            starts_item = bool(LIST_ITEM.match(document.text[document.text.rfind("\n", 0, fact.span[0]) + 1 : fact.span[1]]))
            if blocks and joined and not starts_item:
                blocks[-1][1] = fact.span[1]
            else:
                blocks.append([fact.span[0], fact.span[1]])
            previous_end = fact.span[1]
        return [[(start, end)] for start, end in blocks]


def _fence_regions(text: str, span: Span) -> list[Span]:
    """(start of the opening fence line, end of the closing one) of every code block in the span."""
    regions: list[Span] = []
    opened: int | None = None
    position = span[0]
    for line in text[span[0] : span[1]].split("\n"):
        if FENCE.match(line):
            if opened is None:
                opened = position
            else:
                regions.append((opened, position + len(line)))
                opened = None
        position += len(line) + 1
    if opened is not None:  # an unclosed fence runs to the end of the section
        regions.append((opened, span[1]))
    return regions
