"""A run that reads with the language model stays within a memory budget: past it, a plain refusal before the
model loads, naming the limit and what fits; word search has no such limit."""

from __future__ import annotations

import contextlib
import io

import pytest

from workbench.core import limits
from workbench.core.model import Settings, WorkbenchError
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate
from workbench.run.staged import evaluate_in_stages

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS

QUESTIONS = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)


def never_loaded():
    raise AssertionError("the model was asked for before the run was refused")


def test_a_meaning_based_run_past_the_budget_is_refused_before_the_model_loads(monkeypatch):
    document = load_path(SAMPLE_MD)
    characters = len(document.text)
    monkeypatch.setattr(limits, "MAX_MODEL_CHARACTERS", characters * 2 + 5)  # two cuts fit, three do not
    settings = Settings(["fixed", "heading", "sentence"], ["bm25", "dense"], ["none"])
    with pytest.raises(WorkbenchError) as refusal:
        evaluate(document, QUESTIONS, settings, encoder_factory=never_loaded)
    message = str(refusal.value)
    assert message.startswith(f"breezy_home_price_list.md makes {characters:,} characters of text; cut 3 ways that is "
                              f"{characters * 3:,} characters, and a run with meaning-based search reads at most "
                              f"{characters * 2 + 5:,} characters with the language model")
    assert f"about {limits.MEMORY_BUDGET} of memory" in message
    assert message.endswith("Under Settings, keep at most 2 ways of cutting the file (for example Cut at headings and "
                            "300-character windows), choose word search only, or split the file.")
    seen = []  # the staged run refuses before its word-search stage, not after it
    with pytest.raises(WorkbenchError, match="meaning-based search reads at most"):
        evaluate_in_stages(document, QUESTIONS, settings, encoder_factory=never_loaded, on_stage=seen.append)
    assert seen == []
    # Word search alone reads nothing with the model: the same cuts run.
    words = evaluate(document, QUESTIONS, Settings(["fixed", "heading", "sentence"], ["bm25"], ["none", "heading"]))
    assert len(words.runs) == 6


def test_the_command_line_names_its_flags_when_a_meaning_based_run_is_past_the_budget(monkeypatch):
    from workbench.output.cli import main

    characters = len(load_path(SAMPLE_MD).text)
    monkeypatch.setattr(limits, "MAX_MODEL_CHARACTERS", characters - 1)  # not even one cut fits
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--strategies", "heading",
                     "--retrievers", "dense", "--no-history"])
    assert code == 2 and out.getvalue() == ""
    assert (f"cut 1 way that is {characters:,} characters, and a run with meaning-based search reads at most "
            f"{characters - 1:,} characters") in err.getvalue()
    assert ("Search by words only (--retrievers keyword,bm25 --rerankers none,heading), or split the file."
            in err.getvalue())


def test_a_one_megabyte_catalog_runs_under_the_default_setups_and_the_readme_states_the_limit():
    """The bound on maxsim's blocks (tests/test_maxsim_blocks.py) let the limit rise to a 1 MB file under the four
    default cuts (BENCHMARKS.md, "Memory of a meaning-based run": 1,172 MB measured); the README says the figures."""
    from pathlib import Path

    from tests.synthetic import catalog_csv
    from workbench.read.loaders import load_bytes
    from workbench.run import defaults

    data = catalog_csv(3400, seed=26)
    assert 1_000_000 < len(data) < 1_100_000  # 1,049,862 bytes: "1 MB"
    text = len(load_bytes(data, "catalog.csv").text)
    cuts = list(defaults.DEFAULTS.strategies)
    assert len(cuts) == 4 and text * 4 <= limits.MAX_MODEL_CHARACTERS
    limits.check_model_run("catalog.csv", text, cuts, choose=lambda fit, example: "")  # not refused
    with pytest.raises(WorkbenchError, match=f"reads at most {limits.MAX_MODEL_CHARACTERS:,} characters"):
        limits.check_model_run("catalog.csv", text * 2, cuts, choose=lambda fit, example: "")  # a 2 MB one is
    readme = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8").split())
    assert (f"reads at most {limits.MAX_MODEL_CHARACTERS:,} characters with the language model (the file's text "
            f"times the cuts asked for), to stay within about {limits.MEMORY_BUDGET} of memory") in readme
