"""Nothing the model cannot read is scored as if read: long pieces are read in overlapping windows."""

from __future__ import annotations

import re

import numpy as np
import pytest

from workbench.cut import chunk_document
from workbench.encode.model_window import piece_count, text_windows, views, window_spans
from workbench.read.loaders import parse_markdown
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import Dense

from .conftest import FakeEncoder


class ShortSightedEncoder(FakeEncoder):
    """The fake bag of words, reading at most ``window`` words as the real model reads 254 word pieces."""

    model_id = "fake-window-6"
    window = 6

    def word_pieces(self, text: str) -> list[tuple[int, int]]:
        return [match.span() for match in re.finditer(r"\w+", text)]

    def _encode(self, texts):
        cut = []
        for text in texts:
            pieces = self.word_pieces(text)
            cut.append(text[: pieces[self.window - 1][1]] if len(pieces) > self.window else text)
        return super()._encode(cut)


def test_window_spans_overlap_by_a_quarter_and_cover_every_piece():
    pieces = [(i * 2, i * 2 + 1) for i in range(12)]  # twelve one-character pieces at 0, 2, 4, ...
    # Window 4, a quarter (1 piece) shared: steps of 3 pieces: 0-3, 3-6, 6-9, 9-11.
    assert window_spans(pieces, 4) == [(0, 7), (6, 13), (12, 19), (18, 23)]
    assert window_spans(pieces[:4], 4) == [(0, 7)]  # fits: one window
    assert window_spans([], 4) == []
    with pytest.raises(ValueError, match="at least one word piece"):
        window_spans(pieces, 0)


def test_long_text_is_read_as_windows_each_with_the_prefix():
    encoder = ShortSightedEncoder()
    text = "one two three four five six seven eight"
    assert text_windows(encoder, "one two", "A > B\n") == ["A > B\none two"]  # 2 + 2 pieces fit in 6
    # Prefix "A > B" is 2 pieces, so 4 are left for the text: steps of 3: 1-4, 4-7, 7-8.
    assert text_windows(encoder, text, "A > B\n") == [
        "A > B\none two three four",
        "A > B\nfour five six seven",
        "A > B\nseven eight",
    ]
    assert piece_count(encoder, text) == 8


def test_dense_finds_an_answer_past_the_window():
    doc = parse_markdown(
        "# Watch\n\n## Features\nscreen buttons charger strap buckle glass battery sensor waterproof\n\n"
        "## Other\nwaterproof case\n",
        "w.md",
    )
    chunks = chunk_document(doc, "heading")
    encoder = ShortSightedEncoder()
    # "Features" + 9 words is 10 pieces: windows of 6 sharing 1 (a quarter, rounded down): pieces 1-6 and 6-10.
    assert views(encoder, chunks[0]) == [
        "Features\nscreen buttons charger strap buckle",
        "buckle glass battery sensor waterproof",
    ]
    dense = Dense(chunks, encoder_factory=lambda: encoder)
    scores = dense.scores("sensor waterproof")
    # Read whole, the model would see "Features screen buttons charger strap" only (cosine 0 with the question).
    first = encoder.sentence_matrix(["Features screen buttons charger strap buckle"])[0]
    assert float(first @ encoder.sentence_matrix(["sensor waterproof"])[0]) == pytest.approx(0.0, abs=0.3)
    # The last window holds both words; the best window's cosine is the chunk's score.
    best = max(float(encoder.sentence_matrix([w])[0] @ encoder.sentence_matrix(["sensor waterproof"])[0])
               for w in views(encoder, chunks[0]))
    assert scores[0] == pytest.approx(best)
    assert scores[0] > 0.5


def test_maxsim_reads_every_window(fake_encoder):
    encoder = ShortSightedEncoder()
    doc = parse_markdown("# W\n\n## F\na b c d e f g h i j k waterproof\n", "w.md")
    chunks = chunk_document(doc, "heading")
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    # "waterproof" is past the first window; with every window's tokens it finds its exact match (1.0).
    assert maxsim.scores("waterproof", chunks)[0] == pytest.approx(1.0)


@pytest.mark.slow
def test_real_model_window_comes_from_the_model(real_encoder):
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(real_encoder.path), device="cpu", local_files_only=True)
    assert real_encoder.max_seq_length == reference.max_seq_length == 256
    assert real_encoder.window == reference.max_seq_length - 2  # 256 less [CLS] and [SEP]
    assert piece_count(real_encoder, "IP67 water-resistant") == 6  # ip ##6 ##7 water - resistant


@pytest.mark.slow
def test_real_dense_sees_an_answer_past_256_word_pieces(real_encoder):
    filler = " ".join(f"The strap number {i} is made of soft silicone." for i in range(40))
    doc = parse_markdown(
        f"# Watch\n\n## Straps\n{filler}\nThe charger is a magnetic cable that clips to the back.\n\n"
        "## Display\nA bright colour screen you can read in sunlight.\n",
        "w.md",
    )
    chunks = chunk_document(doc, "heading")
    assert piece_count(real_encoder, chunks[0].text) > real_encoder.window
    dense = Dense(chunks, encoder_factory=lambda: real_encoder)
    scores = dense.scores("How do I charge the watch with the magnetic cable?")
    assert int(np.argmax(scores)) == 0
    truncated = real_encoder.sentence_matrix([chunks[0].text])[0] @ real_encoder.sentence_matrix(
        ["How do I charge the watch with the magnetic cable?"])[0]
    assert scores[0] > truncated  # the window holding the charger line scores above the first 256 pieces


def test_windows_primed_in_one_batch_are_those_worked_out_one_by_one():
    """``prime_windows`` tokenises the texts together; each text's windows are what ``text_windows`` gives
    asking the tokenizer itself (a text past the window, one that fits, one with a long prefix)."""
    from workbench.encode import model_window
    from workbench.encode.embedding import get_encoder

    encoder = get_encoder()  # its tokenizer only: the model itself is not loaded for this
    long = " ".join(f"word{i} fits." for i in range(400))
    pairs = [("Shop > Fans\n", long), ("", "A short line."), ("Shop > " * 200 + "\n", long), ("", long)]
    model_window._WINDOWS.clear()
    expected = [model_window.text_windows(encoder, text, prefix) for prefix, text in pairs]
    assert len(expected[0]) > 1 and expected[1] == ["A short line."]
    model_window._WINDOWS.clear()
    model_window.prime_windows(encoder, pairs)
    keys = [(encoder.model_key, encoder.window, prefix, text) for prefix, text in pairs]
    assert [model_window._WINDOWS[key] for key in keys] == expected
