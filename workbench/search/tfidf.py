"""TF-IDF word search through scikit-learn's TfidfVectorizer: the classic vector-space baseline beside BM25."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from workbench.core.model import Chunk
from workbench.core.words import ENGLISH, Analyzer
from workbench.search.retrievers import RETRIEVERS, Retriever, best_of, bounds_of

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder


@RETRIEVERS.register("tfidf")
class TfIdf(Retriever):
    """Cosine between the question's and each piece's TF-IDF vectors (sublinear word counts, smoothed IDF).

    The words are BM25's (the document's ``Analyzer.terms``: any script, less the stop words, stemmed), so the two
    differ only in how they weigh a match: TF-IDF has no length normalisation by the average piece and no
    saturation, and a cosine is already on a 0-1 scale.
    """

    order = 25
    label = "TF-IDF word search"
    explanation = ("Scores each piece by the question's words it shares, rare words counting more, as the angle "
                   "between the two lists of word weights.")
    score_words = ("the cosine of the question's and the piece's word weights, from 0 (no word shared) to 1 (the "
                   "same words, weighed alike)")

    def __init__(self, chunks: list[Chunk], encoder_factory: Callable[[], Encoder] | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer  # sklearn loads only when TF-IDF is asked for

        super().__init__(chunks, analyzer=analyzer)
        texts = [(index, text) for index, chunk in enumerate(chunks) for text in (chunk.search or (chunk.text,))]
        self.bounds = bounds_of([index for index, _ in texts], len(chunks))
        self.vectorizer = TfidfVectorizer(analyzer=analyzer.terms, sublinear_tf=True)
        self.matrix = self.vectorizer.fit_transform([text for _, text in texts]) if texts else None

    def scores(self, question: str) -> np.ndarray:
        if self.matrix is None:
            return np.zeros(0)
        # Rows are L2-normalised by the vectorizer, so the dot product is the cosine.
        row_scores = np.asarray((self.matrix @ self.vectorizer.transform([question]).T).todense()).ravel()
        return best_of(row_scores, self.bounds)

    def sureness(self, question: str, scores: np.ndarray) -> np.ndarray:
        """The cosine itself: 1 when a piece's weights point exactly where the question's do."""
        return np.clip(np.asarray(scores, dtype=float), 0.0, 1.0)
