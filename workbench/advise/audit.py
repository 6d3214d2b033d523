"""Document check-up: is this list ready for a bot? Findings in plain words."""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from workbench.advise.injection import meaning_lines, risky_lines
from workbench.core.model import Document, Question, Section, WorkbenchError
from workbench.core.quoting import shown
from workbench.core.wording import part_word, plural, verb
from workbench.cut import chunk_document
from workbench.cut.sections import own_text
from workbench.grade.grading import ChunkMap
from workbench.grade.places import Places, join_places
from workbench.read.resolve import resolve_all
from workbench.run.names import strategy_name

if TYPE_CHECKING:
    from workbench.encode.embedding import Encoder

PROMPT_LIMIT_TOKENS = 200_000
# Which bot the limit is: a large hosted chat model's prompt of 200,000 tokens, at about 0.75 English words a token.
LIMIT_WORDS = (f"a large chat model such as those behind hosted shop bots reads up to about {PROMPT_LIMIT_TOKENS:,} "
               f"tokens at once, roughly {round(PROMPT_LIMIT_TOKENS * 0.75):,} words; smaller or cheaper models read less")
OUTSIDE_LINK = re.compile(r"(?:https?:)?//[^\s)\"'<>\]]+", re.IGNORECASE)
MEANINGFUL = re.compile(r"[^\W_]")
FENCE_LINE = re.compile(r"^(```|~~~)")
HOST = re.compile(r"(?:https?:)?//(?:www\.)?([^/\s)\"'<>\]:?#]+)", re.IGNORECASE)
# Values a shop system writes when nobody filled the cell in.
PLACEHOLDER = re.compile(r"^(0+([.,]0+)?|-+|n/?a|none|null|nil|tbd|tba|todo|x+|placeholder)$", re.IGNORECASE)
EVERY_PRODUCT = 0.9  # a line on at least this share of the products is store-wide, not a product's own fact
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)|<img\b[^>]*\bsrc\s*=\s*[\"']?([^\"'\s>]+)", re.IGNORECASE)
# What a shop's system reads from a cell, decided from the column's values: text typed into such a cell breaks
# the import (a price, a stock status, a flag, a SKU).
NUMBER = re.compile(r"^[^\w\s]{0,2}\s*[-+]?\d[\d.,\s]*(?:%|[^\W\d_]{1,3})?$")
FLAG = frozenset("0 1 yes no y n true false on off".split())
ID_WORDS = frozenset("id ids sku skus ean upc gtin mpn isbn barcode handle slug code uuid guid".split())

# Linear on any line (DESIGN.md, "Patterns on user text"): each scan stops at the next opening bracket, so
# a line of many unclosed "![" or "<img" is read once, not once from each of them to the line's end.
IMAGE = re.compile(r"!\[[^\[\]]*\]\(([^()]+)\)|<img\b[^<>]*?\bsrc\s*=\s*[\"']?([^\"'\s<>]+)", re.IGNORECASE)


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


@dataclass
class Finding:
    """A risky line: where it is and what it says."""

    line_number: int  # in the canonical text; ``where`` names the place in the user's file
    text: str
    kind: str  # "instruction" | "script" | "link" | "image"
    where: str = ""
    span: tuple[int, int] | None = None  # the line's offsets in the canonical text


