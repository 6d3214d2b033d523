"""Which writing systems a document uses, to warn where the English-trained model is weak."""

from __future__ import annotations

import regex

LATIN = regex.compile(r"\p{Latin}")
LETTER = regex.compile(r"\p{L}")


def non_latin_share(text: str, sample: int = 50_000) -> float:
    """The share of letters (in the first ``sample`` characters) that are not Latin script."""
    head = text[:sample]
    letters = len(LETTER.findall(head))
    return 1 - len(LATIN.findall(head)) / letters if letters else 0.0


def model_language_note(text: str) -> str | None:
    """A plain warning when much of the text is not in the Latin alphabet, else None."""
    share = non_latin_share(text)
    if share < 0.2:
        return None
    return (
        f"About {share:.0%} of this document's letters are not in the Latin alphabet. The meaning-based search "
        "(dense, hybrid, maxsim) uses all-MiniLM-L6-v2, which was trained on English: on this document it is "
        "unreliable, so judge by the word searches (keyword, bm25), which handle Hindi, Japanese and Chinese."
    )
