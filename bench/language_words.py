"""Word search in the document's language: clean answers read with English rules (as before) against its own.

    python bench/language_words.py                         # the German terms in tests/data, every word reading
    python bench/language_words.py DOC.md QUESTIONS.csv …  # other files, in pairs
    python bench/language_words.py --paths DIR             # with candidates installed by pip --target (compound-split)

For each file it runs keyword and BM25 search (no re-check and the heading re-check) under the cuts that keep a
section whole (heading, paragraph, breadcrumb, section-window), and prints the best clean answers and hit@5 of
each way of reading the words: English rules (what every file got before), the detected language's Snowball stems
and ``stop-words`` list (what the workbench does now), the same with the larger ``stopwordsiso`` list, without
folding accents, and German compound words split by ``compound-split`` (when installed) into their parts too.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WRITTEN = ROOT / "tests" / "data" / "written"
STRATEGIES = ["heading", "paragraph", "breadcrumb", "section-window"]


def candidate(name: str):
    """A candidate's module, or None: measured here, not required (install with pip --target, name with --paths)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def readings(languages: tuple[str, ...]):
    """Each way of reading the words measured: a name and an analyzer."""
    import functools

    from workbench.core.words import ENGLISH, Analyzer, fold_accents, tokenize

    found = {"English rules (before)": ENGLISH, "its language (now)": Analyzer(languages)}
    stopwordsiso = candidate("stopwordsiso")
    if stopwordsiso is not None:
        iso = Analyzer(languages)
        words = {w.lower() for code in languages for w in stopwordsiso.stopwords(code)}
        iso.stop_words = frozenset(words | {fold_accents(w) for w in words})
        found["stopwordsiso's stop words"] = iso
    plain = Analyzer(languages)
    plain.folds = False
    found["accents kept"] = plain
    char_split = candidate("compound_split.char_split") if languages[0] == "de" else None
    if char_split is not None:
        split = Analyzer(languages)

        @functools.lru_cache(maxsize=1 << 16)
        def parts(token: str) -> tuple[str, ...]:
            best = char_split.split_compound(token)[0] if len(token) > 7 else None
            return (token,) if not best or best[0] < 0.5 else (token, best[1].lower(), best[2].lower())

        def split_terms(text: str) -> tuple[str, ...]:
            return tuple(split.stem(p) for token in tokenize(text) if token not in split.stop_words
                         for p in parts(token) if p not in split.stop_words)

        split._terms = functools.lru_cache(maxsize=1 << 16)(split_terms)
        split.question_terms = functools.lru_cache(maxsize=4096)(lambda q: tuple(dict.fromkeys(split_terms(q))))
        found["compound words split too"] = split
    return found


def main() -> int:
    import workbench.run.evaluate as evaluate_module
    from workbench.core.model import Settings
    from workbench.grade.metrics import hit_at
    from workbench.read.language import document_languages
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--paths", nargs="*", default=[])
    args = parser.parse_args()
    sys.path[:0] = args.paths
    files = args.files or [WRITTEN / "shop_terms_de.md", WRITTEN / "shop_terms_de.questions.csv"]
    settings = Settings(strategies=STRATEGIES, retrievers=["keyword", "bm25"], rerankers=["none", "heading"])
    for document_path, questions_path in zip(files[::2], files[1::2]):
        document = load_path(document_path)
        questions = parse_questions(questions_path.read_bytes(), questions_path.name)
        languages = document_languages(document)
        print(f"{document_path.name}: {len(questions)} questions; languages found: {languages}")
        for name, analyzer in readings(languages).items():
            evaluate_module.analyzer_for = lambda document, questions, chosen=analyzer: chosen
            evaluation = evaluate_module.evaluate(document, questions, settings)
            answerable = sum(1 for q in evaluation.questions if q.section_id)

            def clean(run) -> int:
                return run.counts["clean"]

            def found(run) -> int:
                return sum(int(hit_at(r.relevant_ranks, 5)) for r in run.per_question if r.answerable)

            best = max(evaluation.runs, key=lambda run: (clean(run), found(run)))
            bm25 = max((run for run in evaluation.runs if run.retriever == "bm25"), key=lambda run: (clean(run), found(run)))
            print(f"  {name}: best {clean(best)}/{answerable} clean, {found(best)} in the top 5 ({best.strategy}, "
                  f"{best.retriever}, {best.reranker}); bm25's best {clean(bm25)} clean, {found(bm25)} in the top 5")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
