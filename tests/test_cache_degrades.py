"""A damaged, missing, read-only or full embedding cache warns once and never changes a grade."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from workbench.core.model import Settings
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate
from workbench.store.embedding_store import EmbeddingStore, digest

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS, FakeEncoder

TEXTS = [f"Product {i}: warranty {i % 3} years, price {10 * i}" for i in range(60)]
SETTINGS = Settings(strategies=["fixed", "heading"], retrievers=["dense"], rerankers=["none", "maxsim"])


def grades(store: EmbeddingStore | None) -> list[tuple]:
    """Every grade and rank of the sample under dense search and maxsim, with this store under the encoder."""
    encoder = FakeEncoder(store)
    encoder.token_memory = 5  # evict early, so maxsim reads token vectors back from the store
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    evaluation = evaluate(load_path(SAMPLE_MD), questions, SETTINGS, encoder_factory=lambda: encoder)
    return [(run.key, r.grade, r.rank, round(r.top_score, 5)) for run in evaluation.runs for r in run.per_question]


@pytest.fixture(scope="module")
def clean_grades():
    return grades(None)


def filled(path) -> EmbeddingStore:
    store = EmbeddingStore(path)
    FakeEncoder(store).encode(TEXTS)
    grades_before = grades(store)  # fills the cache with the sample's pieces and questions too
    store.close()
    assert grades_before
    return store


def test_corrupt_pages_are_moved_aside_and_the_grades_stay(tmp_path, clean_grades, caplog):
    path = tmp_path / "e.sqlite"
    filled(path)
    data = bytearray(path.read_bytes())
    assert len(data) > 40_000
    middle = len(data) // 2
    data[middle : middle + 16_384] = b"\xff" * 16_384  # four pages of blobs overwritten
    path.write_bytes(bytes(data))
    store = EmbeddingStore(path)  # the first page reads fine: the damage shows on the first read of a blob
    assert grades(store) == clean_grades
    assert (tmp_path / "e.sqlite.broken").exists()
    assert len(store.warnings) == 1 and "moved to e.sqlite.broken" in store.warnings[0]
    assert store.take_warnings() == store.warnings and store.take_warnings() == []  # shown once


def test_a_folder_in_place_of_the_cache(tmp_path, clean_grades):
    path = tmp_path / "e.sqlite"
    path.mkdir()
    store = EmbeddingStore(path)
    assert f"The embedding cache {path} is a folder, not a file; name a file inside it" in store.warnings[0]
    assert grades(store) == clean_grades
    assert path.is_dir() and len(store.warnings) == 1


def test_a_cache_folder_that_cannot_be_created(tmp_path, clean_grades):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = EmbeddingStore(blocker / "cache" / "e.sqlite")  # its parent would have to be a folder inside a file
    assert "cannot be used" in store.warnings[0]
    assert grades(store) == clean_grades


def test_a_read_only_cache_is_read_but_not_written(tmp_path, clean_grades):
    path = tmp_path / "e.sqlite"
    filled(path)
    store = EmbeddingStore(path)
    # SQLite's own read-only mode (the tests run as root, for whom file permissions do not bite).
    store._connection.execute("PRAGMA query_only = ON")
    encoder = FakeEncoder(store)
    encoder.encode(["a text the cache has never seen", *TEXTS[:3]])
    assert encoder.encoded == 1 and encoder.from_disk == 3
    assert not store.writable and "cannot be written" in store.warnings[0] and "readonly" in store.warnings[0]
    assert grades(store) == clean_grades
    assert len(store.warnings) == 1


def test_a_read_only_cache_made_before_maxsims_columns_were_kept_is_read_without_a_word(tmp_path, clean_grades):
    """An older cache holds no ``matches`` table, and one opened read-only cannot have it made: nothing is found
    there, nothing said, the grades the same."""
    path = tmp_path / "e.sqlite"
    filled(path)
    store = EmbeddingStore(path)
    store._connection.execute("DROP TABLE matches")
    store._connection.execute("PRAGMA query_only = ON")
    assert store.matches("fake-hash-64", "a question", TEXTS[:3], 4) == {} and store.warnings == []
    assert grades(store) == clean_grades
    assert all("failed while reading" not in warning for warning in store.warnings)


def test_a_full_disk_stops_writing_with_one_warning(tmp_path, clean_grades):
    path = tmp_path / "e.sqlite"
    store = EmbeddingStore(path)
    pages = store._connection.execute("PRAGMA page_count").fetchone()[0]
    store._connection.execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLite answers "database or disk is full"
    assert grades(store) == clean_grades
    assert not store.writable and "database or disk is full" in store.warnings[0]
    assert len(store.warnings) == 1


def test_rows_of_the_wrong_size_or_holding_nan_are_computed_again(tmp_path):
    path = tmp_path / "e.sqlite"
    fresh = FakeEncoder().encode(TEXTS[:4])
    filled(path)
    with sqlite3.connect(path) as raw:
        model = "fake-hash-64"
        nan = np.full(64, np.nan, dtype=np.float32)
        short = np.ones(10, dtype=np.float32) / np.sqrt(10)
        damage = [
            (nan.tobytes(), 64, TEXTS[0]),  # NaN sentence vector
            (short.tobytes(), 10, TEXTS[1]),  # a sound vector of another length
            (b"\x00\x01\x02", 64, TEXTS[2]),  # a truncated blob
            (fresh[3].sentence.astype(np.float32).tobytes() * 2, 64, TEXTS[3]),  # twice the length it claims
        ]
        for blob, dimensions, text in damage:
            raw.execute("UPDATE embeddings SET sentence = ?, dimensions = ? WHERE model = ? AND digest = ?",
                        (blob, dimensions, model, digest(text)))
        raw.execute("UPDATE embeddings SET tokens = ? WHERE model = ? AND digest = ?",
                    (np.full((3, 64), np.nan, dtype=np.float16).tobytes(), model, digest(TEXTS[4])))
    store = EmbeddingStore(path)
    encoder = FakeEncoder(store)
    again = encoder.encode(TEXTS[:5])
    assert encoder.encoded == 5  # the four damaged sentence rows, then the NaN token row, through the model again
    for got, want in zip(again[:4], fresh):
        assert np.array_equal(got.sentence, want.sentence)
    assert np.isfinite(again[4].tokens).all()
    assert len(store.warnings) == 1 and "damaged" in store.warnings[0]


def test_damaged_rows_never_change_a_grade(tmp_path, clean_grades):
    path = tmp_path / "e.sqlite"
    filled(path)
    with sqlite3.connect(path) as raw:  # every stored vector turned to NaN or cut short
        raw.execute("UPDATE embeddings SET sentence = substr(sentence, 1, 12) WHERE rowid % 2 = 0")
        raw.execute("UPDATE embeddings SET tokens = ? WHERE rowid % 2 = 1",
                    (np.full((2, 64), np.nan, dtype=np.float16).tobytes(),))
    assert grades(EmbeddingStore(path)) == clean_grades


@pytest.mark.parametrize("setting", ["history", "workspace", "cache"])
def test_a_users_own_file_is_never_taken_for_a_store(tmp_path, setting):
    """WORKBENCH_EMBEDDING_CACHE=my_prices.xlsx once renamed the user's workbook to .broken and put a database there."""
    from workbench.core.model import WorkbenchError
    from workbench.store.history import History
    from workbench.store.workspace import Workspace

    from .conftest import SAMPLE_XLSX

    own = tmp_path / "my_prices.xlsx"
    own.write_bytes(SAMPLE_XLSX.read_bytes())
    before = own.read_bytes()
    if setting == "cache":
        store = EmbeddingStore(own)
        assert "is not a workbench database" in store.warnings[0] and not store.usable
    else:
        with pytest.raises(WorkbenchError, match="is not a workbench database .* left as it is"):
            (History if setting == "history" else Workspace)(own)
    assert own.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my_prices.xlsx"]  # nothing renamed or put beside it


