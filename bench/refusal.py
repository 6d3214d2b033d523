"""How well the confidence tells answerable from unanswerable questions on the real shop files.

    python bench/refusal.py                                # every real file with a question set
    python bench/refusal.py --retrievers keyword,bm25 --rerankers none

For each file in ../shared/real-data that has bench/questions/<stem>.questions.csv, and each file of the
project's own tests/data/real and tests/data/written (German, French, English and the probe files of six more
languages, with their questions beside them), runs every strategy x retriever x reranker with ``--threshold auto``
and prints, for the recommended configuration (the best real one by clean answers; never a control) and for every
real one, the refusal figures judged leave-one-out: each question by a threshold fitted without it. Last, per
language, the figures summed over every real setup of every file: unanswerable questions refused, answerable ones
wrongly refused, clean answers.

With ``--halves``, the last table is the held-back check a change to the confidence is decided by: each setup's
threshold is fitted on the questions of even rows alone (the half a change is decided on: those judged
leave-one-out among themselves), and that threshold judges the questions of odd rows, which nothing was fitted or
decided on. A file with no unanswerable question among its even rows fits none ("never refuse").

With ``--questions`` (best with ``--only``), each question of each file: answerable (A) or not (U), its words as the
confidence reads them, their coverage of the whole document, its confidence's lowest, median and highest over the
real setups and how many of them refused it (leave-one-out), and the words the document never names: why a question
is refused or not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"
OWN = [ROOT / "tests" / "data" / "real", ROOT / "tests" / "data" / "written"]


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
    parser.add_argument("--halves", action="store_true", help="also fit on even question rows, judge odd rows")
    parser.add_argument("--questions", action="store_true", help="each question's words, coverage and confidences")
    parser.add_argument("--only", default="", help="only files whose name contains one of these (comma-separated)")
    args = parser.parse_args()
    pairs = []
    if REAL_DATA.is_dir():
        pairs += [(path, QUESTIONS / f"{path.stem}.questions.csv") for path in sorted(REAL_DATA.iterdir())]
    for folder in OWN:
        pairs += [(path, path.with_name(f"{path.stem}.questions.csv")) for path in sorted(folder.iterdir())
                  if path.suffix in (".md", ".csv", ".txt") and not path.name.endswith(".questions.csv")]
    print("| file | recommended | clean | unanswerable refused (LOO) | answerable refused (LOO) | fitted threshold |")
    print("|---|---|---:|---:|---:|---:|")
    details = []
    summed: dict[str, list[int]] = {}
    halves: dict[str, list[int]] = {}
    for path, questions_file in pairs:
        if not questions_file.is_file() or (args.only and not any(
                part in path.name for part in args.only.split(","))):
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
        if args.questions:
            details += question_lines(path, document, questions, evaluation)
        if args.halves:
            halves.setdefault(evaluation.analyzer.name, [0] * 8)
            for run in evaluation.runs:
                if not is_control(run.strategy):
                    for i, value in enumerate(held_back(run.per_question)):
                        halves[evaluation.analyzer.name][i] += value
        total = summed.setdefault(evaluation.analyzer.name, [0, 0, 0, 0, 0])
        for run in evaluation.runs:
            if not is_control(run.strategy):
                k = run.calibration
                for i, value in enumerate((k.refused, k.unanswerable, k.false_refusals, k.answerable,
                                           run.counts["clean"])):
                    total[i] += value
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
    print("\n| language | unanswerable refused | answerable wrongly refused | clean |  (summed over every real setup)")
    print("|---|---:|---:|---:|")
    for language, (refused, unanswerable, wrongly, answerable, clean) in summed.items():
        print(f"| {language} | {refused} / {unanswerable} | {wrongly} / {answerable} | {clean} |")
    if halves:
        print("\n| language | even rows (LOO): refused | wrongly refused | odd rows (fitted on even): refused "
              "| wrongly refused |")
        print("|---|---:|---:|---:|---:|")
        for language, (er, eu, ew, ea, orf, ou, ow, oa) in halves.items():
            print(f"| {language} | {er} / {eu} | {ew} / {ea} | {orf} / {ou} | {ow} / {oa} |")
    return 0


def question_lines(path: Path, document, questions: list, evaluation) -> list[str]:
    """``--questions``: one line per question of one file."""
    from workbench.grade.confidence import WordEvidence
    from workbench.run.names import is_control

    evidence = WordEvidence(document, analyzer=evaluation.analyzer)
    runs = [run for run in evaluation.runs if not is_control(run.strategy)]
    lines = [f"{path.name} ({evaluation.analyzer.name}, {len(runs)} setups)"]
    for i, question in enumerate(questions):
        results = [run.per_question[i] for run in runs]
        values = sorted(result.confidence for result in results)
        refused = sum(result.grade == "refused" for result in results)
        words, coverage = evidence.question(question.question)
        missing = [word for word in words if word not in evidence.frequency]
        lines.append(f"  row {question.row:>3} {'A' if question.answerable else 'U'} coverage {coverage:.2f} confidence "
                     f"{values[0]:.3f} / {values[len(values) // 2]:.3f} / {values[-1]:.3f} refused {refused:>2}/"
                     f"{len(results)}  {question.question!r}  words {words}  not in the file {missing}")
    return lines


def held_back(results: list) -> tuple[int, ...]:
    """One setup's refusals on the even rows, each judged by a threshold fitted on the other even rows, and on the
    odd rows, judged by the threshold fitted on every even row: (refused, unanswerable, wrongly refused, answerable)
    for each half."""
    from workbench.grade.refusal import fit, fits_leaving_out

    even = [r for r in results if r.question.row is not None and r.question.row % 2 == 0]
    odd = [r for r in results if r not in even]
    values, answerable = [r.confidence for r in even], [r.answerable for r in even]
    loo = fits_leaving_out(values, answerable, list(range(len(even)))) if even else []
    threshold = fit([v for v, a in zip(values, answerable) if a], [v for v, a in zip(values, answerable) if not a])
    if all(answerable):  # nothing unanswerable to fit on: never refuse
        loo, threshold = [None] * len(even), None

    def counts(rows: list, limits: list) -> list[int]:
        refused = [t is not None and r.confidence < t for r, t in zip(rows, limits)]
        return [sum(f for f, r in zip(refused, rows) if not r.answerable), sum(not r.answerable for r in rows),
                sum(f for f, r in zip(refused, rows) if r.answerable), sum(r.answerable for r in rows)]

    return (*counts(even, loo), *counts(odd, [threshold] * len(odd)))


if __name__ == "__main__":
    sys.exit(main())
