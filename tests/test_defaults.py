"""Issue 34: one definition of the defaults. The command line, the app's Results and ``bench/default_setup.py``
start from the one ``run.defaults.DEFAULTS`` object, and with it reach the same verdict on the same file."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from workbench.output.cli import main
from workbench.output.cli_args import build_parser, run_settings
from workbench.run import defaults

from .conftest import REAL_DATA, ROOT, SAMPLE_MD, SAMPLE_QUESTIONS, SAMPLES, bench_module

REAL_FILE = REAL_DATA / "amplipro_warranty_returns.md"  # the smallest real file: the model reads it in seconds
REAL_QUESTIONS = ROOT / "bench" / "questions" / "amplipro_warranty_returns.questions.csv"

# Every field other than the default's, so a consumer that kept its own copy of any one of them is caught.
OTHER = defaults.Defaults(strategies=("heading", "fixed"), retrievers=("keyword",), rerankers=("none", "heading"),
                          top_k=3, size=200, overlap=30, threshold=0.25, depth=20)


def app_settings_script():
    import streamlit as st

    from ui import running
    from ui.session import init_session_state

    init_session_state()
    st.session_state["seen"] = running.current_settings()


def cli_settings() -> defaults.Settings:
    return run_settings(build_parser().parse_args(["evaluate", "x.md", "--questions", "q.csv"]))


def test_the_command_line_the_app_and_the_benchmark_start_from_one_defaults_object(monkeypatch):
    assert OTHER != defaults.DEFAULTS and all(getattr(OTHER, name) != getattr(defaults.DEFAULTS, name)
                                              for name in OTHER.__dataclass_fields__)
    expected = defaults.DEFAULTS.settings()
    assert cli_settings() == expected
    assert bench_module("default_setup").run_settings() == expected
    assert AppTest.from_function(app_settings_script).run().session_state["seen"] == expected
    # Replaced, the one object reaches all three: none of them holds a copy of its own.
    monkeypatch.setattr(defaults, "DEFAULTS", OTHER)
    other = OTHER.settings()
    assert other.threshold == 0.25 and other.strategies == ["heading", "fixed"]
    assert cli_settings() == other
    assert bench_module("default_setup").run_settings() == other
    assert AppTest.from_function(app_settings_script).run().session_state["seen"] == other
    # --help names each default, from the same object.
    text = build_parser()._subparsers._group_actions[0].choices["evaluate"].format_help()
    for said in ("(default: heading,fixed)", "(default: keyword)", "(default: none,heading)", "(default: 3)",
                 "(default: 200)", "(default: 30, at most half", "(default: 0.25)", "(default: 20)"):
        assert said in " ".join(text.split()), said


def test_a_size_alone_keeps_the_default_overlap_below_half_of_it():
    args = build_parser().parse_args(["evaluate", "x.md", "--questions", "q.csv", "--size", "60"])
    assert run_settings(args).overlap == 30  # 45 would be three quarters of a 60-character window
    args = build_parser().parse_args(["evaluate", "x.md", "--questions", "q.csv", "--size", "500", "--overlap", "9"])
    assert (run_settings(args).size, run_settings(args).overlap) == (500, 9)
    args = build_parser().parse_args(["evaluate", "x.md", "--questions", "q.csv", "--threshold", "none"])
    assert run_settings(args).threshold is None


def app_verdict_script():
    import streamlit as st

    from ui import running
    from ui.keys import LoadedFile
    from ui.session import init_session_state
    from workbench.advise.verdict import assess

    init_session_state()
    name, data, questions_csv = st.session_state["wanted"]
    result = running.run_evaluation((LoadedFile(name, data),), questions_csv, running.current_settings())
    best = assess(result).recommended
    st.session_state["verdict"] = (assess(result).status, best.strategy, best.retriever, best.reranker)


def app_verdict(path: Path, questions: Path) -> tuple:
    """What the app's Results reaches: its settings on a first visit, its engine call, its questions table's CSV."""
    from ui.questions_table import frame_questions, questions_frame, tidy_questions
    from workbench.read.questions import parse_questions, questions_to_csv

    table = tidy_questions(questions_frame(parse_questions(questions.read_bytes(), questions.name)))
    at = AppTest.from_function(app_verdict_script, default_timeout=600)
    at.session_state["wanted"] = (path.name, path.read_bytes(), questions_to_csv(frame_questions(table)))
    return at.run().session_state["verdict"]


def cli_verdict(path: Path, questions: Path, tmp_path: Path) -> tuple:
    """``evaluate FILE --questions Q`` with no setup flags."""
    out = tmp_path / f"{path.stem}.json"
    assert main(["evaluate", str(path), "--questions", str(questions), "--format", "json", "--out", str(out),
                 "--no-history"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["pending"] == []
    setup = data["verdict"]["setup"]
    return data["verdict"]["status"], setup["strategy"], setup["retriever"], setup["reranker"]


def bench_verdict(path: Path, questions: Path) -> tuple:
    """The benchmark's own run of the file, in its own process, on this process's embedding cache (the tests')."""
    from workbench.store.embedding_store import default_path

    run = bench_module("default_setup").run_once(path, questions, default_path() or Path("off"), bound=False)
    return (run["status"], *run["setup"].split(" / "))


@pytest.mark.slow
@pytest.mark.parametrize("path, questions", [(SAMPLE_MD, SAMPLE_QUESTIONS), (REAL_FILE, REAL_QUESTIONS)],
                         ids=["sample", "real file"])
def test_the_command_line_the_app_and_the_benchmark_give_one_verdict(path, questions, tmp_path):
    if not path.is_file():
        pytest.skip(f"{path} is absent (the real files live beside the project, in ../shared/real-data)")
    cli = cli_verdict(path, questions, tmp_path)
    assert cli == app_verdict(path, questions)
    if path == REAL_FILE:  # the benchmark's own process loads the model again: once is enough to hold it
        assert bench_verdict(path, questions) == cli
    # Hand-checked: the sample answers 20 of 20 cleanly with the 4 it cannot answer refused (the plain command
    # said "Not ready" before, with no threshold); the warranty page answers all of its questions under heading.
    assert cli[0] == "Ready"
    assert cli[1:] == (("heading", "bm25", "none") if path == SAMPLE_MD else cli[1:])


def test_a_knowledge_base_and_a_sweep_start_from_the_same_defaults(tmp_path, monkeypatch):
    """Several files as one base, and every document of a sweep, are graded under the one object's settings (a
    word-search one here, so no model loads)."""
    small = replace(defaults.DEFAULTS, strategies=("fixed", "heading"), retrievers=("keyword",), rerankers=("none",),
                    top_k=3)
    monkeypatch.setattr(defaults, "DEFAULTS", small)
    expected = asdict(small.settings())
    out = tmp_path / "base.json"
    assert main(["evaluate", str(SAMPLE_MD), str(SAMPLES / "breezy_home_policies.md"), "--questions",
                 str(SAMPLE_QUESTIONS), "--format", "json", "--out", str(out), "--no-history"]) == 0
    base = json.loads(out.read_text(encoding="utf-8"))
    assert len(base["files"]) == 2 and base["settings"] == expected
    folder = tmp_path / "shops"
    folder.mkdir()
    (folder / "prices.md").write_bytes(SAMPLE_MD.read_bytes())
    (folder / "prices.questions.csv").write_bytes(SAMPLE_QUESTIONS.read_bytes())
    out = tmp_path / "sweep.json"
    assert main(["sweep", str(folder), "--format", "json", "--out", str(out), "--no-history"]) == 0
    [document] = json.loads(out.read_text(encoding="utf-8"))["documents"]
    assert document["settings"] == expected and document["pending"] == []


def test_the_one_verdict_check_covers_every_format_the_app_reads():
    """bench/same_verdict.py took .md, .csv and .txt only: the four Excel exports with question sets beside them were
    never checked. Every file of the project's own with a question set is now listed, whatever the format it is."""
    listed = {path.name for path, _ in bench_module("same_verdict").pairs()}
    written = ROOT / "tests" / "data" / "written"
    for name in ("bakery_square_en.xlsx", "ceramika_allegro_pl.xlsx", "chainaya_ozon_ru.xlsx",
                 "mates_mercadolibre_es.xlsx", "fietsen_unicode_nl.txt", "shop_faq_fr.md", "kettle_shopify_en.csv"):
        assert (written / name).is_file() and name in listed, name
    assert not any(name.endswith(".questions.csv") for name in listed)  # a question set is no document
    assert "README.md" not in listed  # no question set beside it
