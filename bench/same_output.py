"""Are the command line's outputs byte for byte what they were? For a change meant to keep behaviour.

    python bench/same_output.py save /tmp/before          # on the commit before the change
    python bench/same_output.py compare /tmp/before       # after it: names every output that differs
    python bench/same_output.py save DIR --lexical        # keyword and bm25 only (no model: a minute, not ten)

The documents are the bundled sample as Markdown, CSV and Excel and the six real shop files beside the
project (``../shared/real-data``, questions from ``bench/questions``); a clone without that folder checks the
sample alone and says so. For each it writes ``evaluate --format json`` over the full grid (every strategy x
keyword, bm25, dense, hybrid x none, heading, maxsim, fitted refusal threshold), the same run's table (which
ends in the verdict and to-do list), ``audit --format json``, and the heading cut's ``export`` as JSON lines.
Each is run as its own ``python -m workbench`` process, as a user runs it; the embedding cache is kept, so a
second run reads no text with the model it has read before (the grades do not depend on it: a cached vector is
the vector).
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL_DATA = ROOT.parent / "shared" / "real-data"
SAMPLE = ROOT / "sample_data"
FULL = ["--retrievers", "keyword,bm25,dense,hybrid", "--rerankers", "none,heading,maxsim"]
LEXICAL = ["--retrievers", "keyword,bm25", "--rerankers", "none,heading"]


def documents() -> list[tuple[Path, Path]]:
    questions = SAMPLE / "breezy_home_questions.csv"
    found = [(SAMPLE / f"breezy_home_price_list.{ext}", questions) for ext in ("md", "csv", "xlsx")]
    if REAL_DATA.is_dir():
        for path in sorted(REAL_DATA.iterdir()):
            own = ROOT / "bench" / "questions" / f"{path.stem}.questions.csv"
            if own.is_file():
                found.append((path, own))
    else:
        print(f"{REAL_DATA} is absent: the sample alone is checked", file=sys.stderr)
    return found


def all_strategies() -> str:
    sys.path.insert(0, str(ROOT))
    from workbench.cut import STRATEGIES

    return ",".join(STRATEGIES.ids())


def outputs(document: Path, questions: Path, grid: list[str]) -> dict[str, list[str]]:
    strategies = ["--strategies", all_strategies()]
    evaluate = ["evaluate", str(document), "--questions", str(questions), *strategies, *grid]
    evaluate += ["--threshold", "auto", "--no-history"]
    return {
        "evaluate.json": [*evaluate, "--format", "json"],
        "evaluate.txt": [*evaluate, "--format", "table"],
        "audit.json": ["audit", str(document), "--format", "json"],
        "export.jsonl": ["export", str(document), "--strategy", "heading", "--format", "jsonl", "--out", "{out}"],
    }


def save(folder: Path, grid: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for document, questions in documents():
        for name, command in outputs(document, questions, grid).items():
            target = folder / f"{document.name}.{name}"
            args = [part.replace("{out}", str(target)) for part in command]
            result = subprocess.run([sys.executable, "-m", "workbench", *args], cwd=ROOT, capture_output=True)
            if "{out}" not in command:
                target.write_bytes(result.stdout)
            (folder / f"{document.name}.{name}.exit").write_text(f"{result.returncode}\n")
            print(f"{target.name}: exit {result.returncode}", file=sys.stderr)


def compare(folder: Path, grid: list[str]) -> int:
    with tempfile.TemporaryDirectory() as now:
        save(Path(now), grid)
        names = sorted(p.name for p in Path(now).iterdir())
        differ = [n for n in names if not (folder / n).is_file() or not filecmp.cmp(folder / n, Path(now) / n, False)]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} of {len(names)} outputs byte-identical")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["save", "compare"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--lexical", action="store_true", help="keyword and bm25 only: no model")
    args = parser.parse_args()
    grid = LEXICAL if args.lexical else FULL
    if args.action == "save":
        save(args.folder, grid)
        return 0
    return compare(args.folder, grid)


if __name__ == "__main__":
    raise SystemExit(main())