@dataclass
class Audit:
    document: str
    kind: str
    tokens: int
    fits_in_prompt: bool
    recommendation: str
    shared_lines: list[SharedLine] = field(default_factory=list)  # most harmful first
    placeholders: list[SharedLine] = field(default_factory=list)
    store_wide: list[SharedLine] = field(default_factory=list)
    products: int = 0
    own_hosts: list[str] = field(default_factory=list)  # link targets taken as the shop's own site
    unheaded_facts: list[str] = field(default_factory=list)
    long_sections: list[tuple[str, int]] = field(default_factory=list)  # (title, word pieces) past the window
    window: int | None = None  # word pieces the search model reads at once; None when it is not installed
    unnamed_chunks: dict[str, dict] = field(default_factory=dict)  # strategy -> {share, examples}
    size: int | None = None  # the piece size the cuts above used (None: each strategy's default)
    duplicate_names: list[tuple[str, int]] = field(default_factory=list)
    missing_columns: list[tuple[str, list[str]]] = field(default_factory=list)
    risky: list[Finding] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def noun(self) -> str:
        """What the file's parts are: a spreadsheet's products, a document's sections (a manual's are no products)."""
        return part_word(self.kind)

    def placeholder_sentence(self, shared: SharedLine) -> str:
        every = f"every {self.noun} has" if len(shared.sections) == self.products else (
            f"{len(shared.sections)} of {self.products} {self.noun}s have")
        column = shared.key or "this line"
        if shared.beside_real_values:
            return (f"{every.capitalize()} a {column} {shared.value} line beside real {column} values on other rows — "
                    f"a bot may quote {shared.value}: leave those cells empty.")
        return f"{every.capitalize()} {column} {shared.value} — is the {column} column empty or unfilled?"

    def store_wide_sentence(self) -> str:
        more = len(self.store_wide) - 6
        lines = "; ".join(f"“{s.line}”" for s in self.store_wide[:6]) + (f"; and {more} more" if more > 0 else "")
        return (
            f"{len(self.store_wide)} line(s) are the same for (nearly) every {self.noun}: {lines}. They say something about "
            "the whole shop; one line at the top of the file would do."
        )

    def structure_lines(self) -> list[str]:
        """Text under no heading, long sections, pieces without their product's name, repeated names, gaps."""
        out: list[str] = []
        if self.unheaded_facts:
            out.append(f"{len(self.unheaded_facts)} line(s) sit under no heading, e.g. “{shown(self.unheaded_facts[0], 80)}”.")
        for title, pieces in self.long_sections[:5]:
            out.append(
                f"{self.noun.capitalize()} “{title}” is {pieces} word pieces (words or parts of words) long; the "
                f"meaning-based search model reads {self.window} at a time, "
                f"so it reads the {self.noun} in parts and a line in it competes with the whole."
            )
        if len(self.long_sections) > 5:  # a catalog can have dozens: the rest named in one line
            rest = [title for title, _ in self.long_sections[5:]]
            out.append(f"{len(rest)} more {self.noun}s are longer than the model reads at once: "
                       + ", ".join(rest[:10]) + (f" and {len(rest) - 10} more." if len(rest) > 10 else "."))
        for strategy, info in self.unnamed_chunks.items():
            if info["unnamed"]:
                unnamed, part = info["unnamed"], part_word(self.kind)
                out.append(
                    f"{strategy_name(strategy, self.size)}: {unnamed:,} of the {plural(info['chunks'], 'piece')} holding "
                    f"facts ({info['share']:.0%}) {verb(unnamed, 'does', 'do')} not carry "
                    f"{verb(unnamed, 'its', 'their')} {part}'s name, e.g. “{shown(info['examples'][0], 80)}”."
                )
        for name, count in self.duplicate_names:
            out.append(f"The {self.noun} name “{name}” appears {count} times.")
        for name, columns in self.missing_columns[:20]:
            out.append(f"“{name}” has no {', '.join(columns)}, which most other products have.")
        return out

    def lines(self) -> list[str]:
        """The check-up as plain sentences, most important first."""
        out = [self.recommendation]
        for shared in self.placeholders:
            out.append(self.placeholder_sentence(shared))
        if self.shared_lines:
            out.append(
                f"{len(self.shared_lines)} identical line(s) appear under several {self.noun}s; a piece holding only "
                f"such a line cannot say which {self.noun} it belongs to (most harmful first):"
            )
            for shared in self.shared_lines[:20]:
                names = ", ".join(shared.sections[:6]) + (" …" if len(shared.sections) > 6 else "")
                out.append(f"  “{shared.line}” — {len(shared.sections)} {self.noun}s: {names} ({join_places(shared.places)})")
        if self.store_wide:
            out.append(self.store_wide_sentence())
        out += self.structure_lines()
        for finding in self.risky[:20]:
            what = {
                "instruction": "text that gives a bot orders",
                "script": "code that would run in a web page",
                "link": "a link to an outside site",
                "image": "an image from an outside site",
            }[finding.kind]
            out.append(f"{(finding.where or f'line {finding.line_number}').capitalize()}: {what}: “{shown(finding.text, 100)}”.")
        if len(self.risky) > 20:
            out.append(f"… and {len(self.risky) - 20} more lines with outside links or orders to a bot.")
        if len(out) == 1:
            out.append("No shared lines, long sections or risky content found.")
        return out


