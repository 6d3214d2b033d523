"""Markdown documents: sections from ATX and setext headings, facts from lines."""

from __future__ import annotations

import re

import regex

from workbench.core.model import Document, Fact, Section
from workbench.core.quoting import is_sentence
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

# A line wholly in bold, "**Cât costă transportul?**": a FAQ's question where its writer had no heading to use. It
# opens a section when it reads as a question or a title (a "?", or no stop); a bold sentence ("**All sales are
# final.**", "**Versand ist kostenlos!**") is the answer's emphasis (``core.quoting.is_sentence``).
BOLD_LINE = re.compile(r" {0,3}(\*\*|__)(?=\S)([^*_\n]{1,150}?)(?<=\S)\1[ \t]*$")
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


def closes_fence(fence: str, line: str) -> bool:
    """Does ``line`` close the code block ``fence`` opened: the same character, at least as many, nothing else?"""
    match = FENCE.match(line)
    return bool(match) and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) and \
        not line.strip().lstrip(fence[0])


def front_matter_lines(text: str, lines: list[tuple[int, int]] | None = None) -> int:
    """How many lines of YAML front matter open ``text`` (0 when none): page settings, not facts (a title, a date,
    tags); its closing --- is no underline. ``lines``: each line's (start, end), found here when not given."""
    if text.startswith("---\n"):
        if lines is None:
            starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
            lines = [(a, (b - 1) if b else len(text)) for a, b in zip(starts, starts[1:] + [0])]
        for index in range(1, len(lines)):
            if text[lines[index][0] : lines[index][1]].strip() in ("---", "..."):
                return index + 1
    return 0


def _find_headings(text: str, lines: list[tuple[int, int]],
                   kinds: list[LineKind]) -> tuple[list[tuple[int, int, int, str]], set[int]]:
    """(first line, last line, level, text) of every heading outside code fences and front matter,
    and the lines that are markup rather than text: the front matter and the fence markers."""
    headings: list[tuple[int, int, int, str]] = []
    markup: set[int] = set()
    fence: str | None = None
    first = front_matter_lines(text, lines)
    markup.update(range(first))
    previous_is_text = False
    bold: list[tuple[int, int, int, str]] = []  # lines wholly in bold after a blank line: headings, maybe
    for index in range(first, len(lines)):
        opens, atx, attributes, underline, can_be_title, _, _, _ = kinds[index]
        if fence is None and text[lines[index][0]:lines[index][0] + 5].lstrip(" ")[:1] in ("*", "_") \
                and (index == first or kinds[index - 1][5] and not text[lines[index - 1][0]:lines[index - 1][1]].strip()):
            strong = BOLD_LINE.match(text, lines[index][0], lines[index][1])
            if strong and not is_sentence(strong.group(2)):  # "**All sales are final.**" is said, not asked
                bold.append((index, index, 2, strong.group(2)))
        if fence is not None:
            if opens is not None and closes_fence(fence, text[lines[index][0] : lines[index][1]]):
                fence = None
                markup.add(index)
            previous_is_text = False
            continue
        if opens is not None:
            fence = opens
            markup.add(index)
            previous_is_text = False
            continue
        if atx:
            headings.append((index, index, atx[0], atx[1].strip()))
            previous_is_text = False
            continue
        if headings and headings[-1][1] == index - 1 and attributes:
            markup.add(index)  # kramdown's attribute line under a heading ("{: #id}"): the heading's, not a fact
            continue
        if underline is not None and previous_is_text:
            above = text[lines[index - 1][0] : lines[index - 1][1]]
            headings.append((index - 1, index, 1 if underline == "=" else 2, above.strip()))
            previous_is_text = False
            continue
        previous_is_text = can_be_title
    if len(bold) > 1 and all(level == 1 for _, _, level, _ in headings):
        # A FAQ written with no heading but its title (a page pasted from a site, a Word file): each question in
        # bold opens its answer's section, one level under the title. Where the writer wrote "##" headings, bold
        # lines stay emphasis under them.
        headings = sorted(headings + bold)
    return headings, markup


# What the parser asks of one line read alone: its opening fence run (None: not a fence line), its ATX heading,
# whether it is a kramdown attribute line, its setext underline's character, whether it can be a setext heading's
# text, whether it is decoration, and its leading and trailing blank space.
LineKind = tuple[str | None, tuple[int, str] | None, bool, str | None, bool, bool, int, int]
# The last document's lines, read: a graded copy of a file (advise/edits.py) repeats all but a few of its lines,
# and the to-do grades dozens of copies of one file. One document's worth is kept, whichever parsed last.
_LAST_READ: dict[str, LineKind] = {}
KEPT_LINES = 20_000


MARKS = "`~#=-{*+>|0123456789"  # what a fence, heading, underline, attribute or list line starts with


def _read_line(line: str) -> LineKind:
    lead, trail = len(line) - len(line.lstrip()), len(line) - len(line.rstrip())
    if line.lstrip(" ")[:1] not in MARKS or not line.strip(" "):  # most lines: none of the patterns can match
        return None, None, False, None, bool(line.strip()) and not line.startswith(("    ", "\t")), \
            is_decoration(line), lead, trail
    fence = FENCE.match(line)
    setext = SETEXT.match(line)
    return (fence.group(1) if fence else None, atx_heading(line), bool(ATTRIBUTES_LINE.match(line)),
            setext.group(1)[0] if setext else None,
            bool(line.strip()) and not NOT_SETEXT_TEXT.match(line) and not line.startswith(("    ", "\t")),
            is_decoration(line), lead, trail)


def _read_lines(text: str) -> tuple[list[tuple[int, int]], list[LineKind]]:
    """(start, end) of every line and what each is (``_read_line``); in a document of at most KEPT_LINES lines,
    each distinct line read once (a longer one is rarely copied, and keeping its lines cost a tenth more)."""
    global _LAST_READ
    lines = text.split("\n")
    spans, start = [], 0
    for line in lines:
        spans.append((start, start + len(line)))
        start += len(line) + 1
    if len(lines) > KEPT_LINES:
        return spans, [_read_line(line) for line in lines]
    known, read = _LAST_READ, {}
    for line in lines:
        if line not in read:
            read[line] = known.get(line) or _read_line(line)
    _LAST_READ = read
    return spans, [read[line] for line in lines]


def is_decoration(line: str) -> bool:
    """True for a line that states nothing: blank, or no letter and no digit (rules, table separators)."""
    return bool(NO_WORDS.fullmatch(line))


def parse_markdown(text: str, name: str, *, encoding: str = "utf-8", warnings: list[str] | None = None) -> Document:
    """Build a Document from Markdown text (newlines already normalised)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines, kinds = _read_lines(text)
    headings, markup = _find_headings(text, lines, kinds)
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
            Fact(span=(lines[index][0] + kinds[index][6], lines[index][1] - kinds[index][7]), section_id=section_id)
            for index in range(first, end_line)
            if index not in heading_lines and index not in markup and not kinds[index][5]
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
