"""Document check-up: is this list ready for a bot? Findings in plain words.

Here the file's size against a chat model's prompt, text under no heading, sections longer than the search
model reads at once, pieces without their product's name, repeated names and missing columns; shared lines
are found in ``shared_lines`` and risky content in ``risky``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Collection
from copy import deepcopy
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING

from workbench.advise.risky import Finding, own_hosts, risky_findings
from workbench.advise.shared_lines import SharedLine, find_shared_lines
from workbench.core.model import Document, Question, Section, WorkbenchError
from workbench.core.quoting import shown
from workbench.core.text_size import estimated_tokens, length
from workbench.core.wording import part_word, plural, verb
from workbench.cut import chunk_document
from workbench.cut.sections import own_text
from workbench.grade.grading import ChunkMap
from workbench.grade.places import Places, join_places
from workbench.read.data_columns import never_lacking
from workbench.run.names import strategy_name

if TYPE_CHECKING:
    from workbench.encode.embedding import Encoder

PROMPT_LIMIT_TOKENS = 200_000
# Which bot the limit is: a large hosted chat model's prompt of 200,000 tokens, at about 0.75 English words a token.
LIMIT_WORDS = (f"a large chat model such as those behind hosted shop bots reads up to about {PROMPT_LIMIT_TOKENS:,} "
               f"tokens at once, roughly {round(PROMPT_LIMIT_TOKENS * 0.75):,} words; smaller or cheaper models read less")


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
    # (window, long sections), or what works them out: counting a file's word pieces is a tenth of a word-search
    # sweep's time, and only the meaning-based search, the check-up page and its JSON read them (``long_sections``).
    measure_long: tuple | Callable[[], tuple] = field(default=(None, ()), repr=False, compare=False)
    unnamed_chunks: dict[str, dict] = field(default_factory=dict)  # strategy -> {share, examples}
    size: int | None = None  # the piece size the cuts above used (None: each strategy's default)
    duplicate_names: list[tuple[str, int]] = field(default_factory=list)
    missing_columns: list[tuple[str, list[str]]] = field(default_factory=list)
    risky: list[Finding] = field(default_factory=list)

    def as_dict(self) -> dict:
        """What ``dataclasses.asdict`` gives, made without its deep copy of every string: on 200,000 products the
        shared lines name 600,000 places, and asdict took 38 s over them."""
        plain = {}
        for name, value in _plain(self).items():  # the two in the place their fields had, for the same JSON
            if name == "measure_long":
                plain |= {"long_sections": _plain(self.long_sections), "window": self.window}
            else:
                plain[name] = value
        return plain

    def _long(self) -> tuple:
        if callable(self.measure_long):  # worked out at the first question, once
            self.measure_long = self.measure_long()
        return self.measure_long

    @property
    def long_sections(self) -> list[tuple[str, int]]:
        """(title, word pieces) of each section past the window of the model that reads the file."""
        return list(self._long()[1])

    @property
    def window(self) -> int | None:
        """Word pieces the search model reads at once; None when it is not installed."""
        return self._long()[0]

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
            f"{plural(len(self.store_wide), 'line')} {verb(len(self.store_wide), 'is', 'are')} the same for (nearly) every "
            f"{self.noun}: {lines}. They say something about "
            "the whole shop; one line at the top of the file would do."
        )

    def structure_lines(self) -> list[str]:
        """Text under no heading, long sections, pieces without their product's name, repeated names, gaps."""
        out: list[str] = []
        if self.unheaded_facts:
            out.append(f"{plural(len(self.unheaded_facts), 'line')} {verb(len(self.unheaded_facts), 'sits', 'sit')} under no "
                       f"heading, e.g. “{shown(self.unheaded_facts[0], 80)}”.")
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
                f"{plural(len(self.shared_lines), 'identical line')} {verb(len(self.shared_lines), 'appears', 'appear')} "
                f"under several {self.noun}s; a piece holding only "
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


def _plain(value: object) -> object:
    """``value`` as ``dataclasses.asdict`` turns a field into plain data: a dataclass a dict of its fields, lists,
    tuples and dicts rebuilt of their items; a string or number is kept as it is (asdict's deep copy of it is
    the same object)."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {item.name: _plain(getattr(value, item.name)) for item in fields(value)}
    if isinstance(value, (list, tuple)):
        if all(item is None or type(item) in (str, int, float, bool) for item in value):
            return type(value)(value)
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    return deepcopy(value)


def size_advice(words: int, tokens: int, fits: bool, unit: str = "words") -> str:
    """Whether a bot could read the whole file at once, in plain words. ``unit`` is "characters" for a file written
    without spaces between words (``core.text_size.length``)."""
    if fits:
        return (
            f"Your file is about {words:,} {unit}. That is short enough for a chat bot to read all of it at once "
            f"({LIMIT_WORDS}), so a bot could be handed the whole file; a bot that searches "
            "pieces instead answers only as well as the file is cut."
        )
    return (
        f"Your file is about {words:,} {unit}: more than a chat bot can read at once ({LIMIT_WORDS}). "
        "A bot must search it piece by piece, so how the file is cut decides what it answers."
    )


def long_sections(
    document: Document, sections: list[Section], encoder: Encoder | None = None
) -> tuple[int | None, list[tuple[str, int]]]:
    """The window of the model that reads the file and the sections (heading and text) longer than it, in its word
    pieces.

    Only the tokenizer is loaded, not the model. Without the model package there is no
    window to compare with, so no section is called long.
    """
    if encoder is None:  # the model that reads the file (E5's pieces and window for a German one)
        from workbench.encode.multilingual import encoder_for, file_language

        try:
            encoder = encoder_for(file_language(document))
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

    ``meaning``: also look for orders to a bot by meaning (`meaning.meaning_lines`, the packaged model against
    a few exemplars in four languages). None runs it only when the process-wide model is already loaded (the
    to-do list under the first verdict: it never waits seconds for the model to load just for this); True runs
    it, loading the model (``encoder`` or the process-wide one) only when some line is a candidate.
    """
    tokens = estimated_tokens(document.text)
    fits = tokens < PROMPT_LIMIT_TOKENS
    count, unit = length(document.text)
    result = Audit(document.name, document.kind, tokens, fits, size_advice(count, tokens, fits, unit))
    result.size = size
    places = Places(document)

    titled = [s for s in document.sections if s.heading]
    result.products = sum(1 for s in titled if s.facts)
    result.shared_lines, result.placeholders, result.store_wide = find_shared_lines(
        document, titled, places, result.products, questions, not_clean
    )

    result.unheaded_facts = [document.slice(f.span) for s in document.sections if not s.heading for f in s.facts]
    result.measure_long = functools.partial(long_sections, document, titled, encoder)

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

    names = Counter(s.heading for s in titled if s.level >= document.form.part_level)
    result.duplicate_names = sorted((name, count) for name, count in names.items() if count > 1)

    if document.form.table:
        products = [s for s in document.sections if s.facts]
        have = {s.id: {f.column for f in s.facts} for s in products}
        # A product without an image link, a SKU, a flag, a meta field, an option or a cost price lacks nothing a
        # customer asks about.
        unasked = never_lacking(document)
        common = [c for c in document.columns if sum(c in cols for cols in have.values()) > len(products) / 2
                  and c not in unasked]
        for section in products:
            missing = [c for c in common if c not in have[section.id]]
            if missing:
                result.missing_columns.append((section.title, missing))

    result.own_hosts = own_hosts(document.text)
    own = set(result.own_hosts)
    result.risky = risky_findings(document, places, own, encoder, meaning)
    return result
