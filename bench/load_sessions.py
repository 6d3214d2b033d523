"""Several shop owners on one app at once: each uploads a file and runs the questions, in Debian's Chromium.

    python bench/load_sessions.py                 # one session alone, then five at once
    python bench/load_sessions.py --sessions 3 --port 8620

Each session has its own browser and its own small price list (``shop_K.csv``, products named for it), uploads it
on the Document page, opens Results and waits for the first verdict (word search), then presses **Run the
questions** and waits for the finished results. Timed from the upload to each. Every session must get both for
its own file, and no page it saw after its upload may name another session's file or products (the check prints
any it finds). The same steps run first in one session alone; the figures are the concurrent sessions' times as
ratios to that one. The app's cache, history and saved work are in a folder of their own (``app_timing.start_app``).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_timing import STATE, start_app  # noqa: E402 - a script beside this one

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]
WORDS = ("Alpha", "Bravo", "Cobalt", "Delta", "Ember", "Fjord", "Garnet", "Harbor", "Indigo", "Juniper")
VERDICT = re.compile(r"^(Ready|Looks ready|Needs work|Not ready) — ")
WAIT = 900_000  # ms: five runs on two shared cores


def shop(folder: Path, number: int) -> Path:
    """A price list of four products whose names belong to this session alone."""
    word = WORDS[number % len(WORDS)]
    path = folder / f"shop_{number}.csv"
    path.write_text(
        "Name,Price,Warranty,Colour\n"
        f"{word} Lamp,{10 + number}.00,1 year,White\n{word} Chair,{25 + number}.00,2 years,Oak\n"
        f"{word} Desk,{99 + number}.00,3 years,Black\n{word} Shelf,{45 + number}.00,5 years,Walnut\n",
        encoding="utf-8",
    )
    return path


def others_seen(page, own: int, count: int) -> list[str]:
    """Names of other sessions' files or products on this page."""
    text = page.locator("body").inner_text()
    return [name for other in range(count) if other != own
            for name in (f"shop_{other}.csv", f"{WORDS[other % len(WORDS)]} Lamp") if name in text]


def idle(page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_function(f"{STATE} !== 'running'", timeout=WAIT)


def session(url: str, path: Path, number: int, count: int, start: threading.Barrier | None, out: dict) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.goto(url)
            expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=WAIT)
            idle(page)
            if start is not None:
                start.wait()  # every session's upload at the same moment
            began = time.perf_counter()
            page.locator("input[type=file]").first.set_input_files(str(path))
            expect(page.get_by_text(f"What was read from {path.name}")).to_be_visible(timeout=WAIT)
            idle(page)
            seen = others_seen(page, number, count)
            page.get_by_test_id("stSidebarNav").get_by_role("link", name="Results", exact=True).click()
            verdict = page.locator("[data-testid=stAlert]").filter(has_text=VERDICT)
            expect(verdict.first).to_contain_text(f"— {path.name}:", timeout=WAIT)
            first = time.perf_counter() - began
            idle(page)
            seen += others_seen(page, number, count)
            page.get_by_role("button", name="Run the questions").click()
            done = page.get_by_text(re.compile(rf"^Results for {re.escape(path.name)} with \d+ questions?\.$"))
            expect(done.first).to_be_visible(timeout=WAIT)
            expect(verdict.first).to_contain_text(f"— {path.name}:", timeout=WAIT)
            idle(page)
            finished = time.perf_counter() - began
            seen += others_seen(page, number, count)
            out[number] = {"verdict": first, "finished": finished, "others": sorted(set(seen)),
                           "status": verdict.first.inner_text().split(" — ")[0]}
        except Exception as error:  # noqa: BLE001 - reported in the table: a session that got no verdict
            out[number] = {"error": f"{type(error).__name__}: {str(error).splitlines()[0][:160]}"}
        finally:
            browser.close()


def together(url: str, paths: list[Path]) -> dict[int, dict]:
    out: dict[int, dict] = {}
    start = threading.Barrier(len(paths))
    threads = [threading.Thread(target=session, args=(url, path, number, len(paths), start, out))
               for number, path in enumerate(paths)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--port", type=int)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="wb-load-"))
    paths = [shop(folder, number) for number in range(args.sessions + 1)]
    process, url = start_app(folder, args.port)
    try:
        alone: dict[int, dict] = {}
        session(url, paths[-1], len(paths) - 1, len(paths), None, alone)  # its own file: the warm-up and the base
        base = alone[len(paths) - 1]
        if "error" in base:
            raise SystemExit(f"one session alone failed: {base['error']}")
        print(f"one session alone: first verdict {base['verdict']:.1f} s, finished {base['finished']:.1f} s "
              f"({base['status']})", flush=True)
        many = together(url, paths[:-1])
    finally:
        process.terminate()
        process.wait(timeout=30)
    print("\n| session | first verdict (s) | ratio | finished (s) | ratio | status | others' files seen |")
    print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    for number in sorted(many):
        result = many[number]
        if "error" in result:
            print(f"| shop_{number}.csv | - | - | - | - | {result['error']} | - |")
            continue
        print(f"| shop_{number}.csv | {result['verdict']:.1f} | {result['verdict'] / base['verdict']:.2f} | "
              f"{result['finished']:.1f} | {result['finished'] / base['finished']:.2f} | {result['status']} | "
              f"{', '.join(result['others']) or 'none'} |")
    good = [r for r in many.values() if "error" not in r]
    if good:
        print(f"\nmedian ratio to one session alone: first verdict "
              f"{statistics.median(r['verdict'] for r in good) / base['verdict']:.2f}, finished "
              f"{statistics.median(r['finished'] for r in good) / base['finished']:.2f}; worst "
              f"{max(r['verdict'] for r in good) / base['verdict']:.2f} and "
              f"{max(r['finished'] for r in good) / base['finished']:.2f}; "
              f"{len(good)} of {len(many)} sessions got their verdict, "
              f"{sum(bool(r['others']) for r in good)} saw another's file")


if __name__ == "__main__":
    main()
