"""The to-do's words rule: a customer's words that the product's text lacks (``missing_words``), compared by
their Snowball stems (``core.words``, as every search reads them), less stop words, the question's framing and
the words of other products' names.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Container

from workbench.core.asked import question_pieces
from workbench.core.named_forms import MARKS
from workbench.core.quoting import STOPS
from workbench.core.words import (
    ENGLISH,
    FULL_WIDTH_PUNCTUATION,
    PAIRED,
    SEARCH_WORDS_LABEL,
    STOP_WORDS,
    WORD,
    Analyzer,
    tokenize,
)
from workbench.read.question_wordings_asia import chinese_script
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


@functools.cache
def _not_content(analyzer: Analyzer) -> frozenset[str]:
    """The words ``content_words`` leaves out: the document's stop words and the framing words (English's, and the
    question words of the document's languages: ``Analyzer.question_words``); made once per analyzer."""
    return NOT_CONTENT if analyzer is ENGLISH else analyzer.stop_words | analyzer.question_words | FRAMING_WORDS


def content_words(text: str, analyzer: Analyzer = ENGLISH) -> list[str]:
    """``words_of`` less the words no customer asks about (``_not_content``)."""
    not_content = _not_content(analyzer)
    return [w for w in words_of(text) if w not in not_content]


@functools.cache
def function_stems(analyzer: Analyzer) -> frozenset[str]:
    """The stems of the words ``content_words`` leaves out (a stem has no accents): a word of another
    form with one of these stems is a form of a function word the lists do not spell out ("vejo", "I see", of
    Portuguese "ver"; "müsste" of "müssen"; "powinienem" of "powinien"), how a customer asks, never worth adding."""
    return frozenset(analyzer.stem(word) for word in _not_content(analyzer))


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
        if stems & function_stems(analyzer):
            continue
        if not (stems & have) and not (stems & taken) and not any(s in elsewhere for s in stems) and word not in missing:
            missing.append(word)
    spelled = as_asked(question)
    found = [spelled.get(word, word) for word in missing]
    if analyzer.languages[0] in PAIRED:
        own = set(analyzer.terms(name))
        taken_pairs = {term for other in others for term in analyzer.terms(other)} - own
        found += [run for run in missing_runs(question, set(analyzer.terms(section_text + "\n" + name)), taken_pairs,
                                              elsewhere, analyzer) if run not in found]
    return found


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
            if analyzer.languages[0] in PAIRED:  # and the character pairs ``missing_runs`` compares
                stems |= set(analyzer.terms(text))
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


def missing_runs(question: str, have: Container[str], taken: Container[str], elsewhere: Container[str],
                 analyzer: Analyzer) -> list[str]:
    """The question's own runs of characters (``question_pieces``), two letters or more, none of whose pairs the
    product's text uses (``have``: its terms), as written: "ラッピング", not its pairs. A run some of whose pairs the
    text has is left out whole: a part of it ("름은" of "참기름은", when the text says "참기름") is no word. A pair that
    is a stop (``CHARACTER_STOPS``) counts for neither. Less a run all of whose pairs another product's name holds
    (``taken``) or the other sections' text uses (``elsewhere``), as ``missing_words`` leaves out such words."""
    found: list[str] = []
    for piece in question_pieces(question, analyzer.languages[0]):
        if analyzer.languages[0] == "th":
            piece = thai_new_part(piece, have, analyzer)
        terms = analyzer.terms(piece)
        if len(MARKS.sub("", piece)) < 2 or not terms or any(term in have for term in terms):
            continue
        if all(t in taken for t in terms) or all(t in elsewhere for t in terms) or piece in found:
            continue
        found.append(piece)
    return found


THAI_LEADING_VOWELS = "เแโใไ"


def thai_new_part(piece: str, have: Container[str], analyzer: Analyzer) -> str:
    """A Thai piece less the word the text has at its front: a Thai customer writes without spaces, so a word the
    text has is glued to the one it lacks ("ส่งเคอรี่", "send" and "Kerry", where the text writes Kerry in Latin
    letters): the piece is "เคอรี่". The front is the longest run from the start all of whose character pairs the text
    has (letters, their tone and vowel marks riding on them, as ``analyzer.terms`` reads them); the piece whole if
    the text lacks its first pair. It ends before a leading vowel ("ส่งเ" of "แจ้งเลข" is no word). ``missing_runs`` still drops a rest the text has any pair of."""
    starts = [index for index, character in enumerate(piece) if unicodedata.category(character) != "Mn"]
    ends = starts[1:] + [len(piece)]
    known = 0  # letters at the front whose pairs the text has
    while known + 1 < len(starts) and any(term in have for term in analyzer.terms(piece[starts[known] : ends[known + 1]])):
        known += 1
    while known and piece[starts[known]] in THAI_LEADING_VOWELS:  # written before its consonant: no word ends so
        known -= 1
    if known == 0:
        return piece
    return piece[ends[known]:] if known + 1 < len(starts) else ""


def search_words_text(analyzer: Analyzer, words: list[str], label: str | None = None) -> str:
    """"Search words: jumper, pullover." in the file's language ("Mots-clés : pull."): it is the shop's own text;
    ``label`` in place of the language's own (``words_label``: Chinese in traditional characters). Japanese and
    Chinese write full-width punctuation with no space after it: "検索キーワード：ラッピング、お店。"."""
    label = label or analyzer.search_words_label
    if analyzer.languages[0] in FULL_WIDTH_PUNCTUATION:
        return f"{label}{'、'.join(words)}。"
    return f"{label} {', '.join(words)}."


def words_label(analyzer: Analyzer, text: str) -> str:
    """The label the customer's words go under in this text: its language's, and for Chinese written in traditional
    characters (Taiwan, Hong Kong) "搜尋關鍵字：", not the simplified "搜索关键词：": the words go into the shop's text."""
    if analyzer.languages[0] == "zh" and chinese_script(text) == "zh-Hant":
        return SEARCH_WORDS_LABEL["zh-Hant"]
    return analyzer.search_words_label


def bracketed(analyzer: Analyzer, text: str) -> str:
    """``search_words_text`` in brackets inside a sentence, without its stop: " (Search words: guarantee)", and in
    Japanese or Chinese "（検索キーワード：ラッピング）" (the sentence's "。" follows)."""
    if analyzer.languages[0] in FULL_WIDTH_PUNCTUATION:
        return f"（{text.rstrip('。')}）"
    return f" ({text.rstrip('.')})"


def appended_sentence(analyzer: Analyzer, cell: str, words: list[str], label: str | None = None) -> str:
    """What the to-do appends to a cell's text: the stop its last sentence lacks, then ``search_words_text`` (after
    a space, but after a full-width stop, which takes none)."""
    text, end = search_words_text(analyzer, words, label), cell.rstrip()[-1:]
    if analyzer.languages[0] in FULL_WIDTH_PUNCTUATION:
        return ("" if not cell or end in STOPS else "。") + text
    stop = "" if not cell or end in ".!?" else "."
    return f"{stop} {text}"
