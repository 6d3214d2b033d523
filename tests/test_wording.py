"""Numbers said with their meaning, and words that read right (issue 25)."""

from __future__ import annotations

import pytest

from workbench.advise.audit import PROMPT_LIMIT_TOKENS, size_advice
from workbench.run.names import score_words
from workbench.search.rerankers import RERANKERS, HeadingRerank, MaxSim
from workbench.search.retrievers import RETRIEVERS, Hybrid


@pytest.mark.parametrize("id", RETRIEVERS.ids())
def test_every_search_says_what_its_score_means(id):
    assert len(RETRIEVERS.get(id).score_words) > 30


@pytest.mark.parametrize("id", RERANKERS.ids())
def test_every_recheck_that_rescores_says_what_its_score_means(id):
    kind = RERANKERS.get(id)
    assert bool(kind.score_words) == kind.rescores  # "none" keeps the search's scores, so it has no scale


def test_the_scale_shown_is_the_rechecks_when_it_rescores_else_the_searchs():
    assert score_words("bm25", "none") == RETRIEVERS.get("bm25").score_words
    assert score_words("bm25", "heading") == HeadingRerank.score_words
    assert score_words("dense", "maxsim") == MaxSim.score_words


def test_the_numbers_in_the_score_words_are_the_codes_own():
    # Reciprocal rank fusion adds 1/(k + rank) from each part: first in both is 2/(60 + 1) = 0.0328 -> "0.033".
    assert f"1/({Hybrid.k} + rank)" in Hybrid.score_words and f"{2 / (Hybrid.k + 1):.3f}" in Hybrid.score_words
    assert f"plus {HeadingRerank.bonus} " in HeadingRerank.score_words
    assert f"plus {MaxSim.named_bonus}" in MaxSim.score_words


def test_the_size_advice_names_which_bot_its_limit_is():
    # 200,000 tokens at about 0.75 English words a token: 150,000 words.
    text = size_advice(1_000, 1_300, True)
    assert f"{PROMPT_LIMIT_TOKENS:,} tokens" in text and "roughly 150,000 words" in text
    assert "large chat model" in text and "smaller or cheaper models read less" in text


def test_the_drill_down_says_the_scale_of_its_scores_and_facts_have_help():
    from streamlit.testing.v1 import AppTest

    from .conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    facts = next(m for m in at.switch_page("pages/document.py").run().metric if m.label == "Facts (lines)")
    assert facts.help.startswith("Lines that state something a customer could ask about: every line of text")
    at = at.switch_page("pages/results.py").run()
    assert not at.exception
    # The sample's recommended setup is word-match search, not re-checked: its scores are word counts.
    scale = f"The score below is {RETRIEVERS.get('keyword').score_words}."
    assert any(scale in c.value for c in at.caption)
