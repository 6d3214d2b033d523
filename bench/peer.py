"""Benchmark: the lexical sweep of the real files against a peer's full run on the same files (issue 37).

    python bench/peer.py --peer /path/to/venv/bin/contextgrid [--rounds 3]

The peer is context-grid (``pip install context-grid==0.9.5`` into a virtualenv of its own: numpy and pyyaml,
nothing else). For each real file (``../shared/real-data`` and ``tests/data/real``, with the questions the project
wrote for it) the peer gets a corpus folder holding the file and an eval set of the questions whose expected answer
the file holds word for word (its gold anchors; a CSV, which it does not read, goes to it as a .txt), and runs the config its ``init`` writes (its default grid,
``contextgrid run``: the "full run"). Ours is one ``python -m workbench sweep`` of a folder of the same files and
questions, word search (6 cuts x keyword, bm25, no re-check), on every core and with ``--jobs 1``, whose outputs
must be byte-identical. Rounds are interleaved so both see the same machine load; wall and CPU (user + system of
the child processes) are reported with their ratios, as BENCHMARKS.md records them.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from sweep import LEXICAL, PYTHON, QUESTIONS, REAL_DATA, timed  # noqa: E402

LOCAL_REAL = ROOT / "tests" / "data" / "real"


def real_pairs() -> list[tuple[Path, Path]]:
    """Every real file with the project's questions for it."""
    pairs = []
    for folder in (REAL_DATA, LOCAL_REAL):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix not in (".md", ".csv", ".xlsx") or path.name.endswith(".questions.csv"):
                continue
            for questions in (QUESTIONS / f"{path.stem}.questions.csv", path.with_name(f"{path.stem}.questions.csv")):
                if questions.is_file():
                    pairs.append((path, questions))
                    break
    return pairs


def peer_eval_set(document: Path, named: str, questions: Path, out: Path) -> int:
    """The questions whose answer the file holds word for word, as the peer's JSONL (one gold anchor each)."""
    text = document.read_text(encoding="utf-8-sig")
    count = 0
    with open(out, "w", encoding="utf-8") as handle:
        for number, row in enumerate(csv.DictReader(questions.open(encoding="utf-8-sig")), start=2):
            answer = (row.get("expected_answer") or "").strip()
            if answer and answer in text:
                anchor = {"source_id": named, "quote": answer}
                handle.write(json.dumps({"id": f"row{number}", "question": row["question"], "anchors": [anchor]}) + "\n")
                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", required=True, help="the peer's `contextgrid` command (in its own virtualenv)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--files", help="only these file names, comma-separated (the same files as an earlier run's "
                        "when tests/data/real has grown)")
    args = parser.parse_args()
    pairs = real_pairs()
    if args.files:
        wanted = set(args.files.split(","))
        pairs = [pair for pair in pairs if pair[0].name in wanted]
    if not pairs:
        raise SystemExit("no real files found (../shared/real-data or tests/data/real)")
    # The project compiled as pip compiles an installed package (the peer's was, at its install): a machine that
    # sets PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module again in every run (0.13 s of start-up).
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "workbench")], check=True)
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        ours = temp / "ours"
        ours.mkdir()
        peer_runs = []
        for document, questions in pairs:
            shutil.copy(document, ours / document.name)
            shutil.copy(questions, ours / f"{document.stem}.questions.csv")
            place = temp / "peer" / document.stem
            (place / "docs").mkdir(parents=True)
            # The peer reads no .csv: a CSV goes to it as plain text (its `text` parser), under a .txt name.
            named = document.name if document.suffix != ".csv" else f"{document.stem}.txt"
            shutil.copy(document, place / "docs" / named)
            asked = peer_eval_set(document, named, questions, place / "questions.jsonl")
            subprocess.run([args.peer, "init", str(place / "config.yaml"), "--corpus", str(place / "docs"),
                            "--evalset", str(place / "questions.jsonl")], check=True, capture_output=True, cwd=place)
            peer_runs.append(([args.peer, "run", str(place / "config.yaml")], place, asked))
        env = dict(os.environ, WORKBENCH_HISTORY_DB=str(temp / "history.sqlite"),
                   WORKBENCH_EMBEDDING_CACHE=str(temp / "embeddings.sqlite"))
        sweep = [PYTHON, "-m", "workbench", "sweep", str(ours), *LEXICAL, "--format", "json"]
        rounds = []
        for number in range(args.rounds):
            peer_wall = peer_cpu = 0.0
            for command, place, _ in peer_runs:
                wall, cpu, _ = timed([command], env, cwd=place)
                peer_wall, peer_cpu = peer_wall + wall, peer_cpu + cpu
            spread = timed([sweep], env)
            one = timed([sweep + ["--jobs", "1"]], env)
            assert spread[2] == one[2], "the sweep on every core wrote other bytes than with --jobs 1"
            rounds.append({"peer_wall": peer_wall, "peer_cpu": peer_cpu, "spread_wall": spread[0],
                           "spread_cpu": spread[1], "one_wall": one[0], "one_cpu": one[1]})
            print(f"round {number + 1}: peer {peer_wall:.2f} s wall / {peer_cpu:.2f} s CPU; sweep on every core "
                  f"{spread[0]:.2f} / {spread[1]:.2f}; --jobs 1 {one[0]:.2f} / {one[1]:.2f}", file=sys.stderr, flush=True)

    def median(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    print(f"{len(pairs)} real files: {', '.join(d.name for d, _ in pairs)}; the peer's eval sets: "
          f"{', '.join(str(asked) for _, _, asked in peer_runs)} questions. Median of {args.rounds} interleaved rounds, "
          f"{os.cpu_count()} cores.\n")
    print("| | peer's full runs | our sweep, every core | our sweep, `--jobs 1` | every core / peer | one / peer |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("wall", "cpu"):
        p, s, o = median(f"peer_{kind}"), median(f"spread_{kind}"), median(f"one_{kind}")
        print(f"| {kind} time | {p:.2f} s | {s:.2f} s | {o:.2f} s | {s / p:.3f}x | {o / p:.3f}x |")
    print("\nOur sweep's output on every core: byte-identical to --jobs 1, every round.")


if __name__ == "__main__":
    main()
