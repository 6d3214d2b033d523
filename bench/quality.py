"""Answer quality on the real shop files: clean@1 and hit@5 of every setup, per file and summed.

    python bench/quality.py                                  # every strategy x retriever x reranker
    python bench/quality.py --retrievers bm25,hybrid --rerankers none,maxsim --top 15

For each file in ../shared/real-data with bench/questions/<stem>.questions.csv, runs every
strategy x retriever x reranker and prints, for every setup, clean answers at rank 1 and
answers found in the top 5 (hit@5), over answerable questions, per file and summed; then
the best single setup (one strategy x retriever x reranker used for every file, controls
left out) by summed clean answers, and the best setup of each file by hit@5. Grading is
the workbench's own (clean: the top piece holds the answer and no other section's facts).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"


def main() -> int:
    from workbench.core.model import Settings
    from workbench.cut import STRATEGIES
    from workbench.grade.metrics import hit_at
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.evaluate import evaluate
    from workbench.run.names import is_control

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", default=",".join(STRATEGIES.ids()))
    parser.add_argument("--retrievers", default="keyword,bm25,dense,hybrid")
    parser.add_argument("--rerankers", default="none,heading,maxsim")
    parser.add_argument("--top", type=int, default=20, help="setups listed, best first (all files summed)")
    parser.add_argument("--misses", action="store_true", help="list the best setup's misses per file")
    args = parser.parse_args()
    if not REAL_DATA.is_dir():
        print(f"Skipped: {REAL_DATA} is not beside this clone, so there are no real files to measure.")
        return 0
    settings = Settings(args.strategies.split(","), args.retrievers.split(","), args.rerankers.split(","), top_k=5)
    clean: dict[tuple, dict[str, int]] = defaultdict(dict)
    hit5: dict[tuple, dict[str, int]] = defaultdict(dict)
    answerable: dict[str, int] = {}
    evaluations = {}
    began = time.perf_counter()
    for path in sorted(REAL_DATA.iterdir()):
        questions_file = QUESTIONS / f"{path.stem}.questions.csv"
        if not questions_file.is_file():
            continue
        document = load_path(path)
        questions = parse_questions(questions_file.read_bytes(), questions_file.name)
        evaluation = evaluate(document, questions, settings)
        evaluations[path.stem] = evaluation
        if evaluation.bad_questions:
            for bad in evaluation.bad_questions:
                print(f"{path.stem}: row {bad.question.row} not graded: {bad.reason}", file=sys.stderr)
        for run in evaluation.runs:
            answered = [r for r in run.per_question if r.answerable]
            answerable[path.stem] = len(answered)
            clean[run.key][path.stem] = sum(r.grade == "clean" for r in answered)
            hit5[run.key][path.stem] = sum(int(hit_at(r.relevant_ranks, 5)) for r in answered)
    if not evaluations:
        print(f"Skipped: no file in {REAL_DATA} has a question set in {QUESTIONS}.")
        return 0
    files = list(evaluations)
    total = sum(answerable.values())
    print(f"{len(files)} files, {total} answerable questions, {len(clean)} setups, {time.perf_counter() - began:.0f} s\n")
    print("answerable per file: " + ", ".join(f"{f} {answerable[f]}" for f in files) + "\n")

    def summed(table: dict, key: tuple) -> int:
        return sum(table[key].values())

    order = sorted(clean, key=lambda k: (-summed(clean, k), -summed(hit5, k), k))
    width = max(len(f) for f in files)
    print("setup (strategy / retriever / reranker)         clean@1       hit@5    per file clean@1 (hit@5)")
    for key in order[: args.top]:
        per_file = "  ".join(f"{clean[key][f]}({hit5[key][f]})" for f in files)
        print(f"{' / '.join(key):<46} {summed(clean, key):>4} {summed(clean, key) / total:>5.0%}  "
              f"{summed(hit5, key):>4} {summed(hit5, key) / total:>5.0%}   {per_file}")
    real = [k for k in order if not is_control(k[0])]
    best = real[0]
    print(f"\nBest single setup (controls left out): {' / '.join(best)}: {summed(clean, best)}/{total} clean "
          f"({summed(clean, best) / total:.1%}), hit@5 {summed(hit5, best)}/{total} ({summed(hit5, best) / total:.1%})")
    print(f"{'file':<{width}}  answerable  best setup clean@1  best setup hit@5   best hit@5 on this file (setup)")
    for f in files:
        top_hit = max(real, key=lambda k: (hit5[k][f], clean[k][f]))
        print(f"{f:<{width}}  {answerable[f]:>10}  {clean[best][f]:>12} {clean[best][f] / answerable[f]:>5.0%}  "
              f"{hit5[best][f]:>10} {hit5[best][f] / answerable[f]:>5.0%}   "
              f"{hit5[top_hit][f]}/{answerable[f]} {hit5[top_hit][f] / answerable[f]:.0%} ({' / '.join(top_hit)})")
    if args.misses:
        for f in files:
            run = evaluations[f].run(*best)
            for number, r in enumerate(run.per_question, start=1):
                if r.answerable and r.grade != "clean":
                    print(f"  {f} #{number} {r.grade} {r.reason or ''} rank {r.rank}: {r.question.question}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
