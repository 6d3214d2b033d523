"""How big a text is, said truly in any script: its length in words or characters (``length``), and about how
many tokens a chat model reads it as (``estimated_tokens``). Every figure of a file's size the owner sees comes
from here: the report's and the check-up's size advice, the file page's counts."""

from __future__ import annotations

import regex

# Characters a tokenizer reads one by one, about a token each: Chinese characters, kana (with the long-vowel mark, a
# "common" character, as in "サービス") and Hangul syllables. On the probe files (tests/data/written: the two Japanese,
# the two Chinese and the Korean file), each run of them tokenized alone: Han and kana 2,511 characters, 2,491
# pieces with all-MiniLM-L6-v2's tokenizer (0.99 a character) and 2,190 with multilingual-e5-small's (0.87); Hangul
# 683 characters, 552 pieces with E5's (0.81; MiniLM's, 1,303, splits each syllable into its letters). One token a
# character, where "four characters a token" said a quarter.
WIDE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー]")
# Thai: 887 characters of the Thai probe file, 291 pieces with E5's tokenizer (0.33 a character; MiniLM's knows no
# Thai letter and reads each run as one unknown piece, so it is not counted). Three characters a token.
THAI = regex.compile(r"\p{Thai}")
# Every other character: four a token, the usual rule for English (and the figure before scripts were told apart).
CHARACTERS_PER_TOKEN = 4
THAI_CHARACTERS_PER_TOKEN = 3
# Scripts written without spaces between words (Chinese, Japanese, Thai; not Korean, which spaces its words).
SPACELESS = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}ー]")


def estimated_tokens(text: str) -> int:
    """About how many tokens a chat model reads ``text`` as: a token a Chinese, Japanese or Korean character, one
    every three Thai characters, one every four other characters. A text of none of those scripts gets exactly the
    old figure, ``round(len(text) / 4)``."""
    if text.isascii():
        return round(len(text) / CHARACTERS_PER_TOKEN)
    wide, thai = len(WIDE.findall(text)), len(THAI.findall(text))
    other = len(text) - wide - thai
    return round(other / CHARACTERS_PER_TOKEN + wide + thai / THAI_CHARACTERS_PER_TOKEN)


def length(text: str) -> tuple[int, str]:
    """The text's length as the owner would count it: ``(words, "words")``, or ``(characters, "characters")`` for a
    text with more characters of a script written without spaces than words between spaces (a Japanese FAQ of 618
    characters is 23 "words" split at spaces)."""
    words = len(text.split())
    if not text.isascii() and len(SPACELESS.findall(text)) > words:
        return len(text), "characters"
    return words, "words"


def length_words(text: str) -> str:
    """``length`` in words: "1,234 words", "618 characters"."""
    count, unit = length(text)
    return f"{count:,} {unit}"


# The file page's help for its token figure.
TOKENS_HELP = ("A token is about four characters of English, about one Chinese, Japanese or Korean character, and about "
               "three Thai characters.")
