"""CPU of the lexical sweep (``--jobs 1``) and of its graded copies (``Prover.grade``) in two trees, run after run
in turn, for a ratio on a shared machine.

    python bench/interleaved_cpu.py FOLDER BEFORE_TREE AFTER_TREE [--rounds 20]

FOLDER holds the files with their questions beside them, as ``bench/peer.py`` lays them out. Each tree gets one
process that imports the project once, then forks a child per run (so every run starts with the caches empty, as a
command does, without the imports' noise); the two trees' runs alternate, one at a time, and each child reports its
CPU (user + system) and its copies' CPU. Printed: the medians and the median of the per-round ratios (after /
before) with its quartiles, and the load seen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

CHILD = r"""
import contextlib, io, os, sys, time
from workbench.advise import proof
from workbench.output.cli import main
ARGS = ["sweep", sys.argv[1], "--strategies", "fixed,fixed-overlap,sentence,recursive,heading,breadcrumb",
        "--retrievers", "keyword,bm25", "--rerankers", "none", "--no-history", "--format", "json", "--jobs", "1"]
grade = proof.Prover.grade
print("ready", flush=True)
for line in sys.stdin:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        spent = [0.0]
        def timed(self, document):
            began = time.process_time()
            try:
                return grade(self, document)
            finally:
                spent[0] += time.process_time() - began
        proof.Prover.grade = timed
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(ARGS)
        os.write(w, f"{spent[0]:.4f}".encode())
        os._exit(0)
    os.close(w)
    _, status, usage = os.wait4(pid, 0)
    copies = os.read(r, 100).decode()
    os.close(r)
    print(f"{copies} {usage.ru_utime + usage.ru_stime:.4f}", flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    trees = {"before": args.before, "after": args.after}
    workers = {name: subprocess.Popen([sys.executable, "-c", CHILD, os.path.abspath(args.folder)], cwd=tree,
                                      env=dict(os.environ, PYTHONPATH=tree), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True) for name, tree in trees.items()}
    for worker in workers.values():
        assert worker.stdout.readline().strip() == "ready"
    seen = {name: {"copies": [], "sweep": []} for name in trees}
    loads = []
    for number in range(args.rounds):
        for name in (("before", "after") if number % 2 == 0 else ("after", "before")):
            loads.append(os.getloadavg()[0])
            workers[name].stdin.write("go\n")
            workers[name].stdin.flush()
            copies, sweep = map(float, workers[name].stdout.readline().split())
            seen[name]["copies"].append(copies)
            seen[name]["sweep"].append(sweep)
    for part, said in (("copies", "the graded copies (Prover.grade)"), ("sweep", "the whole sweep, --jobs 1")):
        before, after = seen["before"][part], seen["after"][part]
        ratios = [b / a for a, b in zip(before, after)]
        quartiles = ", ".join(f"{q:.3f}" for q in statistics.quantiles(ratios, n=4))
        print(f"{said}: before {statistics.median(before):.3f} s, after {statistics.median(after):.3f} s CPU; "
              f"after / before per round {statistics.median(ratios):.3f}x (quartiles {quartiles})")
    print(f"{args.rounds} rounds each, load {min(loads):.1f}-{max(loads):.1f}")
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()


if __name__ == "__main__":
    main()
