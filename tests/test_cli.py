"""The command line end to end, as a user runs it: a real process, its output and exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import ROOT, SAMPLE_CSV, SAMPLE_MD, SAMPLE_QUESTIONS, SAMPLE_XLSX


def run(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def line_for(output: str, strategy: str, retriever: str, reranker: str) -> str:
    for line in output.splitlines():
        if line.split()[:3] == [strategy, retriever, reranker]:
            return line
    raise AssertionError(f"no line for {strategy} {retriever} {reranker} in:\n{output}")


@pytest.mark.parametrize("document", [SAMPLE_MD, SAMPLE_CSV, SAMPLE_XLSX], ids=lambda p: p.suffix)
def test_table_on_the_sample_shows_the_effect(document):
    result = run("evaluate", str(document), "--questions", str(SAMPLE_QUESTIONS), "--retrievers", "keyword,bm25",
                 "--rerankers", "none", "--threshold", "none")
    assert result.returncode == 0, result.stderr
    # A spreadsheet's parts are its products (its title section holds no fact); a Markdown file's, its sections.
    parts = "11 sections, 99 facts" if document.suffix == ".md" else "10 products, 108 facts"
    assert result.stdout.startswith(f"{document.name}: {parts}, "), result.stdout.splitlines()[0]
    heading = line_for(result.stdout, "heading", "keyword", "none")
    fixed = line_for(result.stdout, "fixed", "keyword", "none")
    assert "20 clean /   0 mixed /   0 missed (of 24)" in heading
    assert "hit@5 1.00" in heading
    clean_fixed = int(fixed.split()[3])
    assert clean_fixed <= 2, fixed
    assert "refused 0/4 unanswerable" in heading


def test_json_shape_of_design():
    result = run(
        "evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--strategies", "fixed,heading", "--format", "json",
        "--retrievers", "keyword", "--rerankers", "none", "--threshold", "none",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["document"]["name"] == SAMPLE_MD.name
    assert [(r["strategy"], r["retriever"], r["reranker"]) for r in data["runs"]] == [
        ("fixed", "keyword", "none"), ("heading", "keyword", "none"),
    ]
    run_ = data["runs"][1]
    for key in ("chunks", "clean", "mixed", "missed", "refused", "hit_rate", "mrr", "ndcg", "context_chars", "per_question"):
        assert key in run_
    assert run_["clean"] == 20 and run_["chunks"] == 11  # ten products and the introduction
    first = run_["per_question"][0]
    assert set(first) >= {"question", "grade", "reason", "rank", "top_piece", "confidence"}
    # Questions and pieces are named by id; their texts sit once in the questions and pieces tables.
    assert data["questions"][first["question"] - 1]["question"] == "What is the warranty on the Aurora ceiling fan?"
    assert first["grade"] == "clean" and first["top_piece"] == "heading-2"
    piece = next(p for p in data["pieces"]["heading"] if p["id"] == "heading-2")
    assert piece["section"] == "Aurora Ceiling Fan" and piece["text"].startswith("## Aurora Ceiling Fan")
    start, end = piece["spans"][0]
    assert SAMPLE_MD.read_text(encoding="utf-8")[start:end] == piece["text"]
    assert data["recommended"] == {"strategy": "heading", "retriever": "keyword", "reranker": "none"}
    assert data["chance_warning"] is None


def test_csv_output_to_a_file(tmp_path):
    out = tmp_path / "results.csv"
    result = run("evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--strategies", "heading",
                 "--retrievers", "keyword", "--rerankers", "none", "--format", "csv", "--out", str(out))
    assert result.returncode == 0 and result.stdout == ""
    lines = out.read_text().splitlines()
    assert lines[0].startswith("way of cutting,search,re-check,row,question,grade,why,")
    assert lines[0].endswith(",strategy,retriever,reranker,reason,top_chunk_id,top_score,refuse_below")  # for scripts
    assert len(lines) == 1 + 24


def test_threshold_refuses():
    result = run("evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--strategies", "heading",
                 "--retrievers", "keyword", "--rerankers", "none", "--threshold", "1", "--format", "json")
    data = json.loads(result.stdout)["runs"][0]
    # A confidence is at most 1 and an unanswerable question's lacks the words the document never uses, so
    # all four are below 1 and refused (a threshold above 1 is refused as a flag: tests/test_cli_robust.py).
    assert data["refusal_accuracy"] == 1.0
    assert data["refused"] >= 4


def test_bad_question_rows_are_named_and_left_out(tmp_path):
    questions = tmp_path / "q.csv"
    questions.write_text(
        "question,expected_source,expected_answer\n"
        "Price of Zephyr?,Zephyr Table Fan,Price: 39.90\n"
        "Price of Zephyr?,Zephyr Table Fan,Price: 99.99\n"
        "Price of the Typhoon?,Typhoon,Price: 1\n"
    )
    result = run("evaluate", str(SAMPLE_MD), "--questions", str(questions), "--strategies", "heading",
                 "--retrievers", "keyword", "--rerankers", "none")
    assert result.returncode == 0
    assert "left out row 3 ('Price of Zephyr?'): the answer 'Price: 99.99' is not in 'Zephyr Table Fan'" in result.stdout
    assert "left out row 4 ('Price of the Typhoon?'): no product or section is called 'Typhoon'" in result.stdout
    assert "1 clean /   0 mixed /   0 missed (of 1)" in result.stdout


def _bad_inputs(tmp: Path):  # noqa: F821
    empty = tmp / "empty.csv"
    empty.write_bytes(b"")
    corrupt = tmp / "corrupt.xlsx"
    corrupt.write_bytes(b"PK\x03\x04garbage" * 10)
    binary = tmp / "photo.md"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00")
    nameless = tmp / "codes.csv"
    nameless.write_text("Code,Cost\nA1,10\n")
    qs = str(SAMPLE_QUESTIONS)
    md = str(SAMPLE_MD)
    return [
        (["evaluate", str(tmp / "missing.md"), "--questions", qs], "missing.md does not exist"),
        (["evaluate", str(empty), "--questions", qs], "empty.csv is empty"),
        (["evaluate", str(corrupt), "--questions", qs], "corrupt.xlsx is not a readable Excel file"),
        (["evaluate", str(binary), "--questions", qs], "photo.md looks like a binary file"),
        (["evaluate", str(nameless), "--questions", qs], "codes.csv has no column that looks like a product name"),
        (["evaluate", md, "--questions", qs, "--strategies", "fixed,magic"], "unknown strategy 'magic'"),
        (["evaluate", md, "--questions", qs, "--size", "0"], "--size must be from 1 to 60,000,000 (characters per piece), not 0"),
        (["evaluate", md, "--questions", qs, "--strategies", "fixed-overlap", "--size", "100", "--overlap", "200"],
         "overlap (200) must be smaller than the size (100)"),
        (["evaluate", md, "--questions", qs, "--size", "ten"], "--size must be a whole number, not 'ten'"),
        (["evaluate", md, "--questions", str(tmp / "nope.csv")], "nope.csv does not exist"),
        (["evaluate", md, "--questions", str(nameless)], "codes.csv lacks the column(s) question, expected_source, expected_answer"),
        (["evaluate", md, "--questions", qs, "--rerankers", "cross-encoder"], "cross-encoder: name the folder"),
    ]


def test_every_bad_input_exits_2_with_one_plain_line(tmp_path):
    for args, message in _bad_inputs(tmp_path):
        result = run(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], (args, result.stderr)


# Loaded before the command (as site loads it): an object the interpreter's teardown would free, and an exit handler
# registered when the command line is imported, as a library registers its own.
WATCHER = """import atexit, os, sys

class Torn:
    def __del__(self, write=os.write):
        write(2, b"torn down\\n")

kept = Torn()

def hook(event, args):
    if event == "import" and args[0] == "workbench.output.cli":
        atexit.register(lambda: os.write(2, b"handler ran\\n"))

sys.addaudithook(hook)
"""


def test_a_finished_command_leaves_without_the_teardown_after_its_output_and_exit_handlers(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(WATCHER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "workbench", "audit", str(SAMPLE_MD), "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["document"]  # the whole output, flushed before leaving
    assert "handler ran" in done.stderr and "torn down" not in done.stderr
    failed = subprocess.run([sys.executable, "-m", "workbench", "sweep", str(tmp_path / "missing")],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert failed.returncode == 2 and "is not a folder" in failed.stderr
    assert "handler ran" in failed.stderr and "torn down" not in failed.stderr
