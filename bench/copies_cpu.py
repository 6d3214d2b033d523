"""CPU of the to-do's graded copies within a lexical sweep, in one process (for ratios against another tree).

    PYTHONPATH=. python bench/copies_cpu.py FOLDER     # prints: the copies' CPU (Prover.grade), the process's CPU

FOLDER holds the files with their questions beside them, as ``bench/peer.py`` lays them out. Run it from each tree
in turn, a few rounds interleaved: the machine is shared, only the ratios mean something.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time

from workbench.advise import proof
from workbench.output.cli import main

spent = 0.0
grade = proof.Prover.grade


def timed(self, document):
    global spent
    began = time.process_time()
    try:
        return grade(self, document)
    finally:
        spent += time.process_time() - began


proof.Prover.grade = timed
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    main(["sweep", sys.argv[1], "--strategies", "fixed,fixed-overlap,sentence,recursive,heading,breadcrumb",
          "--retrievers", "keyword,bm25", "--rerankers", "none", "--no-history", "--format", "json", "--jobs", "1"])
print(f"{spent:.3f} {time.process_time():.3f}")
