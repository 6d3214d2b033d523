"""Outputs never overwrite an input and never lose a previous output (workbench/output/safe_write.py)."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys

import pytest

from workbench.core.model import WorkbenchError
from workbench.output import safe_write
from workbench.output.cli import main

from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS


@pytest.fixture
def inputs(tmp_path):
    document, questions = tmp_path / "prices.md", tmp_path / "questions.csv"
    shutil.copy(SAMPLE_MD, document)
    shutil.copy(SAMPLE_QUESTIONS, questions)
    return document, questions


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_output_that_is_an_input_is_refused_and_the_input_kept(capsys, inputs, tmp_path):
    document, questions = inputs
    before = document.read_bytes(), questions.read_bytes()
    link = tmp_path / "link.md"
    link.symlink_to(document)
    hard = tmp_path / "hard.csv"
    os.link(questions, hard)
    evaluate = ["evaluate", document, "--questions", questions, "--strategies", "heading", "--no-history"]
    for args, target in (
        ([*evaluate, "--out", questions], questions),
        ([*evaluate, "--report", document], document),
        ([*evaluate, "--out", hard], hard),  # another name for the same file on disk
        ([*evaluate, "--report", tmp_path / "." / "prices.md"], tmp_path / "." / "prices.md"),
        (["rewrite", document, "--out", link], link),  # a symlink to the document
        (["rewrite", document, "--questions", questions, "--out", questions], questions),
        (["export", document, "--strategy", "heading", "--out", document], document),
        (["audit", document, "--out", document], document),
    ):
        code, out, err = cli(capsys, *args)
        assert code == 2 and out == "", args
        assert err.startswith("error: --") and f"{target} is the input file" in err and err.count("\n") == 1, err
    assert (document.read_bytes(), questions.read_bytes()) == before


def test_a_missing_folder_is_named_before_any_work(capsys, inputs, tmp_path):
    document, questions = inputs
    missing = tmp_path / "no-such" / "out.txt"
    for args in (
        ["audit", document, "--out", missing],
        ["export", document, "--strategy", "heading", "--out", missing],
        ["rewrite", document, "--out", missing],
        ["evaluate", document, "--questions", questions, "--out", missing, "--no-history"],
    ):
        code, out, err = cli(capsys, *args)
        assert code == 2 and out == ""
        assert (
            err
            == f"error: --out {missing}: the folder {missing.parent} does not exist; create it first or name another\n"
        )
        assert not missing.parent.exists()  # refused, not created


def test_a_failed_write_keeps_the_previous_output_whole(tmp_path, monkeypatch):
    target = tmp_path / "results.csv"
    target.write_text("the previous results\n")
    target.chmod(0o640)

    def disk_full(source, destination):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safe_write.os, "replace", disk_full)
    with pytest.raises(WorkbenchError, match="No space left on device; the previous file is unchanged"):
        safe_write.write_file(target, "new results\n")
    assert target.read_text() == "the previous results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]  # no temporary file left behind
    monkeypatch.undo()
    safe_write.write_file(target, "new results\n")
    assert target.read_text() == "new results\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the old file's permissions carried over


def test_a_pipe_with_no_reader_is_named_not_waited_on(tmp_path, inputs):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "audit", str(inputs[0]), "--out", str(fifo)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == f"error: cannot write {fifo}: it is a pipe and no program is reading it\n"


def test_a_pipe_with_a_reader_gets_the_output(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        for _ in range(200):  # until cat has opened its end
            try:
                safe_write.write_file(fifo, "hello\n")
                break
            except WorkbenchError:
                import time

                time.sleep(0.02)
        assert reader.communicate(timeout=10)[0] == b"hello\n"
    finally:
        reader.kill()


def test_a_full_screen_stream_is_one_plain_line(inputs):
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "workbench", "export", str(inputs[0]), "--strategy", "heading"],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr == "error: the output could not be written: No space left on device\n"


def test_a_reader_that_stops_early_is_one_plain_line(inputs):
    read, write = os.pipe()
    os.close(read)  # like `| head` that has already quit: every write is EPIPE
    try:
        result = subprocess.run(
            [sys.executable, "-m", "workbench", "export", str(inputs[0]), "--strategy", "heading"],
            cwd=ROOT,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write)
    assert result.returncode == 2
    assert result.stderr == "error: the output could not be written: the program reading it stopped early\n"
