"""Peak memory and time of a meaning-based run: the app's default setups, cold, against an earlier commit.

    python bench/memory.py                         # the Spree export and a ~1 MB synthetic catalog, vs main
    python bench/memory.py --products 1000 --before HEAD~5
    python bench/memory.py --products 1000 --skip-spree --from-cache old.sqlite   # the model's vectors cached
    python bench/memory.py --products 300 --skip-spree --scale tests/data/real/bagisto_winter_products_de.csv \
        --now-only --keep-cache de300.sqlite     # a German export of 300 products, read by E5; this code alone

Each file is run cold (an embedding cache of its own, empty: the model reads every text) in a fresh Python
process, once with this checkout's code and once with ``--before``'s (``git archive`` of that commit into a
temporary folder), alternately. A run is the staged evaluation the Results page makes (``run/staged.py``) of
``run/defaults.py``'s cuts, searches and re-checks, with the fitted threshold. Reported per run: the peak
resident memory (the child's ``ru_maxrss``), the wall time and the CPU time (user + system: on a shared machine
the steadier of the two), and this checkout's figures as ratios of the earlier commit's, from the same run.
The grades of both are compared too: the memory bound must not change a single one.

``--from-cache`` starts each run from a copy of a cache an earlier run of the same file filled, its maxsim columns
left out: the model reads nothing (minutes instead of half an hour for a 1 MB file) and maxsim works as cold.

``--scale FILE`` builds the catalog from a real CSV export instead (``scaled_export``): its products repeated under
new names up to ``--products``, so a German or French shop's file of a few hundred products is read by the model of
its language (E5), with the export's own questions (``FILE``'s ``.questions.csv``: they ask about the first copy).
``--now-only`` runs this checkout's code alone (no code change to compare); ``--keep-cache`` keeps its cold run's
cache for a later ``--from-cache``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPREE = ROOT.parent / "shared" / "real-data" / "spree_sample_products.csv"

ONE_RUN = """
import json, os, sys, time
from pathlib import Path
from workbench.read.loaders import load_bytes
from workbench.read.questions import parse_questions
from workbench.run import defaults
from workbench.run.staged import evaluate_in_stages
from workbench.core import limits

limits.MAX_MODEL_CHARACTERS = 10**12  # the run's memory is measured, whatever limit a commit had (an earlier refused)
document = load_bytes(Path(sys.argv[1]).read_bytes(), Path(sys.argv[1]).name)
asked = parse_questions(Path(sys.argv[2]).read_bytes(), "questions.csv")
if hasattr(defaults, "DEFAULTS"):  # --before a commit that had three lists instead of the one object
    settings = defaults.DEFAULTS.settings()
else:
    from workbench.core.model import Settings
    settings = Settings(defaults.DEFAULT_STRATEGIES, defaults.DEFAULT_RETRIEVERS, defaults.DEFAULT_RERANKERS,
                        threshold="auto")
began, seen = time.perf_counter(), [""]


def step(share, message):  # --steps: the peak so far at each new progress message, to see where it grows
    if message != seen[0] and os.environ.get("BENCH_STEPS"):
        seen[0] = message
        status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
        with open(os.environ["BENCH_STEPS"], "a") as out:
            out.write(f"{time.perf_counter() - began:7.1f} s  {share:4.2f}  VmHWM {status['VmHWM'].strip():>11}  "
                      f"VmRSS {status['VmRSS'].strip():>11}  {message}\\n")


