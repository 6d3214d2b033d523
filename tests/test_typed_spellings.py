"""A customer's word meets the file's however either is spelled (`core.words.Analyzer._stem`): Dutch plurals and
their singular, Polish letters typed plain, Spanish and Portuguese endings typed without their accent, and an
accented word read as its unaccented spelling is."""

import pytest

from workbench.core.model import Question, Settings
from workbench.core.words import analyzer, fold_accents
from workbench.read.language import document_languages
from workbench.read.loaders import load_bytes
from workbench.run.evaluate import evaluate


@pytest.mark.parametrize(("code", "asked", "written"), [
    ("nl", "fietsen", "fiets"),  # Snowball: "fietsen" -> "fiets", but "fiets" -> "fiet"
    ("nl", "kussens", "kussen"),
    ("pl", "koldra", "kołdra"),  # "ł" has no accent to fold: typed "l"
    ("pl", "koldry", "kołdra"),
    ("es", "enviais", "enviamos"),  # Spain's "vosotros" verb typed without "á": "envi" as "enviáis"
    ("es", "aceptais", "aceptamos"),
    ("es", "devolveis", "devolvemos"),
    ("pt", "devolucao", "devolução"),  # "-cao" typed for "-ção"
    ("pt", "cafes", "cafés"),  # the accented word stems as its plain spelling: "caf", not "cafes"
    ("it", "quantita", "quantità"),  # "quant", not "quantit"
])
def test_a_customers_spelling_meets_the_files(code, asked, written):
    read = analyzer((code,))
    assert read.stem(asked) == read.stem(written)


def test_words_that_differ_still_differ():
    spanish, dutch = analyzer(("es",)), analyzer(("nl",))
    assert spanish.stem("pais") == spanish.stem("país") == "pais"  # a short word is never given an ending's accent
    assert spanish.stem("enviais") != spanish.stem("pais")
    assert dutch.stem("fiets") != dutch.stem("fietst")  # a verb's form keeps its "t"
    assert fold_accents("Łódź") == "Lodz"


DUTCH = """# Winkel

## Slot

Een ringslot met twee sleutels, goedgekeurd door de verzekeraar. Past op elk frame en weegt weinig.

## Tassen

Waterdichte dubbele tas van achtentwintig liter voor op de bagagedrager, met reflecterende strepen.

## Stadsfiets

Onze fiets heeft drie versnellingen, een terugtraprem en verlichting op een naafdynamo. Framemaat 53 cm.
"""


def test_a_dutch_question_about_fietsen_finds_the_fiets():
    document = load_bytes(DUTCH.encode(), "winkel.md")
    assert document_languages(document) == ("nl",)
    question = Question("Hebben jullie fietsen?", "Stadsfiets", "Onze fiets heeft drie versnellingen")
    evaluation = evaluate(document, [question], Settings(strategies=["heading"], retrievers=["keyword"],
                                                         rerankers=["none"], threshold=None))
    run = evaluation.runs[0]
    # "fiets" is the question's one match, in the last section ("hebben" is a stop word, "jullie" is in no section):
    # with "fietsen" stemmed "fiets" and "fiets" stemmed "fiet" nothing matched, and the first section came first.
    assert analyzer(("nl",)).terms("Hebben jullie fietsen?") == ["jullie", "fiet"]
    assert analyzer(("nl",)).terms("fiets") == ["fiet"]
    assert run.per_question[0].relevant_ranks[0] == 1 and run.counts["clean"] == 1


@pytest.mark.parametrize(("code", "asked", "written"), [
    ("tr", "isil", "Işıl"),  # dotless ı typed as i; "I" lowercases to "i" outside Turkish
    ("tr", "ipek", "İPEK"),  # dotted İ lowercases to "i" and a dot above, which folds away
    ("tr", "pestemal", "peştemal"),
    ("tr", "kilifi", "kılıfı"),
    ("da", "storrelser", "størrelser"),  # ø has no accent to fold: typed "o"
    ("da", "kraever", "kræver"),  # æ typed "ae"
    ("no", "kjoleskap", "kjøleskap"),
    ("da", "faar", "får"),  # å typed "aa"
    ("da", "haandvaskes", "håndvaskes"),
    ("ru", "зеленый", "Зелёный"),  # ё typed е
    ("uk", "збір", "ЗБІР"),  # Ukrainian: no stemmer, the word whole and lowercased
    ("uk", "травяний", "Трав'яний"),  # the apostrophe inside a Ukrainian word, left out by the customer
    ("uk", "м’ята", "мʼята"),  # or typed as another apostrophe
    ("el", "μελι", "Μέλι"),  # Greek typed without its accents
    ("el", "καφεινη", "καφεΐνη"),
    ("cs", "mycky", "myčky"),
    ("cs", "prumer", "průměr"),
    ("hu", "csipos", "csípős"),
])
def test_a_customers_spelling_meets_the_files_in_more_languages(code, asked, written):
    read = analyzer((code,))
    assert read.terms(asked) == read.terms(written)
    # the confidence's form too, of the words it reads
    assert [read.named(w) for w in read.subject_words(asked)] == [read.named(w) for w in read.subject_words(written)]


@pytest.mark.parametrize(("code", "question", "content"), [
    ("el", "από πού είναι το ελαιόλαδο σας;", ["ελαιόλαδο"]),  # the package's Greek list is Ancient Greek's
    ("cs", "kdy bude zase dóza na cukr", ["dóza", "cukr"]),
    ("da", "hvilke størrelser findes rundpinden i", ["størrelser", "rundpinden"]),
    ("fi", "paljonko kiukaalla on takuuta", ["kiukaalla", "takuuta"]),
    ("tr", "nevresim ne zaman gelir, stokta var mı", ["nevresim", "gelir", "stokta"]),
    ("ru", "подскажите, сколько стоит крем", ["стоит", "крем"]),
    ("uk", "скільки разів можна заварювати улун", ["разів", "заварювати", "улун"]),
    ("hu", "mennyibe kerül az édes paprika", ["kerül", "édes", "paprika"]),
])
def test_asking_words_are_never_advised_into_the_file(code, question, content):
    from workbench.advise.todo_words import content_words

    assert content_words(question, analyzer((code,))) == content


def test_only_ukrainian_reads_an_apostrophe_inside_a_word():
    assert analyzer(("uk",)).terms("м'ята") == ["мята"]  # "м" and "ята" before
    assert analyzer(("en",)).terms("don't it's") == []  # English: "don", "t", "it", "s", all stop words, as before
    assert analyzer(("fr",)).terms("l'huile") == ["huil"]  # French's elided article stays apart


def test_the_confidence_reads_a_ukrainian_questions_apostrophe_as_the_file_does():
    from workbench.grade.confidence import _question_words, line_words

    ukrainian = analyzer(("uk",))
    assert _question_words("що входить в трав'яний збір?", ukrainian) == ("входить", "травянии", "збір")
    assert {"травянии", "збір"} <= line_words("Трав’яний збір «Карпати»", ukrainian)
