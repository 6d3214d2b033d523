"""The to-do's "customers ask with these words" items, decided on the even question rows and judged on the odd rows.

    python bench/todo_words.py                       # every file of tests/data/real, tests/data/written and the
                                                     # English real files (../shared/real-data), word search only
    python bench/todo_words.py --files azure_cancel_subscription_pl.md
    python bench/todo_words.py --engine /path/to/other/checkout   # the same files read by another checkout's engine

Per file, word search alone (bm25, the default cuts, as ``bench/proof.py --quick``): the to-do is written from the
even question rows (0, 2, 4 ...: its evaluation, verdict and measured items), and its words items are listed (each
one's words, and whether it is advised). The odd rows are held back: graded under the setup the even rows
recommended, on the file as it is and on the file with every advised fix. One JSON line a file, then the sums.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def files(names: list[str] | None) -> list[tuple[Path, Path]]:
    sys.path.insert(0, str(ROOT / "bench"))
    from proof import pairs  # the same files bench/proof.py reads: --own, and the English real files

    found = [pair for pair in pairs(names, own=True)] + [pair for pair in pairs(names)[1:]]
    return sorted(found, key=lambda pair: pair[0].name)


def one(path: Path, questions_path: Path) -> dict:
    from workbench.advise.advice import advise
    from workbench.advise.edits import apply
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.defaults import DEFAULTS
    from workbench.run.evaluate import evaluate

    settings = replace(DEFAULTS.settings(), retrievers=["bm25"], rerankers=["none"])
    document = load_path(path)
    questions = parse_questions(questions_path.read_bytes(), questions_path.name)
    fit, held = questions[0::2], questions[1::2]
    evaluation = evaluate(document, fit, settings)
    advice = advise(evaluation, reader="cli")
    best = advice.verdict.recommended
    under = replace(settings, strategies=[best.strategy], retrievers=[best.retriever], rerankers=[best.reranker])
    clean = lambda doc: evaluate(doc, held, under).runs[0].counts["clean"]  # noqa: E731
    # Each item alone on a copy: the held-back questions it moves (clean after - before), so that an item whose
    # words are a customer's chat words is seen to move nothing held back, or to help.
    items = [{"words": re.findall(r"“([^”]*)”", item.edit.split(" to ")[0]), "advised": item.advised and item.required,
              "fixes": len(item.fixes), "held_moved": clean(apply(document, item.edits)) - clean(document)
              if item.edits else 0} for item in advice.todo if item.kind == "words"]
    fixed = advice.fix.document if advice.fix is not None else document
    before, after = evaluate(document, held, under).runs[0], evaluate(fixed, held, under).runs[0]
    good = lambda run: {r.question.row: (r.grade == "clean" if r.answerable else r.grade == "refused")  # noqa: E731
                        for r in run.per_question}
    right, now = good(before), good(after)
    return {"file": path.name, "language": evaluation.analyzer.languages[0],
            "items": items, "fixes": len(advice.fix.items) if advice.fix else 0,
            "held_clean_before": before.counts["clean"], "held_clean_after": after.counts["clean"],
            "worse": [row for row, ok in right.items() if ok and not now.get(row, False)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="*", help="file names to run (default: all)")
    parser.add_argument("--engine", type=Path, default=ROOT, help="the checkout whose workbench/ is measured")
    args = parser.parse_args()
    pairs = files(args.files)
    sys.path.insert(0, str(args.engine))
    total = [0, 0, 0, 0]
    for path, questions in pairs:
        row = one(path, questions)
        print(json.dumps(row, ensure_ascii=False), flush=True)
        total = [total[0] + len(row["items"]), total[1] + sum(i["advised"] for i in row["items"]),
                 total[2] + row["held_clean_before"], total[3] + row["held_clean_after"]]
    print(f"words items {total[0]} (advised {total[1]}); held back clean {total[2]} → {total[3]}")


if __name__ == "__main__":
    main()
