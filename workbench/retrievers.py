"""Retrievers score every chunk against a question; registered by stable id."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from .embedding import Encoder
from .model import Chunk
from .registry import Registry

STOP_WORDS = frozenset("what is the a an on for how long does do is it in of to with per".split())


def question_words(question: str) -> list[str]:
    """The distinct lowercase ``[a-z0-9]+`` runs of a question, less the stop words."""
    return list(dict.fromkeys(w for w in re.findall(r"[a-z0-9]+", question.lower()) if w not in STOP_WORDS))


def keyword_score(words: list[str], text: str) -> int:
    """How many of the question words occur in the text (as substrings, lowercased)."""
    lowered = text.lower()
    return sum(1 for word in words if word in lowered)


def tokenize(text: str) -> list[str]:
    """Unicode words, lowercased: the BM25 vocabulary."""
    return re.findall(r"\w+", text.lower())


class Retriever:
    """Built over a strategy's chunks; ``scores`` gives one score per chunk, higher is better."""

    id: str = ""
    label: str = ""
    explanation: str = ""
    needs_encoder = False

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        self.chunks = chunks

    def scores(self, question: str) -> np.ndarray:
        raise NotImplementedError


RETRIEVERS: Registry[Retriever] = Registry("retriever")


@RETRIEVERS.register("keyword")
class Keyword(Retriever):
    label = "Word match"
    explanation = "Counts how many of the question's words appear in a piece. Simple and easy to follow."

    def scores(self, question: str) -> np.ndarray:
        words = question_words(question)
        return np.array([keyword_score(words, chunk.text) for chunk in self.chunks], dtype=float)


@RETRIEVERS.register("bm25")
class BM25(Retriever):
    label = "BM25 word search"
    explanation = "The classic search-engine score: rare words that match count more than common ones."

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        from rank_bm25 import BM25Okapi

        super().__init__(chunks)
        self.index = BM25Okapi([tokenize(chunk.text) for chunk in chunks])

    def scores(self, question: str) -> np.ndarray:
        tokens = tokenize(question)
        if not tokens:
            return np.zeros(len(self.chunks))
        return np.asarray(self.index.get_scores(tokens), dtype=float)


@RETRIEVERS.register("dense")
class Dense(Retriever):
    label = "Meaning search"
    explanation = "A small language model turns question and pieces into numbers and finds the closest meaning."
    needs_encoder = True

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        super().__init__(chunks)
        if encoder_factory is None:
            from .embedding import get_encoder as encoder_factory
        self.encoder = encoder_factory()
        self.matrix = self.encoder.sentence_matrix([chunk.text for chunk in chunks])

    def scores(self, question: str) -> np.ndarray:
        vector = self.encoder.encode([question])[0].sentence
        return self.matrix @ vector


def ranks(scores: np.ndarray, chunks: list[Chunk]) -> list[int]:
    """Chunk indices best first; ties go to the chunk that starts earlier in the document."""
    return sorted(range(len(chunks)), key=lambda i: (-scores[i], chunks[i].start, i))


@RETRIEVERS.register("hybrid")
class Hybrid(Retriever):
    label = "Word + meaning search"
    explanation = "Combines the word search and the meaning search by their rankings (reciprocal rank fusion)."
    needs_encoder = True
    k = 60

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None) -> None:
        super().__init__(chunks)
        self.parts = (BM25(chunks), Dense(chunks, encoder_factory))

    def scores(self, question: str) -> np.ndarray:
        fused = np.zeros(len(self.chunks))
        for part in self.parts:
            for rank, index in enumerate(ranks(part.scores(question), self.chunks), start=1):
                fused[index] += 1.0 / (self.k + rank)
        return fused
