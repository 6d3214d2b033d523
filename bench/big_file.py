"""A 100,000-row CSV in the real app, in Debian's Chromium: do the pages answer, and does Stop stop?

    python bench/big_file.py                 # 100,000 rows; screenshots and figures in a temp folder
    python bench/big_file.py --rows 20000    # a smaller file, for a quick look

In one run it measures, from the click to the page's script finishing with its content drawn:
the Document page after the upload, the Cuts page and the Check-up page; then the Results page's estimate.
Then it starts a run and presses Stop at several moments (while cutting, mapping, searching), timing each
Stop until the page has ended the run; and it starts a run and closes the tab, timing until the server's
CPU falls idle. The history must hold no stopped run. Figures go to the notes as measured here.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from app_timing import FLAGS, STATE, start_app  # noqa: E402 - a script beside this one

LIMIT = 30.0  # seconds a page may take (the bar)
STOP_LIMIT = 5.0


def big_csv(rows: int) -> bytes:
    """Exactly ``rows`` data rows of the seeded synthetic catalog (1 to 3 rows a product)."""
    from tests.synthetic import COLUMNS, catalog_rows

    table = catalog_rows(rows // 2 + 1000)[:rows]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(table)
    return out.getvalue().encode("utf-8")


def idle(page, timeout: float = 600) -> None:
    """Wait for the page's script to start (briefly) and then finish."""
    try:
        page.wait_for_function(f"{STATE} === 'running'", timeout=1500)
    except Exception:  # noqa: BLE001 - a quick script may have finished before we looked
        pass
    page.wait_for_function(f"{STATE} !== 'running'", timeout=timeout * 1000)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its threads, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def seconds_until_idle(pid: int, limit: float = 120.0) -> float:
    """Seconds until the process uses under 10% of a core over half a second."""
    began = time.perf_counter()
    while time.perf_counter() - began < limit:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        if cpu_seconds(pid) - before < 0.05:
            return time.perf_counter() - began
    return float("inf")


def saved_runs(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]


def timed(label: str, figures: dict, action, done) -> float:
    began = time.perf_counter()
    action()
    done()
    seconds = time.perf_counter() - began
    figures[label] = seconds
    print(f"{label}: {seconds:.1f} s", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--stops", default="3,15,40", help="seconds after Run at which to press Stop")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="wb-big-file-"))
    path = folder / f"catalog_{args.rows}_rows.csv"
    path.write_bytes(big_csv(args.rows))
    print(f"{path.name}: {args.rows:,} rows, {path.stat().st_size / 1e6:.1f} MB; screenshots in {folder}", flush=True)
    os.environ["HOME"] = str(folder)  # the app's saved work and caches stay in this folder
    os.environ["XDG_DATA_HOME"] = str(folder / "data")
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    process, url = start_app(folder)
    history = folder / "h.sqlite"
    figures: dict[str, float] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.goto(url)
            expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=60000)
            idle(page)

            timed("Document page after the upload", figures,
                  lambda: page.locator("input[type=file]").first.set_input_files(str(path)),
                  lambda: (expect(page.get_by_text(f"What was read from {path.name}")).to_be_visible(timeout=600000),
                           idle(page)))
            page.screenshot(path=str(folder / "document.png"), full_page=True)
            timed("Cuts page", figures, lambda: page.get_by_role("link", name="Cuts").click(),
                  lambda: (expect(page.locator(".wb-cut").nth(1)).to_be_visible(timeout=600000), idle(page)))
            page.screenshot(path=str(folder / "cuts.png"))
            timed("Check-up page", figures, lambda: page.get_by_role("link", name="Check-up").click(),
                  lambda: (expect(page.get_by_text("Lines shared by several products")).to_be_visible(timeout=600000),
                           idle(page)))
            page.screenshot(path=str(folder / "checkup.png"), full_page=True)
            timed("Results page with its estimate", figures, lambda: page.get_by_role("link", name="Results").click(),
                  lambda: (expect(page.get_by_text("Estimated time")).to_be_visible(timeout=600000), idle(page)))
            print("  " + page.get_by_text("Estimated time").inner_text(), flush=True)
            page.screenshot(path=str(folder / "results_estimate.png"))

            for after in [float(s) for s in args.stops.split(",")]:
                page.get_by_role("button", name="Run the questions").click()
                expect(page.get_by_role("button", name="Stop")).to_be_visible(timeout=60000)
                page.wait_for_timeout(after * 1000)
                if not page.get_by_role("button", name="Stop").count():  # the run finished first: nothing to stop
                    print(f"Stop at {after:.0f} s: the run had already finished", flush=True)
                    continue
                progress = page.get_by_test_id("stProgress").inner_text() if page.get_by_test_id("stProgress").count() else ""
                page.screenshot(path=str(folder / f"running_{after:.0f}s.png"))
                timed(f"Stop pressed {after:.0f} s into a run ({progress.strip()[:70]})", figures,
                      lambda: page.get_by_role("button", name="Stop").click(),
                      lambda: (expect(page.get_by_text("You stopped the run")).to_be_visible(timeout=600000),
                               idle(page)))
            page.screenshot(path=str(folder / "stopped.png"))

            page.get_by_role("button", name="Run the questions").click()
            expect(page.get_by_role("button", name="Stop")).to_be_visible(timeout=60000)
            page.wait_for_timeout(10000)
            busy = cpu_seconds(process.pid)
            time.sleep(1)
            print(f"  server CPU while running: {cpu_seconds(process.pid) - busy:.2f} s per second", flush=True)
            page.close()
            figures["tab closed: server idle after"] = seconds_until_idle(process.pid)
            print(f"tab closed mid-run: server CPU idle within {figures['tab closed: server idle after']:.1f} s", flush=True)
            browser.close()
        runs = saved_runs(history)
        print(f"runs saved to the history: {runs} (every run here was stopped, so 0 is right)")
        slow = [label for label, seconds in figures.items() if "Stop" not in label and "tab" not in label
                and "Results" not in label and seconds > LIMIT]
        late = [label for label, seconds in figures.items() if ("Stop" in label or "tab" in label) and seconds > STOP_LIMIT]
        print("pages within 30 s:", "yes" if not slow else f"NO: {slow}")
        print("Stop within 5 s:", "yes" if not late else f"NO: {late}")
    finally:
        process.terminate()


if __name__ == "__main__":
    main()
