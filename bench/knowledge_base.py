"""A knowledge base against one file of the same size: does reading several files cost more than their text?

    python bench/knowledge_base.py                  # 1,000 products + two 20 KB pages, word searches
    python bench/knowledge_base.py --products 200   # a quick look

The base is the seeded synthetic catalog (``tests/synthetic.py``) as CSV plus two Markdown pages of about
20 KB each (policies and FAQ, made of numbered sections of plain sentences). The single file is the same text:
the catalog as the CSV reader renders it (one ``## product`` section each) followed by the two pages, as one
Markdown file, so both hold the same sections and facts. Each is evaluated three times in this process with
every lexical strategy x keyword, bm25 x none, heading (the model's searches are not run: their cost is the
texts embedded, which the base does not change), and the best time is kept. It prints both times, their ratio,
the cross-file check-up's time, and both runs' clean answers under heading/bm25.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def page(title: str, topic: str, size: int) -> str:
    """About ``size`` characters of Markdown: numbered sections of a few plain sentences."""
    lines, number = [f"# {title}", ""], 1
    while sum(len(line) + 1 for line in lines) < size:
        lines += [f"## {topic} {number}",
                  f"{topic} rule {number}: orders of type {number} are handled within {number % 9 + 1} working days.",
                  f"Ask the shop about case {number} by email; we answer every message in turn.", ""]
        number += 1
    return "\n".join(lines)


def timed(call, repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        began = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - began)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--products", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.advise.crossfile import cross_findings
    from workbench.core.model import Settings
    from workbench.cut import STRATEGIES
    from workbench.read.base_of_files import combine
    from workbench.read.loaders import load_bytes
    from workbench.read.markdown import parse_markdown
    from workbench.run.evaluate import evaluate

    catalog = load_bytes(catalog_csv(args.products), "catalog.csv")
    policies = parse_markdown(page("Store policies", "Policy", 20_000), "policies.md")
    faq = parse_markdown(page("Questions and answers", "Question", 20_000), "faq.md")
    base = combine([catalog, policies, faq])
    single = parse_markdown(base.text, "everything.md")  # the same text as one Markdown file
    questions = catalog_questions(args.products)
    strategies = [s for s in STRATEGIES.ids() if s != "section-window"]
    settings = Settings(strategies, ["keyword", "bm25"], ["none", "heading"])
    print(f"base: {len(base.text):,} characters, {len(base.sections):,} sections, {len(base.facts):,} facts; "
          f"one file: {len(single.text):,} characters, {len(single.sections):,} sections, {len(single.facts):,} facts")
    one_s, one = timed(lambda: evaluate(single, questions, settings), args.repeat)
    base_s, both = timed(lambda: evaluate(base, questions, settings), args.repeat)
    check_s, findings = timed(lambda: cross_findings(base), args.repeat)
    print(f"one file: {one_s:.2f} s; knowledge base: {base_s:.2f} s; ratio {base_s / one_s:.2f}")
    print(f"cross-file check-up: {check_s:.3f} s, {len(findings)} finding(s)")
    for name, evaluation in (("one file", one), ("knowledge base", both)):
        run = evaluation.run("heading", "bm25", "none")
        print(f"{name}: heading/bm25 {run.counts['clean']} clean of {run.answerable} answerable, "
              f"{len(evaluation.bad_questions)} not gradable")


if __name__ == "__main__":
    main()
