"""What a question written without spaces asks about: its own words, cut from how it is asked.

Japanese, Chinese, Thai and Korean (whose words carry their particles) are searched as character pairs
(``core.words.tokenize``). A customer's question glues what it asks about to how it asks: "送料っていくらですか" is
"送料" and "っていくらですか", so its pairs "料っ", "いく", "くら", "らで" name nothing a shop's text says, whether the
shop answers or not. Two parts read the question's own words instead of all its pairs: the to-do, which offers
words the text lacks (``advise.todo_words.missing_runs``), and the confidence, which asks whether the file names
what the question names (``grade.confidence``).
"""

from __future__ import annotations

import unicodedata

import regex

from workbench.core.word_lists import (
    CHINESE_FUNCTION_CHARACTERS,
    JAPANESE_FUNCTION_KANA,
    KOREAN_ENDINGS,
    KOREAN_LEADING_ENDINGS,
    KOREAN_PARTICLES,
    KOREAN_QUESTION_WORDS,
    THAI_QUESTION_WORDS,
)
from workbench.core.words import PAIRED_LETTERS

# The languages read as character pairs: a question's runs of characters are cut at the language's function
# characters (and Thai's question words) and, in Japanese, into its words: "プレゼント用にラッピングしてもらえる" is
# "プレゼント", "用", "ラッピング" ("し", "ら": hiragana alone, how it is asked). "ー" is part of a katakana word.
_RUN = regex.compile(f"[{PAIRED_LETTERS}ー]+")
# Japanese words: a katakana word; kanji with their kana ending ("代引き", "湯呑み") and an honorific "お" or "ご"
# before them ("お店"); hiragana alone.
_JAPANESE_WORD = regex.compile(r"[\p{Katakana}ー]+|[おご]?[^\p{Katakana}ー\p{Hiragana}]+\p{Hiragana}*|\p{Hiragana}+")
_HIRAGANA = regex.compile(r"\p{Hiragana}+")
_FUNCTION_CHARACTERS = {"ja": JAPANESE_FUNCTION_KANA, "zh": CHINESE_FUNCTION_CHARACTERS}
_THAI_ASKING = regex.compile("|".join(sorted(THAI_QUESTION_WORDS.split(), key=len, reverse=True)))
# The languages whose confidence reads a question as its pieces: Thai, whose customers glue "ได้ไหม", "มั้ย", "คะ" to
# what they ask ("ส่งไปลาวได้ไหม"), so the pairs across them named nothing a file says, answered or not. Decided on the
# probe files' even question rows and judged on the odd ones (BENCHMARKS.md, "Refusing in the shop's language, a
# third time"): Thai's odd rows gained; Japanese's, Korean's (with a light verb's "-하면", "-되나요" taken off too) and
# Chinese's did not, though their even rows did, so they read every pair as before.
ASKED_APART = frozenset({"th"})


def _asked(text: str, language: str) -> str:
    """The question composed, with Thai's question words taken out."""
    text = unicodedata.normalize("NFC", text)
    return _THAI_ASKING.sub(" ", text) if language == "th" else text


def _run_pieces(run: str, language: str) -> list[str]:
    """One run's pieces (``question_pieces``)."""
    stops = _FUNCTION_CHARACTERS.get(language, "")
    pieces = []
    for piece in "".join(" " if character in stops else character for character in run).split():
        if language == "ja":
            pieces += [part for part in _JAPANESE_WORD.findall(piece) if not _HIRAGANA.fullmatch(part)]
        elif language == "ko" and piece[-1] in KOREAN_ENDINGS:  # "얼마예요", "있어요", "있습니까": how it is asked
            continue
        elif language == "ko" and (piece.startswith(KOREAN_QUESTION_WORDS) or piece == "왜"
                                   or piece.endswith(KOREAN_LEADING_ENDINGS)):  # "몇시까지", "싶은데"
            continue
        elif language == "ko" and len(piece) > 2 and piece[-1] in KOREAN_PARTICLES:
            pieces.append(piece[:-1])
        else:
            pieces.append(piece)
    return pieces


def question_pieces(question: str, language: str) -> list[str]:
    """The question's runs of characters read as pairs, cut at the language's function characters and Thai's question
    words (``word_lists``) and, in Japanese, into its words (``_JAPANESE_WORD``): one all in hiragana is how the
    question is put ("いくら", "かわり"), never a word to add. A Korean word's particle is left off ("참기름은" is
    "참기름"), and a word with a polite verb ending ("얼마예요"), a question word on its front ("몇시까지") or a
    leading clause's ending ("싶은데", "주문하면") is how it is asked. As the customer wrote them."""
    return [piece for run in _RUN.findall(_asked(question, language)) for piece in _run_pieces(run, language)]


def asked_text(question: str, language: str) -> str:
    """The question with each run of characters read as pairs put as its pieces (``question_pieces``), apart, so no
    pair runs across how it is asked; its other words (a Latin "Kerry", a number) as they are. Only in the languages
    of ``ASKED_APART``; another language's question as it is."""
    if language not in ASKED_APART:
        return question
    return _RUN.sub(lambda run: " " + " ".join(_run_pieces(run.group(), language)) + " ", _asked(question, language))
