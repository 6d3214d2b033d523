"""Work spread over processes (``run/parallel.py``) and the sweep that uses it: the same output, byte for byte,
whether the files are graded one after another or a process each."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from workbench.run import parallel
from workbench.run.parallel import in_order

from .conftest import SAMPLE_QUESTIONS
from .test_sweep import OPTIONS, folder, run  # noqa: F401  (the fixture)


def _square_and_pid(number: int) -> tuple[int, int]:
    return number * number, os.getpid()


def test_results_come_back_in_the_items_order_from_other_processes(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    items = [3, 1, 4, 1, 5, 9, 2, 6]
    # The largest items are started first; whatever order they finish in, sorting by index gives the items' order.
    got = sorted(in_order(_square_and_pid, items, jobs=0, sizes=items))
    assert [value for _, (value, _) in got] == [9, 1, 16, 1, 25, 81, 4, 36]
    assert [index for index, _ in got] == list(range(8))
    assert os.getpid() not in {pid for _, (_, pid) in got}  # graded in forked processes, not here


def test_one_worker_runs_the_items_here_in_order():
    got = list(in_order(_square_and_pid, [2, 3], jobs=1))
    assert got == [(0, (4, os.getpid())), (1, (9, os.getpid()))]


def test_never_more_processes_than_items(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 8)
    assert (parallel.workers(0, 3), parallel.workers(2, 3), parallel.workers(5, 1), parallel.workers(0, 0)) == (3, 2, 1, 1)


def _fails(number: int) -> int:
    if number == 2:
        raise ValueError("two")
    return number


def test_an_error_in_a_process_reaches_the_caller():
    with pytest.raises(ValueError, match="two"):
        list(in_order(_fails, [1, 2, 3], jobs=2))


@pytest.mark.parametrize("form", ["table", "json"])
def test_a_sweep_in_processes_writes_what_one_process_writes(folder, form):  # noqa: F811
    """Three shops, a broken file and a file without questions: every byte of the output (and the exit status and
    the error line) the same with one process as with a process per file."""
    (folder / "broken.xlsx").write_bytes(b"not a zip file at all")
    shutil.copy(SAMPLE_QUESTIONS, folder / "broken.questions.csv")
    one = run("sweep", str(folder), *OPTIONS, "--format", form, "--jobs", "1")
    many = run("sweep", str(folder), *OPTIONS, "--format", form, "--jobs", "4")
    assert one.returncode == many.returncode == 2
    assert one.stdout == many.stdout and len(one.stdout) > 1000
    assert one.stderr == many.stderr == "error: " + one.stderr.split("error: ", 1)[1]
    assert "broken.xlsx is not a readable Excel file" in many.stderr
    if form == "json":
        names = [d["document"]["name"] for d in json.loads(many.stdout)["documents"]]
        assert names == ["shop_a.md", "shop_b.csv", "shop_c.xlsx"]


def test_processes_at_once_never_hold_more_than_one_run_may():
    from workbench.core.limits import MAX_RUN_CHARACTERS, processes_within

    # 30,000,000 characters a run: files of 1 MB cut 4 ways (4 M each) allow 7 side by side; 8 M each, 3; a file
    # past half the bound, one at a time; never fewer than one, never more than asked.
    assert MAX_RUN_CHARACTERS == 30_000_000
    assert processes_within([4_000_000, 1_000], 16) == 7
    assert processes_within([8_000_000] * 5, 16) == 3
    assert processes_within([16_000_000, 10], 16) == 1
    assert processes_within([100], 2) == 2 and processes_within([], 4) == 4
