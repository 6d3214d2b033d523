"""The command line when things go wrong: nan refused, paths checked first, history never costs the output."""

from __future__ import annotations

import sqlite3

import pytest

from workbench.output.cli import main

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS

BASE = ["evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--strategies", "fixed,heading",
        "--retrievers", "keyword", "--rerankers", "none"]


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main([*BASE, *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--threshold", "nan"], "--threshold must be a number, not 'nan'"),
        (["--threshold", "inf"], "--threshold must be a number, not 'inf'"),
        (["--fail-below", "clean=nan"], "--fail-below: clean needs a number, not 'nan'"),
        (["--fail-below", "hit_rate=-inf"], "--fail-below: hit_rate needs a number, not '-inf'"),
    ],
)
def test_nan_is_refused_wherever_a_number_is_taken(capsys, tmp_path, args, message):
    code, out, err = cli(capsys, *args, "--db", str(tmp_path / "h.sqlite"))
    assert code == 2 and message in err and out == ""
    assert not (tmp_path / "h.sqlite").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--overlap", "-1"], "--overlap must be from 0 to 60,000,000 (characters a piece repeats of the one before), not -1"),
        (["--threshold", "-1"], "--threshold must be from 0 to 1 (a confidence), not -1"),
        (["--threshold", "2"], "--threshold must be from 0 to 1 (a confidence), not 2"),
        (["--threshold", "1e12"], "--threshold must be from 0 to 1 (a confidence), not 1e12"),
        (["--top-k", "0"], "--top-k must be from 1 to 1,000 (the pieces a bot is handed), not 0"),
        (["--top-k", "1000000000000"], "--top-k must be from 1 to 1,000 (the pieces a bot is handed), not 1000000000000"),
        (["--top-k", "x"], "--top-k must be a whole number, not 'x'"),
        (["--depth", "0"], "--depth must be from 1 to 1,000 (the candidates a reranker reads again), not 0"),
        (["--size", "-5"], "--size must be from 1 to 60,000,000 (characters per piece), not -5"),
    ],
)
def test_a_flag_out_of_range_is_refused_naming_the_flag(capsys, tmp_path, args, message):
    code, out, err = cli(capsys, *args, "--no-history")
    assert code == 2 and out == ""
    assert err == f"error: {message}\n"  # the flag named once, not "argument --top-k: --top-k …"


def test_the_engine_caps_top_k_depth_and_threshold_too():
    """The app reaches the engine without the command line's flags: the same bounds hold there."""
    from workbench.core.model import Settings, WorkbenchError
    from workbench.run.evaluate import check_settings

    for settings, words in (
        ({"top_k": 10**12}, "top-k must be from 1 to 1,000, not 1000000000000"),
        ({"depth": 1001}, "depth must be from 1 to 1,000, not 1001"),
        ({"threshold": 1.5}, "the threshold is a confidence from 0 to 1, not 1.5"),
    ):
        with pytest.raises(WorkbenchError, match=words):
            check_settings(Settings(["heading"], ["keyword"], ["none"], **settings))


def test_the_engine_refuses_a_nan_threshold_too():
    from workbench.core.model import Settings, WorkbenchError
    from workbench.run.evaluate import check_settings

    with pytest.raises(WorkbenchError, match="threshold must be a number"):
        check_settings(Settings(["heading"], ["keyword"], ["none"], threshold=float("nan")))


@pytest.mark.parametrize("option", ["--out", "--report"])
def test_output_paths_are_checked_before_any_work(capsys, tmp_path, option):
    # The questions file does not exist either: the bad output path is named first, before anything is read.
    args = ["evaluate", str(SAMPLE_MD), "--questions", str(tmp_path / "missing.csv")]
    for target, words in ((tmp_path / "no-such-folder" / "x.out", "does not exist"), (tmp_path, "is a folder")):
        code = main([*args, option, str(target), "--no-history"])
        err = capsys.readouterr().err
        assert code == 2 and f"{option} {target}" in err and words in err and "missing.csv" not in err


def test_every_row_left_out_exits_2_and_saves_nothing(capsys, tmp_path):
    questions = tmp_path / "q.csv"
    questions.write_text("question,expected_source,expected_answer\nPrice?,No Such Product,10\nWarranty?,Nor This,1\n")
    db = tmp_path / "h.sqlite"
    code = main(["evaluate", str(SAMPLE_MD), "--questions", str(questions), "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 2
    assert "none of the 2 questions in q.csv can be graded" in err and "row 2: no product or section" in err
    assert not db.exists() or sqlite3.connect(db).execute("SELECT count(*) FROM runs").fetchone()[0] == 0


def damage(path) -> None:
    """Overwrite every page after the first (the schema) with garbage: SQLite's "malformed" on first use."""
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)
    path.write_bytes(bytes(data))


def test_a_damaged_history_warns_and_leaves_the_output(capsys, tmp_path):
    db = tmp_path / "h.sqlite"
    assert cli(capsys, "--db", str(db))[0] == 0  # a first run creates it
    sqlite3.connect(db).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    damage(db)
    out = tmp_path / "results.csv"
    code, _, err = cli(capsys, "--db", str(db), "--format", "csv", "--out", str(out))
    assert code == 0
    assert "warning: this run" in err and "not be" in err and str(db) in err and "Traceback" not in err
    assert out.read_text().startswith("way of cutting,search,re-check")  # the output is there


def test_a_folder_in_place_of_the_history(capsys, tmp_path):
    db = tmp_path / "h.sqlite"
    db.mkdir()
    code, out, err = cli(capsys, "--db", str(db))
    assert code == 0 and "heading" in out
    assert "warning: this run will not be saved to the history" in err and "is a folder" in err


def test_baseline_needs_the_history(capsys, tmp_path):
    db = tmp_path / "h.sqlite"
    db.mkdir()
    code, out, err = cli(capsys, "--db", str(db), "--baseline", "last")
    assert code == 2 and "is a folder, not a file" in err and out == ""


@pytest.mark.slow
def test_a_broken_embedding_cache_is_one_warning_and_the_same_grades(tmp_path):
    import os
    import subprocess
    import sys

    from .conftest import ROOT

    folder = tmp_path / "cache-is-a-folder"
    folder.mkdir()
    args = [*BASE, "--retrievers", "dense", "--no-history"]

    def run_with_cache(path):  # its own cache file: the session's shared one stays as other tests expect it
        env = {**os.environ, "WORKBENCH_EMBEDDING_CACHE": str(path)}
        return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=ROOT,
                              timeout=300, env=env)

    good = run_with_cache(tmp_path / "healthy.sqlite")
    bad = run_with_cache(folder)
    assert good.returncode == bad.returncode == 0, bad.stderr
    assert bad.stdout == good.stdout  # every grade the same
    assert bad.stderr.count("warning: The embedding cache") == 1 and "runs without the cache" in bad.stderr
