"""A file's size in any script (``core.text_size``): the token estimate and the words-or-characters count."""

from pathlib import Path

from workbench.advise.audit import audit
from workbench.core.text_size import estimated_tokens, length, length_words
from workbench.read.loaders import load_path

WRITTEN = Path(__file__).parent / "data" / "written"


def test_english_keeps_four_characters_a_token():
    assert estimated_tokens("a" * 10) == round(10 / 4) == 2
    assert estimated_tokens("Café crème, 2 cups") == round(18 / 4) == 4  # not ASCII, no CJK: the same rule


def test_chinese_japanese_and_korean_are_a_token_a_character():
    # "送料は660円です。": 6 wide characters (送 料 は 円 で す), and "660。" at four a token: 6 + 4/4 = 7, where chars/4
    # said round(10 / 4) = 2.
    assert estimated_tokens("送料は660円です。") == 7
    assert estimated_tokens("サービス") == 4  # the long-vowel mark counts as kana
    assert estimated_tokens("배송비 3000원") == 5  # 배 송 비 원: 4, and " 3000" at four a token: 4 + 5/4 = 5.25
    # Thai, three letters a token: 11 letters, 11/3 = 3.7; 7 letters and a space, 7/3 + 1/4 = 2.6.
    assert estimated_tokens("ชาไทยลดราคา") == round(11 / 3) == 4
    assert estimated_tokens("ชาไทย ลด") == 3


def test_a_text_without_spaces_is_counted_in_characters():
    assert length("Wool socks, grey, 3 pairs") == (5, "words")
    assert length("送料は全国一律660円です。") == (14, "characters")
    assert length_words("배송비는 3000원입니다") == "2 words"  # Korean spaces its words
    # An English list naming a product in Japanese is still counted in words: 2 Chinese characters, 8 words.
    assert length("Tea cup (湯呑) in blue glaze, 3 sizes") == (8, "words")


def test_the_japanese_faq_says_its_size_in_characters():
    document = load_path(WRITTEN / "okurimono_faq_ja.md")
    result = audit(document, [])
    assert result.recommendation.startswith(f"Your file is about {len(document.text):,} characters. That is short")
    # 618 characters, 494 of them wide (no Thai): 124 / 4 + 494 = 525; chars/4 said 154.
    assert (len(document.text), result.tokens) == (618, 525)


def test_the_document_page_counts_a_japanese_file_in_characters_and_tokens_a_character():
    from tests.test_app import open_app, upload

    text = "# 店\n\n## 送料\n\n送料は全国一律660円です。\n"
    at = upload(open_app(), "faq.md", text.encode())
    assert not at.exception
    # 27 characters in all: 13 wide (店, 送料, 送料は全国一律, 円です), 14 others ("#", spaces, newlines, "660", "。"):
    # 13 + 14/4 = 16.5, which Python rounds to the even 16; chars/4 said 7.
    assert len(text) == 27 and [c.value for c in at.caption if "characters" in c.value][:1] == ["27 characters."]
    assert [m.value for m in at.metric if m.label == "Tokens (about)"] == ["16"]
