"""CPU of the grid within a lexical sweep, in one process (for ratios against another tree).

    PYTHONPATH=. python bench/grid_cpu.py FOLDER              # prints: the grid's CPU, the process's CPU
    PYTHONPATH=. python bench/grid_cpu.py FOLDER --profile    # and the grid's cProfile, by own time

The grid is each file's ``evaluate`` of the 132 setups (6 cuts x keyword, bm25, no re-check: its cuts, indexes,
searches, chunk maps, grades and calibrations), not the to-do's graded copies (``bench/copies_cpu.py``). FOLDER
holds the files with their questions beside them, as ``bench/peer.py`` lays them out. Run it from each tree in
turn, a few rounds interleaved: the machine is shared, only the ratios mean something.
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import pstats
import sys
import time

from workbench.output.cli import main
from workbench.run import staged

spent = 0.0
evaluate = staged.evaluate
profile = cProfile.Profile() if "--profile" in sys.argv else None


def timed(*args, **kwargs):
    global spent
    began = time.process_time()
    if profile:
        profile.enable()
    try:
        return evaluate(*args, **kwargs)
    finally:
        if profile:
            profile.disable()
        spent += time.process_time() - began


staged.evaluate = timed  # the grid's call; the to-do's copies call ``run.evaluate.evaluate`` itself
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    main(["sweep", sys.argv[1], "--strategies", "fixed,fixed-overlap,sentence,recursive,heading,breadcrumb",
          "--retrievers", "keyword,bm25", "--rerankers", "none", "--no-history", "--format", "json", "--jobs", "1"])
print(f"{spent:.3f} {time.process_time():.3f}")
if profile:
    pstats.Stats(profile).sort_stats("tottime").print_stats(45)
