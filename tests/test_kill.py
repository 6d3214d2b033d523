"""The process killed outright (kill -9) while it saves the user's work or while a run is going: reopened, the
last work it reported saved is all there, byte for byte, and nothing is half-written.

Real processes, really killed at random points: a writer saving documents, question sets and a setting in a
loop (each about 1 MB, so a kill often lands inside a write), the command line's evaluate killed mid-run
after one run was saved to its history, and the app's server killed while the model's run is going.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.core.model import Question
from workbench.store.history import History
from workbench.store.workspace import Workspace, file_key

from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS

# Saves item after item, and says so on stdout once each item's writes have returned.
WRITER = """
import sys
from workbench.core.model import Question
from workbench.store.workspace import Workspace

workspace = Workspace(sys.argv[1])
i = 0
while True:
    data = (f"name,price\\nFan {i},{i}\\n" + "#" * (1 << 20)).encode()
    key = workspace.open_document(f"prices-{i}.csv", data)
    workspace.save_questions(key, f"prices-{i}.csv", [Question(f"Price of Fan {i}?", f"Fan {i}", str(i))] * 200)
    workspace.set_preference("last saved", i)
    print(i, flush=True)
    i += 1
"""


def _data(i: int) -> bytes:
    return (f"name,price\nFan {i},{i}\n" + "#" * (1 << 20)).encode()


def _intact(path) -> None:
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        connection.close()


@pytest.mark.parametrize("seed", range(6))
def test_the_workspace_killed_while_saving_keeps_the_last_saved_work_whole(tmp_path, seed):
    chance = random.Random(seed)
    path = tmp_path / "workspace.sqlite"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    wanted = chance.randint(1, 6)  # items saved before the kill
    saved = []
    try:
        while len(saved) < wanted:
            line = writer.stdout.readline()
            assert line, "the writer stopped on its own"
            saved.append(int(line))
        time.sleep(chance.uniform(0, 0.3))  # somewhere inside the next item's writes, or between them
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
    saved += [int(line) for line in writer.stdout.read().split()]  # reported before the kill, still in the pipe
    writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL
    _intact(path)
    workspace = Workspace(path)
    try:
        last = saved[-1]
        key = file_key(_data(last))
        stored = workspace.document(key)
        assert stored is not None and stored.data == _data(last) and stored.name == f"prices-{last}.csv"
        questions = workspace.questions_for(key, f"prices-{last}.csv")
        assert questions is not None and questions.questions == [Question(f"Price of Fan {last}?", f"Fan {last}",
                                                                          str(last))] * 200
        # The setting is the last one saved, or the next item's when the kill came after that write.
        assert workspace.preference("last saved") in (last, last + 1)
        for earlier in saved[-3:]:  # every document it reported is whole (20 are kept: these are all)
            document = workspace.document(file_key(_data(earlier)))
            assert document is not None and document.data == _data(earlier)
    finally:
        workspace.close()


@pytest.mark.slow
def test_a_run_killed_midway_leaves_the_history_and_the_saved_runs_whole(tmp_path):
    """One evaluate saved to the history; a second killed while it works: the history opens, holds the first run
    exactly as before the kill, and no half of the second."""
    history = tmp_path / "history.sqlite"
    args = [sys.executable, "-m", "workbench", "evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS),
            "--db", str(history), "--strategies", "heading,fixed,paragraph", "--retrievers", "keyword",
            "--rerankers", "none"]
    env = {**os.environ, "WORKBENCH_EMBEDDING_CACHE": str(tmp_path / "cache.sqlite")}
    started = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True, timeout=600)
    took = time.perf_counter() - started  # the kills land at shares of it: fixed delays outran a faster run
    before = History(history)
    try:
        first = before.series(SAMPLE_MD.name)
    finally:
        before.close()
    assert first, "the first run was not saved"
    killed = 0
    for share in (0.2, 0.5, 0.8):  # while the file is read, while it is cut and graded, and near the end
        run = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(share * took)
        if run.poll() is None:
            os.kill(run.pid, signal.SIGKILL)
        run.wait()
        killed += run.returncode == -signal.SIGKILL
        _intact(history)
        after = History(history)
        try:
            series = after.series(SAMPLE_MD.name)
        finally:
            after.close()
        assert series[: len(first)] == first  # the saved run exactly as it was
        runs: dict[int, list[dict]] = {}
        for row in series:
            runs.setdefault(row["run"], []).append(row)
        # A run that finished before its kill is there with all its configurations; none is there in part.
        assert all(len(rows) == len(first) for rows in runs.values()), [len(rows) for rows in runs.values()]
    assert killed >= 1, "no kill landed while a run was going"


SHOP = "Name,Price,Warranty,Colour\nAlpha Lamp,10.00,1 year,White\nBeta Chair,25.00,2 years,Oak\nGamma Desk,99.00,3 years,Black\n"


def _app(data, port: int) -> subprocess.Popen:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "WORKBENCH_WORKSPACE_DB": str(data / "workspace.sqlite"),
           "WORKBENCH_HISTORY_DB": str(data / "history.sqlite"), "WORKBENCH_EMBEDDING_CACHE": "off"}
    return subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@contextlib.contextmanager
def _served(data: Path):
    """The app started on ``data`` and a Chromium page opened on it; the server stopped after, if still running."""
    from playwright.sync_api import sync_playwright

    from .serving import wait_until_healthy
    from .test_browser import FLAGS, free_port

    port = free_port()
    app = _app(data, port)
    url = f"http://localhost:{port}"
    try:
        wait_until_healthy(url, app)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS, headless=True)
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.goto(url)
            yield app, page
            browser.close()
    finally:
        if app.poll() is None:
            app.terminate()
            app.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's chromium")
def test_the_app_killed_during_a_run_reopens_on_the_work_saved_before(tmp_path):
    """The app's server killed with SIGKILL while the language model's run is going (no cache: every text is read
    by the model, a run long enough to kill): started again, it opens on the owner's file and its questions, and
    the saved work is whole."""
    from playwright.sync_api import expect

    shop = tmp_path / "shop.csv"
    shop.write_text(SHOP, encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    with _served(data) as (app, page):
        expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=120000)
        page.locator("input[type=file]").first.set_input_files(str(shop))
        expect(page.get_by_text("What was read from shop.csv")).to_be_visible(timeout=120000)
        page.get_by_role("link", name="Results").click()
        expect(page.get_by_text("Provisional verdict, from word search alone")).to_be_visible(timeout=180000)
        page.get_by_role("button", name="Run the questions").click()
        expect(page.get_by_text("still being computed")).to_be_visible(timeout=180000)
        os.kill(app.pid, signal.SIGKILL)  # mid-run
        app.wait()
    assert app.returncode == -signal.SIGKILL
    for name in ("workspace.sqlite", "history.sqlite"):
        if (data / name).exists():
            _intact(data / name)
    workspace = Workspace(data / "workspace.sqlite")
    try:
        current = workspace.current()
        assert current is not None and current.name == "shop.csv" and current.data == shop.read_bytes()
    finally:
        workspace.close()
    with _served(data) as (app, page):
        expect(page.get_by_text("What was read from shop.csv")).to_be_visible(timeout=120000)
        page.get_by_role("link", name="Results").click()
        verdict = page.locator("[data-testid=stAlert]").filter(
            has_text=re.compile(r"^(Ready|Looks ready|Needs work|Not ready) — "))
        expect(verdict.first).to_contain_text("— shop.csv:", timeout=180000)
