"""section-window and small-to-big: cuts sized in the model's word pieces, and the parent-section arm."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.core.model import Question, Settings, check_chunk
from workbench.cut import chunk_document
from workbench.cut.structure import SectionWindow, SmallToBig
from workbench.read.loaders import parse_markdown
from workbench.run.evaluate import evaluate
from workbench.search.retrievers import BM25

from .test_model_window import ShortSightedEncoder

TEXT = (
    "# Watch\n\n## Features\n* IP67 water resistant\n* 20 mm straps\n* GPS and compass\n\n"
    "Charge it with the magnetic cable.\nIt takes two hours.\n\n"
    "| Part | Price |\n| Strap | 10 |\n\n## Warranty\nTwo years.\n"
)
DOC = parse_markdown(TEXT, "w.md")


class WordPieces(ShortSightedEncoder):
    window = 12


def test_section_window_splits_only_between_blocks_and_repeats_the_breadcrumb():
    chunks = SectionWindow(encoder=WordPieces()).chunk(DOC)
    for chunk in chunks:
        check_chunk(DOC, chunk)
    # The fake's word pieces are words. Window 12 less the breadcrumb "Watch > Features" (2) leaves 10.
    # Blocks: the heading with "IP67 water resistant" 4, "20 mm straps" 3, "GPS and compass" 3,
    # the two-line paragraph 10, the table rows 2 and 2. Packed up to 10: 4+3+3 | 10 | 2+2.
    assert [c.body for c in chunks] == [
        "## Features\n* IP67 water resistant\n* 20 mm straps\n* GPS and compass",
        "Charge it with the magnetic cable.\nIt takes two hours.",
        "| Part | Price |\n| Strap | 10 |",
        "## Warranty\nTwo years.",
    ]
    assert [c.prefix for c in chunks] == ["Watch > Features\n"] * 3 + ["Watch > Warranty\n"]


def test_section_window_keeps_a_section_whole_when_it_fits():
    chunks = SectionWindow(encoder=WordPieces(), size=100).chunk(DOC)
    assert [c.spans for c in chunks] == [c.spans for c in chunk_document(DOC, "heading")]


def test_small_to_big_searches_sentences_and_hands_over_the_section():
    chunks = SmallToBig().chunk(DOC)
    heading = chunk_document(DOC, "breadcrumb")
    assert [c.text for c in chunks] == [c.text for c in heading]  # handed over: the section with its path
    assert chunks[0].search[:2] == ("Watch > Features\n* IP67 water resistant", "Watch > Features\n* 20 mm straps")
    assert chunks[0].search[3] == "Watch > Features\nCharge it with the magnetic cable."
    # BM25 reads the small pieces: the section scores as its best one, equal to BM25 over those pieces alone.
    rows = [text for chunk in chunks for text in chunk.search]
    scores = BM25(chunks).scores("magnetic cable")
    alone = BM25([chunks[0].__class__("x", "x", ((0, 1),), text) for text in rows]).scores("magnetic cable")
    assert scores[0] == np.max(alone[: len(chunks[0].search)])


def test_small_to_big_is_graded_on_the_section_and_counts_its_characters():
    settings = Settings(["small-to-big"], ["bm25"], ["none"], top_k=1)
    evaluation = evaluate(DOC, [Question("How long does charging take?", "Features", "two hours")], settings)
    run = evaluation.run("small-to-big", "bm25", "none")
    assert run.per_question[0].grade == "clean"
    assert run.context_chars == len(evaluation.chunks["small-to-big"][0].text)  # the whole section handed over


def test_maxsim_judges_a_small_to_big_section_by_its_best_small_piece(fake_encoder):
    from workbench.core.model import Chunk
    from workbench.search.maxsim import MaxSim
    from workbench.search.rerankers import RERANKERS

    chunks = SmallToBig().chunk(DOC)
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: fake_encoder)
    alone = [Chunk("p", "p", ((0, 1),), text) for text in chunks[0].search]
    # The section's score is the best of its pieces' scores, each piece read on its own, less its extra draws
    # (``MaxSim.per_draw`` for each e-fold of its pieces).
    draws = MaxSim.per_draw * math.log(len(chunks[0].search))
    assert len(chunks[0].search) > 1
    assert maxsim.scores("magnetic cable", chunks)[0] == pytest.approx(max(maxsim.scores("magnetic cable", alone)) - draws)
    # The piece "Watch > Features / Charge it with the magnetic cable." holds both words exactly: 1.0.
    assert maxsim.scores("magnetic cable", chunks)[0] == pytest.approx(1.0 - draws)
    # The same text cut by breadcrumb (no small pieces) is read whole, and memoised apart from it.
    whole = chunk_document(DOC, "breadcrumb")[0]
    assert maxsim.scores("magnetic cable", [whole])[0] == pytest.approx(1.0)
