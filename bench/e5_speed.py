"""E5's time over MiniLM's on a scaled real export's texts (``multilingual.E5_TIME_RATIO``, the first estimate's).

    python bench/e5_speed.py --products 30 --rounds 2      # the German Bagisto export, 30 products

Each model reads the texts its own windows make of the default cuts (``plan_model_texts``), both loaded before
the clock starts, in one process, rounds interleaved; printed: CPU and wall seconds and work units (``work_of``)
a second, and E5's over MiniLM's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from bench.memory import scaled_export
    from workbench.cut import chunk_document
    from workbench.encode.encoder import work_of
    from workbench.encode.minilm import MiniLMEncoder
    from workbench.encode.multilingual import E5Encoder
    from workbench.read.loaders import load_bytes
    from workbench.run import defaults
    from workbench.run.evaluate import plan_model_texts
    from workbench.run.timing import Timings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=Path, default=ROOT / "tests" / "data" / "real" / "bagisto_winter_products_de.csv")
    parser.add_argument("--products", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    document = load_bytes(scaled_export(args.scale.read_bytes(), args.products), args.scale.name)
    settings = defaults.DEFAULTS.settings()
    cuts = {c: chunk_document(document, c, settings.size, settings.overlap) for c in settings.strategies}
    models = {"e5": E5Encoder(None), "minilm": MiniLMEncoder(None)}
    texts = {name: sorted(plan_model_texts(model, cuts, settings, Timings()), key=len) for name, model in models.items()}
    for model in models.values():
        model._prepare()
    for round_ in range(args.rounds):
        speeds = {}
        for name, model in models.items():
            cpu, wall = time.process_time(), time.perf_counter()
            model._encode(texts[name])
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            speeds[name] = (work_of(texts[name]) / cpu, work_of(texts[name]) / wall)
            print(f"round {round_}  {name:6} {len(texts[name]):6,} texts  CPU {cpu:7.1f} s  wall {wall:7.1f} s  "
                  f"{speeds[name][0]:8,.0f} work/CPU-s", flush=True)
        print(f"round {round_}  E5 / MiniLM time: CPU {speeds['minilm'][0] / speeds['e5'][0]:.2f}, "
              f"wall {speeds['minilm'][1] / speeds['e5'][1]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
