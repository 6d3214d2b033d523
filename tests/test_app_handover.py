"""Results and Cuts hand things over: the bot-ready file beside the original, and the pieces."""

from __future__ import annotations

import json

import pytest

from workbench.advise.rewrite import rewrite
from workbench.read.loaders import load_path

from .conftest import SAMPLE_MD
from .test_app import go, open_on_price_list, plain

# About the pages, not the default setups: word search only, no model (tests/test_staged.py has those).
pytestmark = pytest.mark.usefixtures("word_only_defaults")


def downloads(at) -> dict:
    return {button.proto.label: button for button in at.get("download_button")}


def test_results_show_the_original_beside_the_bot_ready_file_with_both_grades():
    at = go(open_on_price_list(), "pages/results.py")
    assert not at.exception
    assert "A bot-ready version of your file" in [s.value for s in at.subheader]
    sentence = next(plain(m.value) for m in at.markdown if "bot-ready file:" in plain(m.value))
    assert sentence.startswith("**your file: 0 of 20 clean with 300-character windows, word-match search, not re-checked → bot-ready file: ")
    codes = [c.value.strip() for c in at.code]
    original = load_path(SAMPLE_MD)
    assert original.text.strip() in codes and rewrite(original).text.strip() in codes  # side by side, whole
    assert any("34 line(s) shared word for word" in plain(c.value) for c in at.caption)
    # The LangChain comparison runs by default and shows under its display name on the charts.
    grades = json.loads(next(chart.proto.spec for chart in at.get("plotly_chart") if chart.key == "chart_grades"))
    shown = {str(v).replace("<br>", " ") for trace in grades["data"] for axis in ("x", "y") for v in trace.get(axis) or []}
    assert "LangChain common (1,000 / 200)" in shown
    labels = downloads(at)
    assert "Download the bot-ready file (.md)" in labels
    assert "Download the 11 pieces of “Cut at headings”" in labels


def test_cuts_offer_the_pieces_of_a_chosen_cut():
    at = go(open_on_price_list(), "pages/cuts.py")
    assert not at.exception
    at.selectbox(key="cuts_pieces_of").set_value("heading").run()
    assert "Download the 11 pieces of “Cut at headings”" in downloads(at)
    # The download carries the export's records (the same function the command line writes).
    from workbench.cut import chunk_document
    from workbench.output.pieces import export_pieces

    records = [json.loads(line) for line in export_pieces(load_path(SAMPLE_MD),
               chunk_document(load_path(SAMPLE_MD), "heading"), "jsonl").splitlines()]
    assert len(records) == 11
