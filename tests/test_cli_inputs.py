"""The command line's inputs and outputs held to the same rules on its newer surfaces: the run history is an input
no output may replace, a knowledge base has one budget checked before any file is read, the same file named twice
is read once, a folder is called a folder, names are printed with their control characters escaped, an empty
--fail-below is refused and --help says what each exit status means."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.core import limits
from workbench.output.cli import main

from .conftest import ROOT, peak_script

KB = Path(__file__).parent / "kb"
FILES = [KB / "catalog.csv", KB / "policies.md", KB / "faq.md"]
QUESTIONS = KB / "questions.csv"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def evaluate_base(*extra) -> list:
    return ["evaluate", *FILES, "--questions", QUESTIONS, "--strategies", "heading", "--retrievers", "keyword",
            "--rerankers", "none", *extra]


# -- the run history is an input ---------------------------------------------------------------------------------


@pytest.fixture
def history(tmp_path, capsys) -> Path:
    """A history holding one run, made by the command line itself."""
    db = tmp_path / "history.sqlite"
    code, _, err = run(capsys, *evaluate_base("--db", db))
    assert code == 0, err
    assert db.stat().st_size > 0
    return db


@pytest.mark.parametrize("option", ["--out", "--report"])
def test_no_output_is_written_onto_the_history(capsys, tmp_path, history, option):
    before = history.read_bytes()
    code, out, err = run(capsys, *evaluate_base("--db", history, option, history))
    assert code == 2 and out == ""
    assert err == (f"error: {option} {history} is the run history (--db) {history}: writing there would lose "
                   "everything saved in it. Name another file.\n")
    assert history.read_bytes() == before  # byte for byte: no run saved, nothing written over it


def test_a_link_to_the_history_or_its_journal_is_the_history(capsys, tmp_path, history):
    before = history.read_bytes()
    link = tmp_path / "results.json"
    link.symlink_to(history)
    code, _, err = run(capsys, *evaluate_base("--db", history, "--out", link, "--format", "json"))
    assert code == 2 and f"--out {link} is the run history (--db) {history}" in err
    # SQLite's journal beside it holds the last runs until they are folded in: not written over either.
    wal = tmp_path / "history.sqlite-wal"
    code, _, err = run(capsys, *evaluate_base("--db", history, "--report", wal))
    assert code == 2 and f"is the run history (--db) {history} (its journal, history.sqlite-wal)" in err
    assert history.read_bytes() == before and link.is_symlink()


def test_a_command_without_db_still_never_writes_onto_the_history(capsys, tmp_path, history, monkeypatch):
    """audit takes no --db, but the history it would find by default ($WORKBENCH_HISTORY_DB) is kept all the same."""
    monkeypatch.setenv("WORKBENCH_HISTORY_DB", str(history))
    before = history.read_bytes()
    code, _, err = run(capsys, "audit", FILES[1], "--out", history)
    assert code == 2 and f"--out {history} is the run history {history}" in err
    assert history.read_bytes() == before


def test_a_history_not_made_yet_is_kept_too(capsys, tmp_path):
    """--db naming a new file and --out the same path: the output would take the history's place."""
    db = tmp_path / "new.sqlite"
    code, _, err = run(capsys, *evaluate_base("--db", db, "--out", tmp_path / "." / "new.sqlite"))
    assert code == 2 and "is the run history (--db)" in err
    assert not db.exists()


def test_two_outputs_naming_one_file_are_refused(capsys, tmp_path):
    code, _, err = run(capsys, *evaluate_base("--no-history", "--out", tmp_path / "r.html", "--report",
                                              tmp_path / "r.html"))
    assert code == 2
    assert err == (f"error: --out and --report name the same file ({tmp_path / 'r.html'}): one would overwrite the "
                   "other. Name two files.\n")
    assert not (tmp_path / "r.html").exists()


