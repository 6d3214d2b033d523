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
