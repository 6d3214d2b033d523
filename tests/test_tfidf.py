"""The TF-IDF retriever: exact cosines on tiny pieces, with the arithmetic written out."""

import math

import numpy as np
import pytest

from workbench.core.model import Question, Settings
from workbench.cut import chunk_document
from workbench.read.loaders import parse_markdown
from workbench.run.evaluate import evaluate
from workbench.search.retrievers import RETRIEVERS

DOC = parse_markdown("Fan warranty\n\nFan price\n\nHeater price\n", "t.md")
CHUNKS = chunk_document(DOC, "paragraph")  # three pieces: "Fan warranty", "Fan price", "Heater price"


def test_scores_are_cosines_of_sublinear_tf_smoothed_idf_vectors():
    tfidf = RETRIEVERS.get("tfidf")(CHUNKS)
    # n = 3 pieces. Smoothed IDF = ln((1 + n) / (1 + df)) + 1: fan and price (df 2) 1.2877, warranty and
    # heater (df 1) 1.6931; every count is 1, so sublinear tf = 1 + ln 1 = 1.
    # "Fan warranty" = (fan 1.2877, warranty 1.6931) / 2.1272 = (0.6053, 0.7959); the question is the same
    # vector (cosine 1). "Fan price" = (0.7071, 0.7071): cosine 0.6053 x 0.7071 = 0.4280. "Heater price": 0.
    fan, warranty = math.log(4 / 3) + 1, math.log(4 / 2) + 1
    expected = fan / math.hypot(fan, warranty) / math.sqrt(2)
    assert tfidf.scores("fan warranty") == pytest.approx([1.0, expected, 0.0])
    assert expected == pytest.approx(0.4280, abs=1e-4)
    assert tfidf.sureness("fan warranty", tfidf.scores("fan warranty")) == pytest.approx([1.0, expected, 0.0])


def test_stop_words_and_unknown_words_score_nothing():
    tfidf = RETRIEVERS.get("tfidf")(CHUNKS)
    assert np.array_equal(tfidf.scores("what is the"), [0.0, 0.0, 0.0])  # all English stop words
    assert np.array_equal(tfidf.scores("toaster"), [0.0, 0.0, 0.0])  # in no piece


def test_it_runs_in_an_evaluation_and_finds_the_heater():
    questions = [Question("How much is the heater?", "", "", "unanswerable")]
    run = evaluate(DOC, questions, Settings(["paragraph"], ["tfidf"], ["none"])).runs[0]
    assert run.retriever == "tfidf" and run.per_question[0].top_chunk == CHUNKS[2].id


def test_it_is_listed_after_bm25_and_before_the_meaning_based_search():
    ids = RETRIEVERS.ids()
    assert ids.index("bm25") < ids.index("tfidf") < ids.index("dense")
    assert not RETRIEVERS.get("tfidf").needs_encoder
