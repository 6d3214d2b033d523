"""The check-up (``audit``) on Markdown files of 5,000 to 40,000 headings: does its time grow with the headings?

    python bench/audit_headings.py                   # 5,000, 10,000, 20,000 and 40,000 headings, text and JSON
    python bench/audit_headings.py --start 2000 --steps 3

Each file holds headings of levels 1 to 6 in turn, each over one line of words (about 50 bytes a heading, as the
8 MB file of 160,000 headings that took more than 9 minutes). Each size is run in this one process, the file read
once and then checked; the figure is the check's CPU time (the machine is shared: wall time moves with the load)
and its ratio to the size before. Linear work doubles with the headings (ratio about 2); work that grows with the
square of the headings (each line number counted from the file's start, as before) quadruples.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def headings_file(count: int) -> bytes:
    return "".join(f"{'#' * (i % 6 + 1)} Section {i}\nSome words about item {i}.\n" for i in range(count)).encode()


def main() -> None:
    from workbench.advise.audit import audit
    from workbench.output.cli_io import json_text
    from workbench.read.loaders import load_bytes

    parser = argparse.ArgumentParser()
    parser.add_argument("--start", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=4)
    args = parser.parse_args()
    import gc

    gc.set_threshold(100_000, 50, 100)  # as the command line sets it (workbench/output/cli.py)
    before = None
    print(f"{'headings':>9} {'MB':>6} {'check-up':>9} {'with JSON':>10} {'ratio':>6}")
    for step in range(args.steps):
        count = args.start * 2**step
        data = headings_file(count)
        document = load_bytes(data, "headings.md")
        started = time.process_time()
        result = audit(document)
        checked = time.process_time() - started
        json_text(result.as_dict())
        lines = "\n".join(result.lines())
        both = time.process_time() - started
        ratio = f"{both / before:5.2f}x" if before else ""
        print(f"{count:>9,} {len(data) / 1e6:>6.2f} {checked:>8.2f}s {both:>9.2f}s {ratio:>6}", flush=True)
        before = both
        del lines


if __name__ == "__main__":
    main()
