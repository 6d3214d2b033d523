"""The head of a long document: what the pages that draw every piece look at, so they answer in seconds.

The canonical text is cut at the end of a section, so every kept section, fact and offset is unchanged
and the head is an ordinary Document that any strategy can cut.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from workbench.core.model import Document

# About 100,000 tokens: cut, mapped and drawn in a second or two; a 100,000-row catalog is ~20 million.
PAGE_CHARACTERS = 400_000


@dataclass(frozen=True)
class Head:
    document: Document  # the head itself, or the whole document when it is short
    sections: int  # sections with facts kept
    total_sections: int  # sections with facts in the whole document

    @property
    def partial(self) -> bool:
        return self.sections < self.total_sections


def head(document: Document, characters: int = PAGE_CHARACTERS) -> Head:
    """The sections that end within the first ``characters`` (at least the first one that has facts)."""
    total = sum(1 for section in document.sections if section.facts)
    if len(document.text) <= characters:
        return Head(document, total, total)
    if document.files:  # a knowledge base: its first files whole, then the head of the one the limit falls in
        return _base_head(document, characters, total)
    kept = []
    for section in document.sections:
        if section.span[1] > characters and any(s.facts for s in kept):
            break
        kept.append(section)
    end = max(section.span[1] for section in kept)
    text = document.text[:end]
    text += "" if text.endswith("\n") else "\n"  # as every loader ends its text
    short = replace(document, text=text, sections=tuple(kept))
    return Head(short, sum(1 for section in kept if section.facts), total)


def _base_head(document: Document, characters: int, total: int) -> Head:
    """The head of a knowledge base: still a base of whole files (or one file's head), so no piece is cut from a
    file's text the head does not hold."""
    from workbench.read.base_of_files import combine

    kept = []
    for part in document.files:
        if part.start >= characters and kept:
            break
        if part.end <= characters:
            kept.append(part.document)
            continue
        kept.append(head(part.document, max(characters - part.start, 1)).document)
        break
    short = kept[0] if len(kept) == 1 else combine(kept, name=document.name)
    return Head(short, sum(1 for section in short.sections if section.facts), total)
