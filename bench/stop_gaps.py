"""How long can a run go without asking whether to stop? The longest stretches between two looks.

    python bench/stop_gaps.py                  # 100,000 rows, every strategy, keyword search
    python bench/stop_gaps.py --rows 20000 --strategies sentence,heading

The app's Stop (and a closed tab) is heard only when ``evaluate`` asks its ``should_stop``
callback, so the longest time between two asks bounds how long a Stop can take, without the
browser's own delays. This runs ``evaluate`` on the seeded synthetic catalog (the file
``bench/big_file.py`` uploads) with a callback that notes the time and the step the run's
progress last named, and prints the longest gaps and where they were.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from big_file import big_csv  # noqa: E402 - the same file the app benchmark uploads


def main() -> None:
    from workbench.core.model import Settings
    from workbench.cut import STRATEGIES
    from workbench.read.loaders import load_bytes
    from workbench.read.questions import generate_questions
    from workbench.run.evaluate import evaluate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--strategies", default=",".join(i for i in STRATEGIES.ids() if i != "whole"))
    parser.add_argument("--retrievers", default="keyword")
    parser.add_argument("--top", type=int, default=8, help="how many of the longest gaps to list")
    args = parser.parse_args()

    document = load_bytes(big_csv(args.rows), f"catalog_{args.rows}_rows.csv")
    questions = generate_questions(document, limit=50)
    settings = Settings(args.strategies.split(","), args.retrievers.split(","), ["none"])
    step = ["starting"]
    looks: list[tuple[float, str]] = []

    def progress(_share: float, message: str) -> None:
        step[0] = message

    def should_stop() -> bool:
        looks.append((time.perf_counter(), step[0]))
        return False

    began = time.perf_counter()
    looks.append((began, "start"))
    evaluate(document, questions, settings, progress=progress, should_stop=should_stop)
    looks.append((time.perf_counter(), "end"))
    gaps = sorted(
        ((after[0] - before[0], before[1], after[1]) for before, after in zip(looks, looks[1:])), reverse=True
    )
    print(f"{args.rows:,} rows, {len(questions)} questions, {len(settings.strategies)} strategies x {args.retrievers}: "
          f"{looks[-1][0] - began:.1f} s, {len(looks) - 2:,} looks at Stop")
    for seconds, before, after in gaps[: args.top]:
        where = before if before == after else f"{before} -> {after}"
        print(f"  {seconds:5.2f} s  {where}")


if __name__ == "__main__":
    main()
