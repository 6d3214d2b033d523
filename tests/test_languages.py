"""Beyond English: words (`core.words.tokenize`) stay whole in Devanagari; Japanese and Chinese go by character pairs."""

from __future__ import annotations

from workbench.core.model import Question, Settings
from workbench.core.words import tokenize
from workbench.read.loaders import parse_markdown
from workbench.run.evaluate import evaluate

HINDI = (
    "# मूल्य सूची\n\n"
    "## छत का पंखा\nकीमत: ₹२४९९\nवारंटी: २ साल\n\n"
    "## टेबल पंखा\nकीमत: ₹९९९\nवारंटी: १ साल\n\n"
    "## हीटर\nकीमत: ₹१४९९\nवारंटी: १ साल\n"
)
JAPANESE = (
    "# 価格表\n\n"
    "## 天井扇風機\n価格：12800円\n保証：2年\n\n"
    "## 卓上扇風機\n価格：3980円\n保証：1年\n\n"
    "## 電気ストーブ\n価格：5980円\n保証：1年\n"
)


def test_devanagari_words_keep_their_vowel_signs_and_viramas():
    # "\\w+" would cut कीमत into क + मत (the vowel sign ी is a combining mark, not a letter).
    # Devanagari's digits are read as the ASCII ones customers also type (tests/test_blind_languages.py).
    assert tokenize("कीमत: ₹२४९९, वारंटी २ साल") == ["कीमत", "2499", "वारंटी", "2", "साल"]
    assert tokenize("क्या") == ["क्या"]  # a virama joins the cluster


def test_japanese_is_indexed_by_character_pairs():
    assert tokenize("天井扇風機の保証") == ["天井", "井扇", "扇風", "風機", "機の", "の保", "保証"]
    assert tokenize("価格：3980円") == ["価格", "3980", "円"]


def graded(text: str, name: str, questions: list[Question]) -> list[str]:
    evaluation = evaluate(parse_markdown(text, name), questions, Settings(["heading"], ["bm25"], ["none"]))
    return [result.grade for result in evaluation.runs[0].per_question]


def test_hindi_price_list_answers_cleanly():
    questions = [
        Question("टेबल पंखा की कीमत क्या है?", "टेबल पंखा", "कीमत: ₹९९९"),
        Question("हीटर की वारंटी कितनी है?", "हीटर", "वारंटी: १ साल"),
        Question("छत का पंखा की वारंटी?", "छत का पंखा", "वारंटी: २ साल"),
    ]
    assert graded(HINDI, "hindi.md", questions) == ["clean", "clean", "clean"]


def test_japanese_price_list_answers_cleanly():
    questions = [
        Question("卓上扇風機の価格は？", "卓上扇風機", "価格：3980円"),
        Question("電気ストーブの保証は？", "電気ストーブ", "保証：1年"),
        Question("天井扇風機の保証期間は？", "天井扇風機", "保証：2年"),
    ]
    assert graded(JAPANESE, "japanese.md", questions) == ["clean", "clean", "clean"]
