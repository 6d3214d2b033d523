"""The to-do's words rule: a customer's words that the product's text lacks (``missing_words``), compared by
their Snowball stems, less function words, the question's framing and the words of other products' names.
"""

from __future__ import annotations

import functools
import re

from workbench.grade.confidence import STOP_WORDS as QUESTION_STOP_WORDS
from workbench.read.resolve import fold
from workbench.search.retrievers import english_stop_words

# The to-do suggests words a customer uses that the text lacks; a function word ("just", "because") is never one,
# nor a word that frames the question or fills it out ("likely", "cause", "try", "long"): adding those to a line
# makes every line match every question a little more, and no answer more findable.
FRAMING_WORDS = frozenset(
    """come comes sell sells offer offers give available use likely cause causes caused reason long longer try
    tried trying problem problems issue issues happen happens happened work works working make makes made able
    possible usually normally actually really still ever exactly happen way ways kind sort type lot bit good best
    right wrong thing stuff say says said mean means write tell ask asked help soon little ready appear appears
    appeared seem seems"""
    .split()
)


@functools.cache
def _not_content() -> frozenset[str]:
    return english_stop_words() | QUESTION_STOP_WORDS | FRAMING_WORDS


@functools.cache
def _stemmer():
    """English Snowball (Porter2) from ``snowballstemmer``: a small, kept, pure-Python library with no model or data
    files, so "returning" is found in "returned" and "batteries" in "battery" (stripping -s/-es missed both)."""
    import snowballstemmer  # a few milliseconds, but only the to-do needs it

    return snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return _stemmer().stemWord(word)

WORD = re.compile(r"[^\W\d_]{3,}")


def content_words(text: str) -> list[str]:
    skip = _not_content()
    return [w for w in WORD.findall(text.lower()) if w not in skip]


def _stems(word: str) -> set[str]:
    """A word's Snowball stem: "colours" matches "colour" but not "colors", "returning" matches "returned"."""
    return {stem(word)}


def missing_words(question: str, section_text: str, name: str, others: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The question's own words that appear nowhere in the product's text (nor in its name), less any word that
    names, or is part of the name of, another product or section (``others``): adding "pro" to the Robot Vacuum's
    line while a "Robot Vacuum Pro" exists is the very confusion the question tests."""
    have = set()
    for word in content_words(section_text + " " + name):
        have |= _stems(word)
    taken = set()
    for other in others:
        for word in WORD.findall(fold(other).lower()):
            taken |= _stems(word)
    missing = []
    for word in content_words(question):
        stems = _stems(word)
        if not (stems & have) and not (stems & taken) and word not in missing:
            missing.append(word)
    return missing
