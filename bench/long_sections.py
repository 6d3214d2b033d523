"""Do long sections win by breadth? Ways of scoring a long piece by its best part, on the terms page in 3 languages.

    python bench/long_sections.py base                    # today's scoring
    python bench/long_sections.py window                  # maxsim: each window of a long piece scored alone
    python bench/long_sections.py lines                   # dense and maxsim: each line of a piece scored alone
    python bench/long_sections.py lines --english         # the same, on the six English shop files (bench/quality.py)

Issue 35: on the German terms page every miss is the right section ranked 2-9, in 13 of 14 under one of the four
longest sections. Today a piece past the model's window is read as overlapping windows; ``dense`` scores it by its
best window, ``maxsim`` by all its windows' token vectors together (so a longer piece offers each question word
more tokens to match). The variants, each applied by replacing ``encode.model_window``'s two functions in this
process only (small-to-big's pieces, scored by their best small piece already, are left as they are):

- ``window``: ``maxsim`` scores each window alone and takes the best, as ``dense`` does.
- ``lines``: ``dense`` and ``maxsim`` score each non-empty line of a piece (a paragraph of the Markdown, with the
  piece's breadcrumb when it has one) and take the best.
- ``lines-titled``: as ``lines``, each line read after the piece's first line (its heading) when it has no breadcrumb.
- ``parts128``: each run of 128 word pieces (a quarter shared with the next), best part.
- ``top2``: ``maxsim`` scores a piece of several units as the mean of its two best (one lucky sentence counts half).
- ``hubs``: ``maxsim``'s score of a piece less its mean score for the other questions asked with it (hubness
  reduction, no labels used: a broad section that every question finds close loses what every question gives it).

Reported: for each default setup, clean answers on the even rows (0, 2, 4, ...) and on the odd rows of each question
file (English with MiniLM, German and French with E5, as the workbench reads them); then the one setup best on the
even rows of the German and French files summed, and its clean answers on their odd rows, held back. The embedding
cache is ``$WORKBENCH_EMBEDDING_CACHE`` (the usual one when unset), so a second run is quick.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TERMS = ROOT / "tests" / "data" / "real"
VARIANTS = ("base", "window", "lines", "lines-titled", "parts128", "hubs", "top2")


def apply(variant: str) -> None:
    """Replace how a piece is split into the parts the model scores, for this process."""
    from workbench.encode import model_window as mw

    units = mw.reading_units
    if variant == "window":
        mw.reading_units = lambda encoder, chunk: [[w] for unit in units(encoder, chunk) for w in unit]
    elif variant in ("lines", "lines-titled", "parts128"):
        def parts(encoder, chunk):
            if chunk.search:
                return [("", text) for text in chunk.search]
            body = chunk.body
            if variant == "parts128":
                pieces = encoder.word_pieces(body)
                return [(chunk.prefix, body[a:b]) for a, b in (mw.window_spans(pieces, 128) or [(0, len(body))])]
            lines = [line for line in body.split("\n") if line.strip()] or [body]
            if variant == "lines-titled" and not chunk.prefix and len(lines) > 1:
                return [("", lines[0] + "\n" + lines[1])] + [(lines[0] + "\n", line) for line in lines[2:]]
            return [(chunk.prefix, line) for line in lines]

        mw.views = lambda encoder, chunk: [w for p, t in parts(encoder, chunk) for w in mw.text_windows(encoder, t, p)]
        mw.reading_units = lambda encoder, chunk: [mw.text_windows(encoder, t, p) for p, t in parts(encoder, chunk)]
    elif variant == "hubs":
        hubs()
    elif variant == "top2":
        top2()
    elif variant != "base":
        raise SystemExit(f"No variant {variant!r}: {', '.join(VARIANTS)}")


def hubs() -> None:
    """maxsim's score of a piece less its mean score for the batch's other questions (hubness reduction: a piece
    every question finds close, as a broad section, loses what it gets from every question alike)."""
    import numpy as np

    from workbench.search.maxsim import MaxSim

    prepare, scores = MaxSim.prepare, MaxSim.scores

    def prepare_all(self, asked):
        prepare(self, asked)
        self._hub = {}
        for question, chunks in asked:
            for chunk, score in zip(chunks, scores(self, question, chunks)):
                self._hub.setdefault((chunk.text, chunk.search), {})[question] = float(score)

    def scores_less_hub(self, question, chunks):
        raw = scores(self, question, chunks)
        hub = getattr(self, "_hub", {})
        mean = []
        for chunk in chunks:
            others = [v for q, v in hub.get((chunk.text, chunk.search), {}).items() if q != question]
            mean.append(sum(others) / len(others) if others else 0.0)
        return raw - np.array(mean)

    MaxSim.prepare, MaxSim.scores = prepare_all, scores_less_hub


def top2() -> None:
    """maxsim: a piece of several units (small-to-big's small pieces, ``lines``' lines) scores as the mean of its two
    best units, so one lucky sentence among many counts for half."""
    import numpy as np

    from workbench.search import maxsim

    def best(self, question, chunks):
        known = [self._chunk(chunk) for chunk in chunks]
        flat = [windows for units, _ in known for windows in units]
        matches = self._best_matches(question, flat)
        per_unit = self._weights(question, len(matches), flat) @ matches
        found, position = {}, 0
        asked = set(self.analyzer.question_terms(question))
        for chunk, (units, titled) in zip(chunks, known):
            bonus = self.named_bonus if maxsim.named(asked, titled) else 0.0
            mine = np.sort(per_unit[position : position + len(units)])[::-1]
            found[(chunk.text, chunk.search)] = float(mine[:2].mean()) + bonus
            position += len(units)
        return found

    maxsim.MaxSim._score = best


def halves(language: str) -> dict[str, tuple[int, int]]:
    """Each default setup's clean answers on the even and the odd rows of one terms file."""
    from workbench.core.model import Settings
    from workbench.encode.embedding import get_encoder
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run import defaults
    from workbench.run.evaluate import evaluate

    if language == "en":
        encoder = get_encoder()
    else:
        from workbench.encode.multilingual import E5Encoder
        from workbench.store.embedding_store import EmbeddingStore, default_path

        path = default_path()
        encoder = E5Encoder(EmbeddingStore(path) if path else None)
    settings = Settings(list(defaults.DEFAULTS.strategies), list(defaults.DEFAULTS.retrievers),
                        list(defaults.DEFAULTS.rerankers), top_k=5)
    document = TERMS / f"github_marketplace_terms_{language}.md"
    asked = document.with_name(f"{document.stem}.questions.csv")
    questions = parse_questions(asked.read_bytes(), asked.name)
    row = {q.question: number for number, q in enumerate(questions)}
    evaluation = evaluate(load_path(document), questions, settings, encoder_factory=lambda: encoder)
    found = {}
    for run in evaluation.runs:
        if run.key[0] in ("placebo", "random", "whole", "fixed"):
            continue
        clean = [row[r.question.question] % 2 for r in run.per_question if r.answerable and r.grade == "clean"]
        found["/".join(run.key)] = (clean.count(0), clean.count(1))
    return found


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in VARIANTS:
        print(__doc__)
        return 2
    apply(sys.argv[1])
    if "--english" in sys.argv:
        sys.argv = [str(ROOT / "bench" / "quality.py"), "--strategies", "heading,breadcrumb,small-to-big",
                    "--retrievers", "bm25,dense,hybrid", "--rerankers", "none,maxsim", "--top", "18"]
        runpy.run_path(sys.argv[0], run_name="__main__")
        return 0
    figures = {language: halves(language) for language in ("en", "de", "fr")}
    print(f"{sys.argv[1]}: clean on the even | odd rows (en 16 | 16, de 16 | 16, fr 18 | 17 answerable)")
    for key in sorted(figures["en"]):
        cells = "  ".join(f"{language} {figures[language][key][0]:2d} | {figures[language][key][1]:2d}"
                          for language in figures)
        print(f"  {key:28s} {cells}")
    summed = {key: tuple(sum(figures[lang][key][half] for lang in ("de", "fr")) for half in (0, 1))
              for key in figures["de"]}
    best = max(sorted(summed), key=lambda key: summed[key][0])
    print(f"German + French: best on the even rows {best}, {summed[best][0]}; its odd rows, held back: "
          f"{summed[best][1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
