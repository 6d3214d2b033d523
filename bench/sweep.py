"""Benchmark: nine small documents as nine ``evaluate`` calls against one ``sweep``, and start-up by itself.

    python bench/sweep.py                 # 3 interleaved rounds of the lexical sweep, plus start-up
    python bench/sweep.py --rounds 5 --dense
    python bench/sweep.py --before e05f325 --peer-ratio 0.17   # also that commit's sweep, and the peer estimate

The nine documents are the bundled sample as Markdown, CSV and Excel plus the six real shop
files beside the project (``../shared/real-data``, questions from ``bench/questions``), or six
seeded synthetic catalogs when that folder is absent. The lexical sweep is 6 strategies x keyword, bm25, no rerank.
Each round runs the nine separate ``python -m workbench evaluate`` processes and the one
``python -m workbench sweep`` process back to back, so both see the same machine load; wall time
and CPU time (user + system, of the child processes) are reported, and the ratio is what
BENCHMARKS.md records, since the machines are shared and absolute times drift.

The sweep runs twice a round: ``--jobs 1`` (one process) and the default (a process per file, one per core),
whose outputs must be byte-identical. ``--before COMMIT`` adds that commit's sweep (checked out in a temporary git
worktree, one process: it had no ``--jobs``); with ``--peer-ratio R`` (the sweep's wall over a peer's, measured
with that commit) the peer's wall is estimated from it, since the peer itself is not on this machine.

Start-up is measured alone: ``python -X importtime -c "import workbench.output.cli"`` (the import tree's
own cumulative figure) and the CPU time of that process against ``python -c pass``.
``--dense`` adds one meaning-based sweep with the embedding cache off and counts model loads.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STRATEGIES = "fixed,fixed-overlap,sentence,recursive,heading,breadcrumb"
LEXICAL = ["--strategies", STRATEGIES, "--retrievers", "keyword,bm25", "--rerankers", "none", "--no-history"]
PYTHON = sys.executable
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"


def build_folder(folder: Path, synthetic: bool = False) -> tuple[list[tuple[Path, Path]], str]:
    """Nine documents, each with STEM.questions.csv beside it, and which set they are.

    The bundled sample as Markdown, CSV and Excel, plus the six real shop files of
    ``../shared/real-data`` with their questions from ``bench/questions``; without that folder
    (or with ``--synthetic``), six seeded synthetic catalogs of 10 to 100 products instead.
    """
    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.read.questions import questions_to_csv

    samples = ROOT / "sample_data"
    for suffix in (".md", ".csv", ".xlsx"):
        stem = f"breezy_{suffix[1:]}"
        shutil.copy(samples / f"breezy_home_price_list{suffix}", folder / f"{stem}{suffix}")
        shutil.copy(samples / "breezy_home_questions.csv", folder / f"{stem}.questions.csv")
    real = sorted(REAL_DATA.glob("*")) if REAL_DATA.is_dir() and not synthetic else []
    real = [path for path in real if (QUESTIONS / f"{path.stem}.questions.csv").is_file()]
    if real:
        for path in real:
            shutil.copy(path, folder / path.name)
            shutil.copy(QUESTIONS / f"{path.stem}.questions.csv", folder / f"{path.stem}.questions.csv")
        kind = f"the sample (md, csv, xlsx) and {len(real)} real shop files"
    else:
        for number, products in enumerate((10, 20, 40, 60, 80, 100)):
            stem = f"catalog_{products}"
            (folder / f"{stem}.csv").write_bytes(catalog_csv(products, seed=number))
            questions = catalog_questions(products, count=min(40, 2 * products), seed=number)
            (folder / f"{stem}.questions.csv").write_text(questions_to_csv(questions), encoding="utf-8")
        kind = "the sample (md, csv, xlsx) and 6 synthetic catalogs of 10-100 products"
    pairs = sorted(
        (path, path.with_name(path.stem + ".questions.csv"))
        for path in folder.iterdir()
        if not path.name.endswith(".questions.csv")
    )
    return pairs, kind


def worktree(commit: str, path: Path) -> Path:
    """That commit's code, checked out beside this one (removed at the end)."""
    subprocess.run(["git", "worktree", "add", "--detach", str(path), commit], cwd=ROOT, check=True, capture_output=True)
    return path


def timed(commands: list[list[str]], env: dict, cwd: Path = ROOT) -> tuple[float, float, list[str]]:
    """Run the commands one after another: wall seconds, CPU seconds of the children, their outputs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    outputs = []
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        outputs.append(done.stdout)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, outputs


def import_time(env: dict) -> dict:
    """Start-up alone: importtime's own figure for workbench.output.cli, and CPU of the import against a bare python."""
    done = subprocess.run([PYTHON, "-X", "importtime", "-c", "import workbench.output.cli"], capture_output=True,
                          text=True, cwd=ROOT, env=env)
    line = next(line for line in reversed(done.stderr.splitlines()) if line.rstrip().endswith("| workbench.output.cli"))
    cumulative_us = int(line.split("|")[1])
    _, cpu_import, _ = timed([[PYTHON, "-c", "import workbench.output.cli"]] * 5, env)
    _, cpu_bare, _ = timed([[PYTHON, "-c", "pass"]] * 5, env)
    heavy = subprocess.run(
        [PYTHON, "-c", "import sys, workbench.output.cli; print(sorted({m.split('.')[0] for m in sys.modules} & "
         "{'scipy', 'plotly', 'pandas', 'torch', 'sentence_transformers', 'sklearn', 'narwhals', 'openpyxl'}))"],
        capture_output=True, text=True, cwd=ROOT, env=env,
    ).stdout.strip()
    return {"importtime_s": cumulative_us / 1e6, "cpu_import_s": cpu_import / 5, "cpu_bare_python_s": cpu_bare / 5,
            "heavy_loaded": heavy}


