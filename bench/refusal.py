"""How well the confidence tells answerable from unanswerable questions on the real shop files.

    python bench/refusal.py                                # every real file with a question set
    python bench/refusal.py --retrievers keyword,bm25 --rerankers none

For each file in ../shared/real-data that has bench/questions/<stem>.questions.csv, runs every
strategy x retriever x reranker with ``--threshold auto`` and prints, for the recommended
configuration (the best real one by clean answers; never a control) and for every real one,
the refusal figures judged leave-one-out: each question by a threshold fitted without it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"


def main() -> int:
    from workbench.advise.verdict import recommended
    from workbench.core.model import Settings
    from workbench.cut import STRATEGIES
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.evaluate import evaluate
    from workbench.run.names import is_control

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retrievers", default="keyword,bm25,dense,hybrid")
    parser.add_argument("--rerankers", default="none")
    parser.add_argument("--all", action="store_true", help="print every real configuration, not only the recommended")
    args = parser.parse_args()
    if not REAL_DATA.is_dir():
        print(f"{REAL_DATA} is not there: nothing to measure.")
        return 0
    print("| file | recommended | clean | unanswerable refused (LOO) | answerable refused (LOO) | fitted threshold |")
    print("|---|---|---:|---:|---:|---:|")
    details = []
    for path in sorted(REAL_DATA.iterdir()):
        questions_file = QUESTIONS / f"{path.stem}.questions.csv"
        if not questions_file.is_file():
            continue
        document = load_path(path)
        questions = parse_questions(questions_file.read_bytes(), questions_file.name)
        settings = Settings(STRATEGIES.ids(), args.retrievers.split(","), args.rerankers.split(","), threshold="auto")
        evaluation = evaluate(document, questions, settings)
        best = recommended(evaluation.runs)
        c = best.calibration
        print(
            f"| {path.name} | {best.strategy}/{best.retriever}/{best.reranker} | {best.counts['clean']}/{best.answerable} "
            f"| {c.refused}/{c.unanswerable} ({c.refused / max(c.unanswerable, 1):.0%}) "
            f"| {c.false_refusals}/{c.answerable} ({c.false_refusals / max(c.answerable, 1):.0%}) "
            f"| {'never' if c.threshold is None else f'{c.threshold:.3f}'} |"
        )
        if args.all:
            for run in evaluation.runs:
                if not is_control(run.strategy):
                    k = run.calibration
                    details.append(
                        f"{path.stem:<28} {run.strategy:<13} {run.retriever:<8} {run.reranker:<8} clean {run.counts['clean']:>2} "
                        f"refused {k.refused}/{k.unanswerable}  wrongly {k.false_refusals}/{k.answerable}"
                    )
    if details:
        print("\n" + "\n".join(details))
    return 0


if __name__ == "__main__":
    sys.exit(main())
