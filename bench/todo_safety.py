"""Does the to-do list on the real shop files advise an edit that would make a file worse?

    python bench/todo_safety.py                            # every real file with a question set
    python bench/todo_safety.py --retrievers keyword,bm25,dense --print
    python bench/todo_safety.py tests/data/written/kuih_shopee_ms.xlsx  # given files, each with STEM.questions.csv beside it

For each file in ../shared/real-data that has bench/questions/<stem>.questions.csv, runs every strategy
with ``--threshold auto``, builds the to-do list for the recommended setup (as the Results page does) and
counts the items that would type text into a cell a shop's system reads (a "Name the product on the line"
or a missing word aimed at a number, flag, identifier or set-value column, or at a short value shared by
several products) and the items that would leave out of the bot's copy a column holding a golden
question's answer. Both counts must be 0.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"


def main() -> int:
    from workbench.advise.audit import audit
    from workbench.advise.todo import not_clean, todo_list
    from workbench.advise.verdict import assess
    from workbench.core.model import Settings
    from workbench.cut import STRATEGIES
    from workbench.read.data_columns import data_columns
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.evaluate import evaluate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retrievers", default="keyword,bm25")
    parser.add_argument("--print", action="store_true", help="print every to-do item")
    parser.add_argument("files", nargs="*", type=Path, help="these files instead, each with its questions beside it")
    args = parser.parse_args()
    if not args.files and not REAL_DATA.is_dir():
        print(f"{REAL_DATA} is not there: nothing to measure.")
        return 0
    unsafe_total = 0
    for path in args.files or sorted(REAL_DATA.iterdir()):
        beside = path.with_name(f"{path.stem}.questions.csv")
        questions_file = beside if args.files else QUESTIONS / f"{path.stem}.questions.csv"
        if path.suffix not in (".md", ".csv", ".xlsx") or not questions_file.exists():
            continue
        document = load_path(path)
        questions = parse_questions(questions_file.read_bytes(), questions_file.name)
        settings = Settings(STRATEGIES.ids(), args.retrievers.split(","), ["none"], threshold="auto")
        evaluation = evaluate(document, questions, settings)
        verdict = assess(evaluation)
        run = verdict.recommended
        checkup = audit(
            document, strategies=(), questions=[q.question for q in evaluation.questions], not_clean=not_clean(run)
        )
        items = todo_list(evaluation, run, checkup, verdict.baseline)
        types = data_columns(document)
        answer_columns = {
            f.column
            for q in evaluation.questions
            for section_id in q.sources
            for f in document.section(section_id).facts
            for a, b in q.answer_spans[:1]
            if f.column and f.span[0] <= a and b <= f.span[1]
        }
        typed_into, dropped = [], []
        for item in items:
            column = item.where.split("(column ", 1)[1].rstrip(")") if "(column " in item.where else ""
            quoted = re.match(r"“(.*?)” is word for word", item.why)
            value = quoted.group(1).split(":", 1)[-1].strip() if quoted else ""
            if (
                item.kind == "shared"
                and item.edit.startswith("Name the product on the line")
                and (column in types or len(value) <= 60)
            ):
                typed_into.append(item.edit)
            named = re.search(r"'s “([^”]+)” line", item.edit)
            if item.kind == "words" and named and named.group(1) in types:
                typed_into.append(item.edit)
            if item.kind == "store-wide" and document.kind == "spreadsheet":
                # Moving a line out of every row is an edit of the export: only free-text lines, and only in words.
                named = item.where.split(" ", 1)[1].rstrip(" …").split(", ") if item.where.startswith("column") else []
                if "Keep your shop's export as it is" not in item.edit or set(named) & set(types):
                    typed_into.append(item.edit)
            if item.kind == "long" and "without the columns" in item.edit:
                listed = item.edit.split(": ", 1)[1].split("; or ", 1)[0]
                dropped += [c for c in answer_columns if f"{c} (" in listed]
        unsafe_total += len(typed_into) + len(dropped)
        print(
            f"{path.name}: {run.strategy} / {run.retriever}: {len(items)} to-do items; typed into a system "
            f"column: {len(typed_into)}; answer-holding columns to drop: {len(dropped)}"
        )
        for edit in typed_into + dropped:
            print(f"    ! {edit}")
        if args.print:
            for item in items:
                print(f"    - [{item.kind}] {item.edit} [{item.where}] {item.affects}")
    return 1 if unsafe_total else 0


if __name__ == "__main__":
    raise SystemExit(main())