def test_every_output_option_is_checked_in_one_place():
    """A new command's output (the fixed file of the advice work) is held to these rules by naming its option in
    OUTPUTS: check_outputs reads every one of them from the arguments."""
    import argparse

    from workbench.core.model import WorkbenchError
    from workbench.output.cli_args import OUTPUTS, check_outputs
    from workbench.store.history import default_path

    assert OUTPUTS == ("--out", "--report")
    for option in OUTPUTS:
        args = argparse.Namespace(document=[str(FILES[1])], **{option[2:]: str(default_path())})
        with pytest.raises(WorkbenchError, match=f"^{option} .* is the run history "):
            check_outputs(args)
        args = argparse.Namespace(document=[str(FILES[1])], **{option[2:]: str(FILES[1])})
        with pytest.raises(WorkbenchError, match=f"^{option} .* is the input file "):
            check_outputs(args)
    # A file no option names (a command making its own path beside the input) is checked by the same call.
    args = argparse.Namespace(document=[str(FILES[1])], out=None, report=None)
    with pytest.raises(WorkbenchError, match=f"^the fixed file {FILES[1]} is the input file {FILES[1]}: "):
        check_outputs(args, {"the fixed file": FILES[1]})
    with pytest.raises(WorkbenchError, match=f"^the fixed file {default_path()} is the run history "):
        check_outputs(args, {"the fixed file": default_path()})
    check_outputs(args, {"the fixed file": FILES[1].with_name("policies.fixed.md")})  # beside it: allowed


# -- one budget for a knowledge base, before any file is read -----------------------------------------------------


def _many_files(folder: Path, count: int, size: int) -> list[Path]:
    """``count`` Markdown files of ``size`` bytes each, made sparse: their size is on disk, their bytes never are."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        path = folder / f"part{number:02}.md"
        with open(path, "wb") as handle:
            handle.truncate(size)
        paths.append(path)
    return paths


@pytest.fixture
def nothing_read(monkeypatch):
    """Fails the test the moment any document is read: the budget must refuse the base from the files' sizes."""
    # The commands the command line imports only when asked for (lazy46): imported here first, so the one a test runs
    # binds the real read_file, not this fixture's, for every later test in the process.
    import workbench.output.cli_document  # noqa: F401
    import workbench.output.cli_fix  # noqa: F401
    import workbench.read.loaders as loaders
    import workbench.read.textio as textio

    def read(path):
        raise AssertionError(f"{path} was read before the base was refused")

    monkeypatch.setattr(loaders, "read_file", read)
    monkeypatch.setattr(textio, "read_file", read)


def _budget_message(count: int, size: int, biggest: list[str]) -> str:
    # 80 files of 800,000 bytes: 64,000,000 bytes, 61.0 MB, over the 30 MB a base may hold.
    return (f"error: The knowledge base is {count} files of {count * size / limits.MB:,.1f} MB together (the biggest: "
            + ", ".join(f"{name} {size / limits.MB:.1f} MB" for name in biggest) + f" and {count - 3} more); the "
            "workbench reads a knowledge base of at most 1,000 files and 30 MB together, making at most 60,000,000 "
            "characters of text. Check fewer files at once, or shorten the biggest ones.\n")


@pytest.mark.parametrize("command", ["evaluate", "audit", "export"])
def test_a_base_over_the_budget_is_refused_before_any_file_is_read(capsys, tmp_path, nothing_read, command):
    paths = _many_files(tmp_path / "base", 80, 800_000)
    extra = {"evaluate": ["--questions", QUESTIONS, "--no-history"], "audit": [], "export": ["--strategy", "heading"]}
    code, out, err = run(capsys, command, *paths, *extra[command])
    assert code == 2 and out == ""
    assert err == _budget_message(80, 800_000, ["part00.md", "part01.md", "part02.md"])
    assert "part03.md" not in err  # a few named, the rest counted: not 80 names in one line


def test_sweep_holds_a_sub_folders_base_to_the_same_budget(capsys, tmp_path, nothing_read):
    folder = tmp_path / "shop"
    paths = _many_files(folder / "support", 80, 800_000)
    with open(paths[5], "wb") as handle:  # the biggest file is named first
        handle.truncate(900_000)
    (folder / "support" / "support.questions.csv").write_bytes(QUESTIONS.read_bytes())
    code, out, err = run(capsys, "sweep", folder, "--no-history", "--format", "json")
    assert code == 2
    assert ("error: support: The knowledge base is 80 files of 61.1 MB together (the biggest: part05.md 0.9 MB, "
            "part00.md 0.8 MB, part01.md 0.8 MB and 77 more)") in err
    assert json.loads(out)["summary"]["skipped"][0]["document"] == "support"


