"""The document's language, found (`read.language`), and its words read with that language's rules (`core.words`)."""

import pickle
from pathlib import Path

from workbench.core.model import Settings
from workbench.core.words import ENGLISH, STOP_WORDS, analyzer, terms
from workbench.read.language import analyzer_for, document_languages, question_language, reading_sentence
from workbench.read.loaders import load_bytes, load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate
from workbench.search.retrievers import BM25, ranks, starts_of

WRITTEN = Path(__file__).parent / "data" / "written"
GERMAN = WRITTEN / "shop_terms_de.md"
GERMAN_QUESTIONS = WRITTEN / "shop_terms_de.questions.csv"
SAMPLE = Path(__file__).parent.parent / "sample_data"


def test_german_words_meet_their_inflections_and_lose_their_stop_words():
    german = analyzer(("de",))
    assert german.terms("Wann kommt das Sofa?") == ["kommt", "sofa"]  # "wann", "das" are German stop words
    assert german.terms("Rücksendungen") == german.terms("Rücksendung") == ["rucksend"]
    assert german.terms("Kann ich reduzierte Sachen umtauschen?") == ["reduziert", "sach", "umtausch"]
    # English rules keep every German word whole and unstemmed: nothing meets.
    assert ENGLISH.terms("Wann kommt das Sofa?") == ["wann", "kommt", "das", "sofa"]


def test_french_stems_lose_their_accents_so_a_customer_may_leave_them_out():
    french = analyzer(("fr",))
    assert french.terms("Un échange ?") == french.terms("un echange") == ["echang"]
    assert french.terms("cassée") == french.terms("cassé") == ["cass"]  # stemmed first: "ée" is a known ending
    assert "a" in french.stop_words and "à" in french.stop_words  # a folded stop word is one too


def test_english_reads_as_it_always_did():
    assert analyzer(("en",)) is ENGLISH and ENGLISH.stop_words is STOP_WORDS
    assert terms("Returning batteries?") == ENGLISH.terms("Returning batteries?") == ["return", "batteri"]
    assert ENGLISH.stem("café") == "café"  # English never folds: outputs stay as they were


def test_a_second_language_adds_its_stop_words_and_keeps_the_main_stems():
    mixed = analyzer(("en", "fr"))
    assert mixed.algorithm == "english" and mixed.names == ["English", "French"]
    assert mixed.stop_words == STOP_WORDS | analyzer(("fr",)).stop_words
    assert mixed.terms("The table pour six chaises") == ["tabl", "six", "chais"]  # "the", "pour" dropped


def test_a_remembered_analyzer_comes_back_as_the_one_of_its_languages():
    assert pickle.loads(pickle.dumps(analyzer(("de",)))) is analyzer(("de",))


def test_the_document_language_is_found_per_section_and_per_column():
    assert document_languages(load_path(GERMAN)) == ("de",)
    assert document_languages(load_path(WRITTEN / "shop_faq_fr.md")) == ("fr",)
    for name in ("breezy_home_price_list.csv", "breezy_home_price_list.md", "breezy_home_policies.md"):
        assert document_languages(load_path(SAMPLE / name)) == ("en",), name
    # English and French columns side by side: both found, French first (its cells hold more letters).
    rows = "".join(f"{i},Oak dining table {i},Table à manger en chêne {i},A solid oak table that seats six and folds "
                   f"away,Une table en chêne massif pour six personnes qui se replie\n" for i in range(5))
    mixed = load_bytes(("sku,name,name_fr,description,description_fr\n" + rows).encode(), "mixed.csv")
    assert document_languages(mixed) == ("fr", "en")
    assert analyzer_for(mixed).languages == ("fr", "en")
    # Too few letters to tell (a price and a heading): no language, and the English reading of before.
    tiny = load_bytes(b"# Shop\n\n## Fan\nPrice: 10\n", "tiny.md")
    assert document_languages(tiny) == () and analyzer_for(tiny) is ENGLISH


def test_questions_in_another_language_add_its_stop_words():
    policies = load_path(SAMPLE / "breezy_home_policies.md")
    asked = ["Wie lange dauert die Lieferung nach Österreich?", "Kann ich reduzierte Ware zurückschicken?"]
    assert question_language(asked) == "de"
    assert analyzer_for(policies, asked).languages == ("en", "de")
    assert analyzer_for(policies, ["How long does delivery take?"]) is ENGLISH
    assert reading_sentence(policies, None, analyzer_for(policies, asked)) == (
        "Written in English; read with English word rules. Your questions are in German: word search finds only the "
        "words they share with the file, so judge by the meaning-based search.")


def test_latvian_is_named_and_read_with_its_own_rules():
    # Latvian was found but read as English until blind45 (its words now whole, without accents and their case's
    # ending off: tests/test_blind45.py); Bulgarian, the example before it, has its own rules too.
    text = ("# Cenrādis\n\n## Ventilators\nVentilatora cena ir deviņdesmit deviņi eiro, garantija ir viens gads. "
            "Piegāde uz mājām ir bezmaksas, un preci var atgriezt trīsdesmit dienu laikā. Ventilators ir ļoti kluss "
            "un piemērots guļamistabai un birojam.\n")
    latvian = load_bytes(text.encode(), "lv.md")
    assert document_languages(latvian) == ("lv",) and analyzer_for(latvian).languages == ("lv",)
    assert reading_sentence(latvian) == "Written in Latvian; read with Latvian word rules."


