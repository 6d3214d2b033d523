"""The one words module (``core.words``): every word search, the confidence and the to-do read words alike."""

from __future__ import annotations

from workbench.advise.todo_words import content_words, missing_words
from workbench.core.words import (
    CHAT_WORDS,
    FUNCTION_WORDS,
    STOP_WORDS,
    question_terms,
    stem,
    subject_words,
    terms,
    tokenize,
)
from workbench.cut import chunk_document
from workbench.grade.confidence import WordEvidence
from workbench.read.loaders import parse_markdown
from workbench.search.retrievers import BM25, Keyword, question_counts
from workbench.search.tfidf import TfIdf


def test_unicode_words_stay_whole():
    assert tokenize("Größe: 42, Café crème") == ["größe", "42", "café", "crème"]
    assert terms("Die Größe im Café") == ["die", "größe", "im", "café"]  # no English stem to take off these


def test_keyword_and_bm25_read_unicode_words_alike():
    # Three pieces: BM25 gives a word in half the pieces no weight (rank-bm25's IDF).
    doc = parse_markdown("# S\n\n## Jacke\nGröße: M.\n\n## Café\nKaffee und Kuchen.\n\n## Zelt\nFür 2.\n", "s.md")
    chunks = chunk_document(doc, "heading")
    # Both find "größe" only in the Jacke piece and "café" only in the Café piece, as whole words; the ASCII-only
    # pattern keyword search had cut "größe" into "gr" and "e".
    for question, piece in (("Welche Größe?", 0), ("Café?", 1)):
        keyword, bm25 = Keyword(chunks).scores(question), BM25(chunks).scores(question)
        assert keyword.argmax() == bm25.argmax() == piece, question
        assert [i for i in range(3) if keyword[i] > 0] == [i for i in range(3) if bm25[i] > 0] == [piece]
    assert question_terms("Welche Größe?") == tuple(word for word, _ in question_counts("Welche Größe?"))


def test_one_stop_word_list():
    assert STOP_WORDS == FUNCTION_WORDS | CHAT_WORDS
    assert terms("What is the warranty, please? Thanks!") == ["warranti"]
    assert subject_words("Hi, I need to know the size of the tent") == ["size", "tent"]
    # Words that can name what a shop sells or a manual describes are not stop words, though scikit-learn's list
    # has them.
    assert not {"system", "fire", "front", "back", "top", "side", "first", "empty", "two", "find"} & STOP_WORDS


def test_snowball_stems():
    assert stem("warranties") == stem("warranty") == "warranti"
    assert [stem(w) for w in ("returns", "returning", "returned")] == ["return"] * 3
    assert stem("batteries") == stem("battery")
    assert stem("größe") == "größe" and stem("2") == "2"


def test_every_searcher_sees_the_same_terms():
    doc = parse_markdown(
        "# S\n\n## Batteries\nReturned batteries are recycled.\n\n## Tent\nSleeps two.\n\n## Lamp\nBright.\n", "s.md"
    )
    chunks = chunk_document(doc, "heading")
    question = "Can I return a battery?"
    assert question_terms(question) == ("return", "batteri")
    assert Keyword(chunks).scores(question).tolist() == [2.0, 0.0, 0.0]
    for search in (BM25(chunks), TfIdf(chunks)):
        scores = search.scores(question)
        assert scores[0] > 0 and scores[1] == scores[2] == 0, search
    # The to-do reads the same words and stems: nothing of this question is missing from the Batteries piece.
    assert missing_words(question, "Returned batteries are recycled.", "Batteries") == []
    assert content_words("Can I return a battery?") == ["return", "battery"]
    # The confidence reads the same words, not stemmed (see grade.confidence.line_words).
    evidence = WordEvidence(doc)
    assert evidence.question_words(question) == ["return", "battery"]


def test_a_text_of_several_lines_reads_as_its_lines_each_read_once():
    """``terms`` and the confidence's ``line_words`` read a text of several lines line by line (each line once per
    process): what reading the whole text at once gives, on every cut's pieces of the sample and the real files,
    English and German rules, and texts where a line break meets a final sigma, Chinese, camelCase or nothing."""
    from workbench.core.words import CJK, analyzer, tokenize
    from workbench.grade.confidence import CAMEL, line_words
    from workbench.read.loaders import load_path

    from .conftest import SAMPLE_CSV, SAMPLE_MD, real_data_files

    def whole_terms(reading, text):  # the reading before lines were read one by one
        return tuple(reading.stem(token) for token in tokenize(text) if token not in reading.stop_words)

    def whole_words(reading, text):
        split = CAMEL.sub(" ", text)
        words = frozenset(reading.subject_words(split)) | (
            frozenset(reading.subject_words(text)) if split != text else frozenset())
        return words if reading.languages == ("en",) else frozenset(map(reading.named, words))

    texts = ["ΟΔΟΣ\nΣΑΣ", "ΟΔΟΣ'\nΑ", "价格\n退货政策", "stockOn\nHand", "fooBar\nbaz", "\n\nPrice: 20\n", "a\n\nb",
             "Größe\nGROSSE", "x"]
    for path in [SAMPLE_MD, SAMPLE_CSV, *real_data_files()]:
        document = load_path(path)
        for strategy in ("fixed", "sentence", "heading", "breadcrumb"):
            texts += [chunk.text for chunk in chunk_document(document, strategy)]
    assert sum("\n" in text for text in texts) > 100 and any(CJK.search(text) for text in texts)
    for reading in (analyzer(("en",)), analyzer(("de", "en"))):
        for text in texts:
            assert tuple(reading.terms(text)) == whole_terms(reading, text), text[:80]
            assert line_words(text, reading) == whole_words(reading, text), text[:80]


def test_the_languages_read_as_character_pairs_are_said_once_in_the_language_table():
    """``LANGUAGES`` names the scripts each language has read as pairs: the tokenizer's runs (``CJK``) and the
    to-do's languages of missing character runs (``PAIRED``) both come from it."""
    from workbench.advise import todo_words
    from workbench.core.words import CJK, LANGUAGES, PAIRED, tokenize

    assert PAIRED == {"ja", "zh", "ko", "th"} and todo_words.PAIRED is PAIRED
    for code, sample in {"ja": "ラッピング", "zh": "多少钱", "ko": "배송은", "th": "ราคา"}.items():
        assert LANGUAGES[code].paired and CJK.fullmatch(sample)
    assert CJK.search("Größe ελληνικά русский عربي") is None
    assert tokenize("배송은 free") == ["배송", "송은", "free"]
