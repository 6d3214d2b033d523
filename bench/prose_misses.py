"""Why an answer on a real prose page is not clean: every answerable question not clean under the best default setup,
with the piece ranked above the right one, classed.

    python bench/prose_misses.py                      # the project's real prose pages (tests/data/real/*.md)
    python bench/prose_misses.py --files de,pt        # some of them, by language or name
    python bench/prose_misses.py --save runs.json     # keep every setup's per-question grades
    python bench/prose_misses.py --merge a.json,b.json    # compare saved runs (before / after a change)

The default setups are graded as ``bench/multilingual.py`` grades them (no refusal: each question's rank-1 piece, the
model the file's language gets). Per file: the best default setup over all rows, and the setup best on the even
question rows (0, 2, 4, ...) with its clean answers on those and on the odd rows, held back. Then each answerable
question not clean under the best setup: its grade and reason (``missed``: ``ranked``, ``split``, ``decoy``;
``mixed``), the right piece's rank, and what the top piece is: the page's **opening** section (its first: the text
under the title or before the first heading, which sums up the whole page), one of its **longest** sections (a quarter of them, at least two), the
right section's **neighbour**, or **other**. A grade of ``missed`` with reason ``ranked`` is never the grader's word
matching (the answer is in the right piece, lower down), and never a cut through the answer (that is ``split``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

CONTROLS = ("placebo", "random", "whole")


def run(chosen: list[str]) -> dict:
    """Every default setup's per-question grades of each chosen prose page, as a dict (JSON-ready)."""
    from multilingual import OWN_REAL, load

    from workbench.read.questions import parse_questions
    from workbench.run import defaults
    from workbench.run.evaluate import evaluate

    out = {}
    for path in sorted(OWN_REAL.glob("*.md")):
        language = path.stem.rsplit("_", 1)[-1]
        if chosen and path.name not in chosen and language not in chosen:
            continue
        questions_file = path.with_name(f"{path.stem}.questions.csv")
        if not questions_file.is_file():
            continue
        document = load(path)
        questions = parse_questions(questions_file.read_bytes(), questions_file.name)
        row = {q.question: number for number, q in enumerate(questions)}
        settings = defaults.DEFAULTS.settings()
        settings.threshold = None  # rank 1 only: whether the search finds the answer, not whether it refuses
        evaluation = evaluate(document, questions, settings)
        section_of = {r.question.question: r.section_id for r in evaluation.questions}
        runs = {}
        for result in evaluation.runs:
            chunks = evaluation.chunks[result.strategy]
            runs["/".join(result.key)] = [
                {"row": row[r.question.question], "question": r.question.question, "grade": r.grade,
                 "reason": r.reason, "rank": r.rank, "hit5": any(rank <= 5 for rank in r.relevant_ranks),
                 "section": section_of.get(r.question.question),
                 "top": [s.id for s in document.sections if any(a < s.span[1] and s.span[0] < b
                         for a, b in chunks[r.ranking[0][0]].spans)] if r.ranking else []}
                for r in result.per_question if r.answerable]
        out[path.name] = {"runs": runs, "sections": [[s.id, s.span[1] - s.span[0]] for s in document.sections]}
    return out


def clean(rows: list[dict], half: int | None = None) -> int:
    return sum(r["grade"] == "clean" for r in rows if half is None or r["row"] % 2 == half)


def best(runs: dict, half: int | None = None) -> str:
    setups = sorted(k for k in runs if k.split("/")[0] not in CONTROLS)
    return max(setups, key=lambda k: (clean(runs[k], half), sum(r["hit5"] for r in runs[k]
                                                                if half is None or r["row"] % 2 == half)))


def kind(row: dict, sections: list[list]) -> str:
    """What the top piece is, against the right section (``opening``, ``longest``, ``neighbour``, ``other``)."""
    order = [section for section, _ in sections]
    longest = {section for section, _ in sorted(sections, key=lambda s: -s[1])[:max(2, len(sections) // 4)]}
    top = row["top"][0] if len(row["top"]) == 1 else None  # a piece over several sections: "other"
    kinds = []
    if top == order[0]:
        kinds.append("opening")
    if top in longest:
        kinds.append("longest")
    if top in order and row["section"] in order and abs(order.index(top) - order.index(row["section"])) == 1:
        kinds.append("neighbour")
    return "+".join(kinds) or "other"


def report(saved: list[tuple[str, dict]]) -> None:
    files = [name for name in saved[0][1] if all(name in figures for _, figures in saved)]
    classes: Counter = Counter()
    print("| file | run | best default setup | clean | hit@5 | chosen on the even rows | even: clean | odd (held back): "
          "clean, hit@5 |")
    print("|---|---|---|---:|---:|---|---:|---:|")
    for name in files:
        for label, figures in saved:
            runs = figures[name]["runs"]
            key, even = best(runs), best(runs, 0)
            rows = runs[even]
            print(f"| {name} | {label} | {key} | {clean(runs[key])}/{len(runs[key])} | "
                  f"{sum(r['hit5'] for r in runs[key])} | {even} | {clean(rows, 0)}/{sum(r['row'] % 2 == 0 for r in rows)} | "
                  f"{clean(rows, 1)}/{sum(r['row'] % 2 for r in rows)}, {sum(r['hit5'] for r in rows if r['row'] % 2)} |")
    print("\nOne setup for every non-English page, chosen on their even rows summed (clean: even of "
          f"{sum(r['row'] % 2 == 0 for n in files if not n.endswith('_en.md') for r in next(iter(saved[0][1][n]['runs'].values())))}, "
          "odd held back):")
    for label, figures in saved:
        summed: dict[str, list[int]] = {}
        for name in files:
            if name.endswith("_en.md"):  # the English twin of the terms: a control, not a shop page in another language
                continue
            for key, rows in figures[name]["runs"].items():
                if key.split("/")[0] not in CONTROLS:
                    pair = summed.setdefault(key, [0, 0])
                    pair[0] += clean(rows, 0)
                    pair[1] += clean(rows, 1)
        key = max(sorted(summed), key=lambda k: summed[k][0])
        print(f"  {label}: {key}, even {summed[key][0]}, odd {summed[key][1]}")
    label, figures = saved[0]
    print(f"\nNot clean under each file's best setup ({label}):")
    for name in files:
        runs, sections = figures[name]["runs"], figures[name]["sections"]
        key = best(runs)
        print(f"{name} ({key}):")
        for row in runs[key]:
            if row["grade"] != "clean":
                what = kind(row, sections)
                classes[(row["grade"], row["reason"], what)] += 1
                print(f"  row {row['row'] + 2}: {row['grade']} {row['reason']}, right piece at {row['rank']}, "
                      f"top piece: {what} ({', '.join(row['top'])}) — {row['question']}")
    print("\nClasses, all files:", "; ".join(f"{grade} {reason} / top {what}: {n}"
                                            for (grade, reason, what), n in classes.most_common()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default="", help="comma-separated names or languages (default: every .md)")
    parser.add_argument("--save", help="write the per-question grades to this JSON file")
    parser.add_argument("--merge", help="report from saved JSON files instead of running (the first is listed)")
    args = parser.parse_args()
    if args.merge:
        saved = [(Path(p).stem, json.loads(Path(p).read_text(encoding="utf-8"))) for p in args.merge.split(",")]
    else:
        figures = run([f for f in args.files.split(",") if f])
        if args.save:
            Path(args.save).write_text(json.dumps(figures, ensure_ascii=False), encoding="utf-8")
        saved = [("this checkout", figures)]
    report(saved)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