def test_hindi_is_read_with_its_own_rules_now():
    # Hindi was read as English (its words whole, no stop words); Snowball's Hindi stemmer and its stop words now.
    text = "# मूल्य सूची\n\n## पंखा\nकीमत ₹९९९ है और वारंटी एक साल की है। घर पर मुफ्त डिलीवरी मिलती है और आप तीस दिन में लौटा सकते हैं।\n"
    hindi = load_bytes(text.encode(), "hi.md")
    assert document_languages(hindi) == ("hi",) and analyzer_for(hindi).languages == ("hi",)
    assert reading_sentence(hindi) == "Written in Hindi; read with Hindi word rules."


def test_the_sentence_names_the_language_and_the_model():
    german = load_path(GERMAN)
    assert reading_sentence(german) == "Written in German; read with German word rules."
    assert reading_sentence(german, "all-MiniLM-L6-v2") == (
        "Written in German; read with German word rules and the meaning-based model all-MiniLM-L6-v2.")


def test_bm25_in_german_finds_more_sections_first():
    """The written German terms (tests/data/written), one piece per section: BM25's first piece is the question's
    section for 21 of 33 questions read with German rules, 18 with English ones."""
    document = load_path(GERMAN)
    questions = parse_questions(GERMAN_QUESTIONS.read_bytes(), GERMAN_QUESTIONS.name)
    from workbench.cut import chunk_document

    chunks = chunk_document(document, "heading")
    starts = starts_of(chunks)
    titles = [chunk.text.split("\n", 1)[0].lstrip("# ") for chunk in chunks]

    def first_right(reader) -> int:
        search = BM25(chunks, analyzer=reader)
        return sum(titles[int(ranks(search.scores(q.question), starts)[0])] == q.expected_source for q in questions)

    assert (first_right(analyzer(("de",))), first_right(ENGLISH)) == (21, 18)


def test_the_run_reads_with_the_document_language_and_the_todo_suggests_no_stop_word():
    document = load_path(GERMAN)
    questions = parse_questions(GERMAN_QUESTIONS.read_bytes(), GERMAN_QUESTIONS.name)
    settings = Settings(strategies=["heading"], retrievers=["bm25"], rerankers=["none"])
    evaluation = evaluate(document, questions, settings)
    assert evaluation.analyzer is analyzer(("de",))
    assert evaluation.runs[0].counts["clean"] == 21  # 19 with English rules (bench/language_words.py)
    from workbench.advise.audit import audit
    from workbench.advise.todo import todo_list

    items = todo_list(evaluation, evaluation.runs[0], audit(document))
    words = [item for item in items if item.kind == "words"]
    assert words and not any(f"“{word}”" in item.edit for item in words for word in ("wann", "ich", "das", "die"))


def test_the_report_says_how_the_file_was_read():
    from workbench.output.handover import report_html

    document = load_path(GERMAN)
    questions = parse_questions(GERMAN_QUESTIONS.read_bytes(), GERMAN_QUESTIONS.name)
    words_only = evaluate(document, questions, Settings(strategies=["heading"], retrievers=["bm25"], rerankers=["none"]))
    assert "<p>Written in German; read with German word rules.</p>" in report_html(words_only)


def test_the_cut_language_model_is_kept_and_a_damaged_copy_is_read_again(tmp_path, monkeypatch):
    import numpy as np

    from workbench.read import language

    monkeypatch.setenv("WORKBENCH_EMBEDDING_CACHE", str(tmp_path / "embeddings.sqlite"))
    first = language._restricted_model()
    kept = list(tmp_path.glob("py3langid-*.npz"))
    assert len(kept) == 1 and len(first[2]) == 41  # the 40 languages named (langid lists Serbian twice), as set_languages cuts them
    again = language._restricted_model()  # read from the kept copy
    assert again[2] == first[2] and np.array_equal(again[0], first[0]) and np.array_equal(again[3], first[3])
    kept[0].write_bytes(b"not a zip file")
    mended = language._restricted_model()  # the package's file read again, and the copy written anew
    assert mended[2] == first[2] and np.array_equal(mended[0], first[0])
    assert np.array_equal(np.load(language._mapped_path(kept[0], "ptc")), first[0])
    # The tables mapped from files beside it: one cut short is read again too, and written anew.
    table = language._mapped_path(kept[0], "nextmove")
    table.write_bytes(table.read_bytes()[:1000])
    mended = language._restricted_model()
    assert np.array_equal(mended[3], first[3]) and table.stat().st_size > 1000
    assert isinstance(language._restricted_model()[3], np.ndarray)  # a plain array over the mapped file
    monkeypatch.setenv("WORKBENCH_EMBEDDING_CACHE", "off")
    kept[0].unlink()
    assert language._restricted_model()[2] == first[2] and not list(tmp_path.glob("py3langid-*.npz"))
