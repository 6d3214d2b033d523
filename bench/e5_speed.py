"""E5's time over MiniLM's on real files' texts (``multilingual.E5_TIME_RATIO``, the first estimate's).

    python bench/e5_speed.py --products 30 --rounds 2      # the German Bagisto export scaled to 30 products
    python bench/e5_speed.py --files tests/data/real/bagisto_winter_products_de.csv \
        tests/data/real/github_marketplace_terms_de.md --rounds 2   # each file as it is, with its questions

Each model reads the texts its own windows make of the default cuts (``plan_model_texts``), and with ``--files``
the file's questions (``<stem>.questions.csv`` beside it, each as the model asks it), both loaded before the clock
starts, in one process, rounds interleaved; printed: CPU and wall seconds, work units (``work_of``) a second, and
E5's time over MiniLM's a work unit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def model_texts_of(document, questions, models):
    from workbench.cut import chunk_document
    from workbench.run import defaults
    from workbench.run.evaluate import plan_model_texts
    from workbench.run.timing import Timings

    settings = defaults.DEFAULTS.settings()
    cuts = {c: chunk_document(document, c, settings.size, settings.overlap) for c in settings.strategies}
    return {name: sorted(plan_model_texts(model, cuts, settings, Timings())
                         + [model.as_question(q.question) for q in questions], key=len)
            for name, model in models.items()}


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from bench.memory import scaled_export
    from workbench.encode.encoder import work_of
    from workbench.encode.minilm import MiniLMEncoder
    from workbench.encode.multilingual import E5Encoder
    from workbench.read.loaders import load_bytes, load_path
    from workbench.read.questions import parse_questions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=Path, default=ROOT / "tests" / "data" / "real" / "bagisto_winter_products_de.csv")
    parser.add_argument("--products", type=int, default=30)
    parser.add_argument("--files", type=Path, nargs="*", default=[])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    models = {"e5": E5Encoder(None), "minilm": MiniLMEncoder(None)}
    sets = {}
    for path in args.files:
        asked = path.with_name(path.stem + ".questions.csv")
        questions = parse_questions(asked.read_bytes(), asked.name) if asked.is_file() else []
        sets[path.name] = model_texts_of(load_path(path), questions, models)
    if not args.files:
        sets[f"{args.scale.name} x{args.products}"] = model_texts_of(
            load_bytes(scaled_export(args.scale.read_bytes(), args.products), args.scale.name), [], models)
    for model in models.values():
        model._prepare()
    for round_ in range(args.rounds):
        for label, texts in sets.items():
            speeds = {}
            for name, model in models.items():
                cpu, wall = time.process_time(), time.perf_counter()
                model._encode(texts[name])
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                speeds[name] = (work_of(texts[name]) / cpu, work_of(texts[name]) / wall)
                print(f"round {round_}  {label:40} {name:6} {len(texts[name]):5,} texts "
                      f"{sum(map(len, texts[name])) / len(texts[name]):6.0f} chars each  CPU {cpu:7.1f} s  "
                      f"wall {wall:7.1f} s  {speeds[name][0]:8,.0f} work/CPU-s", flush=True)
            print(f"round {round_}  {label:40} E5 / MiniLM time a work unit: CPU "
                  f"{speeds['minilm'][0] / speeds['e5'][0]:.2f}, wall {speeds['minilm'][1] / speeds['e5'][1]:.2f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
