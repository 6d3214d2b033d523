"""Rerankers re-score a retriever's shortlist; registered by stable id."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from .embedding import Encoder
from .model import Chunk, WorkbenchError
from .registry import Registry
from .retrievers import fold, question_words, words_in


class Reranker:
    """``scores`` gives a new score for each shortlisted chunk, higher is better.

    ``none`` returns ``None``: keep the retriever's order and scores.
    """

    id: str = ""
    label: str = ""
    explanation: str = ""
    needs_encoder = False

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None) -> None:
        pass

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray | None:
        raise NotImplementedError


RERANKERS: Registry[Reranker] = Registry("reranker")


@RERANKERS.register("none")
class NoRerank(Reranker):
    label = "Not re-checked"
    explanation = "Keeps the search's own order."

    def scores(self, question: str, chunks: list[Chunk]) -> None:
        return None


@RERANKERS.register("heading")
class HeadingRerank(Reranker):
    label = "Re-checked by headings"
    explanation = "Moves up pieces whose first line (their heading) names a word of the question."
    bonus = 3

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None) -> None:
        # Piece text -> (folded first line, folded text): the same pieces head every question's shortlist.
        self._folded: dict[str, tuple[str, str]] = {}

    def _fold(self, text: str) -> tuple[str, str]:
        if text not in self._folded:
            self._folded[text] = (fold(text.split("\n", 1)[0]), fold(text))
        return self._folded[text]

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray:
        words = question_words(question)
        result = []
        for chunk in chunks:
            first_line, folded = self._fold(chunk.text)
            boost = self.bonus if any(word in first_line for word in words) else 0
            result.append(boost + words_in(words, folded))
        return np.array(result, dtype=float)


@RERANKERS.register("maxsim")
class MaxSim(Reranker):
    label = "Re-checked word by word for meaning"
    explanation = (
        "Compares each word of the question with its best match in the piece, using the same small "
        "language model, and averages (late interaction, as in ColBERT)."
    )
    needs_encoder = True

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None) -> None:
        if encoder_factory is None:
            from .embedding import get_encoder as encoder_factory
        self.encoder = encoder_factory()
        # The same (question, piece) pairs recur across retrievers' shortlists: score each pair once.
        self._memo: dict[tuple[str, str, tuple[str, ...]], float] = {}

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray:
        from .model_window import reading_units

        keys = [(question, chunk.text, chunk.search) for chunk in chunks]
        todo = list({key: chunk for key, chunk in zip(keys, chunks) if key not in self._memo}.items())
        if todo:
            query = self.encoder.token_vectors([question])[0]
            # Each chunk is read as one or more units: itself, or (small-to-big) each of its small pieces,
            # as the search read it. A unit past the model's window is read window by window, and its
            # token vectors are all its windows'. A chunk scores as its best unit.
            units = [reading_units(self.encoder, chunk) for _, chunk in todo]
            flat = [windows for chunk_units in units for windows in chunk_units]
            vectors = self.encoder.token_vectors([w for windows in flat for w in windows])
            documents, position = [], 0
            for windows in flat:
                documents.append(np.vstack(vectors[position : position + len(windows)]))
                position += len(windows)
            # One product against all shortlisted units' tokens, then the best match per unit and question token.
            similarity = query @ np.vstack(documents).T
            bounds = np.cumsum([0] + [len(doc) for doc in documents[:-1]])
            per_unit = np.maximum.reduceat(similarity, bounds, axis=1).mean(axis=0)  # one score per unit
            position = 0
            for (key, _), chunk_units in zip(todo, units):
                self._memo[key] = float(per_unit[position : position + len(chunk_units)].max())
                position += len(chunk_units)
        return np.array([self._memo[key] for key in keys])


@RERANKERS.register("cross-encoder")
class CrossEncoderRerank(Reranker):
    label = "Re-checked by your model"
    explanation = "A model on your disk reads question and piece together and scores how well they match."

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None) -> None:
        self.model = load_cross_encoder(model_path)

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray:
        if not chunks:
            return np.zeros(0)
        return np.asarray(self.model.predict([(question, chunk.text) for chunk in chunks]), dtype=float)


def load_cross_encoder(model_path: str | None):
    """Load a sentence-transformers CrossEncoder from a local folder, with plain errors."""
    if not model_path:
        raise WorkbenchError("cross-encoder: name the folder of a cross-encoder model on your disk.")
    path = Path(model_path).expanduser()
    if not path.is_dir():
        raise WorkbenchError(f"cross-encoder: the model folder {path} does not exist.")
    if not (path / "config.json").is_file():
        raise WorkbenchError(f"cross-encoder: {path} holds no config.json, so it is not a model folder.")
    import json
    import os

    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise WorkbenchError(f"cross-encoder: {path / 'config.json'} cannot be read: {error}.") from None
    if not isinstance(config, dict):
        raise WorkbenchError(f"cross-encoder: {path / 'config.json'} is not a model configuration (it holds no settings).")
    names = config.get("architectures") or []
    architectures = " ".join(str(name) for name in names) if isinstance(names, list) else str(names)
    if "SequenceClassification" not in architectures:
        raise WorkbenchError(
            f"cross-encoder: {path} is not a cross-encoder (its model is {architectures or 'of no known kind'}; "
            "a cross-encoder is a sequence-classification model)."
        )
    from sentence_transformers import CrossEncoder

    try:
        return CrossEncoder(str(path), device="cpu", local_files_only=True)
    except Exception as error:  # the library raises many kinds for a broken folder
        raise WorkbenchError(f"cross-encoder: the model in {path} could not be loaded: {error}") from None