def test_a_base_of_too_many_files_is_refused_by_their_count(capsys, tmp_path, nothing_read, monkeypatch):
    monkeypatch.setattr(limits, "MAX_BASE_FILES", 10)
    paths = _many_files(tmp_path / "base", 12, 100)
    code, _, err = run(capsys, "audit", *paths)
    assert code == 2
    assert err.startswith("error: The knowledge base has 12 files (the biggest: part00.md 0.0 MB, part01.md 0.0 MB, "
                          "part02.md 0.0 MB and 9 more); the workbench reads a knowledge base of at most 10 files")


def test_the_text_of_a_base_is_held_to_the_limit_as_its_files_are_read(capsys, monkeypatch):
    """Files within the byte budget can still make too much text (a spreadsheet unpacks): the reading stops at the
    first file past the limit, not after the last. catalog.csv makes 217 characters, policies.md 194 more."""
    monkeypatch.setattr(limits, "MAX_CHARACTERS", 300)
    code, _, err = run(capsys, "audit", *FILES)
    assert code == 2
    assert err.startswith("error: The knowledge base makes more than 300 characters of text by policies.md; ")


def test_a_base_over_the_budget_is_refused_in_bounded_memory(tmp_path):
    """The base of 80 files of 800 KB took 3 GB before it was refused; from the sizes alone it costs what starting
    the command line costs. Real bytes here (not sparse files), so a read would cost its full weight."""
    folder = tmp_path / "base"
    folder.mkdir()
    line = b"## Desk fan\nPrice: 19.99 EUR, white, three speeds.\n"
    paths = []
    for number in range(80):
        path = folder / f"part{number:02}.md"
        path.write_bytes(line * (800_000 // len(line)))
        paths.append(str(path))
    script = peak_script(f"from workbench.output.cli import main\ncode = main(['audit', *{paths!r}])")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=110)
    assert done.returncode == 2 and "The knowledge base is 80 files of 61.0 MB together" in done.stderr
    assert float(done.stdout.split()[-1]) < 300, done.stdout  # MB: the interpreter and the workbench's imports


# -- the same file twice ----------------------------------------------------------------------------------------


def test_the_same_path_twice_is_read_once_with_a_note(capsys):
    code, out, err = run(capsys, "audit", *FILES, FILES[1])
    assert code == 0
    assert f"warning: {FILES[1]} is named twice: it is read once\n" in err
    assert out.count("== policies.md ==") == 1 and "rename" not in err


def test_a_link_to_another_file_of_the_base_is_that_file(capsys, tmp_path):
    """A link named beside its target made a second copy of every policy: the questions whose answer sat in both
    were left out as "in several files". Read once, the base grades as without it."""
    link = tmp_path / "returns.md"
    link.symlink_to(FILES[1])
    code, plain, _ = run(capsys, *evaluate_base("--no-history", "--format", "json"))
    assert code == 0
    code, linked, err = run(capsys, *evaluate_base("--no-history", "--format", "json")[:4], link,
                            *evaluate_base("--no-history", "--format", "json")[4:])
    assert code == 0
    assert f"{link} is the same file as {FILES[1]} (a link to it or another way of writing its path): it is read once" in err
    plain, linked = json.loads(plain), json.loads(linked)
    assert linked["bad_questions"] == plain["bad_questions"] == []
    scores = [{key: run[key] for key in ("clean", "mixed", "missed", "hit_rate", "mrr")} for run in linked["runs"]]
    assert scores == [{key: run[key] for key in ("clean", "mixed", "missed", "hit_rate", "mrr")} for run in plain["runs"]]
    assert linked["files"] == plain["files"] and len(plain["files"]) == 3  # a line per file: returns.md is none


# -- a folder, control characters, --fail-below, --help, rough messages -------------------------------------------


@pytest.mark.parametrize("command", [["audit"], ["export", "--strategy", "heading"]])
def test_a_folder_is_called_a_folder(capsys, tmp_path, command):
    folder = tmp_path / "prices"
    folder.mkdir()
    for documents in ([folder], [FILES[1], folder]):
        code, _, err = run(capsys, command[0], *documents, *command[1:])
        assert code == 2 and err == f"error: {folder} is a folder, not a file.\n"


def test_control_characters_in_a_name_are_escaped_in_every_message(capsys, tmp_path):
    hostile = "a\x1b[2J\x07\u202egpj.md"
    document = tmp_path / hostile
    document.write_bytes(FILES[2].read_bytes())
    shown = "a\\x1b[2J\\x07\\u202egpj.md"
    # An error naming it, a note naming it, and the check-up's own text naming it.
    (tmp_path / "a\x1b[2J\x07\u202egpj").write_bytes(b"# Fan\n")
    code, _, err = run(capsys, "audit", tmp_path / "a\x1b[2J\x07\u202egpj")
    assert code == 2 and err.startswith("error: ") and "a\\x1b[2J\\x07\\u202egpj: the workbench reads" in err
    code, out, err = run(capsys, "audit", document, FILES[1], document)
    assert code == 0
    assert f"{shown} is named twice" in err and f"== {shown} ==" in out
    for text in (out, err):
        assert not any(character in text for character in "\x1b\x07\u202e")
    # JSON is data: its reader unescapes it, and JSON escapes the control characters itself.
    code, out, _ = run(capsys, "audit", document, FILES[1], "--format", "json")
    assert json.loads(out)["files"][0]["file"] == hostile and "\x1b" not in out


def test_printable_escapes_what_acts_on_a_terminal_and_nothing_else():
    from workbench.core.wording import printable

    assert printable("Zürich\tfan\n\x1b[31m\x07\x9b\u202e\u2067€") == "Zürich\\tfan\\n\\x1b[31m\\x07\\x9b\\u202e\\u2067€"
    assert printable("row 1\tfan\nrow 2\r", lines=True) == "row 1\tfan\nrow 2\\r"


@pytest.mark.parametrize("bars", ["", " ", ",", " , "])
def test_an_empty_fail_below_is_refused(capsys, tmp_path, bars):
    db = tmp_path / "h.sqlite"
    code, out, err = run(capsys, *evaluate_base("--db", db, "--fail-below", bars))
    assert code == 2 and out == ""
    assert err == (f"error: --fail-below names no bar ({bars!r}): give one or more, e.g. clean=18,hit_rate=0.9, or "
                   "leave the option out\n")
    assert not db.exists()


def test_help_lists_the_exit_statuses_the_commands_return(capsys, tmp_path):
    for command in ([], ["evaluate"], ["sweep"], ["audit"]):
        with pytest.raises(SystemExit) as done:
            main([*command, "--help"])
        assert done.value.code == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "Exit status: 0 when the command did its work" in text
        assert "2 when an input, an option or an output path is refused" in text
        assert ("1 when the questions were graded but a score is below a --fail-below bar" in text) == (
            command != ["audit"])
    # What it says is what main returns: 1 for a bar not met (results written first), 2 for bad input.
    out = tmp_path / "results.json"
    assert main([str(a) for a in evaluate_base("--no-history", "--fail-below", "clean=99", "--out", out)]) == 1
    assert out.exists() and "failed: heading/keyword/none: clean is" in capsys.readouterr().err
    assert main(["audit", str(tmp_path / "missing.md")]) == 2


def test_a_run_over_its_budget_names_a_big_base_in_a_few_words(capsys, tmp_path, monkeypatch):
    """300 files named one by one made one error line of several thousand characters; and "cut 1 ways"."""
    monkeypatch.setattr(limits, "MAX_RUN_CHARACTERS", 1000)
    folder = tmp_path / "base"
    folder.mkdir()
    paths = []
    for number in range(300):
        path = folder / f"f{number:03}.md"
        path.write_text(f"# Item {number}\nPrice: {number} EUR\n", encoding="utf-8")
        paths.append(path)
    code, _, err = run(capsys, "evaluate", *paths, "--questions", QUESTIONS, "--no-history", "--strategies", "heading")
    assert code == 2
    assert err.startswith("error: the knowledge base of 300 files (f000.md, f001.md, f002.md and 297 more) makes ")
    assert "; cut 1 way that is " in err and "f003.md" not in err and len(err) < 400


def test_a_feed_nested_past_the_decoders_depth_is_refused_in_plain_words(capsys, tmp_path):
    feed = tmp_path / "feed.json"
    feed.write_text('{"products": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    code, _, err = run(capsys, "audit", feed)
    assert code == 2
    assert err == ("error: feed.json holds lists or objects nested hundreds of levels inside each other; a product "
                   "feed's products sit a few levels down. Export the feed again from the shop.\n")

