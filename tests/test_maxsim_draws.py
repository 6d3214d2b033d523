"""maxsim's score of a piece read as many small pieces (small-to-big): its best one, less its extra draws."""

from __future__ import annotations

import math

import pytest

from workbench.core.model import Chunk
from workbench.search.maxsim import MaxSim
from workbench.search.rerankers import RERANKERS


def piece(number: int, *small: str) -> Chunk:
    return Chunk(f"small-to-big-{number}", "small-to-big", ((number * 100, number * 100 + 50),), " ".join(small),
                 search=small)


def test_a_section_of_many_sentences_does_not_win_a_tie_by_its_number_of_draws(fake_encoder):
    """The same best sentence in a section of one and in a section of three: the short one ranks first (a long
    section, or a page's opening that sums up every section, won its neighbours' questions by its many draws)."""
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: fake_encoder)
    one = piece(0, "table fan price 30")
    three = piece(1, "table fan price 30", "ceiling fan warranty", "desk lamp colour")
    scores = maxsim.scores("table 30", [three, one])
    assert scores[1] > scores[0]
    assert scores[1] - scores[0] == pytest.approx(MaxSim.per_draw * math.log(3))


def test_a_piece_read_whole_keeps_its_score(fake_encoder):
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: fake_encoder)
    scores = maxsim.scores("table 30", [piece(0, "table fan price 30"), piece(1, "ceiling fan price 120")])
    assert scores[0] == pytest.approx(1.0)  # one-hot tokens, each question word found exactly, nothing taken off