def _normal(line: str) -> str:
    return " ".join(line.split())  # what re.sub(r"\s+", " ", line).strip() gives, a third of the time


def column_types(document: Document) -> dict[str, str]:
    """A spreadsheet's columns whose cells the shop's system reads, and what they hold: "numbers", "yes/no
    flags", "identifiers" or "set values" (a few values repeated, as a stock status or a category). Free-text
    columns are left out. Decided from the column's values (and an id-like name: SKU, handle, slug, EAN...)."""
    if document.kind != "spreadsheet":
        return {}
    from workbench.read.questions import column_words

    values: dict[str, list[str]] = defaultdict(list)
    for fact in document.facts:
        if fact.column:
            values[fact.column].append(document.slice(fact.span)[len(fact.column) + 1 :].strip())
    kinds = {}
    for column, cells in values.items():
        cells = [cell for cell in cells if cell]
        if not cells:
            continue
        distinct = {cell.lower() for cell in cells}
        if distinct <= FLAG:
            kinds[column] = "yes/no flags"
        elif sum(1 for cell in cells if NUMBER.match(cell)) >= 0.9 * len(cells):
            kinds[column] = "numbers"
        elif set(column_words(column)) & ID_WORDS or (
            len(cells) >= 3 and len(distinct) == len(cells) and all(" " not in c and any(ch.isdigit() for ch in c)
                                                                     for c in cells)):
            kinds[column] = "identifiers"
        elif len(cells) >= 4 and len(distinct) * 2 <= len(cells) and max(len(c) for c in cells) <= 60:
            kinds[column] = "set values"
    return kinds


def is_flag(line: str) -> bool:
    """ "Is featured?: 0", "Position: 1": a yes/no or 0/1 value, the least a customer asks about."""
    return ":" in line and line.split(":", 1)[1].strip().lower() in FLAG


def size_advice(words: int, tokens: int, fits: bool) -> str:
    """Whether a bot could read the whole file at once, in plain words."""
    if fits:
        return (
            f"Your file is about {words:,} words. That is short enough for a chat bot to read all of it at once "
            f"({LIMIT_WORDS}), so a bot could be handed the whole file; a bot that searches "
            "pieces instead answers only as well as the file is cut."
        )
    return (
        f"Your file is about {words:,} words: more than a chat bot can read at once ({LIMIT_WORDS}). "
        "A bot must search it piece by piece, so how the file is cut decides what it answers."
    )


def long_sections(
    document: Document, sections: list[Section], encoder: Encoder | None = None
) -> tuple[int | None, list[tuple[str, int]]]:
    """The model's window and the sections (heading and text) longer than it, in its word pieces.

    Only the tokenizer is loaded, not the model. Without the model package there is no
    window to compare with, so no section is called long.
    """
    if encoder is None:
        from workbench.encode.embedding import get_encoder

        try:
            encoder = get_encoder()
        except WorkbenchError:
            return None, []
    window = encoder.window
    if window is None:
        return None, []
    from workbench.encode.model_window import piece_counts

    spans = [(section, own_text(document, section)) for section in sections]
    # A word piece is at least one character: shorter sections fit. The rest are counted in one batch.
    longer = [(section, span) for section, span in spans if span and span[1] - span[0] > window]
    counts = piece_counts(encoder, [document.slice(span) for _, span in longer])
    return window, [(section.title, pieces) for (section, _), pieces in zip(longer, counts) if pieces > window]


