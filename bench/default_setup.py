"""The app's default setups, timed as a user meets them: first verdict, complete result, and the model's bound.

    python bench/default_setup.py                 # the Spree export and a 1,000-product synthetic catalog
    python bench/default_setup.py --products 300  # a smaller synthetic catalog
    python bench/default_setup.py --real-data     # every real file with a question set, and the catalog

Each file is run twice, each time in a fresh Python process with one embedding cache of its own: cold (the
cache empty, the model loaded by the run) and warm (the cache filled by the cold run). A run is the staged
evaluation the Results page makes (``run/staged.py``) of ``run/defaults.py``'s cuts, searches and re-checks,
with the fitted threshold (``run.defaults.DEFAULTS``, as the app and ``evaluate`` with no setup flags). Reported
per run, with the verdict it reaches (status and recommended setup, the same as theirs):

- first verdict: seconds from the start until the word-search stage was handed over (what Results shows first);
- complete: seconds until the whole grid was graded;
- texts and word pieces the model read (each text's pieces, its two special tokens included, as the model
  reads them: at most its ``max_seq_length``);
- the bound (cold only): those word pieces at the torch path's speed measured in the same process right after
  the run (the same texts read again straight through sentence-transformers, batches of 64, sorted by length:
  how the app read them before ``encode/bert.py``, loaded after the clock stopped), and complete / bound. Warm reads nothing, so its figure is warm / cold.
  A file is read by its own model, as the app and ``evaluate`` choose it (E5 outside English); the bound is
  MiniLM's only, so an E5 file has none.

"cold*" is cold again, in a process that imported the model's libraries and loaded its weights before the clock
started: what a file new to a server that has run the model before costs (the app's server pays those ~8 s once).
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
SPREE = REAL_DATA / "spree_sample_products.csv"

ONE_RUN = """
import json, sys, time
if sys.argv[5] == "1":  # as in a server that has run the model before: its libraries imported, its weights loaded
    from workbench.encode.embedding import get_encoder
    get_encoder().model
began = time.perf_counter()
from pathlib import Path
from workbench.encode.embedding import get_encoder
from workbench.read.loaders import load_bytes
from workbench.read.questions import parse_questions
from workbench.advise.verdict import assess
from workbench.run.staged import evaluate_in_stages
from default_setup import run_settings  # this script's own: the settings the app and the command line start from

