"""The cross-encoder re-check: a model of the user's own, on their disk, reads question and piece together."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from workbench.core.model import Chunk, Settings, WorkbenchError
from workbench.core.words import ENGLISH, Analyzer
from workbench.search.rerankers import RERANKERS, Reranker

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder


@RERANKERS.register("cross-encoder")
class CrossEncoderRerank(Reranker):
    order = 40
    label = "Re-checked by your model"
    explanation = "A model on your disk reads question and piece together and scores how well they match."
    score_words = "your model's own match score: its scale is the model's, higher is a better match"

    loads_own_model = True
    needs_model_path = True

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        self.model = load_cross_encoder(model_path)

    @classmethod
    def own_model_work(cls, questions: int, settings: Settings, average_piece: float) -> tuple[int, float]:
        """It reads question and piece together, once per shortlisted pair, under every cut and search."""
        pairs = questions * settings.depth * len(settings.strategies) * len(settings.retrievers)
        return pairs, pairs * (average_piece + 60 + 100)

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
