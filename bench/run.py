"""Benchmark: the full evaluation on seeded synthetic catalogs, stage by stage.

    python bench/run.py                      # 100 and 1,000 products, plus the search comparison
    python bench/run.py --sizes 100,1000,10000

Each size runs in its own process (so peak memory is its own): a cold run with
an empty embedding cache, then a warm run of the same catalog with edited
questions, reading the cache the cold run wrote. Figures are printed as a
Markdown table; BENCHMARKS.md records them as ratios, since the machines are
shared and absolute times drift.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STRATEGIES = ["fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern"]


def child_evaluate(products: int, warm: bool) -> dict:
    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.core.model import Settings
    from workbench.encode.embedding import get_encoder
    from workbench.read.loaders import load_bytes
    from workbench.run.evaluate import evaluate
    from workbench.run.timing import Timings

    data = catalog_csv(products)
    questions = catalog_questions(products)
    if warm:  # edited questions: some dropped, some answers and kinds changed; the texts asked are the same
        questions = questions[10:]
        for question in questions[:10]:
            question.kind = "edited"
    timings = Timings()
    began = time.perf_counter()
    load_start = time.perf_counter()
    document = load_bytes(data, f"catalog_{products}.csv")
    timings.add("load", time.perf_counter() - load_start)
    settings = Settings(STRATEGIES, ["bm25", "dense", "hybrid"], ["none", "heading", "maxsim"])

    def progress(share: float, text: str) -> None:
        print(f"  [{products} {'warm' if warm else 'cold'}] {share:4.0%} {text}", file=sys.stderr, flush=True)

    model_start = time.perf_counter()
    encoder = get_encoder()
    if not warm:  # load the model up front, so the embed stage counts only embedding (a warm run never loads it)
        _ = encoder.model
    model_seconds = time.perf_counter() - model_start
    evaluation = evaluate(document, questions, settings, timings=timings, progress=progress)
    total = time.perf_counter() - began
    result = {
        "products": products,
        "warm": warm,
        "chunks": {s: len(c) for s, c in evaluation.chunks.items()},
        "stages": timings.seconds,
        "model_load": model_seconds,
        "total": total,
        "embedded": encoder.encoded,
        "from_disk": encoder.from_disk,
        "unique_texts": len(encoder._sentences),
        "clean_heading_bm25": evaluation.run("heading", "bm25", "none").counts["clean"],
        "clean_fixed_bm25": evaluation.run("fixed", "bm25", "none").counts["clean"],
    }
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if not warm:
        # The model's raw speed on the same texts, without our caching: the bound the embed stage is held to.
        sample = random.Random(0).sample(sorted(encoder._sentences), min(1000, len(encoder._sentences)))
        start = time.perf_counter()
        encoder._encode(sample)
        result["raw_texts_per_second"] = len(sample) / (time.perf_counter() - start)
    return result


def child_search() -> dict:
    """rank-bm25 against bm25s and our sparse path: 20,000 chunks x 200 queries in one run."""
    import bm25s
    import numpy as np
    from rank_bm25 import BM25Okapi

    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.core.words import terms
    from workbench.cut import chunk_document
    from workbench.read.loaders import load_bytes
    from workbench.search.retrievers import BM25, ranks, starts_of

    # One chunk per product: words such as "price" and "warranty" are in every chunk, as in a real catalog.
    document = load_bytes(catalog_csv(20000), "catalog.csv")
    chunks = chunk_document(document, "heading")[:20000]
    queries = [q.question for q in catalog_questions(20000, count=205) if q.expected_source][:200]
    corpus = [terms(chunk.text) for chunk in chunks]
    starts = starts_of(chunks)
    out: dict = {"chunks": len(chunks), "queries": len(queries)}

    start = time.perf_counter()
    reference = BM25Okapi(corpus)
    out["rank_bm25_index"] = time.perf_counter() - start
    start = time.perf_counter()
    expected = [reference.get_scores(terms(q)) for q in queries]
    out["rank_bm25_search"] = time.perf_counter() - start

    start = time.perf_counter()
    fast = bm25s.BM25(method="robertson", k1=1.5, b=0.75)
    fast.index(corpus, show_progress=False)
    out["bm25s_index"] = time.perf_counter() - start
    start = time.perf_counter()
    got_bm25s = [fast.get_scores([t for t in terms(q) if t in fast.vocab_dict]) for q in queries]
    out["bm25s_search"] = time.perf_counter() - start

    start = time.perf_counter()
    ours = BM25(chunks)
    out["sparse_index"] = time.perf_counter() - start
    start = time.perf_counter()
    got_ours = [ours.scores(q) for q in queries]
    out["sparse_search"] = time.perf_counter() - start

    def agreement(results: list) -> float:
        return float(np.mean([
            len(set(ranks(a, starts)[:10].tolist()) & set(ranks(b, starts)[:10].tolist())) / 10
            for a, b in zip(expected, results)
        ]))

    out["bm25s_top10_agreement"] = agreement(got_bm25s)
    out["sparse_top10_agreement"] = agreement(got_ours)
    out["sparse_max_abs_difference"] = float(max(np.max(np.abs(a - b)) for a, b in zip(expected, got_ours)))
    return out


def spawn(args: list[str], cache: str) -> dict:
    env = {**os.environ, "WORKBENCH_EMBEDDING_CACHE": cache, "HF_HUB_OFFLINE": "1"}
    output = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True, text=True)
    if output.returncode:
        raise SystemExit(f"benchmark child {args} failed:\n{output.stderr[-3000:]}")
    return json.loads(output.stdout.strip().splitlines()[-1])


def report(runs: list[dict], search: dict | None) -> str:
    lines = ["| products | run | total s | load | chunk | index | embed | search | rerank | grade | model load | "
             "texts embedded | read from disk | peak MB |", "|" + "---|" * 14]
    for r in runs:
        s = r["stages"]
        lines.append(
            f"| {r['products']} | {'warm' if r['warm'] else 'cold'} | {r['total']:.1f} | {s['load']:.2f} | "
            f"{s['chunk']:.2f} | {s['index']:.2f} | {s['embed']:.1f} | {s['search']:.2f} | {s['rerank']:.2f} | "
            f"{s['grade']:.2f} | {r['model_load']:.1f} | {r['embedded']} | {r['from_disk']} | {r['peak_mb']:.0f} |"
        )
    lines.append("")
    for cold in (r for r in runs if not r["warm"]):
        warm = next((w for w in runs if w["warm"] and w["products"] == cold["products"]), None)
        bound = cold["unique_texts"] / cold["raw_texts_per_second"]
        lines.append(
            f"- {cold['products']} products: {cold['unique_texts']} unique texts; raw model speed "
            f"{cold['raw_texts_per_second']:.0f} texts/s, so the bound is {bound:.1f} s; the embed stage took "
            f"{cold['stages']['embed'] / bound:.2f} x the bound; the cold run took "
            f"{cold['total'] / (1.3 * bound + 10):.2f} x the target (1.3 x bound + 10 s)"
            + (f"; the warm run took {warm['total'] / cold['total']:.1%} of the cold run and embedded "
               f"{warm['embedded']} texts" if warm else "")
            + f". Clean answers (bm25, no rerank): heading {cold['clean_heading_bm25']}, fixed {cold['clean_fixed_bm25']}."
        )
    if search:
        lines.append(
            f"- Search, {search['chunks']} chunks x {search['queries']} queries: rank-bm25 "
            f"{search['rank_bm25_search']:.2f} s; bm25s {search['bm25s_search']:.3f} s "
            f"({search['rank_bm25_search'] / search['bm25s_search']:.0f} x faster, top-10 agreement with rank-bm25 "
            f"{search['bm25s_top10_agreement']:.3f}); our sparse Okapi {search['sparse_search']:.3f} s "
            f"({search['rank_bm25_search'] / search['sparse_search']:.0f} x faster, agreement "
            f"{search['sparse_top10_agreement']:.3f}, largest score difference {search['sparse_max_abs_difference']:.1e}). "
            f"Indexing: rank-bm25 {search['rank_bm25_index']:.2f} s, bm25s {search['bm25s_index']:.2f} s, "
            f"ours {search['sparse_index']:.2f} s."
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument("--child", choices=["cold", "warm", "search"], help=argparse.SUPPRESS)
    parser.add_argument("--products", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", help="also write the raw figures to this file")
    args = parser.parse_args()
    if args.child == "search":
        print(json.dumps(child_search()))
        return
    if args.child:
        print(json.dumps(child_evaluate(args.products, warm=args.child == "warm")))
        return
    runs = []
    for products in [int(size) for size in args.sizes.split(",")]:
        cache = str(Path(tempfile.mkdtemp(prefix="wb-bench-")) / "embeddings.sqlite")
        for mode in ("cold", "warm"):
            print(f"running {products} products, {mode}…", file=sys.stderr, flush=True)
            runs.append(spawn(["--child", mode, "--products", str(products)], cache))
    search = None if args.no_search else spawn(["--child", "search"], "off")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "search": search}, indent=2))
    print(report(runs, search))


if __name__ == "__main__":
    main()
