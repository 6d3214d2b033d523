"""What every chunking strategy shares: the registry, parameter checks, span helpers."""

from __future__ import annotations

import re

from ..model import Chunk, Document, Span, make_chunk
from ..registry import Registry


class Strategy:
    """Cuts a document into chunks. Subclasses implement ``chunk`` only."""

    id: str = ""
    label: str = ""  # a plain-words name for the screen (see names.py)
    control: bool = False  # a control tells whether a gain is real; it is never recommended
    explanation: str = ""
    params: tuple[str, ...] = ()  # which of size/overlap it takes

    def chunk(self, document: Document) -> list[Chunk]:
        raise NotImplementedError

    def _chunks(self, document: Document, pieces: list[tuple[list[Span], str]]) -> list[Chunk]:
        """Number the (spans, prefix) pieces, dropping any that hold only blank space."""
        chunks = []
        for spans, prefix in pieces:
            spans = [span for span in spans if document.slice(span).strip()]
            if spans:
                chunks.append(make_chunk(document, self.id, len(chunks), spans, prefix))
        return chunks


STRATEGIES: Registry[Strategy] = Registry("strategy")


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


def sentence_spans(text: str, span: Span) -> list[Span]:
    """Sentences of ``text`` within ``span``: split at line ends and after . ! ? before a capital."""
    spans: list[Span] = []
    start, end = span
    for line in re.finditer(r"[^\n]+", text[start:end]):
        line_start = start + line.start()
        position = line_start
        for match in SENTENCE_END.finditer(line.group()):
            spans.append((position, line_start + match.start()))
            position = line_start + match.end()
        spans.append((position, line_start + len(line.group())))
    return [piece for piece in (trim(text, s) for s in spans) if piece]
