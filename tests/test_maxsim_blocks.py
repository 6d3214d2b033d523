"""maxsim's token vectors in blocks (``MaxSim._place``): scores as a fresh re-check gives them, memory bounded."""

from __future__ import annotations

import numpy as np
import pytest

import workbench.search.maxsim as maxsim_module
from workbench.cut import chunk_document
from workbench.read.loaders import parse_markdown
from workbench.search.rerankers import RERANKERS

from .conftest import FakeEncoder

COLOURS = ["red", "blue", "green", "black", "white", "grey", "amber", "teal"]
DOC = parse_markdown(
    "# Shop\n\n" + "".join(
        f"## Lamp {i}\nColour: {COLOURS[i % 8]}. Price: {10 + i} dollars. Warranty: {1 + i % 3} years.\n\n"
        for i in range(40)
    ),
    "lamps.md",
)
CHUNKS = chunk_document(DOC, "heading")
QUESTIONS = [f"What is the warranty of lamp {i} in {COLOURS[i % 8]}?" for i in range(0, 40, 7)]


def shortlists(question_number: int) -> list[list]:
    """Three overlapping shortlists per question, as three searches' top pieces of one cut overlap."""
    start = (question_number * 5) % 30
    return [CHUNKS[start : start + 10], CHUNKS[start + 3 : start + 13], CHUNKS[::4]]


def fresh(question: str, shortlist: list) -> list[float]:
    return RERANKERS.get("maxsim")(encoder_factory=FakeEncoder).scores(question, shortlist).tolist()


@pytest.mark.parametrize("rows", [100_000, 40, 1])
def test_blocks_give_every_shortlist_the_scores_a_fresh_recheck_gives_it(monkeypatch, rows):
    """With room for everything, for a few pieces, and for one block only (each new block drops every other
    block the question at hand does not need): the same scores, and the blocks kept within their bound."""
    monkeypatch.setattr(maxsim_module, "BLOCK_ROWS", rows)
    encoder = FakeEncoder()
    shared = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    for number, question in enumerate(QUESTIONS):
        for shortlist in shortlists(number):
            got = shared.scores(question, shortlist).tolist()
            assert got == pytest.approx(fresh(question, shortlist), abs=1e-6), (question, rows)
            # Past the bound only by the blocks the question needed and the newest one.
            assert shared._rows <= rows or len(shared._blocks) <= 2 + len(shortlist)
    assert shared._rows == sum(len(block.matrix) for block in shared._blocks.values())
    if rows == 1:
        assert len(shared._blocks) < shared._next  # blocks were dropped, and the scores above still held


def test_a_question_needing_a_third_of_a_block_multiplies_it_whole_and_knows_all_its_texts():
    encoder = FakeEncoder()
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    maxsim.scores(QUESTIONS[0], CHUNKS[:12])  # one block of 12 texts (a heading piece is one text)
    maxsim.scores(QUESTIONS[1], CHUNKS[:4])  # 4 of 12 texts, about a third of the rows: the whole block
    assert len(maxsim._best[QUESTIONS[1]]) == 12
    maxsim.scores(QUESTIONS[2], CHUNKS[:1])  # 1 of 12: that text's rows alone
    assert len(maxsim._best[QUESTIONS[2]]) == 1
    column = maxsim._best[QUESTIONS[2]][CHUNKS[0].text]
    query = encoder.token_vectors([QUESTIONS[2]])[0]
    expected = (query @ encoder.token_vectors([CHUNKS[0].text])[0].T).max(axis=1)
    assert np.allclose(column, expected)


