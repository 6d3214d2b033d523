"""The to-do as a shop owner meets it, on every real file: how long it is, what of it is proven, and what is noise.

    python bench/todo_audit.py                 # every file with questions, word search's setups, measured
    python bench/todo_audit.py --print         # and every item shown, with what it measured
    python bench/todo_audit.py --defaults spree_sample_products.csv   # the app's default setups (the model: slow)

Files: ``../shared/real-data`` with ``bench/questions/``, ``tests/data/real`` and ``tests/data/written`` (each with
``STEM.questions.csv`` beside it). Each file is graded as ``python -m workbench evaluate FILE --questions Q
--retrievers bm25 --rerankers none`` grades it (the first verdict's setups, settled, so every item is tried on a copy),
and its to-do is the command line's (``advise(reader="cli")``, the one the app shows). Per file:

- shown: the to-do items the command line lists under "To do" (``Advice.advised``);
- proven: of those, tried on a copy, graded again, with a measured gain (a question fixed, none worse);
- no gain: shown though nothing was measured to help (not measured, or measured with no question fixed);
- data: items, shown or folded, that write (an edit) or ask to write (a place in a column) into a column the shop's
  system reads (``read.data_columns``: numbers, flags, identifiers, links, set values, …; an HTML description takes a
  paragraph by design and is not counted). Must be 0;
- off the verdict's count: measured figures (each item's "before", the fixed file's) not counted as the verdict
  counts its "N of M clean" (``grade/refusal.answers_alone``). Must be 0;
- noise: shown items that say the same edit twice, or fix the same questions as another shown item, or are about the
  question set rather than the file (write more questions).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REAL_DATA = ROOT.parent / "shared" / "real-data"


def pairs(names: list[str]) -> list[tuple[Path, Path]]:
    found = []
    if REAL_DATA.is_dir():
        found += [(path, ROOT / "bench" / "questions" / f"{path.stem}.questions.csv") for path in sorted(REAL_DATA.iterdir())
                  if (ROOT / "bench" / "questions" / f"{path.stem}.questions.csv").is_file()]
    for folder in (ROOT / "tests" / "data" / "real", ROOT / "tests" / "data" / "written"):
        found += [(path, path.with_name(f"{path.stem}.questions.csv")) for path in sorted(folder.iterdir())
                  if not path.name.endswith("questions.csv") and path.with_name(f"{path.stem}.questions.csv").is_file()]
    return [pair for pair in found if not names or pair[0].name in names]


def answer_columns(evaluation) -> dict[int, set[str]]:
    """Each question's row and the spreadsheet columns its answer lies in."""
    document, found = evaluation.document, {}
    for number, resolved in enumerate(evaluation.questions, start=1):
        row = resolved.question.row or number
        for section_id in resolved.sources:
            for fact in document.section(section_id).facts:
                if fact.column and any(fact.span[0] <= a and b <= fact.span[1] for a, b in resolved.answer_spans):
                    found.setdefault(row, set()).add(fact.column)
    return found


def asks_into_data(item, types: dict[str, str], answers: dict[int, set[str]]) -> bool:
    """An item whose edit writes into, or whose sentence asks for words in, a column the shop's system reads: a
    words item placed in one, or "make the line say what the question asks" of a product whose answer lies in one
    (the sentence names no other cell, so the words go where the answer is)."""
    data = {column for column, kind in types.items() if kind != "HTML markup"}
    written = any(edit.column in data for edit in item.edits)
    placed = {column.strip() for column in re.findall(r"column ([^,\]]+)", item.where or "")}
    asks = item.kind == "words" and bool(placed & data)
    said = item.kind == "other" and not placed and any(answers.get(n, set()) & data for n in item.questions)
    return written or asks or said


def audit_file(path: Path, questions_path: Path, defaults: bool) -> dict:
    from workbench.advise.advice import advise
    from workbench.read.data_columns import data_columns
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.defaults import DEFAULTS
    from workbench.run.evaluate import evaluate

    settings = DEFAULTS.settings()
    if not defaults:
        settings = replace(settings, retrievers=["bm25"], rerankers=["none"])
    document = load_path(path)
    questions = parse_questions(questions_path.read_bytes(), questions_path.name)
    evaluation = evaluate(document, questions, settings)
    advice = advise(evaluation, reader="cli")
    types = data_columns(document)
    shown = advice.advised
    proven = [i for i in shown if i.measured is not None and i.measured.fixed and not i.measured.worse]
    no_gain = [i for i in shown if i not in proven]
    answers = answer_columns(evaluation)
    data = [i for i in advice.todo if asks_into_data(i, types, answers)]
    seen, noise = {}, []
    for item in shown:
        fixed = tuple(item.measured.fixed) if item.measured else None
        key = fixed if fixed else item.edit
        if key in seen or item.edit.startswith("Write ") and "more question" in item.edit:
            noise.append(item)
        seen.setdefault(key, item)
    # Measured figures not counted as the verdict counts (its "N of M clean"): any item's "before", or the fixed file's.
    measured = [i.measured for i in advice.todo if i.measured is not None] + ([advice.fix.measured] if advice.fix else [])
    off_verdict = sum(m.clean_before != advice.verdict.clean for m in measured)
    words = [re.findall(r"“([^”]+)”", i.edit.split(" to ", 1)[0]) for i in shown if i.kind == "words"]
    return {"file": path.name, "status": advice.verdict.status, "shown": len(shown), "proven": len(proven),
            "no_gain": len(no_gain), "data": len(data), "ready_items": len(shown) if advice.verdict.status == "Ready" else 0,
            "noise": len(noise), "folded": len(advice.optional), "not_advised": len(advice.not_advised),
            "off_verdict": off_verdict,
            "words": [w for ws in words for w in ws],
            "items": [f"[{i.kind}] {i.edit} [{i.where}] — {i.effect}" for i in shown],
            "data_items": [f"[{i.kind}] {i.edit} [{i.where}]" for i in data],
            "noise_items": [f"[{i.kind}] {i.edit}" for i in noise]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="file names (default: every file with questions)")
    parser.add_argument("--defaults", action="store_true", help="the app's default setups, with the model (slow)")
    parser.add_argument("--print", action="store_true", help="print every item shown")
    parser.add_argument("--json", action="store_true", help="one JSON line a file")
    args = parser.parse_args()
    totals = dict.fromkeys(("shown", "proven", "no_gain", "data", "ready_items", "noise", "folded", "off_verdict"), 0)
    print("| file | verdict | shown | proven | no gain, still listed | into a data column | on a Ready file | noise | "
          "off the verdict's count |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for path, questions in pairs(args.files):
        row = audit_file(path, questions, args.defaults)
        for key in totals:
            totals[key] += row[key]
        if args.json:
            print(json.dumps(row, ensure_ascii=False), flush=True)
            continue
        print(f"| {row['file']} | {row['status']} | {row['shown']} | {row['proven']} | {row['no_gain']} | "
              f"{row['data']} | {row['ready_items']} | {row['noise']} | {row['off_verdict']} |", flush=True)
        if args.print:
            for line in row["items"] + [f"DATA {d}" for d in row["data_items"]] + [f"NOISE {n}" for n in row["noise_items"]]:
                print(f"    {line}")
    print(f"| all | | {totals['shown']} | {totals['proven']} | {totals['no_gain']} | {totals['data']} | "
          f"{totals['ready_items']} | {totals['noise']} | {totals['off_verdict']} |")


if __name__ == "__main__":
    main()
