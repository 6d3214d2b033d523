"""How close the app's time estimate for a language-model run is to the run itself, cold and warm.

    python bench/estimate_accuracy.py            # each real file, fresh processes
    python bench/estimate_accuracy.py --cold tests/data/real/bagisto_winter_products_de.csv   # these files, cold only

With ``--cold`` files, each file's questions are ``<stem>.questions.csv`` beside it, and only the cold run is made;
its CPU seconds (every thread's) over the machine's cores stand for its time on a quiet machine, as a busy one's wall
time does not.
Each file is read by the model the app chooses for its language (``multilingual.encoder_factory_for``: E5 for a
German file).

For each file in ../shared/real-data that has bench/questions/<stem>.questions.csv, a new Python
process estimates the app's default setups (``run/defaults.py``: its cuts, searches and re-checks) before
the model has run, so at TYPICAL_SPEED, then runs them in stages as the Results page does, with an empty
embedding cache of its own: the first estimate a user sees on a fresh server. Then a second new process
does the same with that cache filled (the model reads nothing; maxsim reads word vectors back from the
disk): what a user sees on coming back to a file. It prints both estimates, both runs and their ratios,
and the re-check's own speed in the warm run (characters compared a second, as estimate.RECHECK_SPEED
counts them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"

ONE_FILE = """
import json, sys, time
from pathlib import Path
from workbench.encode.multilingual import encoder_factory_for
from workbench.run.estimate import estimate
from workbench.search.maxsim import MaxSim
from workbench.cut import chunk_document
from workbench.run.defaults import DEFAULTS
from workbench.run.evaluate import evaluate
from workbench.run.staged import evaluate_in_stages
from workbench.run.timing import Timings
from workbench.read.loaders import load_path
from workbench.core.model import Settings
from workbench.read.questions import parse_questions

path, questions = Path(sys.argv[1]), Path(sys.argv[2])
document = load_path(path)
asked = parse_questions(questions.read_bytes(), questions.name)
settings = DEFAULTS.settings()
encoder = encoder_factory_for(document)()
guess = estimate(document, asked, settings, encoder)
began, cpu = time.perf_counter(), time.process_time()
evaluate_in_stages(document, asked, settings, encoder_factory=lambda: encoder)
real, cpu = time.perf_counter() - began, time.process_time() - cpu
# The re-check's own speed: the maxsim part of the grid again, timed by stage (every vector is cached by now).
timings = Timings()
checks = Settings(list(DEFAULTS.strategies), list(DEFAULTS.retrievers), [r for r in DEFAULTS.rerankers if r == "maxsim"],
                  threshold="auto")
evaluate(document, asked, checks, encoder_factory=lambda: encoder, timings=timings)
cuts = {cut: chunk_document(document, cut, settings.size, settings.overlap) for cut in DEFAULTS.strategies}
print(json.dumps({"model": encoder.name, "estimate": guess.seconds, "real": real, "cpu": cpu, "speed": encoder.speed(),
                  "recheck": MaxSim.recheck_characters(cuts, len(asked), settings) / max(timings.seconds["rerank"], 1e-9)}))
"""


def cold_only(paths: list[Path]) -> int:
    """The first estimate against the cold run for each of these files, its questions beside it."""
    print(f"{'file':40} {'model':24} {'estimate':>9} {'real':>7} {'ratio':>6} {'model speed':>12} {'CPU':>7} "
          "estimate / (CPU / cores)")
    for path in paths:
        questions = path.with_name(path.stem + ".questions.csv")
        with tempfile.TemporaryDirectory() as folder:
            environment = os.environ | {"WORKBENCH_EMBEDDING_CACHE": str(Path(folder) / "cache.sqlite"),
                                        "PYTHONPATH": str(ROOT)}
            cold = json.loads(subprocess.run([sys.executable, "-c", ONE_FILE, str(path), str(questions)], env=environment,
                                             capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
        print(f"{path.name:40} {cold['model']:24} {cold['estimate']:8.1f}s {cold['real']:6.1f}s "
              f"{cold['estimate'] / cold['real']:6.2f} {cold['speed'] or 0:12,.0f} {cold['cpu']:6.1f}s "
              f"{cold['estimate'] / (cold['cpu'] / (os.cpu_count() or 1)):6.2f}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=Path, nargs="*", default=[])
    args = parser.parse_args()
    if args.cold:
        return cold_only(args.cold)
    if not REAL_DATA.is_dir():
        print(f"{REAL_DATA} is not beside this clone: nothing to measure", file=sys.stderr)
        return 1
    print(f"{'file':34} {'cold: estimate':>14} {'real':>7} {'ratio':>6} {'model speed':>12}   "
          f"{'warm: estimate':>14} {'real':>7} {'ratio':>6} {'re-check speed':>15}")
    for path in sorted(REAL_DATA.iterdir()):
        questions = QUESTIONS / f"{path.stem}.questions.csv"
        if not questions.is_file():
            continue
        with tempfile.TemporaryDirectory() as folder:
            environment = os.environ | {"WORKBENCH_EMBEDDING_CACHE": str(Path(folder) / "cache.sqlite"),
                                        "PYTHONPATH": str(ROOT)}
            cold, warm = (
                json.loads(subprocess.run([sys.executable, "-c", ONE_FILE, str(path), str(questions)], env=environment,
                                          capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
                for _ in range(2)
            )
        print(f"{path.name:34} {cold['estimate']:13.1f}s {cold['real']:6.1f}s {cold['estimate'] / cold['real']:6.2f} "
              f"{cold['speed'] or 0:12,.0f}   {warm['estimate']:13.1f}s {warm['real']:6.1f}s "
              f"{warm['estimate'] / warm['real']:6.2f} {warm['recheck']:15,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