@pytest.mark.parametrize(("cells", "widen"), [(16_000_000, 4_096), (50, 4_096), (16_000_000, 7)])
def test_a_batch_prepared_together_scores_as_each_question_alone(monkeypatch, cells, widen):
    """``prepare`` multiplies every question of a batch with every text any of them needs, in one product per
    block (or, with room for few products at once, many small ones): each shortlist's scores are those a fresh
    re-check gives it, and the questions' columns were all worked out there, none left for ``scores``."""
    monkeypatch.setattr(maxsim_module, "PRODUCT_CELLS", cells)
    monkeypatch.setattr(maxsim_module, "WIDEN_ROWS", widen)  # 7: a few texts' rows widened at a time
    encoder = FakeEncoder()
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    asked = [(question, CHUNKS[:30]) for question in QUESTIONS]  # shortlists of most pieces: a small file
    maxsim.prepare(asked)
    assert all(len(maxsim._best[question]) == 30 for question in QUESTIONS)
    products = []
    monkeypatch.setattr(maxsim, "_place", lambda *a, **k: products.append(a))
    for question, shortlist in asked:
        assert maxsim.scores(question, shortlist).tolist() == pytest.approx(fresh(question, shortlist), abs=1e-6)
    assert products == []  # nothing was left to place or multiply


def test_questions_each_needing_their_own_few_pieces_are_left_to_score_one_by_one():
    """Each needs 2 of the 12 pieces the batch needs: one product of every question with all 12 would be six
    times the work, so ``prepare`` leaves them alone and ``scores`` works each out as before."""
    encoder = FakeEncoder()
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    asked = [(question, CHUNKS[2 * n : 2 * n + 2]) for n, question in enumerate(QUESTIONS)]
    maxsim.prepare(asked)
    assert maxsim._blocks == {} and all(maxsim._best[question] == {} for question in QUESTIONS)
    for question, shortlist in asked:
        assert maxsim.scores(question, shortlist).tolist() == pytest.approx(fresh(question, shortlist), abs=1e-6)


class Counting(FakeEncoder):
    """Counts the texts whose token vectors maxsim asks for: each is a product it had to work out."""

    def __init__(self, store=None):
        super().__init__(store)
        self.asked: list[str] = []

    def token_vectors(self, texts, as_stored=False):
        self.asked.extend(texts)
        return super().token_vectors(texts, as_stored)


def run_all(maxsim) -> list[list[float]]:
    found = []
    for number, question in enumerate(QUESTIONS):
        batch = shortlists(number)
        maxsim.prepare([(question, shortlist) for shortlist in batch])
        found += [maxsim.scores(question, shortlist).tolist() for shortlist in batch]
    maxsim.finish()
    return found


def test_a_later_run_reads_the_columns_back_from_the_store_and_scores_the_same(tmp_path):
    """A text's column depends on the question and the text alone: the next run of the same questions reads it
    from the encoder's store (a warm run of a 1,000-product catalog spent 14 of its 24 s working them out)."""
    from workbench.store.embedding_store import EmbeddingStore

    path = tmp_path / "e.sqlite"
    first = Counting(EmbeddingStore(path))
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: first)
    cold = run_all(maxsim)
    texts = set(first.asked) - set(QUESTIONS)
    assert texts  # the first run multiplied the shortlists' token vectors
    # Every column it worked out is kept, once: (question, text) pairs.
    kept = first.store._connection.execute("SELECT count(*) FROM matches").fetchone()[0]
    assert kept == sum(len(columns) for columns in maxsim._best.values()) > 0
    again = Counting(EmbeddingStore(path))
    warm = run_all(RERANKERS.get("maxsim")(encoder_factory=lambda: again))
    assert warm == cold  # the very floats: a stored column is the column
    assert set(again.asked) <= set(QUESTIONS)  # only the questions' own vectors (a column's length), no text's
    # Another model never reads these columns.
    tokens = len(again.token_vectors([QUESTIONS[0]])[0])
    assert again.store.matches(again.model_key, QUESTIONS[0], list(texts), tokens)
    assert again.store.matches("another-model", QUESTIONS[0], list(texts), tokens) == {}