def dense_sweep(folder: Path, env: dict) -> dict:
    """A meaning-based sweep with the embedding cache off, counting how often the model is constructed."""
    probe = textwrap.dedent(f"""
        import time
        from workbench.encode import bert
        loads = []
        original = bert.Bert.__init__
        def counting(self, *args, **kwargs):
            loads.append(1)
            original(self, *args, **kwargs)
        bert.Bert.__init__ = counting
        from workbench.output.cli import main
        began = time.perf_counter()
        code = main(["sweep", {str(folder)!r}, "--strategies", "heading", "--retrievers", "dense", "--no-history",
                     "--format", "json", "--out", {str(folder.parent / "dense.json")!r}])
        print(code, len(loads), round(time.perf_counter() - began, 2))
    """)
    done = subprocess.run([PYTHON, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          env=env | {"WORKBENCH_EMBEDDING_CACHE": "off"})
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    code, loads, seconds = done.stdout.split()
    return {"exit": int(code), "model_loads": int(loads), "seconds": float(seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dense", action="store_true", help="also a meaning-based sweep, counting model loads")
    parser.add_argument("--synthetic", action="store_true", help="synthetic catalogs even when the real files are there")
    parser.add_argument("--before", help="also time this commit's sweep (a git worktree of it)")
    parser.add_argument("--peer-ratio", type=float, help="the sweep's wall over the peer's, measured with --before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "shops"
        folder.mkdir()
        pairs, kind = build_folder(folder, args.synthetic)
        env = dict(os.environ, WORKBENCH_HISTORY_DB=str(Path(temp) / "history.sqlite"),
                   WORKBENCH_EMBEDDING_CACHE=str(Path(temp) / "embeddings.sqlite"))
        separate_commands = [
            [PYTHON, "-m", "workbench", "evaluate", str(doc), "--questions", str(questions), *LEXICAL, "--format", "json"]
            for doc, questions in pairs
        ]
        sweep_command = [PYTHON, "-m", "workbench", "sweep", str(folder), *LEXICAL, "--format", "json"]
        before = worktree(args.before, Path(temp) / "before") if args.before else None
        rounds = []
        for number in range(args.rounds):
            separate = timed(separate_commands, env)
            swept = timed([sweep_command + ["--jobs", "1"]], env)
            spread = timed([sweep_command], env)
            old = timed([sweep_command], env, cwd=before) if before else None
            if number == 0:  # the same results either way
                documents = json.loads(swept[2][0])["documents"]
                assert documents == [json.loads(out) for out in separate[2]], "sweep and evaluate disagree"
            assert spread[2] == swept[2], "the sweep in processes wrote other bytes than in one process"
            rounds.append({"separate_wall": separate[0], "separate_cpu": separate[1],
                           "sweep_wall": swept[0], "sweep_cpu": swept[1],
                           "spread_wall": spread[0], "spread_cpu": spread[1]}
                          | ({"before_wall": old[0], "before_cpu": old[1]} if old else {}))
            print(f"round {number + 1}: nine evaluates {separate[0]:.2f} s wall / {separate[1]:.2f} s CPU; "
                  f"one sweep {swept[0]:.2f} s / {swept[1]:.2f} s; on every core {spread[0]:.2f} s / {spread[1]:.2f} s"
                  + (f"; {args.before}'s sweep {old[0]:.2f} s / {old[1]:.2f} s" if old else ""),
                  file=sys.stderr, flush=True)
        startup = import_time(env)
        dense = dense_sweep(folder, env) if args.dense else None
        if before:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, capture_output=True)

    def median(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    print(f"{len(pairs)} documents, {kind} ({', '.join(doc.name for doc, _ in pairs)});")
    print(f"lexical: {STRATEGIES} x keyword, bm25, no rerank.")
    print(f"Median of {args.rounds} interleaved rounds.\n")
    old = f" | `{args.before}` sweep | every core / `{args.before}`" if args.before else ""
    print(f"| | nine `evaluate` | `sweep --jobs 1` | `sweep` (every core, {os.cpu_count()}) | sweep / evaluates | "
          f"every core / one{old} |")
    print("|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if args.before else ""))
    for kind in ("wall", "cpu"):
        a, b, c = median(f"separate_{kind}"), median(f"sweep_{kind}"), median(f"spread_{kind}")
        extra = f" | {median(f'before_{kind}'):.2f} s | {c / median(f'before_{kind}'):.2f}x" if args.before else ""
        print(f"| {kind} time | {a:.2f} s | {b:.2f} s | {c:.2f} s | {b / a:.2f}x | {c / b:.2f}x{extra} |")
    print("\nThe sweep's output on every core: byte-identical to one process's, every round.")
    if args.before and args.peer_ratio:
        ratio = median("spread_wall") / median("before_wall")
        print(f"Against the peer: with {args.before} the sweep took {args.peer_ratio}x the peer's wall; it now takes "
              f"{ratio:.2f}x that commit's wall, so about {args.peer_ratio * ratio:.3f}x the peer's.")
    print()
    print(f"Start-up: `python -X importtime -c 'import workbench.output.cli'` reports {startup['importtime_s']:.3f} s for "
          f"workbench.output.cli; the import costs {startup['cpu_import_s']:.3f} s CPU per process "
          f"(a bare `python -c pass` {startup['cpu_bare_python_s']:.3f} s); heavy modules loaded: "
          f"{startup['heavy_loaded']}.")
    if dense:
        print(f"Meaning-based sweep (heading x dense, embedding cache off): {dense['seconds']:.1f} s, "
              f"model loaded {dense['model_loads']} time(s) for {len(pairs)} documents.")


if __name__ == "__main__":
    main()
