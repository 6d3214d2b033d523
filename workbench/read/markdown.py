"""Markdown documents: sections from ATX and setext headings, facts from lines."""

from __future__ import annotations

import re

import regex

from workbench.core.model import Document, Fact, Section
from workbench.read.base import LOADERS, Loader
from workbench.read.textio import decode_text

# Every pattern here sees the user's text, so each is linear in the line (DESIGN.md, "Patterns on user
# text"): the heading's opening is matched, the rest of the line is cut by string methods, since a lazy
# ``(.*?)`` before an optional closing ``#`` run rescans the blank space after it at every step.
ATX_OPEN = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A line that starts a list item, quote or table cannot be the text of a setext heading.
NOT_SETEXT_TEXT = re.compile(r"^ {0,3}([-*+>|]|\d+[.)])(\s|$)")
# A Pandoc or kramdown attribute block: "{#wifi-standard}", "{#id .class key=value}", "{: .note}", "{-}".
_ATTRIBUTE = r"""(?:[#.][\w:.\-]+|[\w\-]+=(?:"[^"]*"|'[^']*'|[^\s}]+)|-)"""
# Matched from the heading's last "{" only: searched from every position, a leading \s* rescans a run of blank
# space to the line's end at each step (a heading of a megabyte of tabs took minutes).
ATTRIBUTES = re.compile(r"\{:?\s*" + _ATTRIBUTE + r"(?:\s+" + _ATTRIBUTE + r")*\s*\}")
ATTRIBUTES_LINE = re.compile(r"^ {0,3}\{:\s*" + _ATTRIBUTE + r"(?:\s+" + _ATTRIBUTE + r")*\s*\}\s*$")

TAG = re.compile(r"<[^<>]*>")  # not [^>]*: from each of many unclosed '<' that would scan to the line's end
# A line with no letter and no digit in any script: a horizontal rule, a table separator or an empty
# table row, a line of bullets or stars. It states nothing a customer could ask about.
NO_WORDS = regex.compile(r"[^\p{L}\p{N}]*")


@LOADERS.register("markdown")
class MarkdownLoader(Loader):
    """Reads ``.md``, ``.markdown`` and ``.txt`` files (a plain-text file is read as Markdown: its ``#`` lines,
    if any, are headings; without them it is one section)."""

    order = 10
    kind = "markdown"
    extensions = (".md", ".markdown", ".txt")

    def load(self, data: bytes, name: str, *, name_column: str | None = None, **_options: object) -> Document:
        text, encoding, warnings = decode_text(data, name)
        if name.lower().endswith(".txt"):
            from workbench.read.spreadsheet import read_csv_text, tab_table
            from workbench.read.table import table_to_document

            if tab_table(text):  # Excel's "Unicode text" is a .txt: a table with tabs between its cells
                return table_to_document(read_csv_text(text, name, encoding, warnings, "\t"), name, name_column)
        return parse_markdown(text, name, encoding=encoding, warnings=warnings)


