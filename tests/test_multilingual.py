"""The model that reads the shop's language (`encode/multilingual.py`): which model a file gets, and that E5 reads
German where MiniLM does not, on the real German terms page of tests/data/real."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.core.model import Settings
from workbench.encode.embedding import MiniLMEncoder
from workbench.encode.multilingual import QUERY, E5Encoder, encoder_class
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate

REAL = Path(__file__).parent / "data" / "real"
TERMS = REAL / "github_marketplace_terms_de.md"


def test_english_and_unknown_files_keep_minilm_and_other_languages_get_e5():
    assert encoder_class("en") is MiniLMEncoder
    assert encoder_class(None) is MiniLMEncoder  # language not found: the model the project always used
    assert encoder_class("de") is E5Encoder and encoder_class("fr") is E5Encoder and encoder_class("hi") is E5Encoder
    assert encoder_class("tlh") is MiniLMEncoder  # a code E5 was not trained on: nothing better to offer


def test_the_models_facts_live_on_their_classes():
    assert MiniLMEncoder.name == "all-MiniLM-L6-v2" and MiniLMEncoder.languages == ("en",)
    assert E5Encoder.name == "multilingual-e5-small"
    assert {"de", "fr", "es", "it", "nl", "pt", "en"} <= set(E5Encoder.languages)
    assert len(E5Encoder.languages) == len(set(E5Encoder.languages)) == 93


def test_only_e5_marks_a_question():
    assert E5Encoder.as_question(E5Encoder.__new__(E5Encoder), "Wie viel?") == "query: Wie viel?"
    assert MiniLMEncoder.as_question(MiniLMEncoder.__new__(MiniLMEncoder), "Wie viel?") == "Wie viel?"


@pytest.mark.slow
def test_e5_gives_its_own_sentence_and_token_vectors():
    e5, minilm = E5Encoder(None), MiniLMEncoder(None)
    text = "Marketplace-Käufe sind nicht erstattungsfähig."
    mine, theirs = e5.encode([text])[0], minilm.encode([text])[0]
    # maxsim reads E5's token vectors: one row per E5 word piece of the text (the "passage: " mark left out).
    assert mine.tokens.shape == (len(e5.tokenizer.encode(text).ids), 384)
    assert mine.tokens.shape[0] != theirs.tokens.shape[0]  # not MiniLM's pieces
    assert np.allclose(np.linalg.norm(mine.tokens, axis=1), 1, atol=1e-2)  # unit rows (kept at float16)
    assert abs(float(np.linalg.norm(mine.sentence)) - 1) < 1e-5 and mine.sentence.shape == (384,)
    assert float(mine.sentence @ theirs.sentence) < 0.5  # another model's space, not MiniLM's vector again
    # A question read as a query ("query: ...") is another vector than the same words read as a passage, and its
    # token rows are its own words' (lined up with maxsim's weights of the question's pieces).
    asked = e5.sentence_matrix([QUERY + text, text])
    assert float(asked[0] @ asked[1]) < 0.99
    assert e5.token_vectors([QUERY + text])[0].shape == mine.tokens.shape


@pytest.mark.slow
def test_e5_finds_a_german_customers_meaning():
    """Everyday German against the terms' wording: "Geld zurück" is "nicht erstattungsfähig", "klagen" is "Gericht"."""
    e5 = E5Encoder(None)
    passages = [
        "Marketplace-Käufe werden im Voraus in Rechnung gestellt und sind nicht erstattungsfähig.",
        "Um Marktplatz nutzen zu können, müssen Sie mindestens 13 Jahre alt sein.",
        "Alle Streitigkeiten müssen vor ein zuständiges Gericht in San Francisco gebracht werden.",
    ]
    questions = ["Krieg ich mein Geld zurück?", "Ab wie viel Jahren darf man da was kaufen?", "Wo müsste ich klagen?"]
    scores = e5.sentence_matrix([e5.as_question(q) for q in questions]) @ e5.sentence_matrix(passages).T
    assert list(scores.argmax(axis=1)) == [0, 1, 2]


