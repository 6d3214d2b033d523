"""Advice proven on the file: what measuring the to-do costs, and whether the fixes hold on questions they were not
written from.

    python bench/proof.py                    # the sample and every real file under ../shared/real-data
    python bench/proof.py --files spree_sample_products.csv
    python bench/proof.py --own --quick      # the project's files in other languages, word search only (seconds)
    python bench/proof.py --held-back        # the files with STEM.heldback.questions.csv beside them (tests/data)

Each file runs in a fresh Python process with an embedding cache of its own (cold: the model loaded and every
text read by the run), under the app's default setups (``run/defaults.py``) with the fitted threshold:

- cost: the cold ``evaluate`` alone, then ``advise`` with every item measured (``advise/proof.py``), and the ratio
  (evaluate + measuring) / evaluate. The issue's bound: at most 2.
- held back: the questions split by their row, two of every three to write the fixes from (the "fit" set) and
  every third held back. The fixes are made from the fit set alone (its evaluation, verdict and to-do); the held-back
  questions are then graded on the file as it is and on the file with those fixes, under the setup the fit set
  recommended. The held-back clean count must not drop.
- ``--held-back``: a file written with a second question set beside it (``STEM.heldback.questions.csv``, never
  looked at while the engine was fixed) writes the fixes from every question of ``STEM.questions.csv`` and holds
  back the whole second set, instead of every third question.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL_DATA = ROOT.parent / "shared" / "real-data"
SAMPLE = (ROOT / "sample_data" / "breezy_home_price_list.md", ROOT / "sample_data" / "breezy_home_questions.csv")

ONE_FILE = """
import json, sys, time
from dataclasses import replace
from pathlib import Path
from workbench.advise.advice import advise
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.defaults import DEFAULTS
from workbench.run.evaluate import evaluate

path, questions_path = Path(sys.argv[1]), Path(sys.argv[2])
settings = DEFAULTS.settings()
if sys.argv[3] == "quick":  # the first verdict's setups: the default cuts under word search alone
    settings = replace(settings, retrievers=["bm25"], rerankers=["none"])
document = load_path(path)
questions = parse_questions(questions_path.read_bytes(), questions_path.name)
began = time.perf_counter()
evaluation = evaluate(document, questions, settings)
evaluated = time.perf_counter()
advice = advise(evaluation, reader="cli")
measured = time.perf_counter()
out = {"file": path.name, "status": advice.verdict.status, "evaluate": evaluated - began,
       "measure": measured - evaluated, "advised": len(advice.advised), "optional": len(advice.optional),
       "not_advised": len(advice.not_advised), "measured_items": sum(1 for i in advice.todo if i.measured),
       "fix": advice.fix.measured.as_dict() if advice.fix else None,
       "kinds": sorted({i.kind for i in advice.advised})}

fit = [q for i, q in enumerate(questions) if i % 3 != 2]
held = [q for i, q in enumerate(questions) if i % 3 == 2]
if len(sys.argv) > 4:  # a second set, written apart and never looked at: every question writes, all of it is held
    fit = questions
    held = parse_questions(Path(sys.argv[4]).read_bytes(), Path(sys.argv[4]).name)
fitted = evaluate(document, fit, settings)
fit_advice = advise(fitted, reader="cli")
best = fit_advice.verdict.recommended
under = replace(settings, strategies=[best.strategy], retrievers=[best.retriever], rerankers=[best.reranker])
fixed = fit_advice.fix.document if fit_advice.fix is not None else document
before = evaluate(document, held, under).runs[0]
after = evaluate(fixed, held, under).runs[0]
# By row: a fix that breaks a held-back question's answer in two leaves that question out of the graded run.
good = lambda run: {r.question.row: (r.grade == "clean" if r.answerable else r.grade == "refused")
                    for r in run.per_question}
right, now = good(before), good(after)
worse = [row for row, ok in right.items() if ok and not now.get(row, False)]
out["held_back"] = {"questions": len(held), "answerable": before.answerable, "fit_fixes": len(fit_advice.fix.items)
                    if fit_advice.fix else 0, "clean_before": before.counts["clean"],
                    "clean_after": after.counts["clean"], "worse": worse}
print(json.dumps(out))
"""


def held_back(path: Path) -> Path:
    return path.with_name(f"{path.stem}.heldback.questions.csv")


def pairs(names: list[str] | None, own: bool = False, held: bool = False) -> list[tuple[Path, Path]]:
    if held:
        folder = ROOT / "tests" / "data" / "written"
        return [(path, path.with_name(f"{path.stem}.questions.csv")) for path in sorted(folder.iterdir())
                if held_back(path).is_file() and (not names or path.name in names)]
    if own:  # the project's own files in German, French and the probe languages, questions beside each
        return [(path, path.with_name(f"{path.stem}.questions.csv"))
                for folder in (ROOT / "tests" / "data" / "real", ROOT / "tests" / "data" / "written")
                for path in sorted(folder.iterdir())
                if path.suffix in (".md", ".csv", ".txt") and not path.name.endswith(".questions.csv")
                and path.with_name(f"{path.stem}.questions.csv").is_file() and (not names or path.name in names)]
    found = [SAMPLE]
    if REAL_DATA.is_dir():
        for path in sorted(REAL_DATA.iterdir()):
            questions = ROOT / "bench" / "questions" / f"{path.stem}.questions.csv"
            if questions.exists():
                found.append((path, questions))
    return [pair for pair in found if not names or pair[0].name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="*", help="file names to run (default: the sample and every real file)")
    parser.add_argument("--own", action="store_true", help="the project's files in other languages (tests/data)")
    parser.add_argument("--quick", action="store_true", help="word search only (bm25, no re-check): no model")
    parser.add_argument("--held-back", action="store_true",
                        help="files with a held-back question set beside them (STEM.heldback.questions.csv)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for path, questions in pairs(args.files, args.own, args.held_back):
            environment = os.environ | {"WORKBENCH_EMBEDDING_CACHE": str(Path(folder) / f"{path.stem}.sqlite"),
                                        "PYTHONPATH": str(ROOT)}
            done = subprocess.run([sys.executable, "-c", ONE_FILE, str(path), str(questions),
                                   "quick" if args.quick else "defaults",
                                   *([str(held_back(path))] if args.held_back else [])], env=environment,
                                  capture_output=True, text=True, cwd=ROOT)
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            rows.append(row)
            held, fix = row["held_back"], row["fix"]
            print(f"{row['file']:<34} {row['status']:<11} evaluate {row['evaluate']:6.1f} s  measuring "
                  f"{row['measure']:6.1f} s  ratio {(row['evaluate'] + row['measure']) / row['evaluate']:4.2f}  "
                  f"advised {row['advised']} {row['kinds']} optional {row['optional']} not advised {row['not_advised']}  "
                  f"fixed file {fix['clean_before'] if fix else '-'} → {fix['clean_after'] if fix else '-'}  "
                  f"held back ({held['answerable']} answerable, {held['fit_fixes']} fixes) "
                  f"{held['clean_before']} → {held['clean_after']} worse {held['worse']}", flush=True)
    if rows:
        held = sum(r["held_back"]["clean_before"] for r in rows), sum(r["held_back"]["clean_after"] for r in rows)
        print(f"held back, all files: {held[0]} → {held[1]} clean")


if __name__ == "__main__":
    main()
