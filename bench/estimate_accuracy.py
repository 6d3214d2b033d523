"""How close the app's first time estimate for a language-model run is to the run itself.

    python bench/estimate_accuracy.py            # each real file, a fresh process, no embedding cache

For each file in ../shared/real-data that has bench/questions/<stem>.questions.csv, a new Python
process estimates the app's default cuts with meaning-based search and the maxsim re-check (before
the model has run, so at TYPICAL_SPEED), then runs it, and prints both and their ratio. The first
estimate is the one a user sees before pressing Run on a fresh server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"

ONE_FILE = """
import json, sys, time
from pathlib import Path
from workbench.embedding import get_encoder
from workbench.estimate import estimate
from workbench.evaluate import evaluate
from workbench.loaders import load_path
from workbench.model import Settings
from workbench.questions import parse_questions

path, questions = Path(sys.argv[1]), Path(sys.argv[2])
document = load_path(path)
asked = parse_questions(questions.read_bytes(), questions.name)
cuts = ["fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern",
        "langchain-recursive-1000"]
settings = Settings(cuts, ["keyword", "dense"], ["none", "heading", "maxsim"], threshold="auto")
encoder = get_encoder()
guess = estimate(document, asked, settings, encoder)
began = time.perf_counter()
evaluate(document, asked, settings, encoder_factory=lambda: encoder)
print(json.dumps({"estimate": guess.seconds, "real": time.perf_counter() - began, "speed": encoder.speed()}))
"""


def main() -> int:
    if not REAL_DATA.is_dir():
        print(f"{REAL_DATA} is not beside this clone: nothing to measure", file=sys.stderr)
        return 1
    environment = os.environ | {"WORKBENCH_EMBEDDING_CACHE": "off", "PYTHONPATH": str(ROOT)}
    print(f"{'file':34} {'estimate':>9} {'real':>7} {'ratio':>6} {'model speed':>12}")
    for path in sorted(REAL_DATA.iterdir()):
        questions = QUESTIONS / f"{path.stem}.questions.csv"
        if not questions.is_file():
            continue
        out = subprocess.run([sys.executable, "-c", ONE_FILE, str(path), str(questions)], env=environment,
                             capture_output=True, text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        print(f"{path.name:34} {row['estimate']:8.1f}s {row['real']:6.1f}s {row['estimate'] / row['real']:6.2f} "
              f"{row['speed'] or 0:12,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
