"""A batch of texts handed to the model is bounded by its token rows, not only by texts (``encoder.token_batches``):
E5's 507-piece windows came 256 at a time, whose token vectors (130,000 rows) were held three times over for a
moment, ~400 MB (BENCHMARKS.md, "A German export read by E5")."""

from __future__ import annotations

import numpy as np

from tests.conftest import FakeEncoder
from workbench.encode.encoder import Encoder, token_batches
from workbench.encode.minilm import MiniLMEncoder
from workbench.encode.multilingual import E5Encoder


def lengths(batches: list[list[str]]) -> list[list[int]]:
    return [[len(text) for text in batch] for batch in batches]


def test_batches_by_rows_counted_from_lengths():
    # Rows counted as characters plus one, at most the window (10): 3, 4, 5, then 10 each.
    texts = ["a" * n for n in (2, 3, 4, 9, 9, 20, 30, 30)]
    assert lengths(token_batches(texts, window=10, rows=25, most=3)) == [[2, 3, 4], [9, 9], [20, 30], [30]]
    # Without a window a text counts its characters plus one; a text past the budget is a batch of its own.
    assert lengths(token_batches(["a" * 5, "a" * 40, "a" * 6], window=None, rows=25, most=8)) == [[5], [40], [6]]
    assert token_batches([], window=10, rows=25, most=3) == []


def test_e5s_long_texts_come_in_smaller_batches_than_short_ones_and_minilms_as_before():
    assert Encoder.batch_rows == E5Encoder.batch_rows == 65_536 and Encoder.batch_texts == 256
    long = ["x" * 2_000] * 300  # 507 rows each (E5's window): 65,536 // 507 = 129 a batch
    assert [len(b) for b in token_batches(long, 507, E5Encoder.batch_rows, E5Encoder.batch_texts)] == [129, 129, 42]
    short = ["x" * 60] * 300  # 61 rows each: 256 texts first
    assert [len(b) for b in token_batches(short, 507, E5Encoder.batch_rows, E5Encoder.batch_texts)] == [256, 44]
    # MiniLM's longest (254 pieces): 256 x 254 = 65,024 rows, within the budget, so its batches are those it had
    # (its vectors depend on the batch's padding: the cache holds those of batches of 256).
    assert [len(b) for b in token_batches(long, 254, MiniLMEncoder.batch_rows, MiniLMEncoder.batch_texts)] == [256, 44]


def test_the_encoder_hands_the_model_batches_by_rows_and_keeps_float16_token_vectors():
    seen: list[int] = []

    class Counting(FakeEncoder):
        window = 10
        batch_rows = 25
        batch_texts = 3

        def _encode(self, texts):
            seen.append(len(texts))
            return super()._encode(texts)

    encoder = Counting()
    texts = [f"w{n} " * (n + 1) for n in range(8)]  # 3, 6, 9, ... 24 characters: rows 4, 7, 10, then 10 each
    encoder.sentence_matrix(texts)
    assert seen == [3, 2, 2, 1]  # 4 + 7 + 10 = 21 rows (3 texts, the most), then 10 + 10 (a third: 30 > 25)
    assert encoder.encoded == 8
    assert all(tokens.dtype == np.float16 for tokens in encoder.token_vectors(texts, as_stored=True))
