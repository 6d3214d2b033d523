"""Where a cold E5 run's memory goes, without the model's hour: the run of ``bench/memory.py --scale`` with E5 loaded
(network and tokenizer, as a cold run loads them) but its passes faked (random unit vectors of each text's real
shape: its own word pieces, tokenised as ``E5Encoder._encode`` does). Everything but the passes' own working memory
is there: the store, the tokenizer's kept splits, the searches, maxsim's blocks. Prints VmHWM/VmRSS at each progress
step; ``--trace`` adds tracemalloc's count from the re-checks on (and the top lines at its highest step, to FILE.top).

    python bench/memory_faked.py --code /tmp/main-checkout --products 300 --steps main.txt   # another commit's
    python bench/memory_faked.py --products 300 --steps now.txt                              # this checkout's

The grades are meaningless (random vectors); a real cold run peaks higher by the passes' working memory (on the
20-product copy, 98 MB at main: 672 MB cold against 574 faked; BENCHMARKS.md, "The last jump located").
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose engine runs (default: this one)")
    parser.add_argument("--scale", type=Path, default=ROOT / "tests" / "data" / "real" / "bagisto_winter_products_de.csv")
    parser.add_argument("--products", type=int, default=300)
    parser.add_argument("--steps", type=Path, required=True)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    sys.path[:0] = [str(args.code.resolve()), str(ROOT)]
    import numpy as np

    from bench.memory import scaled_export
    from workbench.core import limits
    from workbench.encode import multilingual
    from workbench.encode.embedding import Embedding
    from workbench.read.loaders import load_bytes
    from workbench.read.questions import parse_questions
    from workbench.run import defaults
    from workbench.run.staged import evaluate_in_stages

    limits.MAX_MODEL_CHARACTERS = 10**12
    random = np.random.default_rng(1)

    def fake(self, texts):
        self._network()
        out = []
        for text in texts:
            marked = text.startswith(multilingual.QUERY)
            prefix, words = (multilingual.QUERY, text[len(multilingual.QUERY):]) if marked else (multilingual.PASSAGE, text)
            ids = self.tokenizer.encode(prefix + words).ids[: self.max_seq_length - 2]
            own = len(self.tokenizer.encode(words).ids) if words.strip() else 0
            tokens = random.standard_normal((min(own, len(ids)) if own else len(ids) + 2, 384)).astype(np.float32)
            tokens /= np.linalg.norm(tokens, axis=1, keepdims=True)
            sentence = random.standard_normal(384).astype(np.float32)
            out.append(Embedding(sentence / np.linalg.norm(sentence), tokens))
        return out

    multilingual.E5Encoder._encode = fake
    # Named as bench/memory.py names it: the name is in the pieces' breadcrumbs, so in the texts the model reads.
    document = load_bytes(scaled_export(args.scale.read_bytes(), args.products), f"{args.scale.stem}_{args.products}.csv")
    asked = parse_questions(args.scale.with_name(f"{args.scale.stem}.questions.csv").read_bytes(), "questions.csv")
    began, seen, most = time.perf_counter(), [""], [0]

    def step(share: float, message: str) -> None:
        if message == seen[0]:
            return
        seen[0] = message
        if args.trace and "re-checked" in message and not tracemalloc.is_tracing():
            tracemalloc.start(6)
        status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
        traced = ""
        if tracemalloc.is_tracing():
            current, peak = tracemalloc.get_traced_memory()
            traced = f"  traced {current / 2**20:6.1f} MB (peak {peak / 2**20:6.1f})"
            if current > most[0]:
                most[0] = current
                top = tracemalloc.take_snapshot().statistics("lineno")[:12]
                Path(f"{args.steps}.top").write_text(message + "\n" + "\n".join(map(str, top)) + "\n")
        with open(args.steps, "a") as out:
            out.write(f"{time.perf_counter() - began:7.1f} s  VmHWM {status['VmHWM'].strip():>11}  "
                      f"VmRSS {status['VmRSS'].strip():>11}{traced}  {message}\n")

    with tempfile.TemporaryDirectory() as folder:
        os.environ["WORKBENCH_EMBEDDING_CACHE"] = str(Path(folder) / "cache.sqlite")
        evaluate_in_stages(document, asked, defaults.DEFAULTS.settings(), progress=step)
    step(1.0, "end")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with open(args.steps, "a") as out:
        out.write(f"peak {peak:.0f} MB (ru_maxrss), {len(document.text):,} characters of text\n")
    print(f"peak {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
