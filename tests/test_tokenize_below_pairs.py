"""``tokenize``'s words and the language finder's letter count of a text below Thai's block, found by the standard
library's engine (``listed_below_pairs``), are what ``regex`` finds with Unicode classes: each character is checked,
and random and real texts."""

from pathlib import Path

import pytest

from workbench.core import words
from workbench.core.words import CJK, FIRST_PAIRED, WORD, _word_below_pairs, listed_below_pairs, tokenize
from workbench.read.language import LETTER, LETTERS, letter_count

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def regex_words(text: str) -> list[str]:
    """``tokenize`` as it was: ``regex``'s Unicode classes for every text that is not ASCII, its digits read as
    ASCII ones first (``SCRIPT_DIGITS``), as ``tokenize`` reads them."""
    import unicodedata

    lowered = text.lower()
    if lowered.isascii():
        return words.ASCII_WORD.findall(lowered)
    lowered = unicodedata.normalize("NFC", lowered).translate(words.SCRIPT_DIGITS)
    if CJK.search(lowered) is None:
        return WORD.findall(lowered)
    return None  # character pairs: not what this checks


def test_every_character_below_thai_is_a_word_character_for_both_engines_or_for_neither():
    below = _word_below_pairs()
    for code in range(ord(FIRST_PAIRED)):
        character = chr(code)
        assert bool(below.fullmatch(character)) == bool(WORD.fullmatch(character)), hex(code)
        assert CJK.search(character) is None, hex(code)  # no character below is read as pairs
    assert CJK.search(FIRST_PAIRED) is None and CJK.search("\u0e01")  # Thai's first letter is paired
    # Letters, marks and digits of the scripts below; a space, punctuation and symbols are not. Every script's
    # digits are read as ASCII ones (``SCRIPT_DIGITS``): Arabic's "٣٤" is "34".
    assert tokenize("Größe: 42 cm, ĳ café\u0301 Ελληνικά кофе قهوة קפה कॉफ़ी ٣٤") == [
        "größe", "42", "cm", "ĳ", "café́", "ελληνικά", "кофе", "قهوة", "קפה", "कॉफ़ी", "34"]


BELOW = st.sampled_from([
    st.characters(min_codepoint=0x20, max_codepoint=0x24F),  # ASCII, Latin-1, Latin Extended
    st.characters(min_codepoint=0x250, max_codepoint=0x36F),  # IPA, modifier letters, combining marks
    st.characters(min_codepoint=0x370, max_codepoint=0x52F),  # Greek, Cyrillic
    st.characters(min_codepoint=0x590, max_codepoint=0x6FF),  # Hebrew, Arabic
    st.characters(min_codepoint=0x900, max_codepoint=0xDFF),  # Devanagari to Sinhala
    st.sampled_from(list(" \n\t.,:;-'\"_0123456789\u00a0\u2019")),
])


@settings(max_examples=400, deadline=None)
@given(st.lists(BELOW.flatmap(lambda script: st.text(script, min_size=1, max_size=10)), max_size=25))
def test_random_texts_below_thai_read_as_regex_reads_them(runs):
    text = "".join(runs)
    assert tokenize(text) == regex_words(text)


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFF), max_size=60))
def test_a_text_reaching_past_thai_is_read_as_before(text):
    expected = regex_words(text)
    if expected is not None:  # a text with a character read as pairs has its own path, unchanged
        assert tokenize(text) == expected


def test_the_real_files_lines_read_as_before():
    checked = 0
    for folder in (ROOT / "tests" / "data" / "real", ROOT.parent / "shared" / "real-data", ROOT / "sample_data"):
        for path in sorted(folder.glob("*")) if folder.is_dir() else ():
            if path.suffix in (".md", ".csv") and not path.name.endswith(".questions.csv"):
                for line in path.read_text(encoding="utf-8-sig").splitlines():
                    expected = regex_words(line)
                    if expected is not None:
                        assert tokenize(line) == expected
                        checked += 1
    assert checked > 1000


def test_every_character_below_thai_is_a_letter_for_both_engines_or_for_neither():
    below = listed_below_pairs(LETTERS)
    for code in range(ord(FIRST_PAIRED)):
        assert bool(below.fullmatch(chr(code))) == bool(LETTER.fullmatch(chr(code))), hex(code)
    # 5 + 1 + 1 + 3 + 4 + 4 + 2: marks (the acute, Devanagari's vowel signs and nukta) and digits are no letters
    assert letter_count("Größe 42, ĳ é\u0301 Ελλ кофе قهوة कॉफ़ी") == 20
    assert letter_count("배송비 무료, free") == 9  # past Thai: regex's letters


@settings(max_examples=300, deadline=None)
@given(st.lists(BELOW.flatmap(lambda script: st.text(script, min_size=1, max_size=10)), max_size=25),
       st.text(st.characters(min_codepoint=0xE00, max_codepoint=0xFFFF), max_size=3))
def test_letters_are_counted_as_regex_counts_them(runs, beyond):
    for text in ("".join(runs), "".join(runs) + beyond):
        assert letter_count(text) == len(LETTER.findall(text))
