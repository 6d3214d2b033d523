"""The whole word-search sweep command in two (or more) trees, run after run in turn, for wall and CPU ratios.

    python bench/command_ab.py FOLDER BEFORE_TREE AFTER_TREE [--rounds 5] [--jobs 0,1]

FOLDER holds the files with their questions beside them, as ``bench/peer.py`` lays them out; each tree is a checkout
(``git archive COMMIT | tar -x -C DIR``) with ``.venv`` beside its ``workbench``. Each tree's ``workbench`` is compiled
first (as ``bench/peer.py`` does). Every round runs ``python -m workbench sweep`` once per tree for each ``--jobs``,
measures its wall and CPU (user + system of the process and its children) and checks the trees' outputs are
byte-identical; printed are the medians and the median of the per-round ratios against the first tree, with the
load seen. Unlike ``bench/interleaved_cpu.py`` (one import, a fork per run), each run is a command as a user runs it,
start-up and exit included.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from sweep import LEXICAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", default="0,1", help="the --jobs values to run, comma-separated (0: every core)")
    args = parser.parse_args()
    temp = tempfile.mkdtemp()
    env = dict(os.environ, WORKBENCH_HISTORY_DB=f"{temp}/history.sqlite", WORKBENCH_EMBEDDING_CACHE="off")
    for tree in args.trees:
        subprocess.run([f"{tree}/.venv/bin/python", "-m", "compileall", "-q", f"{tree}/workbench"], check=True)
    runs: dict[tuple[str, int], list[tuple[float, float]]] = {}
    loads = []
    for number in range(args.rounds):
        for jobs in args.jobs.split(","):
            for index, tree in enumerate(args.trees):
                out = f"{temp}/{index}_{jobs}.json"
                command = [f"{tree}/.venv/bin/python", "-m", "workbench", "sweep", args.folder, *LEXICAL,
                           "--format", "json", "--out", out, "--jobs", jobs]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                began = time.perf_counter()
                subprocess.run(command, env=env, cwd=tree, check=True, stderr=subprocess.DEVNULL)
                wall = time.perf_counter() - began
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                runs.setdefault((jobs, index), []).append((wall, cpu))
            for index in range(1, len(args.trees)):
                assert filecmp.cmp(f"{temp}/0_{jobs}.json", f"{temp}/{index}_{jobs}.json", shallow=False), \
                    f"{args.trees[index]} wrote other bytes than {args.trees[0]} (--jobs {jobs})"
        loads.append(os.getloadavg()[0])
        print(f"round {number + 1}: load {loads[-1]:.1f}", file=sys.stderr, flush=True)
    print(f"load {min(loads):.1f}-{max(loads):.1f}; median of {args.rounds} interleaved rounds; outputs byte-identical")
    for jobs in args.jobs.split(","):
        first = runs[(jobs, 0)]
        for index, tree in enumerate(args.trees):
            mine = runs[(jobs, index)]
            wall, cpu = (statistics.median(run[k] for run in mine) for k in (0, 1))
            ratios = [statistics.median(run[k] / base[k] for run, base in zip(mine, first)) for k in (0, 1)]
            print(f"--jobs {jobs} {tree}: wall {wall:.2f} s, CPU {cpu:.2f} s; against the first: wall {ratios[0]:.3f}x, "
                  f"CPU {ratios[1]:.3f}x")


if __name__ == "__main__":
    main()
