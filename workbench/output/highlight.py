"""HTML views of chunks over the document text. Every piece of user text is escaped here.

The app places these strings; nothing in them comes from the user unescaped,
so a file holding ``<script>`` shows that text and runs nothing.
"""

from __future__ import annotations

import html
import re

from workbench.core.model import Chunk, Document, Span
from workbench.core.wording import isolated
from workbench.grade.grading import PieceSections
from workbench.grade.places import join_names, row_runs
from workbench.read.resolve import answer_pattern

STYLE = """
<style>
.wb-cut { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; line-height: 1.55;
          white-space: pre-wrap; word-break: break-word; margin: 0; padding: 6px; border: 1px solid #ddd;
          border-radius: 6px; background: #fff; color: #222; }
/* Each line laid out in its own text's direction: an Arabic or Hebrew line right to left from the right edge, its
   pieces' marks in reading order (laid out left to right, a piece starting inside an Arabic line was drawn amid
   its words, the words on either side swapped). A line of Latin letters reads as before. */
.wb-cut, .wb-chunk { unicode-bidi: plaintext; text-align: start; }
.wb-tag, .wb-pieces { unicode-bidi: isolate; direction: ltr; }  /* "107 wp" whole inside an Arabic line */
/* Boxes of their own: inline, a Hebrew heading that a piece starts at was aligned left in Chromium (the line's
   direction right to left, its alignment from the marks), and "118 wp" wrapped, "wp" on the next line. */
.wb-tag, .wb-pieces { display: inline-block; }
.wb-c0 { background: #dbeafe; }
.wb-c1 { background: #fde68a; }
.wb-out { color: #9ca3af; }
.wb-overlap { background: repeating-linear-gradient(45deg, #fca5a5, #fca5a5 4px, #fecaca 4px, #fecaca 8px);
              outline: 1px solid #dc2626; }
.wb-mark { display: inline-block; width: 0; border-left: 3px solid #dc2626; margin-left: -1px; height: 1.2em;
           vertical-align: text-bottom; }
.wb-tag { font-size: 10px; color: #fff; background: #dc2626; border-radius: 3px; padding: 0 3px; margin-right: 2px; }
.wb-pieces { font-size: 10px; color: #374151; background: #e5e7eb; border-radius: 3px; padding: 0 3px; margin-right: 2px; }
.wb-pieces.wb-past { color: #fff; background: #7c2d12; }
.wb-prefix { font-style: italic; color: #6b21a8; background: #f3e8ff; }
.wb-chunk { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; white-space: pre-wrap;
            word-break: break-word; border-left: 4px solid #93c5fd; padding: 4px 8px; margin: 2px 0 8px; }
.wb-chunk mark { background: #86efac; }
</style>
"""


MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$])")
# Where a bare address would still become a link: GitHub-flavoured Markdown links "http://…", "www.…" and
# "name@host" in the text left once escapes are read, so escaping its characters does not stop it (a file named
# "[link](http://evil.example)….csv" showed as a link to evil.example). An invisible word joiner after "http:",
# "www" or "@" breaks the match and leaves the text as it reads.
AUTOLINK = re.compile(r"(?<=\\:)(?=//)|(?<=www)(?=\\\.)|(?<=@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def escape_markdown(text: object) -> str:
    """User text for a Markdown line: every character Markdown (or Streamlit) would act on is escaped,
    so a product called ``[click](http://…)`` shows as text, not as a link; nor does a bare address."""
    return AUTOLINK.sub(WORD_JOINER, MARKDOWN_SPECIAL.sub(r"\\\1", str(text)))


def expected_line(source: str, answer: str) -> str:
    """The drill-down's Markdown line naming what a question expects: its product or section, and its answer."""
    shown_source, shown_answer = isolated(escape_markdown(source), escape_markdown(answer))
    return (f"Expected: **{shown_source if source else '(nothing: the bot should refuse)'}**"
            + (f" — “{shown_answer}”" if answer else ""))


def page_windows(document: Document, limit: int = 20000) -> list[Span]:
    """Cut the text into pages of about ``limit`` characters at section starts, for long documents."""
    starts = sorted({section.span[0] for section in document.sections} | {0})
    pages: list[Span] = []
    start = 0
    for position in starts[1:]:
        if position - start >= limit:
            pages.append((start, position))
            start = position
    pages.append((start, len(document.text)))
    return pages


def cut_view(
    document: Document,
    chunks: list[Chunk],
    window: Span | None = None,
    word_pieces: list[int] | None = None,
    model_window: int | None = None,
) -> str:
    """The document text with every chunk on its own alternating background.

    A red bar with the chunk's number marks where each chunk starts; text that two
    chunks share (overlap) is striped red; text in no chunk is grey. Hovering shows
    the chunk number and size. With ``word_pieces`` (one count per chunk), each
    start also shows the piece's length in the model's word pieces, marked dark
    when it is past ``model_window`` (the search reads such a piece in parts).
    """
    start, end = window or (0, len(document.text))
    # Boundaries at every span edge inside the window; each segment knows which chunks cover it.
    edges = {start, end}
    starts: dict[int, list[int]] = {}
    for number, chunk in enumerate(chunks):
        for span_index, (a, b) in enumerate(chunk.spans):
            if b <= start or a >= end:
                continue
            edges.update((max(a, start), min(b, end)))
            if span_index == 0 and a >= start:
                starts.setdefault(a, []).append(number)
    points = sorted(edges)
    covering = _covering(chunks, points)
    parts = [STYLE, '<div class="wb-cut">']
    for left, right in zip(points, points[1:]):
        for number in starts.get(left, []):
            chunk = chunks[number]
            parts.append(f'<span class="wb-mark"></span><span class="wb-tag">{number + 1}</span>')
            if word_pieces is not None:
                past = model_window is not None and word_pieces[number] > model_window
                note = (f"{word_pieces[number]} word pieces: past the model's window of {model_window}, so the "
                        "search reads it in overlapping parts" if past else f"{word_pieces[number]} word pieces")
                parts.append(f'<span class="wb-pieces{" wb-past" if past else ""}" title="{note}">'
                             f'{word_pieces[number]} wp{" ⚠" if past else ""}</span>')
            if chunk.prefix:
                parts.append(f'<span class="wb-prefix">{html.escape(chunk.prefix)}</span>')
        text = html.escape(document.text[left:right])
        inside = covering[left]
        if not inside:
            parts.append(f'<span class="wb-out" title="In no chunk">{text}</span>')
        elif len(inside) == 1:
            number = inside[0]
            title = f"Chunk {number + 1} · {chunks[number].size} characters"
            parts.append(f'<span class="wb-c{number % 2}" title="{title}">{text}</span>')
        else:
            names = " and ".join(str(n + 1) for n in inside)
            parts.append(f'<span class="wb-overlap" title="Overlap: in chunks {names}">{text}</span>')
    parts.append("</div>")
    return "".join(parts)


def _covering(chunks: list[Chunk], points: list[int]) -> dict[int, list[int]]:
    """For each segment start, the chunks covering that segment (by a sweep over span edges)."""
    events: dict[int, list[tuple[int, int]]] = {}
    for number, chunk in enumerate(chunks):
        for a, b in chunk.spans:
            events.setdefault(a, []).append((1, number))
            events.setdefault(b, []).append((-1, number))
    active: dict[int, int] = {}
    result: dict[int, list[int]] = {}
    positions = sorted(set(events) | set(points))
    for position in positions:
        for delta, number in events.get(position, []):
            active[number] = active.get(number, 0) + delta
            if not active[number]:
                del active[number]
        result[position] = sorted(active)
    return result


def _document_offset(chunk: Chunk, at: int) -> int | None:
    """Where a character of the chunk's text sits in the document; None inside its prefix (breadcrumb)."""
    at -= len(chunk.prefix)
    for start, end in chunk.spans:
        if at < 0:
            return None
        if at <= end - start:
            return start + at
        at -= end - start + 1  # the "\n" that joins two spans
    return None


def chunk_with_answer(chunk: Chunk, answer: str, spans: list[tuple[int, int]] | None = None) -> str:
    """A chunk's text, escaped, with the answer marked: every occurrence, or with ``spans`` (where the
    answer sits in the expected section) only those, so another product's identical line is not marked
    as the answer."""
    text = chunk.text
    if not answer.strip():
        return f'<div class="wb-chunk">{html.escape(text)}</div>'
    parts, last = [], 0
    for match in answer_pattern(answer).finditer(text):
        if spans is not None:
            at = _document_offset(chunk, match.start())
            if at is None or not any(start <= at < end for start, end in spans):
                continue
        parts.append(html.escape(text[last : match.start()]))
        parts.append(f"<mark>{html.escape(match.group())}</mark>")
        last = match.end()
    parts.append(html.escape(text[last:]))
    return f'<div class="wb-chunk">{"".join(parts)}</div>'


def citation(document: Document, chunk: Chunk, isolate: bool = False) -> str:
    """Where a chunk came from, in words: its product or section, its path, and its lines or rows (in a knowledge
    base: the file first, then the place in its own text). ``isolate``: for a page a browser draws, each name of a
    right-to-left script a bidi isolate (``isolated``); a terminal, a CSV or JSON gets the names as written."""
    first = chunk.start
    found = document.file_at(first) if document.files else None
    if found is not None:
        part, own = found
        at = first - own
        local = Chunk(chunk.id, chunk.strategy, tuple((a - at, b - at) for a, b in chunk.spans), chunk.text, chunk.prefix)
        return f"{part.name}: {citation(part.document, local, isolate)}"
    # The one rule every output files a piece under (the section whose facts it holds most of): the rule "the
    # section it starts in" named a window starting on one product's last line break after that product, though
    # it held only the next one.
    filed = PieceSections(document, [chunk])
    section = filed.of(chunk) or document.sections[0]
    # The others whose facts it holds too, in the file's order: a window across two products names both.
    touched = filed.map.touched[0]
    others = [s.title for s in document.sections if s.id in touched and s.id != section.id]
    last = max(b for _, b in chunk.spans)
    line_from = document.text.count("\n", 0, first) + 1
    line_to = document.text.count("\n", 0, max(first, last - 1)) + 1
    where = f"line {line_from}" if line_from == line_to else f"lines {line_from}–{line_to}"
    if document.form.table:
        rows = sorted({f.row for s in document.sections for f in s.facts if f.row and _inside(f.span, chunk)})
        if rows:
            where = row_runs(rows)
    names = isolated(section.breadcrumb, *others) if isolate else [section.breadcrumb, *others]
    return f"{names[0]}, {where}" + (f", with {join_names(names[1:], 3)}" if others else "")


def _inside(span: Span, chunk: Chunk) -> bool:
    return any(a < span[1] and span[0] < b for a, b in chunk.spans)
