"""Document check-up: is this list ready for a bot? Findings in plain words."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from .evaluate import chunk_document
from .grading import ChunkMap
from .injection import risky_lines
from .model import Document

LONG_SECTION_WORDS = 300
PROMPT_LIMIT_TOKENS = 200_000
OUTSIDE_LINK = re.compile(r"(?:https?:)?//[^\s)\"'<>\]]+", re.IGNORECASE)
MEANINGFUL = re.compile(r"[^\W_]")
FENCE_LINE = re.compile(r"^(```|~~~)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)|<img\b[^>]*\bsrc\s*=\s*[\"']?([^\"'\s>]+)", re.IGNORECASE)


@dataclass
class SharedLine:
    line: str
    sections: list[str]


@dataclass
class Finding:
    """A risky line: where it is and what it says."""

    line_number: int
    text: str
    kind: str  # "instruction" | "script" | "link" | "image"


@dataclass
class Audit:
    document: str
    kind: str
    tokens: int
    fits_in_prompt: bool
    recommendation: str
    shared_lines: list[SharedLine] = field(default_factory=list)
    unheaded_facts: list[str] = field(default_factory=list)
    long_sections: list[tuple[str, int]] = field(default_factory=list)
    unnamed_chunks: dict[str, dict] = field(default_factory=dict)  # strategy -> {share, examples}
    duplicate_names: list[tuple[str, int]] = field(default_factory=list)
    missing_columns: list[tuple[str, list[str]]] = field(default_factory=list)
    risky: list[Finding] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)

    def lines(self) -> list[str]:
        """The check-up as plain sentences, most important first."""
        out = [self.recommendation]
        if self.shared_lines:
            out.append(
                f"{len(self.shared_lines)} identical line(s) appear under several products; a piece holding only "
                "such a line cannot say which product it belongs to:"
            )
            for shared in self.shared_lines[:20]:
                names = ", ".join(shared.sections[:6]) + (" …" if len(shared.sections) > 6 else "")
                out.append(f"  “{shared.line}” — {len(shared.sections)} products: {names}")
        if self.unheaded_facts:
            out.append(f"{len(self.unheaded_facts)} line(s) sit under no heading, e.g. “{self.unheaded_facts[0][:80]}”.")
        for title, words in self.long_sections:
            out.append(f"Section “{title}” is {words} words long; over about {LONG_SECTION_WORDS}, its meaning gets diluted.")
        for strategy, info in self.unnamed_chunks.items():
            if info["unnamed"]:
                out.append(
                    f"{strategy}: {info['unnamed']} of {info['chunks']} pieces ({info['share']:.0%}) do not carry "
                    f"their product's name, e.g. “{info['examples'][0][:80]}”."
                )
        for name, count in self.duplicate_names:
            out.append(f"The product name “{name}” appears {count} times.")
        for name, columns in self.missing_columns[:20]:
            out.append(f"“{name}” has no {', '.join(columns)}, which most other products have.")
        for finding in self.risky[:20]:
            what = {
                "instruction": "text that gives a bot orders",
                "script": "code that would run in a web page",
                "link": "a link to an outside site",
                "image": "an image from an outside site",
            }[finding.kind]
            out.append(f"Line {finding.line_number}: {what}: “{finding.text[:100]}”.")
        if len(self.risky) > 20:
            out.append(f"… and {len(self.risky) - 20} more lines with outside links or orders to a bot.")
        if len(out) == 1:
            out.append("No shared lines, long sections or risky content found.")
        return out


def _normal(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def audit(document: Document, strategies: tuple[str, ...] = ("fixed", "recursive", "heading")) -> Audit:
    """Check a document for the traps that make a bot answer wrongly."""
    tokens = round(len(document.text) / 4)  # about four characters a token in English
    fits = tokens < PROMPT_LIMIT_TOKENS
    if fits:
        recommendation = (
            f"About {tokens:,} tokens: the whole list fits in a bot's prompt (under about "
            f"{PROMPT_LIMIT_TOKENS:,}), so with prompt caching you may not need retrieval at all; if you do "
            "cut it, cut at the headings."
        )
    else:
        recommendation = (
            f"About {tokens:,} tokens: too long to put the whole list in a prompt (over about "
            f"{PROMPT_LIMIT_TOKENS:,}); the bot needs retrieval, so how the list is cut matters."
        )
    result = Audit(document.name, document.kind, tokens, fits, recommendation)

    titled = [s for s in document.sections if s.heading]
    lines_in: dict[str, list[str]] = defaultdict(list)
    for section in titled:
        for fact in section.facts:
            text = _normal(document.slice(fact.span))
            if not MEANINGFUL.search(text) or FENCE_LINE.match(text):
                continue  # rules and code fences repeat everywhere and say nothing about a product
            if section.title not in lines_in[text]:
                lines_in[text].append(section.title)
    result.shared_lines = sorted(
        (SharedLine(line, names) for line, names in lines_in.items() if len(names) > 1),
        key=lambda shared: (-len(shared.sections), shared.line),
    )

    result.unheaded_facts = [document.slice(f.span) for s in document.sections if not s.heading for f in s.facts]
    for section in titled:
        words = sum(len(document.slice(f.span).split()) for f in section.facts)
        if words > LONG_SECTION_WORDS:
            result.long_sections.append((section.title, words))

    for strategy in strategies:
        chunks = chunk_document(document, strategy)  # offsets checked, as everywhere else
        chunk_map = ChunkMap(document, chunks)
        unnamed = []
        for index, chunk in enumerate(chunks):
            touched = chunk_map.touched[index]
            if not touched:
                continue
            main = document.section(max(touched, key=touched.get))
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

    lines = document.text.split("\n")
    orders: dict[int, list[str]] = defaultdict(list)
    for number, kind in risky_lines(document.text):  # normalised first: see workbench/injection.py
        orders[number].append(kind)
    for number, line in enumerate(lines, start=1):
        for kind in orders.get(number, ()):
            result.risky.append(Finding(number, line.strip(), kind))
        images = {m.group(1) or m.group(2) for m in IMAGE.finditer(line)}
        for target in images:
            if OUTSIDE_LINK.match(target.strip()):
                result.risky.append(Finding(number, line.strip(), "image"))
        if not images and OUTSIDE_LINK.search(line):
            result.risky.append(Finding(number, line.strip(), "link"))
    return result
