"""Does weighting the meaning search higher in ``hybrid`` close customers' other words for a product?

    python bench/hybrid_weights.py                     # weights 0.5, 1 (today) and 2 for dense against bm25
    python bench/hybrid_weights.py --weights 1,1.5,2,3

``hybrid`` fuses bm25's and dense's rankings by reciprocal rank, each counting 1/(60 + rank). Here dense's share is
multiplied by a weight. Every file of ``bench/multilingual.py`` (the six English real files, their synonym questions,
the German files) is graded under the default cuts with ``hybrid`` and re-checks none and maxsim; the model is the
one the workbench picks for the file's language (MiniLM for English, multilingual-e5 for German). The embeddings are
kept in one cache for the run, so only the first weight pays for the model. Reported per language: clean answers
and hit@5 summed over the files under the best hybrid setup of each weight.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> int:
    import numpy as np
    from multilingual import files, load

    from workbench.core.model import Settings
    from workbench.encode.embedding import MiniLMEncoder
    from workbench.encode.multilingual import E5Encoder
    from workbench.grade.metrics import hit_at
    from workbench.read.questions import parse_questions
    from workbench.run import defaults
    from workbench.run.evaluate import evaluate
    from workbench.search.retrievers import Hybrid, ranks
    from workbench.store.embedding_store import EmbeddingStore

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="0.5,1,2")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    store = EmbeddingStore(Path(tempfile.mkdtemp(prefix="hybrid-")) / "embeddings.sqlite")
    encoders = {"minilm": MiniLMEncoder(store), "e5": E5Encoder(store)}
    settings = Settings(list(defaults.DEFAULTS.strategies), ["hybrid"], ["none", "maxsim"], top_k=5)
    table: dict[float, dict[str, dict[str, list[int]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(lambda: [0, 0, 0])))
    for weight in weights:

        def scores(self, question, weight=weight):
            fused = np.zeros(len(self.chunks))
            parts = []
            for share, part in zip((1.0, weight), self.parts):  # (bm25, dense)
                found = part.scores(question)
                parts.append(found)
                order = ranks(found, self.starts)
                fused[order] += share / (self.k + np.arange(1, len(order) + 1))
            self._last = (question, parts)
            return fused

        Hybrid.scores = scores
        for path, questions_file, language in files():
            encoder = encoders["e5" if language == "de" else "minilm"]
            questions = parse_questions(questions_file.read_bytes(), questions_file.name)
            evaluation = evaluate(load(path), questions, settings, encoder_factory=lambda encoder=encoder: encoder)
            for run in evaluation.runs:
                answered = [r for r in run.per_question if r.answerable]
                row = table[weight][language][f"{run.strategy}/{run.reranker}"]
                row[0] += sum(r.grade == "clean" for r in answered)
                row[1] += sum(int(hit_at(r.relevant_ranks, 5)) for r in answered)
                row[2] += len(answered)
    languages = sorted({language for by_language in table.values() for language in by_language})
    print("| dense weight | " + " | ".join(f"{language}: best hybrid setup, clean, hit@5" for language in languages) + " |")
    print("|---|" + "---|" * len(languages))
    for weight in weights:
        cells = []
        for language in languages:
            setups = table[weight][language]
            best = max(setups, key=lambda k: (setups[k][0], setups[k][1]))
            clean, hit, total = setups[best]
            cells.append(f"{best}: {clean}/{total} ({100 * clean / total:.0f} %), {hit}")
        print(f"| {weight:g} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