result = evaluate_in_stages(document, asked, settings, progress=step)
print(json.dumps({f"{r.strategy}/{r.retriever}/{r.reranker}": r.counts for r in result.runs}))
"""


def run_once(code: Path, path: Path, questions: Path, cache: Path) -> dict:
    environment = os.environ | {"WORKBENCH_EMBEDDING_CACHE": str(cache), "PYTHONPATH": str(code)}
    if os.environ.get("BENCH_STEPS"):
        with open(os.environ["BENCH_STEPS"], "a") as out:
            out.write(f"-- {code.name} {path.name}\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", ONE_RUN, str(path), str(questions)], cwd=code, env=environment,
                          capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"the run of {path.name} failed:\n{done.stderr}")
    return {"peak_mb": after.ru_maxrss / 1024,  # the largest child so far: ``child`` makes this the only one
            "wall": wall, "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
            "grades": json.loads(done.stdout.strip().splitlines()[-1])}


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.read.questions import questions_to_csv

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--products", type=int, default=3000, help="products in the synthetic catalog (3,000: 0.9 MB)")
    parser.add_argument("--before", default="main", help="the commit to compare with")
    parser.add_argument("--skip-spree", action="store_true")
    parser.add_argument("--from-cache", type=Path, help="an embedding cache holding the file's vectors (see above)")
    parser.add_argument("--scale", type=Path, help="a real CSV export to scale up to --products instead (see above)")
    parser.add_argument("--now-only", action="store_true", help="run this checkout's code alone")
    parser.add_argument("--keep-cache", type=Path, help="keep this checkout's run's cache here")
    parser.add_argument("--steps", type=Path, help="write each run's peak so far at each progress message here")
    args = parser.parse_args()
    if args.steps:
        os.environ["BENCH_STEPS"] = str(args.steps.resolve())
    with tempfile.TemporaryDirectory() as folder:
        earlier = Path(folder) / "before"
        earlier.mkdir()
        archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(earlier)], input=archive, check=True)
        files = []
        if SPREE.is_file() and not args.skip_spree:
            files.append((SPREE, ROOT / "bench" / "questions" / "spree_sample_products.questions.csv"))
        if args.scale:
            catalog = Path(folder) / f"{args.scale.stem}_{args.products}.csv"
            catalog.write_bytes(scaled_export(args.scale.read_bytes(), args.products))
            questions = args.scale.with_name(f"{args.scale.stem}.questions.csv")
        else:
            catalog = Path(folder) / f"catalog_{args.products}.csv"
            catalog.write_bytes(catalog_csv(args.products, seed=26))
            questions = Path(folder) / "catalog.questions.csv"
            questions.write_text(questions_to_csv(catalog_questions(args.products, seed=26)), encoding="utf-8")
        files.append((catalog, questions))
        print(f"{'file':28} {'KB':>6} {'code':7} {'peak MB':>8} {'wall s':>7} {'CPU s':>7}")
        for path, asked in files:
            found = {}
            for label, code in (("before", earlier), ("now", ROOT))[1 if args.now_only else 0:]:
                cache = Path(folder) / f"{label}-{path.stem}.sqlite"
                if args.from_cache:
                    vectors_of(args.from_cache, cache)
                found[label] = child(code, path, asked, cache)
                if args.keep_cache and label == "now":
                    shutil.copyfile(cache, args.keep_cache)
                run = found[label]
                print(f"{path.name:28} {path.stat().st_size / 1024:6.0f} {label:7} {run['peak_mb']:8.0f} "
                      f"{run['wall']:7.1f} {run['cpu']:7.1f}", flush=True)
            if args.now_only:
                continue
            now, before = found["now"], found["before"]
            same = now["grades"] == before["grades"]
            print(f"{'':28} {'':6} {'ratio':7} {now['peak_mb'] / before['peak_mb']:8.2f} "
                  f"{now['wall'] / before['wall']:7.2f} {now['cpu'] / before['cpu']:7.2f}   "
                  f"grades {'identical' if same else 'DIFFER'} ({len(now['grades'])} setups)")
    return 0


def scaled_export(data: bytes, products: int, seed: int = 26) -> bytes:
    """A real CSV export's products repeated up to ``products``: copy 0 is the file as it is (its questions ask about
    it); each later copy names every product anew (name and SKU with the copy's number, the name also where its
    descriptions say it) and shuffles its long cells' sentences, so its pieces are texts of their own to the model,
    as a real export's different products are, not the first copy's read again from memory."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    header, body = rows[0], [row for row in rows[1:] if any(row)]
    name = next(i for i, title in enumerate(header) if title.strip().lower() in ("name", "nom", "title", "titel"))
    rng = random.Random(seed)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    made = copy = 0
    while made < products:
        for row in body:
            if made >= products:
                break
            if copy:
                old, new = row[name], f"{row[name]} {copy + 1}"
                row = [cell.replace(old, new) if old else cell for cell in row]
                row[0] = f"{row[0]}-{copy + 1}"
                row = [_shuffled(cell, rng) if len(cell) > 200 else cell for cell in row]
            writer.writerow(row)
            made += 1
        copy += 1
    return out.getvalue().encode("utf-8")


def _shuffled(text: str, rng: random.Random) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", text)
    rng.shuffle(sentences)
    return " ".join(sentences)


def vectors_of(source: Path, cache: Path) -> None:
    """A copy of ``source``'s embeddings without its maxsim columns, for one run."""
    with sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True) as reading, sqlite3.connect(cache) as copy:
        reading.backup(copy)
        copy.execute("DELETE FROM matches")
    copy.close()
    reading.close()


def child(code: Path, path: Path, questions: Path, cache: Path) -> dict:
    """One run in a process of its own, measured from a process of its own, so its peak is not an earlier run's."""
    measure = ("import json, sys; sys.path.insert(0, sys.argv[1]); from bench.memory import run_once; from pathlib "
               "import Path; print(json.dumps(run_once(*[Path(a) for a in sys.argv[2:]])))")
    done = subprocess.run([sys.executable, "-c", measure, str(ROOT), str(code), str(path), str(questions), str(cache)],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.exit(main())
