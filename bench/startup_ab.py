"""A word-search command's start-up in two trees, run after run in turn: CPU, and the modules it imports.

    python bench/startup_ab.py BEFORE_TREE AFTER_TREE [--rounds 15]

Each tree is a checkout with ``.venv`` beside its ``workbench`` (as for ``bench/command_ab.py``), compiled first.
Each round runs, in each tree in turn, ``python -c "import workbench.output.cli"`` (the command line's imports
alone) and ``python -m workbench evaluate`` of the bundled sample with keyword and bm25, no re-check and no history
(the smallest word-search run a user starts); measured is each process's CPU (user + system). Printed are the
medians and the median of the per-round ratios against the first tree, with the count of modules each imports.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

COUNT = "import sys, workbench.output.cli; print(len(sys.modules))"


def cpu_of(command: list[str], cwd: str, env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    temp = tempfile.mkdtemp()
    env = dict(os.environ, WORKBENCH_HISTORY_DB=f"{temp}/history.sqlite", WORKBENCH_EMBEDDING_CACHE="off")
    commands = {
        "import the command line": ["-c", "import workbench.output.cli"],
        "evaluate (word search)": ["-m", "workbench", "evaluate", "sample_data/breezy_home_price_list.md", "--questions",
                                   "sample_data/breezy_home_questions.csv", "--retrievers", "keyword,bm25",
                                   "--rerankers", "none", "--no-history", "--format", "json", "--out", f"{temp}/out.json"],
    }
    for tree in args.trees:
        subprocess.run([f"{tree}/.venv/bin/python", "-m", "compileall", "-q", f"{tree}/workbench"], check=True)
        modules = subprocess.run([f"{tree}/.venv/bin/python", "-c", COUNT], cwd=tree, env=env, check=True,
                                 capture_output=True, text=True).stdout.strip()
        print(f"{tree}: {modules} modules after importing the command line")
    runs: dict[tuple[str, int], list[float]] = {}
    loads = []
    for number in range(args.rounds):
        for name, command in commands.items():
            for index, tree in enumerate(args.trees):
                runs.setdefault((name, index), []).append(cpu_of([f"{tree}/.venv/bin/python", *command], tree, env))
        loads.append(os.getloadavg()[0])
        print(f"round {number + 1}: load {loads[-1]:.1f}", file=sys.stderr, flush=True)
    print(f"load {min(loads):.1f}-{max(loads):.1f}; median of {args.rounds} interleaved rounds")
    for name in commands:
        first = runs[(name, 0)]
        for index, tree in enumerate(args.trees):
            mine = runs[(name, index)]
            ratio = statistics.median(run / base for run, base in zip(mine, first))
            print(f"{name} {tree}: CPU {statistics.median(mine):.3f} s; against the first: {ratio:.3f}x")


if __name__ == "__main__":
    main()
