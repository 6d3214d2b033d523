"""``python -m workbench sweep FOLDER``: every document with STEM.questions.csv beside it, in one process."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from workbench.output.sweep import find_documents
from workbench.read.loaders import SUPPORTED

from .conftest import ROOT, SAMPLE_CSV, SAMPLE_MD, SAMPLE_QUESTIONS, SAMPLE_XLSX

OPTIONS = ["--strategies", "fixed,heading", "--retrievers", "keyword,bm25", "--rerankers", "none", "--threshold",
           "none", "--no-history"]


def run(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=ROOT, timeout=300, env=env
    )


@pytest.fixture
def folder(tmp_path):
    """Three shops (Markdown, CSV, Excel) with questions, one file without, one the workbench cannot read,
    and questions whose document is missing."""
    for source, name in ((SAMPLE_MD, "shop_a.md"), (SAMPLE_CSV, "shop_b.csv"), (SAMPLE_XLSX, "shop_c.xlsx")):
        shutil.copy(source, tmp_path / name)
        shutil.copy(SAMPLE_QUESTIONS, tmp_path / (name.rsplit(".", 1)[0] + ".questions.csv"))
    (tmp_path / "readme.md").write_text("# Notes\n\nNothing to ask here.\n", encoding="utf-8")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n")
    shutil.copy(SAMPLE_QUESTIONS, tmp_path / "shop_d.questions.csv")
    (tmp_path / ".hidden.md").write_text("# hidden\n", encoding="utf-8")
    return tmp_path


def test_json_is_evaluates_json_per_document_plus_a_summary(folder):
    result = run("sweep", str(folder), *OPTIONS, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [d["document"]["name"] for d in data["documents"]] == ["shop_a.md", "shop_b.csv", "shop_c.xlsx"]
    # Each document's record is exactly what evaluate prints for that file alone.
    alone = run("evaluate", str(folder / "shop_b.csv"), "--questions", str(folder / "shop_b.questions.csv"),
                *OPTIONS, "--format", "json")
    assert alone.returncode == 0, alone.stderr
    assert data["documents"][1] == json.loads(alone.stdout)

    summary = data["summary"]
    assert summary["documents"] == 3
    setups = {(s["strategy"], s["retriever"], s["reranker"]): s for s in summary["setups"]}
    assert len(setups) == 4
    # Cut at headings answers 20 of the 24 sample questions cleanly in every format (4 cannot be answered),
    # so over three files: 60 clean of 72, and the answer in the top 5 for all 3 x 20 answerable.
    heading = setups[("heading", "keyword", "none")]
    assert (heading["clean"], heading["questions"], heading["hits"], heading["answerable"]) == (60, 72, 60, 60)
    assert heading["hit_rate"] == 1.0 and heading["documents"] == 3
    for key, total in setups.items():  # every total is the sum of the documents' own figures
        records = [r for d in data["documents"] for r in d["runs"] if (r["strategy"], r["retriever"], r["reranker"]) == key]
        folded = [d for d in data["documents"] for r in d["runs"] for same in r["identical"]
                  if (same["strategy"], same["retriever"], same["reranker"]) == key]
        if not folded:
            assert total["clean"] == sum(r["clean"] for r in records), key
    assert [(b["document"], b["strategy"], b["retriever"], b["reranker"], b["clean"]) for b in summary["best"]] == [
        (name, "heading", "keyword", "none", 20) for name in ("shop_a.md", "shop_b.csv", "shop_c.xlsx")
    ]
    skipped = {s["document"]: s["reason"] for s in summary["skipped"]}
    assert set(skipped) == {"readme.md", "logo.png", "shop_d.questions.csv"}
    assert skipped["readme.md"] == "no questions file beside it (expected readme.questions.csv)"
    assert skipped["logo.png"].startswith("not a kind of file the workbench reads (.md")
    assert "nothing named shop_d.* beside it" in skipped["shop_d.questions.csv"]


def test_table_per_document_then_the_summary_and_progress_names_the_file(folder):
    result = run("sweep", str(folder), *OPTIONS, "--progress")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    positions = [out.index(f"{name}: ") for name in ("shop_a.md", "shop_b.csv", "shop_c.xlsx")]
    assert positions == sorted(positions)
    summary = out[out.index("Across 3 documents:"):]
    assert summary.splitlines()[1].split()[:7] == ["heading", "keyword", "none", "60", "clean", "of", "72"]
    assert "  shop_c.xlsx: heading / keyword / none (20 clean of 24, hit rate 1.00)" in summary
    assert "skipped readme.md: no questions file beside it (expected readme.questions.csv)" in summary
    for name in ("shop_a.md (1/3)", "shop_b.csv (2/3)", "shop_c.xlsx (3/3)"):
        assert name in result.stderr


def test_a_document_that_cannot_be_read_is_named_and_the_others_still_reported(folder, tmp_path):
    (folder / "broken.xlsx").write_bytes(b"not a zip file at all")
    shutil.copy(SAMPLE_QUESTIONS, folder / "broken.questions.csv")
    out = tmp_path / "sweep.json"
    result = run("sweep", str(folder), *OPTIONS, "--format", "json", "--out", str(out))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [line for line in result.stderr.splitlines() if line.startswith("error: broken.xlsx")]
    assert len(result.stderr.splitlines()) == 1 and "broken.xlsx is not a readable Excel file" in result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["document"]["name"] for d in data["documents"]] == ["shop_a.md", "shop_b.csv", "shop_c.xlsx"]
    reason = next(s["reason"] for s in data["summary"]["skipped"] if s["document"] == "broken.xlsx")
    assert reason.startswith("could not be evaluated: broken.xlsx is not a readable Excel file")


def test_a_folder_without_any_questions_exits_2_with_one_line(tmp_path):
    (tmp_path / "shop.md").write_text("# Shop\n\nFan: 10 EUR\n", encoding="utf-8")
    result = run("sweep", str(tmp_path), "--no-history")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"error: no document in {tmp_path} has a questions file beside it named STEM.questions.csv "
        "(shop.md: no questions file beside it (expected shop.questions.csv))"
    ]
    missing = run("sweep", str(tmp_path / "nowhere"), "--no-history")
    assert missing.returncode == 2 and "is not a folder" in missing.stderr


def test_every_extension_the_loaders_accept_is_swept(tmp_path):
    """The list comes from the loader registry: a kind of file added there is swept without touching sweep."""
    for number, extension in enumerate(SUPPORTED):
        (tmp_path / f"doc{number}{extension}").write_bytes(b"")
        (tmp_path / f"doc{number}.questions.csv").write_bytes(b"")
    pairs, skipped = find_documents(tmp_path)
    assert sorted(p.document.suffix for p in pairs) == sorted(SUPPORTED) and skipped == []


@pytest.mark.slow
def test_the_model_loads_once_for_the_whole_folder(folder):
    """Meaning-based search over three documents: one model load (no disk cache, so it must load)."""
    probe = textwrap.dedent(f"""
        from workbench.encode import bert
        loads = []
        original = bert.Bert.__init__
        def counting(self, *args, **kwargs):
            loads.append(1)
            original(self, *args, **kwargs)
        bert.Bert.__init__ = counting
        from workbench.output.cli import main
        from workbench.encode.embedding import get_encoder
        code = main(["sweep", {str(folder)!r}, "--strategies", "heading", "--retrievers", "dense",
                     "--rerankers", "none", "--no-history", "--format", "json", "--out", {str(folder / "out.json")!r}])
        print(code, len(loads), get_encoder().encoded)
    """)
    env = {"WORKBENCH_EMBEDDING_CACHE": "off", "PATH": "/usr/bin:/bin", "HOME": str(folder)}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    code, loads, encoded = map(int, done.stdout.split())
    assert (code, loads) == (0, 1)
    assert encoded > 0
    data = json.loads((folder / "out.json").read_text(encoding="utf-8"))
    assert len(data["documents"]) == 3


def test_json_is_written_as_json_dumps_indents_it(folder):
    """orjson writes the output (the standard library's indenting encoder is pure Python, a tenth of a
    sweep): the text must be what ``json.dumps(indent=2, ensure_ascii=False)`` gave, byte for byte, on a
    real sweep (non-ASCII names, floats, empty lists), and where it differs only in spelling a value."""
    from workbench.output.cli_io import json_text

    result = run("sweep", str(folder), *OPTIONS, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert result.stdout == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    assert json_text({"name": "Café ☕", 3: [], "x": {}}) == '{\n  "name": "Café ☕",\n  "3": [],\n  "x": {}\n}\n'
    assert json.loads(json_text({"tiny": 1e-05})) == {"tiny": 1e-05}  # spelled 0.00001: the same number


def test_a_sweep_in_processes_saves_each_files_run_and_gates_it_on_the_bars(folder, tmp_path):
    """The processes hand back each file's output and totals; with a history or bars, its evaluation too: each file's
    run is saved, and the bars name each file that falls below them (exit 1)."""
    import sqlite3

    db = tmp_path / "history.sqlite"
    options = [option for option in OPTIONS if option != "--no-history"]
    result = run("sweep", str(folder), *options, "--jobs", "2", "--db", str(db), "--fail-below", "clean=21")
    # 20 of the sample's 24 questions are clean under the best setup of each file: below 21, in all three.
    assert result.returncode == 1, result.stderr
    for name in ("shop_a.md", "shop_b.csv", "shop_c.xlsx"):
        assert f"{name}: heading/keyword/none: clean is 20, below the bar of 21" in result.stderr
    with sqlite3.connect(db) as connection:
        saved = sorted(row[0] for row in connection.execute("select document from runs"))
    assert saved == ["shop_a.md", "shop_b.csv", "shop_c.xlsx"]