def atx_heading(line: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading line (``## Title ##``), None for any other line."""
    opening = ATX_OPEN.match(line)
    if opening is None:
        return None
    text = line[opening.end() :].strip(" \t")
    unclosed = text.rstrip("#")
    if not unclosed:  # "## ##": the closing run alone
        text = ""
    elif unclosed != text and unclosed[-1] in " \t":  # a closing run counts only after blank space
        text = unclosed.rstrip(" \t")
    return len(opening.group(1)), text


def clean_heading(raw: str) -> str:
    """Heading text as a reader sees it: inline HTML such as anchors and a trailing Pandoc/kramdown attribute block
    ("Wi-Fi standard {#wifi-standard}") removed. The heading's span still covers its whole line in the text."""
    text = TAG.sub("", raw).rstrip()
    if text.endswith("}"):
        brace = text.rfind("{")
        if brace >= 0 and ATTRIBUTES.fullmatch(text, brace):
            text = text[:brace]
    return " ".join(text.split())


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, without its newline."""
    spans, start = [], 0
    for line in text.split("\n"):
        spans.append((start, start + len(line)))
        start += len(line) + 1
    return spans


def closes_fence(fence: str, line: str) -> bool:
    """Does ``line`` close the code block ``fence`` opened: the same character, at least as many, nothing else?"""
    match = FENCE.match(line)
    return bool(match) and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) and \
        not line.strip().lstrip(fence[0])


def _find_headings(text: str, lines: list[tuple[int, int]]) -> tuple[list[tuple[int, int, int, str]], set[int]]:
    """(first line, last line, level, text) of every heading outside code fences and front matter,
    and the lines that are markup rather than text: the front matter and the fence markers."""
    headings: list[tuple[int, int, int, str]] = []
    markup: set[int] = set()
    fence: str | None = None
    first = 0
    if text.startswith("---\n"):  # YAML front matter: page settings, not facts; its closing --- is no underline
        for index in range(1, len(lines)):
            if text[lines[index][0] : lines[index][1]].strip() in ("---", "..."):
                first = index + 1
                markup.update(range(first))
                break
    previous_is_text = False
    for index in range(first, len(lines)):
        line = text[lines[index][0] : lines[index][1]]
        fence_match = FENCE.match(line)
        if fence is not None:
            if closes_fence(fence, line):
                fence = None
                markup.add(index)
            previous_is_text = False
            continue
        if fence_match:
            fence = fence_match.group(1)
            markup.add(index)
            previous_is_text = False
            continue
        atx = atx_heading(line)
        if atx:
            headings.append((index, index, atx[0], atx[1].strip()))
            previous_is_text = False
            continue
        if headings and headings[-1][1] == index - 1 and ATTRIBUTES_LINE.match(line):
            markup.add(index)  # kramdown's attribute line under a heading ("{: #id}"): the heading's, not a fact
            continue
        setext = SETEXT.match(line)
        if setext and previous_is_text:
            above = text[lines[index - 1][0] : lines[index - 1][1]]
            headings.append((index - 1, index, 1 if setext.group(1)[0] == "=" else 2, above.strip()))
            previous_is_text = False
            continue
        previous_is_text = bool(line.strip()) and not NOT_SETEXT_TEXT.match(line) and not line.startswith(("    ", "\t"))
    return headings, markup


def is_decoration(line: str) -> bool:
    """True for a line that states nothing: blank, or no letter and no digit (rules, table separators)."""
    return bool(NO_WORDS.fullmatch(line))


def parse_markdown(text: str, name: str, *, encoding: str = "utf-8", warnings: list[str] | None = None) -> Document:
    """Build a Document from Markdown text (newlines already normalised)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = _lines(text)
    headings, markup = _find_headings(text, lines)
    heading_lines = {index for first, last, _, _ in headings for index in range(first, last + 1)}

    # Each section runs from its heading's first line to the next heading's first line.
    bounds: list[tuple[int, int | None, int, str]] = []  # (first line, last heading line, level, text)
    if not headings or headings[0][0] > 0:
        bounds.append((0, None, 0, ""))
    bounds.extend((first, last, level, heading) for first, last, level, heading in headings)

    sections: list[Section] = []
    stack: list[tuple[int, str]] = []  # (level, title) of the open ancestors
    for number, (first, last, level, raw) in enumerate(bounds):
        end_line = bounds[number + 1][0] if number + 1 < len(bounds) else len(lines)
        start = lines[first][0]
        end = lines[end_line - 1][1] if end_line > first else start
        section_id = f"s{number}"
        facts = tuple(
            Fact(span=_strip_span(text, lines[index]), section_id=section_id)
            for index in range(first, end_line)
            if index not in heading_lines
            and index not in markup
            and not is_decoration(text[lines[index][0] : lines[index][1]])
        )
        if last is None:
            if not facts:  # blank space before the first heading is not a section
                continue
            heading, path, heading_span = "", (), (start, start)
        else:
            heading = clean_heading(raw) or "(untitled heading)"
            while stack and stack[-1][0] >= level:
                stack.pop()
            path = tuple(title for _, title in stack)
            stack.append((level, heading))
            heading_span = (start, lines[last][1])
        sections.append(Section(section_id, heading, level, path, (start, end), heading_span, facts))

    return Document(
        name=name,
        kind="markdown",
        text=text,
        sections=tuple(sections),
        warnings=tuple(warnings or ()),
        encoding=encoding,
    )


def _strip_span(text: str, span: tuple[int, int]) -> tuple[int, int]:
    start, end = span
    line = text[start:end]
    return start + (len(line) - len(line.lstrip())), end - (len(line) - len(line.rstrip()))
