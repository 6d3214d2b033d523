"""Exporting the pieces of a cut: JSON lines and CSV that a bot's pipeline loads."""

from __future__ import annotations

import csv
import io
import json

import pytest

from workbench.cut import chunk_document
from workbench.output.cli import main
from workbench.output.pieces import export_pieces, piece_records
from workbench.read.loaders import load_path, parse_markdown

from .conftest import SAMPLE_CSV, SAMPLE_MD


def test_the_heading_cut_of_the_sample_is_eleven_records_that_point_into_the_document(tmp_path):
    out = tmp_path / "pieces.jsonl"
    assert main(["export", str(SAMPLE_MD), "--strategy", "heading", "--format", "jsonl", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    document = load_path(SAMPLE_MD)
    assert len(records) == 11  # the title's introduction and ten products
    for record in records:
        meta = record["metadata"]
        assert set(record) == {"id", "text", "metadata"}
        assert set(meta) == {"source", "section", "breadcrumb", "start", "end", "strategy"}
        assert record["text"] == document.text[meta["start"] : meta["end"]]  # no prefix in the heading cut
        assert meta["source"] == "breezy_home_price_list.md" and meta["strategy"] == "heading"
    assert [r["metadata"]["start"] for r in records] == sorted(r["metadata"]["start"] for r in records)
    assert len({r["id"] for r in records}) == 11
    aurora = records[1]
    assert aurora["metadata"]["section"] == "Aurora Ceiling Fan"
    assert aurora["metadata"]["breadcrumb"] == "Breezy Home price list › Aurora Ceiling Fan"
    assert aurora["text"].startswith("## Aurora Ceiling Fan\nSKU: BH-CF-AUR-W") and aurora["text"].endswith("Stock: 4")


def test_the_breadcrumb_prefix_is_in_the_text_but_not_in_the_offsets():
    document = load_path(SAMPLE_MD)
    records = piece_records(document, chunk_document(document, "breadcrumb"))
    second = records[1]
    prefix = "Breezy Home price list > Aurora Ceiling Fan\n"
    assert second["text"].startswith(prefix)
    assert second["text"][len(prefix) :] == document.text[second["metadata"]["start"] : second["metadata"]["end"]]


def test_overlapping_windows_are_records_in_document_order_with_their_main_section():
    document = parse_markdown("# Shop\n\n## Fan\nPrice: 10\n\n## Lamp\nPrice: 5\n", "tiny.md")
    # "# Shop" 0-6, "## Fan" 8-14, "Price: 10" 15-24, "## Lamp" 26-33, "Price: 5" 34-42; 43 characters.
    # Windows of 20 every 15 (20 - 5): starts 0, 15, 30.
    records = piece_records(document, chunk_document(document, "fixed-overlap", size=20, overlap=5))
    assert [(r["metadata"]["start"], r["metadata"]["end"]) for r in records] == [(0, 20), (15, 35), (30, 43)]
    assert [r["text"] for r in records] == ["# Shop\n\n## Fan\nPrice", "Price: 10\n\n## Lamp\nP", "amp\nPrice: 5\n"]
    # The second window holds "Price: 10" whole (9 characters) and 1 of "Price: 5": it belongs to Fan.
    assert [r["metadata"]["section"] for r in records] == ["Fan", "Fan", "Lamp"]
    assert records[0]["metadata"]["breadcrumb"] == "Shop › Fan"


def test_csv_has_one_row_per_piece_and_no_cell_runs_as_a_formula():
    document = parse_markdown("## Offer\n=HYPERLINK(\"x\")\n\n## Fan\nPrice: 10\n", "offer.md")
    text = export_pieces(document, chunk_document(document, "fixed", size=12), "csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["id", "text", "source", "section", "breadcrumb", "start", "end", "strategy"]
    assert len(rows) == 1 + len(chunk_document(document, "fixed", size=12))
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)


def test_a_spreadsheet_exports_one_record_per_product_with_offsets_into_its_text(tmp_path):
    out = tmp_path / "pieces.csv"
    assert main(["export", str(SAMPLE_CSV), "--strategy", "heading", "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    document = load_path(SAMPLE_CSV)
    assert len(rows) == 10  # ten products; the title heading has no text of its own
    assert rows[0]["section"] == "Aurora Ceiling Fan"
    for row in rows:
        assert row["text"] == document.text[int(row["start"]) : int(row["end"])]


def test_an_unknown_strategy_is_named(capsys):
    assert main(["export", str(SAMPLE_MD), "--strategy", "nope"]) == 2
    assert "unknown strategy 'nope'" in capsys.readouterr().err


def test_the_jsonl_loads_into_langchain_documents(tmp_path):
    documents = pytest.importorskip("langchain_core.documents")
    out = tmp_path / "pieces.jsonl"
    assert main(["export", str(SAMPLE_MD), "--strategy", "heading", "--out", str(out)]) == 0
    # The README's snippet, line for line.
    loaded = [
        documents.Document(page_content=r["text"], metadata=r["metadata"], id=r["id"])
        for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())
    ]
    assert len(loaded) == 11
    assert loaded[1].metadata["section"] == "Aurora Ceiling Fan"
    assert "Warranty: 1 year." in loaded[1].page_content
    assert loaded[1].id == "breezy_home_price_list.md:heading-2"


def test_every_output_files_a_window_under_the_same_section_the_one_holding_most_of_it():
    """One rule (grading.PieceSections) for the JSON-lines export, the evaluate JSON's pieces and the answers CSV:
    a window starting on the Fan's last line but holding mostly the Lamp is the Lamp's in all three (the JSON and
    CSV used to file it under the Fan, where it starts, while the export said the Lamp)."""
    from workbench.core.model import Question, Settings
    from workbench.output.report import to_csv, to_json
    from workbench.run.evaluate import evaluate

    document = parse_markdown("## Fan\nPrice: 10\nWarranty: 1 year.\n## Lamp\nPrice: 5\nColour: red, blue.\n", "s.md")
    chunks = chunk_document(document, "fixed", size=30, overlap=0)
    # Characters 30-60: "ear.\n## Lamp\nPrice: 5\nColour: ": 4 of the Fan's warranty line (30-34) against 8 of
    # the Lamp's price (43-51) and 8 of its colour line (52-60): 4 < 16, so the Lamp's.
    window = chunks[1]
    assert window.text == "ear.\n## Lamp\nPrice: 5\nColour: "
    exported = {r["id"].split(":", 1)[1]: r["metadata"]["section"] for r in piece_records(document, chunks)}
    assert exported[window.id] == "Lamp"
    evaluation = evaluate(document, [Question("Lamp price 5?", "Lamp", "Price: 5", row=2)],
                          Settings(["fixed"], ["keyword"], ["none"], size=30, overlap=0))
    assert evaluation.runs[0].per_question[0].top_chunk == window.id  # the window is the top piece
    assert {p["id"]: p["section"] for p in to_json(evaluation)["pieces"]["fixed"]}[window.id] == "Lamp"
    rows = list(csv.reader(io.StringIO(to_csv(evaluation))))
    assert rows[1][rows[0].index("top piece's section")] == "Lamp"


def test_the_outputs_file_pieces_by_the_map_the_run_graded_with(monkeypatch):
    """After a run, each cut's pieces are filed by the chunk map its grading made (the same object, no second
    one), and that map is what a new one makes; a run of more pieces than KEPT_PIECES keeps none, and a graded
    copy's trial (outcome only) leaves the run's maps as they are."""
    from workbench.core.model import Settings
    from workbench.grade import grading
    from workbench.output.report import piece_sections
    from workbench.read.questions import parse_questions
    from workbench.run.evaluate import evaluate

    from .conftest import SAMPLE_QUESTIONS

    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    settings = Settings(strategies=["heading", "fixed"], retrievers=["bm25"], rerankers=["none"])
    evaluation = evaluate(document, questions, settings)
    filed = piece_sections(evaluation)
    for strategy, chunks in evaluation.chunks.items():
        kept = grading._KEPT[id(chunks)]
        assert filed[strategy].map is kept
        fresh = grading.ChunkMap(document, chunks)
        assert (kept.touched, kept.whole, kept.unnamed) == (fresh.touched, fresh.whole, fresh.unnamed)
    evaluate(document, questions, settings, outcome_only=True)
    assert piece_sections(evaluation)["heading"].map is grading._KEPT[id(evaluation.chunks["heading"])]
    limit = len(evaluation.chunks["heading"]) - 1  # the heading cut's map is not kept; the other's as it fits
    monkeypatch.setattr("workbench.run.evaluate.KEPT_PIECES", limit)
    again = evaluate(document, questions, settings)
    assert id(again.chunks["heading"]) not in grading._KEPT and id(evaluation.chunks["heading"]) not in grading._KEPT
    assert sum(len(kept._chunks) for kept in grading._KEPT.values()) <= limit
    assert piece_sections(again)["heading"].map.touched == piece_sections(evaluation)["heading"].map.touched
