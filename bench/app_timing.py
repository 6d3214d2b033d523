"""Time the app as a person uses it, in Debian's Chromium: Run to charts, and the Cuts page on a big catalog.

    python bench/app_timing.py               # the sample, cold then again; then 500 and 1,000 products on Cuts

Starts the app on a free local port with a fresh embedding cache, so the first Run loads the model.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


def start_app(folder: Path, port: int | None = None, root: Path = ROOT) -> tuple[subprocess.Popen, str]:
    """The app of checkout ``root`` on ``port`` (a free one by default), its cache, history and workspace in
    ``folder``, so a benchmark never reads or writes the user's own."""
    if port is None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
    env = {**os.environ, "WORKBENCH_EMBEDDING_CACHE": str(folder / "e.sqlite"),
           "WORKBENCH_HISTORY_DB": str(folder / "h.sqlite"), "WORKBENCH_WORKSPACE_DB": str(folder / "w.sqlite")}
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.headless", "true"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=2)
            return process, url
        except OSError:
            time.sleep(0.3)
    process.terminate()
    raise SystemExit("the app did not start")


STATE = "document.querySelector('[data-testid=stApp]').getAttribute('data-test-script-state')"


def settle(page) -> None:
    """Wait until the page's script is not running (after a widget change, give it a moment to start)."""
    page.wait_for_timeout(300)
    page.wait_for_function(f"{STATE} !== 'running'", timeout=300000)


def add_option(page, label: str, value: str) -> None:
    settle(page)
    page.wait_for_timeout(1500)
    box = page.get_by_role("combobox", name=label)
    if not box.is_visible():
        page.get_by_text("Settings", exact=True).click()
    box.click()
    page.keyboard.type(value, delay=50)
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    settle(page)


def main() -> None:
    from tests.synthetic import catalog_csv

    folder = Path(tempfile.mkdtemp(prefix="wb-app-timing-"))
    catalogs = []
    for products in (500, 1000):
        path = folder / f"catalog_{products}.csv"
        path.write_bytes(catalog_csv(products))
        catalogs.append(path)
    process, url = start_app(folder)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1400})
            page.goto(url)
            expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=60000)
            page.get_by_role("link", name="Results").click()
            expect(page.locator(".js-plotly-plot").nth(2)).to_be_visible(timeout=120000)
            add_option(page, "Search", "Meaning-based")
            add_option(page, "Re-check the top pieces", "word by word")
            settle(page)
            for chip in ("Meaning-based search", "Re-checked word by word for meaning"):
                if not page.get_by_text(chip, exact=True).first.is_visible():
                    page.screenshot(path=str(folder / "settings.png"))
                    raise SystemExit(f"could not choose {chip!r}; see {folder / 'settings.png'}")
            for label in ("cold: the model loads and every piece is embedded", "again: the same settings"):
                settle(page)
                before = page.get_by_text(re.compile(r"took [0-9.]+ s")).inner_text()
                started = time.perf_counter()
                page.get_by_role("button", name="Run the questions").click()
                try:
                    page.wait_for_function(f"{STATE} === 'running'", timeout=3000)
                except Exception:  # noqa: BLE001 - a click during a rerun can be lost: press again
                    started = time.perf_counter()
                    page.get_by_role("button", name="Run the questions").click()
                # Done when the run's own timing line is new and the charts are drawn.
                expect(page.get_by_text(re.compile(r"took [0-9.]+ s"))).not_to_have_text(before, timeout=300000)
                expect(page.locator(".js-plotly-plot").nth(2)).to_be_visible(timeout=300000)
                print(page.get_by_text(re.compile(r"took [0-9.]+ s")).inner_text(), end=" ")
                print(f"sample, Run to charts, {label}: {time.perf_counter() - started:.2f} s")
            for path in catalogs:
                page.get_by_role("link", name="Document").click()
                page.locator("input[type=file]").first.set_input_files(str(path))
                expect(page.get_by_text("What was read from")).to_be_visible(timeout=60000)
                settle(page)
                started = time.perf_counter()
                page.get_by_role("link", name="Cuts").click()
                expect(page.locator(".wb-cut").nth(1)).to_be_visible(timeout=60000)
                shown = time.perf_counter() - started
                pieces = page.get_by_test_id("stMetricValue").first
                before = pieces.inner_text()
                page.get_by_role("slider").first.focus()
                started = time.perf_counter()
                page.keyboard.press("ArrowRight")  # 10 characters larger: the fixed windows' count changes
                expect(pieces).not_to_have_text(before, timeout=60000)
                print(f"{path.name}: Cuts page {shown:.2f} s, a slider step re-cuts in {time.perf_counter() - started:.2f} s")
            browser.close()
    finally:
        process.terminate()


if __name__ == "__main__":
    main()