data, questions, name, bound = Path(sys.argv[1]).read_bytes(), Path(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
document = load_bytes(data, name)
asked = parse_questions(questions.read_bytes(), questions.name)
settings = run_settings()
from workbench.encode.multilingual import encoder_factory_for
encoder = encoder_factory_for(document)()  # the file's model, as the app and the command line choose it (E5 outside English)
read = []
own = encoder._encode
encoder._encode = lambda texts: read.extend(texts) or own(texts)
stages = []
result = evaluate_in_stages(document, asked, settings, encoder_factory=lambda: encoder,
                            on_stage=lambda partial: stages.append(time.perf_counter() - began))
complete = time.perf_counter() - began
limit = encoder.window + 2
encoded = (encoder.tokenizer.encode_batch(read, add_special_tokens=True) if encoder is get_encoder()
           else map(encoder.tokenizer.encode, read))
pieces = sum(min(len(p.ids), limit) for p in encoded)
speed = None
if bound and read and encoder is get_encoder():  # the bound is MiniLM's torch path
    from sentence_transformers import SentenceTransformer  # the torch path the bound is held to: loaded after the run
    reference = SentenceTransformer(str(encoder.path), device="cpu", local_files_only=True)
    texts = sorted(read, key=len)
    start = time.perf_counter()
    reference.encode(texts, batch_size=64, show_progress_bar=False)
    speed = pieces / (time.perf_counter() - start)
verdict = assess(result)
best = verdict.recommended
print(json.dumps({"first": stages[0], "complete": complete, "texts": len(read), "pieces": pieces, "speed": speed,
                  "load": encoder.load_seconds, "runs": len(result.runs), "status": verdict.status,
                  "setup": None if best is None else f"{best.strategy} / {best.retriever} / {best.reranker}"}))
"""


def run_settings():
    """What a run grades: ``run.defaults.DEFAULTS``, the object the app's Results page and the command line's
    ``evaluate`` start from (read when called, so a test that replaces it reaches the benchmark too)."""
    from workbench.run import defaults

    return defaults.DEFAULTS.settings()


def run_once(path: Path, questions: Path, cache: Path, bound: bool, loaded: bool = False) -> dict:
    environment = os.environ | {"WORKBENCH_EMBEDDING_CACHE": str(cache),
                                "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "bench")))}
    done = subprocess.run([sys.executable, "-c", ONE_RUN, str(path), str(questions), path.name, "1" if bound else "0",
                           "1" if loaded else "0"],
                          env=environment, capture_output=True, text=True)
    if done.returncode:  # the run's own traceback, not only its exit status
        raise SystemExit(f"the run of {path.name} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.read.questions import questions_to_csv

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--products", type=int, default=1000, help="products in the synthetic catalog")
    parser.add_argument("--skip-spree", action="store_true")
    parser.add_argument("--real-data", action="store_true",
                        help="every file of ../shared/real-data with its question set in bench/questions, not only Spree")
    args = parser.parse_args()
    settings = run_settings()
    print(f"default: {', '.join(settings.strategies)} x {', '.join(settings.retrievers)} x "
          f"{', '.join(settings.rerankers)}, threshold {settings.threshold}")
    with tempfile.TemporaryDirectory() as folder:
        files = []
        if args.real_data:
            files += [(path, ROOT / "bench" / "questions" / f"{path.stem}.questions.csv")
                      for path in sorted(REAL_DATA.glob("*.*"))
                      if (ROOT / "bench" / "questions" / f"{path.stem}.questions.csv").is_file()]
        elif SPREE.is_file() and not args.skip_spree:
            files.append((SPREE, ROOT / "bench" / "questions" / "spree_sample_products.questions.csv"))
        elif not args.skip_spree:
            print(f"{SPREE} is absent: the Spree export is skipped")
        catalog = Path(folder) / f"catalog_{args.products}.csv"
        catalog.write_bytes(catalog_csv(args.products, seed=26))
        catalog_q = Path(folder) / f"catalog_{args.products}.questions.csv"
        catalog_q.write_text(questions_to_csv(catalog_questions(args.products, seed=26)), encoding="utf-8")
        files.append((catalog, catalog_q))
        print(f"{'file':32} {'run':5} {'first verdict':>13} {'complete':>9} {'texts':>7} {'word pieces':>11} "
              f"{'pieces/s':>9} {'bound':>7} {'complete/bound':>14} {'warm/cold':>9}  verdict")
        for path, questions in files:
            cache = Path(folder) / f"{path.stem}.sqlite"
            cold = run_once(path, questions, cache, bound=True)
            warm = run_once(path, questions, cache, bound=False)
            for label, run in (("cold", cold), ("cold*", run_once(path, questions, Path(folder) / "again.sqlite",
                                                                  bound=True, loaded=True))):
                bound = run["pieces"] / run["speed"] if run["speed"] else 0.0
                print(f"{path.name if label == 'cold' else '':32} {label:5} {run['first']:12.1f}s "
                      f"{run['complete']:8.1f}s {run['texts']:7,} {run['pieces']:11,} {run['speed'] or 0:9,.0f} "
                      f"{bound:6.1f}s {run['complete'] / bound if bound else float('nan'):14.2f} {'':9}  "
                      f"{run['status']}, {run['setup']}")
                (Path(folder) / "again.sqlite").unlink(missing_ok=True)
            print(f"{'':32} {'warm':5} {warm['first']:12.1f}s {warm['complete']:8.1f}s {warm['texts']:7,} "
                  f"{warm['pieces']:11,} {'':9} {'':7} {'':14} {warm['complete'] / cold['complete']:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
