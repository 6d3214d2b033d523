"""Rerankers re-score a retriever's shortlist; registered by stable id.

The base class, the registry, the title rule a re-check may use (``names``) and the plain re-checks; ``maxsim``
and the cross-encoder each have a module of their own (``maxsim.py``, ``cross_encoder.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from workbench.core.model import Chunk, Settings
from workbench.core.registry import Registry
from workbench.core.words import ENGLISH, Analyzer

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder


def titles(chunk: Chunk) -> list[str]:
    """What a piece is filed under: the last step of its breadcrumb, and its first line when that is a heading.

    A spreadsheet's products are ``## Name`` lines, so a product's name is its title too. A heading
    further down a piece (a window running into the next product) opens another piece's subject, not this one's.
    """
    found = [chunk.prefix.strip().rsplit(" > ", 1)[-1]] if chunk.prefix.strip() else []
    first = chunk.body.lstrip("\n").split("\n", 1)[0]
    return found + ([first.lstrip("#").strip()] if first.startswith("#") else [])


def names(question: str, chunk: Chunk, analyzer: Analyzer = ENGLISH) -> bool:
    """Does the question name one of the piece's titles in full: every one of its words, stop words aside?

    "How many browning levels does the 2-Slice Toaster have?" names "2-Slice Toaster", not "4-Slice
    Toaster"; "Can I take my smoothie from the Personal Blender?" does not name "Personal Blender 600ml".
    """
    return named(set(analyzer.question_terms(question)), title_terms(chunk, analyzer))


def title_terms(chunk: Chunk, analyzer: Analyzer = ENGLISH) -> list[set[str]]:
    """Each of the piece's titles as its set of words (``titles``), stop words aside."""
    return [set(analyzer.terms(title)) for title in titles(chunk)]


def named(asked: set[str], titles_terms: list[set[str]]) -> bool:
    """``names`` from the question's words and the piece's ``title_terms``, worked out once each."""
    return any(words and words <= asked for words in titles_terms)


class Reranker:
    """``scores`` gives a new score for each shortlisted chunk, higher is better.

    ``none`` returns ``None``: keep the retriever's order and scores.
    """

    id: str = ""
    order: int  # where it is listed and run, and which of two tied setups is preferred (lower: plainer)
    label: str = ""
    explanation: str = ""
    needs_encoder = False  # reads with the shared language model (the process-wide encoder)
    # What its new score means, in words for the screen; "" when it keeps the search's scores.
    score_words: str = ""
    loads_own_model = False  # reads with a model of its own: slow, and never part of a word-search run
    needs_model_path = False  # the user names that model's folder (--reranker-model, a box in the app)
    rescores = True  # False: ``scores`` always gives None, so the shortlist need not be gathered

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        """``analyzer``: how the document's words are read (``core.words``), for a re-check that compares words."""

    @classmethod
    def uses_model(cls) -> bool:
        """Whether it reads with any language model, the shared one or its own, so a run with it is not a word
        search (``search.reads``)."""
        return cls.needs_encoder or cls.loads_own_model

    @classmethod
    def own_model_work(cls, questions: int, settings: Settings, average_piece: float) -> tuple[int, float]:
        """For the time estimate: texts its own model reads, and their work units (characters plus a fixed
        cost each, as ``embedding.work_of`` counts them). Only a reranker with a model of its own has any."""
        return 0, 0.0

    @classmethod
    def recheck_characters(cls, cuts: dict[str, list[Chunk]], questions: int, settings: Settings) -> float:
        """For the time estimate: characters it compares with no new text to read (maxsim's token vectors)."""
        return 0.0

    def prepare(self, asked: list[tuple[str, list[Chunk]]]) -> None:
        """Several questions' shortlists before ``scores`` is asked for each: a re-check that can work them out
        together does so here. The scores are the same either way."""

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray | None:
        raise NotImplementedError

    def finish(self) -> None:
        """The run has asked for every score: keep what should outlive it (maxsim's columns, on disk)."""


RERANKERS: Registry[Reranker] = Registry("reranker")


@RERANKERS.register("none")
class NoRerank(Reranker):
    order = 10
    rescores = False
    label = "Not re-checked"
    explanation = "Keeps the search's own order."

    def scores(self, question: str, chunks: list[Chunk]) -> None:
        return None


@RERANKERS.register("heading")
class HeadingRerank(Reranker):
    order = 20
    label = "Re-checked by headings"
    explanation = "Moves up pieces whose first line (their heading) names a word of the question."
    score_words = "the number of the question's words the piece holds, plus 3 when its first line names one of them"
    bonus = 3

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        self.analyzer = analyzer
        # Piece text -> (its first line's terms, its terms): the same pieces head every question's shortlist.
        self._terms: dict[str, tuple[frozenset[str], frozenset[str]]] = {}

    def _read(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        if text not in self._terms:
            read = self.analyzer.terms
            self._terms[text] = (frozenset(read(text.split("\n", 1)[0])), frozenset(read(text)))
        return self._terms[text]

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray:
        """As ``keyword`` counts (the question's distinct terms the piece holds), plus ``bonus`` when its first
        line holds one of them."""
        words = self.analyzer.question_terms(question)
        result = []
        for chunk in chunks:
            first_line, held = self._read(chunk.text)
            boost = self.bonus if any(word in first_line for word in words) else 0
            result.append(boost + sum(1 for word in words if word in held))
        return np.array(result, dtype=float)
