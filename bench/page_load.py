"""Time each page of the app as a person opens it, in Debian's Chromium at 1366 x 900.

    python bench/page_load.py                 # the sample, then the 211-row Spree export, 3 rounds each
    python bench/page_load.py --files sample,spree,catalog --rounds 5 --port 8615

For every page, from the click on its link in the sidebar: *first paint* is when the page's own title is on
screen, *done* when its script has finished (Streamlit's script state is no longer "running"). The first
round opens the app in a new tab (the server has just started), so it includes every cache's first fill; the
median of the others is a page opened again. Four ways of cutting are chosen on Cuts (``FOUR``), as a shop owner
comparing a few would. The Spree export is the real 211-row product CSV (``--spree``, from ../shared/real-data)
with its golden questions from bench/questions; the catalog is `tests/synthetic.py`'s, 100 products with their
variant rows (about 200 rows), with 60 of its golden questions. Each file is uploaded on the Document page and
its questions imported on the Questions page.
Word search only: the language model is never loaded (it is timed by bench/app_timing.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_timing import STATE, start_app  # noqa: E402 - a script beside this one

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]
FOUR = ["fixed", "heading", "concern", "langchain-recursive-1000"]  # the ways of cutting on Cuts
SPREE = next((folder / "spree_sample_products.csv" for folder in (ROOT.parent / "shared" / "real-data",
              Path("/work/shared/real-data")) if (folder / "spree_sample_products.csv").exists()),
             ROOT.parent / "shared" / "real-data" / "spree_sample_products.csv")
PAGES = {  # the sidebar link -> the page's own title
    "Document": "Your document",
    "Cuts": "How each strategy cuts your document",
    "Questions": "Golden questions",
    "Results": "Is your file ready for a bot?",
    "Compare & report": "Compare, refuse, report",
    "Check-up": "Check-up: is your file ready for a bot?",
}



def idle(page, timeout: float = 300000) -> None:
    page.wait_for_timeout(200)
    page.wait_for_function(f"{STATE} !== 'running'", timeout=timeout)


def open_page(page, link: str) -> tuple[float, float]:
    """Seconds from the click to the page's title on screen, and to its script finished."""
    started = time.perf_counter()
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=link, exact=True).click()
    expect(page.locator("h1").filter(has_text=PAGES[link])).to_be_visible(timeout=300000)
    painted = time.perf_counter() - started
    idle(page)
    return painted, time.perf_counter() - started


def load_file(page, data: Path, questions: Path) -> None:
    """Upload ``data`` on the Document page and import ``questions`` on the Questions page (replacing the table)."""
    open_page(page, "Document")
    page.locator("input[type=file]").first.set_input_files(str(data))
    expect(page.get_by_text(f"What was read from {data.name}")).to_be_visible(timeout=120000)
    idle(page)
    open_page(page, "Questions")
    page.get_by_text("replace the table").click()
    idle(page)
    page.locator("input[type=file]").first.set_input_files(str(questions))
    expect(page.get_by_text(f"from {questions.name}").first).to_be_visible(timeout=120000)
    idle(page)


def catalog_files(folder: Path) -> tuple[Path, Path]:
    from tests.synthetic import catalog_csv, catalog_questions
    from workbench.read.questions import questions_to_csv

    data = folder / "catalog_200_rows.csv"
    data.write_bytes(catalog_csv(100))
    questions = folder / "catalog.questions.csv"
    questions.write_text(questions_to_csv(catalog_questions(100, 60)), encoding="utf-8")
    return data, questions


def seed_four_cuts(folder: Path) -> None:
    """The workspace the app opens on: four ways of cutting chosen on Cuts."""
    from workbench.store.workspace import Workspace

    workspace = Workspace(folder / "w.sqlite")
    settings = workspace.preference("settings", {}) or {}
    workspace.set_preference("settings", {**settings, "cut_strategies": FOUR})
    workspace.close()


def measure(rounds: int, port: int | None, root: Path, files: list[str],
            spree: Path) -> dict[str, dict[str, list[tuple[float, float]]]]:
    folder = Path(tempfile.mkdtemp(prefix="wb-page-load-"))
    seed_four_cuts(folder)
    process, url = start_app(folder, port, root)
    times: dict[str, dict[str, list[tuple[float, float]]]] = {which: {} for which in files}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            started = time.perf_counter()
            page.goto(url)
            expect(page.locator("h1").filter(has_text="Your document")).to_be_visible(timeout=300000)
            print(f"a new tab on a fresh server: first paint {time.perf_counter() - started:.2f} s", flush=True)
            idle(page)
            for which in files:
                if which == "catalog":
                    load_file(page, *catalog_files(folder))
                elif which == "spree":
                    load_file(page, spree, ROOT / "bench" / "questions" / "spree_sample_products.questions.csv")
                for _ in range(rounds):
                    for link in PAGES:
                        times[which].setdefault(link, []).append(open_page(page, link))
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int)
    parser.add_argument("--root", type=Path, default=ROOT, help="the app's folder (another checkout to compare)")
    parser.add_argument("--files", default="sample,spree", help="which files, in order: sample, spree, catalog")
    parser.add_argument("--spree", type=Path, default=SPREE, help="the Spree export (211 rows)")
    args = parser.parse_args()
    times = measure(args.rounds, args.port, args.root, args.files.split(","), args.spree)
    print(f"{'file':8} {'page':17} {'first open':>22} {'again (median)':>22}")
    for which, pages in times.items():
        for link, runs in pages.items():
            first = runs[0]
            again = (statistics.median(p for p, _ in runs[1:]), statistics.median(d for _, d in runs[1:])) \
                if len(runs) > 1 else first
            print(f"{which:8} {link:17} {first[0]:6.2f} s / {first[1]:6.2f} s   {again[0]:6.2f} s / {again[1]:6.2f} s")
    print("(first paint / done)")


if __name__ == "__main__":
    main()