@pytest.mark.slow
def test_on_the_real_german_terms_e5_answers_more_than_minilm():
    if not TERMS.is_file():
        pytest.skip(f"{TERMS} is not in this clone")
    questions = parse_questions(TERMS.with_name(f"{TERMS.stem}.questions.csv").read_bytes(), "questions.csv")
    settings = Settings(["small-to-big"], ["dense"], ["none"])

    def clean(encoder) -> int:
        run = evaluate(load_path(TERMS), questions, settings, encoder_factory=lambda: encoder).runs[0]
        return sum(r.grade == "clean" for r in run.per_question if r.answerable)

    # Measured (bench/multilingual.py): MiniLM 7 of 32, E5 16 of 32 under small-to-big / dense.
    assert clean(MiniLMEncoder(None)) <= 9
    assert clean(E5Encoder(None)) >= 14


def test_evaluate_asks_for_the_model_of_the_files_language(monkeypatch, fake_encoder):
    from workbench.core.model import Question
    from workbench.encode import multilingual
    from workbench.read import language
    from workbench.read.loaders import parse_markdown

    asked: list[str | None] = []
    monkeypatch.setattr(multilingual, "encoder_for", lambda code: asked.append(code) or fake_encoder)
    document = parse_markdown("# Preisliste\n\n## Ventilator\nPreis: 20 €\n", "preise.md")
    question = [Question("Was kostet der Ventilator?", "Ventilator", "Preis: 20 €")]
    monkeypatch.setattr(language, "document_languages", lambda document: ())
    evaluate(document, question, Settings(["heading"], ["dense"], ["none"]))
    monkeypatch.setattr(language, "document_languages", lambda document: ("de", "en"))
    evaluate(document, question, Settings(["heading"], ["dense"], ["none"]))
    assert asked == [None, "de"]  # too little text to tell: MiniLM's, as before; German: its main language


def test_the_page_names_the_model_that_reads_the_file(monkeypatch):
    from workbench.read import language
    from workbench.read.loaders import parse_markdown
    from workbench.run.names import reading_words

    document = parse_markdown("# Preisliste\n\n## Ventilator\nPreis: 20 €\n", "preise.md")
    monkeypatch.setattr(language, "document_languages", lambda document: ("de",))
    assert reading_words(document) == (
        "Written in German; read with German word rules and the meaning-based model multilingual-e5-small.")
    monkeypatch.setattr(language, "document_languages", lambda document: ("en",))
    assert reading_words(document).endswith("the meaning-based model all-MiniLM-L6-v2.")


def test_the_pages_help_says_in_words_whether_the_model_reads_the_files_language(monkeypatch):
    """Walk-through (walk44): "the meaning-based model multilingual-e5-small" named a model to a German shop owner
    without saying it reads German; its help said only "uses the model named"."""
    from workbench.read import language
    from workbench.read.loaders import parse_markdown
    from workbench.run.names import reading_help

    document = parse_markdown("# Preisliste\n\n## Ventilator\nPreis: 20 €\n", "preise.md")
    monkeypatch.setattr(language, "document_languages", lambda document: ("de",))
    german = reading_help(document)
    assert german.endswith("with a language model that runs on this computer: multilingual-e5-small; it reads 93 "
                           "languages, German among them.")
    monkeypatch.setattr(language, "document_languages", lambda document: ("en",))
    assert reading_help(document).endswith("all-MiniLM-L6-v2; it was trained on English text.")


def test_the_document_page_shows_that_help_beside_the_language_sentence():
    from streamlit.testing.v1 import AppTest

    from workbench.read.loaders import load_path
    from workbench.run.names import reading_help

    from .conftest import ROOT
    from .test_app import upload

    path = ROOT / "tests" / "data" / "real" / "github_marketplace_terms_de.md"
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at = upload(at, path.name, path.read_bytes())
    assert not at.exception
    caption = next(element for element in at.caption if element.value.startswith("Written in German"))
    assert caption.proto.help.endswith("multilingual-e5-small; it reads 93 languages, German among them.")
    assert caption.proto.help == reading_help(load_path(path))
