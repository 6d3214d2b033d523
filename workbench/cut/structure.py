"""Cuts sized by what the search model reads: sections in model-sized parts, and small-to-big.

Both count in the model's word pieces (its own tokenizer, without loading the
model), so a piece is never longer than the model reads at once unless one
paragraph, list item or table row alone is.
"""

from __future__ import annotations

import re

from workbench.core.model import Chunk, Document, Section, Span, make_chunk
from workbench.cut.base import STRATEGIES, Strategy, check_size, sentence_spans, trim
from workbench.cut.concern import FENCE, LIST_ITEM
from workbench.cut.sections import own_text

TABLE_ROW = re.compile(r"^ {0,3}\|")
COUNT_BATCH = 20_000  # texts per tokenizer call: well under a second, so a Stop is heard between


def _encoder(encoder):
    if encoder is None:
        from workbench.encode.embedding import get_encoder

        encoder = get_encoder()
    return encoder


def blocks(document: Document, section: Section) -> list[Span]:
    """A section's paragraphs, list items and table rows (a spreadsheet's cells), in order.

    A line joins the block above it unless a blank line comes between, it starts a
    list item or a table row, or the block above is a table row; a code fence stays
    one block. The heading line belongs to the first block.
    """
    found: list[list[int]] = []
    in_fence = False
    previous_end: int | None = None
    previous_row = False
    for fact in section.facts:
        line_start = document.text.rfind("\n", 0, fact.span[0]) + 1
        line = document.text[line_start : fact.span[1]]
        blank_between = previous_end is not None and "\n\n" in document.text[previous_end : fact.span[0]].replace(" ", "")
        new_item = bool(LIST_ITEM.match(line)) or bool(TABLE_ROW.match(line)) or previous_row
        if found and (in_fence or (not document.form.table and not blank_between and not new_item)):
            found[-1][1] = fact.span[1]
        else:
            found.append([fact.span[0], fact.span[1]])
        if FENCE.match(document.slice(fact.span)):
            in_fence = not in_fence
        previous_row = bool(TABLE_ROW.match(line))
        previous_end = fact.span[1]
    if found:
        found[0][0] = section.span[0]  # the heading line goes with the first block
    return [(start, end) for start, end in found]


@STRATEGIES.register("section-window")
class SectionWindow(Strategy):
    order = 130
    label = "Headings in model-sized parts"
    explanation = (
        "One piece per section when the search model can read it whole; a longer section is cut only between "
        "paragraphs, list items or table rows into parts the model reads whole. Every part starts with where "
        "it sits: Title > Section."
    )

    def __init__(self, size: int | None = None, encoder=None) -> None:
        self.size = None if size is None else check_size(size, "size (word pieces)")
        self.encoder = encoder

    def chunk(self, document: Document) -> list[Chunk]:
        encoder = _encoder(self.encoder)
        window = encoder.window or 10**9  # read once: it may come from the model's file
        sections, parts = [], []
        for number, section in enumerate(document.sections):
            self._heard(number)
            if own_text(document, section):
                sections.append(section)
                parts.append(blocks(document, section))
        prefixes = [section.breadcrumb + "\n" for section in sections]
        # Every block and breadcrumb counted in batches (one tokenizer call each, not one per block).
        counts = self._counted(encoder, [document.slice(span) for spans in parts for span in spans])
        rooms = [self.size] * len(sections) if self.size else [
            max(1, window - count) for count in self._counted(encoder, prefixes)
        ]
        pieces: list[tuple[list[Span], str]] = []
        at = 0
        for prefix, room, section_parts in zip(prefixes, rooms, parts):
            current: list[int] | None = None
            used = 0
            for start, end in section_parts:
                count = counts[at]
                at += 1
                if current is not None and used + count <= room:
                    current[1] = end
                    used += count
                    continue
                if current is not None:
                    pieces.append(([(current[0], current[1])], prefix))
                current, used = [start, end], count
            if current is not None:
                pieces.append(([(current[0], current[1])], prefix))
        return self._chunks(document, pieces)

    def _counted(self, encoder, texts: list[str]) -> list[int]:
        """Word pieces of each text, a batch at a time with a chance to stop between batches."""
        from workbench.encode.model_window import piece_counts

        counts: list[int] = []
        for begin in range(0, len(texts), COUNT_BATCH):
            self._heard(0)  # 0: every batch is a step worth a look
            counts.extend(piece_counts(encoder, texts[begin : begin + COUNT_BATCH]))
        return counts


@STRATEGIES.register("small-to-big")
class SmallToBig(Strategy):
    order = 140
    label = "Find a sentence, hand over its section"
    explanation = (
        "The search looks at single sentences, list items and cells, each starting with its section's path; "
        "the bot is handed the whole section holding the best one (the 'parent document' setup)."
    )

    def chunk(self, document: Document) -> list[Chunk]:
        chunks: list[Chunk] = []
        for number, section in enumerate(document.sections):
            self._heard(number)
            span = own_text(document, section)
            if not span:
                continue
            prefix = section.breadcrumb + "\n"
            body = trim(document.text, (section.heading_span[1], span[1]))
            small = sentence_spans(document.text, body) if body else []
            search = tuple(prefix + document.slice(piece) for piece in small) or (prefix + document.slice(span),)
            chunks.append(make_chunk(document, self.id, len(chunks), [span], prefix, search))
        return chunks
