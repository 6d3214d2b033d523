"""What every chunking strategy shares: the registry, parameter checks, span helpers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from workbench.core.model import Chunk, Document, Span, make_chunk
from workbench.core.registry import Registry


class Strategy:
    """Cuts a document into chunks. Subclasses implement ``chunk`` only."""

    id: str = ""
    order: int  # where it is listed and run, and which of two tied setups is preferred (lower: plainer)
    label: str = ""  # a plain-words name for the screen, as ``name`` gives it
    sized_label: str = ""  # for a cut the size names: "{size}-character windows"
    default_size: int | None = None  # the size used when none is given (a cut that takes a size)
    control: bool = False  # a control tells whether a gain is real; it is never recommended
    explanation: str = ""
    params: tuple[str, ...] = ()  # which of size/overlap it takes

    @classmethod
    def name(cls, size: int | None = None) -> str:
        """ "300-character windows", "Cut at headings": what a person reads wherever this cut is shown."""
        if cls.sized_label:
            return cls.sized_label.format(size=size or cls.default_size)
        return cls.label or cls.id
    # Set by whoever runs a long cut (``cut.chunk_document``): asked every HEARD_EVERY sections, lines or
    # pieces, so a Stop is heard while a 100,000-row file is cut; it ends the cut by raising.
    between: Callable[[], None] | None = None

    def chunk(self, document: Document) -> list[Chunk]:
        raise NotImplementedError

    def _heard(self, count: int) -> None:
        """Give ``between`` its chance on every HEARD_EVERY-th step of a long loop."""
        if self.between is not None and count % HEARD_EVERY == 0:
            self.between()

    def _chunks(self, document: Document, pieces: Iterable[tuple[list[Span], str]]) -> list[Chunk]:
        """Number the (spans, prefix) pieces, dropping any that hold only blank space."""
        chunks = []
        for number, (spans, prefix) in enumerate(pieces):
            self._heard(number)
            spans = [span for span in spans if document.slice(span).strip()]
            if spans:
                chunks.append(make_chunk(document, self.id, len(chunks), spans, prefix))
        return chunks


STRATEGIES: Registry[Strategy] = Registry("strategy")
HEARD_EVERY = 2_000  # a fraction of a second of cutting on this project's machine


def check_size(size: object, name: str = "size") -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"{name} must be a whole number of characters of at least 1, not {size!r}")
    return size


def trim(text: str, span: Span) -> Span | None:
    """The span without blank space at its ends; None when nothing else is left."""
    start, end = span
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    start += len(piece) - len(piece.lstrip())
    return start, start + len(stripped)


# The blank space after . ! ? (and a closing quote or bracket) when a capital or digit follows.
SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+(?=[\"'(\[]?[A-Z0-9])")


def sentence_spans(text: str, span: Span, heard: Callable[[int], None] | None = None) -> list[Span]:
    """Sentences of ``text`` within ``span``: split at line ends and after . ! ? before a capital.

    ``heard`` (a strategy's ``_heard``) is told each line's number, for a chance to stop.
    """
    spans: list[Span] = []
    start, end = span
    for number, line in enumerate(re.finditer(r"[^\n]+", text[start:end])):
        if heard is not None:
            heard(number)
        line_start = start + line.start()
        position = line_start
        for match in SENTENCE_END.finditer(line.group()):
            _keep(spans, text, (position, line_start + match.start()))
            position = line_start + match.end()
        _keep(spans, text, (position, line_start + len(line.group())))
    return spans


def _keep(spans: list[Span], text: str, span: Span) -> None:
    """Add the span, trimmed, unless it is blank (trimmed as found: one list, not two, on a huge file)."""
    piece = trim(text, span)
    if piece:
        spans.append(piece)
