"""The on-disk embedding cache: same vectors, keyed by model, rebuilt when corrupt."""

from __future__ import annotations

import sqlite3
import threading

import numpy as np
import pytest

from workbench.store.embedding_store import EmbeddingStore

from .conftest import FakeEncoder

TEXTS = ["Warranty: 1 year.", "Price: 39.90", "Warranty: 1 year.", "Care: Wipe with a dry cloth."]


def test_cache_returns_the_same_vectors_as_a_fresh_encode(tmp_path):
    store = EmbeddingStore(tmp_path / "e.sqlite")
    first = FakeEncoder(store)
    fresh = first.encode(TEXTS)
    assert first.encoded == 3  # three distinct texts
    assert store.count("fake-hash-64") == 3
    # A later process: a new encoder over the same file embeds nothing.
    second = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))
    again = second.encode(TEXTS)
    assert second.encoded == 0 and second.from_disk == 3
    for a, b in zip(fresh, again):
        assert np.array_equal(a.sentence, b.sentence) and a.sentence.dtype == np.float32
        assert np.array_equal(a.tokens, b.tokens)
        assert np.array_equal(a.tokens, a.tokens.astype(np.float16))  # float16 precision, as stored


def test_another_model_does_not_read_the_old_vectors(tmp_path):
    class Other(FakeEncoder):
        model_id = "fake-hash-64-v2"

    store = EmbeddingStore(tmp_path / "e.sqlite")
    FakeEncoder(store).encode(TEXTS)
    other = Other(store)
    other.encode(TEXTS)
    assert other.encoded == 3 and other.from_disk == 0
    assert store.count() == 6


def test_a_file_that_is_not_a_cache_is_left_alone_with_a_warning(tmp_path):
    """Only a damaged file of ours is moved aside and rebuilt (tests/test_cache_degrades.py); anything else is not ours."""
    path = tmp_path / "e.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    store = EmbeddingStore(path)
    assert store.warnings == [
        f"The embedding cache {path} is not a workbench database (it holds something else, perhaps one of your own "
        "files); it was left as it is. Name another file.; the workbench runs without the cache, which is slower but "
        "gives the same grades."
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.sqlite"]  # not renamed, nothing put beside it
    assert path.read_bytes() == b"this is not a database" * 100
    encoder = FakeEncoder(store)
    encoder.encode(TEXTS)
    assert encoder.encoded == 3 and store.count() == 0


def test_two_writers_at_once(tmp_path):
    path = tmp_path / "e.sqlite"
    errors = []

    def write(offset: int) -> None:
        try:
            encoder = FakeEncoder(EmbeddingStore(path))
            encoder.encode([f"text {offset} {i}" for i in range(300)])
        except sqlite3.Error as error:  # pragma: no cover - what the test guards against
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert EmbeddingStore(path).count() == 600


@pytest.mark.slow
def test_real_model_key_names_the_model_and_its_files(real_encoder):
    assert real_encoder.model_key.startswith("all-MiniLM-L6-v2@") and len(real_encoder.model_key) == len("all-MiniLM-L6-v2@") + 16


def test_token_vectors_beyond_memory_come_back_from_disk(tmp_path):
    encoder = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))
    encoder.token_memory = 2
    texts = [f"piece number {i}" for i in range(5)]
    first = [tokens.copy() for tokens in encoder.token_vectors(texts)]
    assert encoder.encoded == 5 and len(encoder._tokens) <= 3
    again = encoder.token_vectors(texts)
    assert encoder.encoded == 5  # no second pass: the evicted ones were read from disk
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


def test_token_vectors_a_caller_copies_are_not_held_in_memory_beside_its_copy(tmp_path):
    """maxsim copies the rows it asks for ``as_stored`` into its blocks: with a store to give them back, memory
    held the same rows beside the blocks (up to ``token_memory``, 37 MB at a run's end)."""
    encoder = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))
    texts = [f"piece number {i}" for i in range(5)]
    first = [tokens.copy() for tokens in encoder.token_vectors(texts, as_stored=True)]
    encoder._tokens.clear()
    encoder._token_rows = 0
    again = encoder.token_vectors(texts, as_stored=True)
    assert encoder.encoded == 5 and len(encoder._tokens) == 0  # read back from the store, not kept
    assert all(a.dtype == np.float16 and np.array_equal(a, b) for a, b in zip(again, first))
    assert len(encoder.token_vectors(texts[:2])) == 2 and len(encoder._tokens) == 2  # float32 for the caller: kept