def audit(
    document: Document,
    strategies: tuple[str, ...] = ("fixed", "recursive", "heading"),
    questions: list[Question] | None = None,
    encoder: Encoder | None = None,
    size: int | None = None,
    meaning: bool | None = None,

    not_clean: Collection[int] = (),
) -> Audit:
    """Check a document for the traps that make a bot answer wrongly.

    ``size``: the piece size the cuts use (the app's setting), so its counts match the run's pieces.

    ``encoder`` counts word pieces for the long-section rule (default: the packaged model's tokenizer).

    With ``questions``, each shared line names the golden questions it answers, and those rank first;
    ``not_clean`` (question rows that came out missed or mixed under the recommended setup) puts the lines that
    answer those before all others. Then lines whose kind a question asks about, and yes/no flags last.

    ``meaning``: also look for orders to a bot by meaning (`injection.meaning_lines`, the packaged model against
    a few exemplars). None runs it only when the process-wide model is already loaded, so a check-up never
    waits seconds for the model to load just for this; True loads it (``encoder`` or the process-wide one).
    """
    tokens = round(len(document.text) / 4)  # about four characters a token in English
    fits = tokens < PROMPT_LIMIT_TOKENS
    words = len(document.text.split())
    result = Audit(document.name, document.kind, tokens, fits, size_advice(words, tokens, fits))
    result.size = size
    places = Places(document)

    titled = [s for s in document.sections if s.heading]
    result.products = sum(1 for s in titled if s.facts)
    # Products per line as an ordered set: a line shared by 20,000 products must not be searched as a list.
    lines_in: dict[str, dict[str, None]] = defaultdict(dict)
    where: dict[str, list[str]] = defaultdict(list)
    where_spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    values_of: dict[str, set[str]] = defaultdict(set)  # line kind ("Warranty") -> every value it takes
    kinds_in: dict[tuple[str, str], set[str]] = defaultdict(set)  # (product, line kind) -> its values
    fact_line: dict[tuple[int, int], str] = {}
    for section in titled:
        for fact in section.facts:
            text = _normal(document.slice(fact.span))
            if not MEANINGFUL.search(text) or FENCE_LINE.match(text):
                continue  # rules and code fences repeat everywhere and say nothing about a product
            fact_line[fact.span] = text
            if ":" in text:
                key, value = text.split(":", 1)
                values_of[key.strip().lower()].add(value.strip().lower())
                kinds_in[(section.title, key.strip().lower())].add(value.strip().lower())
            if section.title not in lines_in[text]:
                lines_in[text][section.title] = None
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
        everywhere = result.products >= 4 and len(names) >= EVERY_PRODUCT * result.products
        if everywhere and PLACEHOLDER.match(shared.value):
            shared.harm = "placeholder"
            kind, unfilled = shared.key.lower(), shared.value.lower()
            shared.filled_elsewhere = sum(1 for name in names if kinds_in[(name, kind)] - {unfilled})
            result.placeholders.append(shared)
        elif everywhere:
            shared.harm = "store-wide"
            result.store_wide.append(shared)
        else:
            others = values_of.get(shared.key.lower(), set()) - {shared.value.lower()}
            shared.harm = "varies" if shared.key and others else "repeats"
            result.shared_lines.append(shared)
    # Most harmful first: lines that answer questions that came out missed or mixed, then lines that answer the
    # most golden questions, then lines of a kind some question asks about ("price"), flags ("Is featured?: 0")
    # last; among equals, lines whose kind takes other values elsewhere (the wrong product's warranty), then by
    # how many products share them.
    failed = set(not_clean)
    asked_words = set()
    for question in questions or ():
        asked_words |= set(re.findall(r"[^\W\d_]{3,}", question.question.lower()))
    asked_kinds = {s.key.lower() for s in result.shared_lines if s.questions}

    def asked(shared: SharedLine) -> bool:
        from workbench.read.questions import column_words

        key = shared.key.lower()
        return bool(key) and (key in asked_kinds or bool(set(column_words(shared.key)) & asked_words))

    result.shared_lines.sort(key=lambda s: (
        -sum(1 for n in s.questions if n in failed), -len(s.questions), not asked(s), is_flag(s.line),
        s.harm != "varies", -len(s.sections), s.line))
    result.placeholders.sort(key=lambda s: (-len(s.sections), s.line))
    result.store_wide.sort(key=lambda s: (-len(s.sections), s.line))

    result.unheaded_facts = [document.slice(f.span) for s in document.sections if not s.heading for f in s.facts]
    result.window, result.long_sections = long_sections(document, titled, encoder)

    by_id = {section.id: section for section in document.sections}  # Document.section scans: too slow per piece
    for strategy in strategies:
        chunks = chunk_document(document, strategy, size)  # offsets checked, as everywhere else
        chunk_map = ChunkMap(document, chunks)
        unnamed = []
        for index, chunk in enumerate(chunks):
            touched = chunk_map.touched[index]
            if not touched:
                continue
            main = by_id[max(touched, key=touched.get)]
            if main.heading and main.heading.lower() not in chunk.text.lower():
                unnamed.append(chunk.text)
        counted = sum(1 for touched in chunk_map.touched if touched)
        result.unnamed_chunks[strategy] = {
            "chunks": counted,
            "unnamed": len(unnamed),
            "share": len(unnamed) / counted if counted else 0.0,
            "examples": [text.replace("\n", " ")[:120] for text in unnamed[:3]],
        }

    names = Counter(s.heading for s in titled if s.level >= (2 if document.kind == "spreadsheet" else 1))
    result.duplicate_names = sorted((name, count) for name, count in names.items() if count > 1)

    if document.kind == "spreadsheet":
        products = [s for s in document.sections if s.facts]
        have = {s.id: {f.column for f in s.facts} for s in products}
        common = [c for c in document.columns if sum(c in cols for cols in have.values()) > len(products) / 2]
        for section in products:
            missing = [c for c in common if c not in have[section.id]]
            if missing:
                result.missing_columns.append((section.title, missing))

    result.own_hosts = own_hosts(document.text)
    own = set(result.own_hosts)

    def outside(target: str) -> bool:
        host = HOST.match(target.strip())
        return bool(host) and host.group(1).lower() not in own

    orders: dict[int, list[str]] = defaultdict(list)
    for number, kind in risky_lines(document.text):  # normalised first: see workbench/advise/injection.py
        orders[number].append(kind)
    if meaning is not False:
        from workbench.encode.embedding import get_encoder

        reader = encoder if meaning and encoder is not None else None
        if meaning or (get_encoder.cache_info().currsize and get_encoder().loaded):
            reader = reader or get_encoder()
        for number in meaning_lines(document.text, reader) if reader is not None else ():
            if "instruction" not in orders[number]:
                orders[number].append("instruction")
    for link in document.risky_links:  # a web page's script links, which its conversion to Markdown drops
        result.risky.append(Finding(0, link, "script", "the page's source (not in the text it converts to)"))
    offset = 0
    for number, line in enumerate(document.text.split("\n"), start=1):
        start, offset = offset, offset + len(line) + 1
        found = list(orders.get(number, ()))
        images = {m.group(1) or m.group(2) for m in IMAGE.finditer(line)}
        found += ["image" for target in images if outside(target)]
        if not images and any(outside(m.group()) for m in OUTSIDE_LINK.finditer(line)):
            found.append("link")
        for kind in found:
            result.risky.append(Finding(number, line.strip(), kind, places.of((start, start + len(line))),
                                        (start, start + len(line))))
    return result


def own_hosts(text: str) -> list[str]:
    """The shop's own site: a host that most of the file's links point to (at least 3 of them).

    A catalog's image links all point at the shop's own server; a link to another host in one
    line is the kind a bot could be tricked into repeating.
    """
    hosts = Counter(match.group(1).lower() for match in HOST.finditer(text))
    total = sum(hosts.values())
    return sorted(host for host, count in hosts.items() if count >= 3 and count * 2 >= total)