def test_another_programs_database_is_refused(tmp_path):
    from workbench.core.model import WorkbenchError
    from workbench.store.history import History

    other = tmp_path / "contacts.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE contacts (name TEXT)")
    connection.close()
    before = other.read_bytes()
    with pytest.raises(WorkbenchError, match=r"another program's database \(it has the table\(s\) contacts\)"):
        History(other)
    store = EmbeddingStore(other)
    assert "another program's database" in store.warnings[0]
    assert other.read_bytes() == before


def test_dev_null_is_not_called_a_folder(tmp_path):
    from workbench.core.model import WorkbenchError
    from workbench.store.history import History

    with pytest.raises(WorkbenchError, match=r"^the run history /dev/null is not an ordinary file \(a device such as"):
        History("/dev/null")
    assert "is not an ordinary file" in EmbeddingStore("/dev/null").warnings[0]


def test_a_locked_cache_is_skipped_at_once(tmp_path):
    """Another program holding the cache's lock: the run goes on without it in seconds, not a minute."""
    import time

    path = tmp_path / "e.sqlite"
    ours = EmbeddingStore(path)
    FakeEncoder(ours).encode(["made by us"])
    ours.close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")  # what a stuck program does: no one else may read or write
    try:
        began = time.perf_counter()
        store = EmbeddingStore(path)
        encoder = FakeEncoder(store)
        encoder.encode(TEXTS)
        seconds = time.perf_counter() - began
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert encoder.encoded == len(TEXTS)  # computed, the grades unchanged
    assert store.warnings and "locked" in store.warnings[0]
    assert seconds < 15  # LOCKED_PATIENCE (2 s) per attempt; before, 30 s each: a hang detector, not a budget