def test_a_damaged_or_missing_column_is_worked_out_again(tmp_path):
    import sqlite3

    from workbench.store.embedding_store import EmbeddingStore

    path = tmp_path / "e.sqlite"
    first = Counting(EmbeddingStore(path))
    cold = run_all(RERANKERS.get("maxsim")(encoder_factory=lambda: first))
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE matches SET best = substr(best, 1, 6) WHERE rowid % 3 = 0")  # cut short
        raw.execute("DELETE FROM matches WHERE rowid % 3 = 1")  # missing (a run stopped before finish)
    again = Counting(EmbeddingStore(path))
    assert run_all(RERANKERS.get("maxsim")(encoder_factory=lambda: again)) == cold
    assert set(again.asked) - set(QUESTIONS)  # the lost columns' texts were multiplied again
    assert len(again.store.warnings) == 1 and "damaged" in again.store.warnings[0]


def test_on_a_catalog_no_block_holds_more_than_new_rows_and_the_grades_are_those_of_unbounded_blocks(monkeypatch):
    """A batch of questions whose shortlists share most of the pieces (``prepare``'s product over all of them) once
    made one block of every text they needed: on this catalog's small-to-big cut, more than NEW_ROWS rows. Now each
    new block holds at most NEW_ROWS rows, all blocks together at most BLOCK_ROWS + NEW_ROWS, and every setup is
    graded as with room for everything."""
    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.core.model import Settings
    from workbench.read.loaders import load_bytes
    from workbench.run.evaluate import evaluate

    document = load_bytes(catalog_csv(40, seed=3), "catalog.csv")
    questions = catalog_questions(40, count=30, seed=3)
    settings = Settings(["heading", "small-to-big"], ["bm25"], ["none", "maxsim"], depth=30)
    made: list[tuple[int, int, int]] = []  # (prepare call, the new block's rows, rows held in all after it)
    calls = [0]
    place, prepare = maxsim_module.MaxSim._place, maxsim_module.MaxSim.prepare

    def placing(self, texts):
        place(self, texts)
        made.append((calls[0], len(self._blocks[self._next - 1].matrix), self._rows))

    def preparing(self, asked):
        calls[0] += 1
        prepare(self, asked)

    def graded():
        return [(run.key, run.counts) for run in evaluate(document, questions, settings, encoder_factory=FakeEncoder).runs]

    monkeypatch.setattr(maxsim_module.MaxSim, "_place", placing)
    monkeypatch.setattr(maxsim_module.MaxSim, "prepare", preparing)
    unbounded = graded()
    # Without the bound, one prepare call placed more than 600 rows (the bound below) in one block.
    assert max(rows for _, rows, _ in made) > 600
    made.clear()
    monkeypatch.setattr(maxsim_module, "NEW_ROWS", 600)
    monkeypatch.setattr(maxsim_module, "BLOCK_ROWS", 1_500)
    assert graded() == unbounded
    assert max(rows for _, rows, _ in made) <= 600
    assert max(held for _, _, held in made) <= 1_500 + 600
    assert len({call for call, _, _ in made}) < len(made)  # some batch was placed in several blocks


def test_blocks_hold_the_stored_float16_rows_and_widen_them_only_to_multiply():
    """Blocks of float32 rows held each token vector at twice its stored size (120 MB at the bound, not 60); the
    rows are widened per product instead, the same values, so every column is what the float32 rows give."""
    encoder = FakeEncoder()
    shared = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    question = QUESTIONS[0]
    shared.scores(question, CHUNKS[:10])
    blocks = list(shared._blocks.values())
    assert blocks and all(block.matrix.dtype == np.float16 for block in blocks)
    assert sum(block.matrix.nbytes for block in blocks) == shared._rows * 64 * 2  # 64 dimensions, 2 bytes each
    query = shared._query(question)
    assert len(shared._best[question]) == 10  # one piece a text here: each shortlisted text's column is known
    for text, column in shared._best[question].items():
        wide = encoder.token_vectors([text])[0]  # float32
        assert np.array_equal(column, (query @ wide.T).max(axis=1))
