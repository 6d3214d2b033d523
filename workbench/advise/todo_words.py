"""The to-do's words rule: a customer's words that the product's text lacks (``missing_words``), compared by
their Snowball stems (``core.words``, as every search reads them), less stop words, the question's framing and
the words of other products' names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container

from workbench.core.words import ENGLISH, STOP_WORDS, WORD, Analyzer, tokenize
from workbench.read.resolve import fold

# The to-do suggests words a customer uses that the text lacks; a stop word ("just", "because") is never one,
# nor a word that frames the question or fills it out ("likely", "cause", "try", "long"): adding those to a line
# makes every line match every question a little more, and no answer more findable. Not a second stop-word
# list: a search must still match these ("Problem: the screen stays dark" is the line to find), they are only
# never worth adding to a line. Numbers spelt out ("five") are values, as digits are (``words_of`` skips those).
FRAMING_WORDS = frozenset(
    """come comes sell sells offer offers give available use likely cause causes caused reason long longer try
    tried trying problem problems issue issues happen happens happened work works working make makes made able
    possible usually normally actually really exactly ways kind sort type lot bit good best right wrong stuff say
    says said mean means write ask asked help soon little ready appear appears appeared find see show take put go
    keep fill describe back last lasts two three four five six seven eight nine ten eleven twelve twenty
    hundred"""
    .split()
)
_DIGIT = re.compile(r"\d")

NOT_CONTENT = STOP_WORDS | FRAMING_WORDS


def words_of(text: str) -> list[str]:
    """A text's words as the to-do may suggest them: ``core.words.tokenize``'s words of three letters or more, no
    digits (a number or "kg" is a value, not a word a customer would miss)."""
    return [word for word in tokenize(text) if len(word) >= 3 and not _DIGIT.search(word)]


def content_words(text: str, analyzer: Analyzer = ENGLISH) -> list[str]:
    """``words_of`` less the document's stop words and the framing words (English's, and the question words of the
    document's languages: ``Analyzer.question_words``)."""
    not_content = NOT_CONTENT if analyzer is ENGLISH else analyzer.stop_words | analyzer.question_words | FRAMING_WORDS
    return [w for w in words_of(text) if w not in not_content]


def _stems(word: str, analyzer: Analyzer = ENGLISH) -> set[str]:
    """A word's Snowball stem: "colours" matches "colour" but not "colors", "returning" matches "returned"."""
    return {analyzer.stem(word)}


def missing_words(question: str, section_text: str, name: str, others: tuple[str, ...] | list[str] = (),
                  elsewhere: Container[str] = (), analyzer: Analyzer = ENGLISH) -> list[str]:
    """The question's own words that appear nowhere in the product's text (nor in its name), less any word that
    names, or is part of the name of, another product or section (``others``): adding "pro" to the Robot Vacuum's
    line while a "Robot Vacuum Pro" exists is the very confusion the question tests. Less, too, any word whose stem
    the other sections' text already uses (``elsewhere``): that word is theirs as well, and written here it draws
    their questions ("new", "system", "version" added to a manual's Firmware section fixed the question they came
    from and lost two others that were not asked when the fix was written: bench/proof.py's held-back questions).
    The words are read in the document's language (``analyzer``), as the searches read them."""
    have = set()
    for word in content_words(section_text + " " + name, analyzer):
        have |= _stems(word, analyzer)
    taken = set()
    for other in others:
        for word in words_of(fold(other)):
            taken |= _stems(word, analyzer)
    missing = []
    for word in content_words(question, analyzer):
        stems = _stems(word, analyzer)
        if not (stems & have) and not (stems & taken) and not any(s in elsewhere for s in stems) and word not in missing:
            missing.append(word)
    spelled = as_asked(question)
    return [spelled.get(word, word) for word in missing]


def as_asked(question: str) -> dict[str, str]:
    """Each lowercased word of the question, spelt as the customer wrote it: the to-do writes it into the shop's
    text, where a German noun is capitalised ("Suchbegriffe: Wollsocken", not "wollsocken") and "USB" is not
    "usb". The question's first word keeps only a capital past its first letter ("iPhone", "USB"): "Wool socks?"
    is capitalised for the sentence, not for the word."""
    spelled: dict[str, str] = {}
    for index, match in enumerate(WORD.finditer(question)):
        word = match.group()
        if index == 0 and word[1:] == word[1:].lower():
            continue
        spelled.setdefault(word.lower(), word)
    return spelled


class StemsBySection:
    """Which sections' text (heading and lines) uses each stem, counted once: ``elsewhere(section)`` is the stems
    some other section uses."""

    def __init__(self, document, analyzer: Analyzer = ENGLISH) -> None:
        self.own = {}
        self.count: Counter[str] = Counter()
        for section in document.sections:
            text = " ".join([section.heading, *(document.slice(fact.span) for fact in section.facts)])
            stems = {analyzer.stem(word) for word in words_of(text)}
            self.own[section.id] = stems
            self.count.update(stems)

    def elsewhere(self, section_id: str) -> _Elsewhere:
        return _Elsewhere(self, self.own.get(section_id, set()))


class _Elsewhere:
    """``stem in elsewhere``: some section other than one uses the stem (asked per word, never listed)."""

    def __init__(self, stems: StemsBySection, own: set[str]) -> None:
        self.stems, self.own = stems, own

    def __contains__(self, word: object) -> bool:
        return self.stems.count.get(word, 0) - (word in self.own) > 0
