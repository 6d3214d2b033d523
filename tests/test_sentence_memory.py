"""The encoder holds each sentence vector once: as a row of the matrix the searches use, not a copy beside it."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from workbench.cut import chunk_document
from workbench.read.loaders import parse_markdown
from workbench.search.retrievers import Dense, Hybrid
from workbench.store.embedding_store import EmbeddingStore

from .conftest import FakeEncoder

DOC = parse_markdown(
    "# Shop\n\n## Ceiling Fan\nPrice: 120\nWarranty: 2 years.\n\n## Table Fan\nPrice: 30\nWarranty: 1 year.\n\n"
    "## Heater\nPrice: 45\nKeeps a room warm.\n",
    "s.md",
)
CHUNKS = chunk_document(DOC, "heading")


def test_dense_holds_the_vectors_the_encoder_keeps(tmp_path):
    first = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))
    expected = first.sentence_matrix([chunk.text for chunk in CHUNKS]).copy()  # the model's, now in the store
    encoder = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))  # a later run: every vector read back from disk
    dense = Dense(CHUNKS, encoder_factory=lambda: encoder)
    assert encoder.encoded == 0 and encoder.from_disk == len(CHUNKS)
    assert np.array_equal(dense.matrix, expected)  # the same vectors, bit for bit
    # Each text's vector is a row of the search's matrix: the store's blobs (and their arrays) are let go. Held
    # beside it as before, each vector was there twice (126 MB of blobs in a 3,000-product run).
    for row, chunk in enumerate(CHUNKS):
        held = encoder._sentences[chunk.text]
        assert held.base is dense.matrix and np.shares_memory(held, dense.matrix[row])
    assert not dense.matrix.flags.writeable  # shared, so no caller may change it under another
    # Hybrid's meaning half, built over the same pieces, is handed that matrix, not a copy of it.
    hybrid = Hybrid(CHUNKS, encoder_factory=lambda: encoder)
    assert hybrid.parts[1].matrix is dense.matrix


def test_a_matrix_goes_once_no_text_is_held_by_it(fake_encoder):
    texts = [chunk.text for chunk in CHUNKS]
    first = fake_encoder.sentence_matrix(texts[:2])  # as the run reads its slices before the searches
    gone = weakref.ref(first)
    del first
    gc.collect()
    assert gone() is not None  # its rows are the texts' vectors
    dense = Dense(CHUNKS, encoder_factory=lambda: fake_encoder)
    gc.collect()
    assert gone() is None  # every row now the search's: the slice's matrix is freed, not kept beside it
    assert all(fake_encoder._sentences[text].base is dense.matrix for text in texts)
    # A question's vector (one text) is a matrix of its own, equal to the row, and holds nothing.
    question = fake_encoder.sentence_matrix([texts[0]])
    assert question.shape == (1, 64) and np.array_equal(question[0], dense.matrix[0])
    assert question.base is None
    asked = "ceiling fan 120"
    assert np.array_equal(dense.scores(asked), dense.matrix @ fake_encoder.sentence_matrix([asked])[0])
