"""A knowledge base of several files: cut per file, searched together, graded knowing each piece's file.

The three files under tests/kb are written so that each checked alone is clean, and together the policies
page's returns line is the decoy for a product question (scores worked out in the comments).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.advise.crossfile import cross_findings, cross_todo, file_lines, other_file_answers
from workbench.advise.verdict import assess
from workbench.core.model import Question, Settings
from workbench.cut import STRATEGIES, chunk_document
from workbench.grade.grading import ChunkMap
from workbench.output.pieces import piece_records
from workbench.read.base_of_files import combine
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.read.resolve import resolve
from workbench.run.evaluate import evaluate

from .conftest import ROOT, SAMPLE_CSV, SAMPLE_QUESTIONS

KB = Path(__file__).parent / "kb"
FILES = [KB / "catalog.csv", KB / "policies.md", KB / "faq.md"]
POLICIES = ROOT / "sample_data" / "breezy_home_policies.md"
LEXICAL = [s for s in STRATEGIES.ids() if s != "section-window"]  # section-window counts with the model's tokenizer


def base():
    return combine([load_path(path) for path in FILES])


def questions() -> list[Question]:
    return parse_questions((KB / "questions.csv").read_bytes(), "questions.csv")


def heading_keyword() -> Settings:
    return Settings(strategies=["heading"], retrievers=["keyword"], rerankers=["none"])


def test_each_file_keeps_its_own_text_and_offsets():
    kb = base()
    assert kb.kind == "base" and [part.name for part in kb.files] == ["catalog.csv", "policies.md", "faq.md"]
    for part in kb.files:
        assert kb.text[part.start : part.end] == part.document.text
        for own, shifted in zip(part.document.sections, [s for s in kb.sections if s.id.startswith(f"f{part.number}.")]):
            assert shifted.id == f"f{part.number}.{own.id}"
            assert kb.slice(shifted.span) == part.document.slice(own.span)
            assert [kb.slice(f.span) for f in shifted.facts] == [part.document.slice(f.span) for f in own.facts]
    assert kb.file_at(kb.files[1].start + 3) == (kb.files[1], 3)


def test_two_files_of_one_name_are_refused():
    with pytest.raises(ValueError, match="two files of the knowledge base are called catalog.csv"):
        combine([load_path(FILES[0]), load_path(FILES[0])])


@pytest.mark.parametrize("strategy", LEXICAL)
def test_no_piece_spans_two_files_and_ids_name_the_file(strategy):
    kb = base()
    chunks = chunk_document(kb, strategy, size=120, overlap=20)  # small windows, so a window would cross a file's end
    assert len({c.id for c in chunks}) == len(chunks)
    chunk_map = ChunkMap(kb, chunks)
    for index, chunk in enumerate(chunks):
        part, _ = kb.file_at(chunk.start)
        assert all(part.start <= a and b <= part.end for a, b in chunk.spans), chunk.id
        assert chunk.id.startswith(f"{part.name}:{strategy}-")
        # "mixed" counts only the facts a piece holds, and those are all of its own file
        assert all(section.startswith(f"f{part.number}.") for section in chunk_map.touched[index])


def test_questions_name_the_file_and_ambiguous_names_are_refused():
    kb = base()
    good = resolve(kb, Question("How long do refunds take?", "policies › Returns", "within 5 working days"))
    assert good.section_id == "f2.s1"
    assert [kb.slice(span) for span in good.answer_spans] == ["within 5 working days"]
    unique = resolve(kb, Question("Kettle?", "Kettle Pro", "30 days"))
    assert unique.section_id == "f1.s1"  # catalog.csv's first product (s0 is the sheet's title)
    # The same page under two names: its "Returns" heading is in two files.
    policies = load_path(FILES[1])
    twice = combine([policies, replace(policies, name="more_policies.md")])
    bad = resolve(twice, Question("Refunds?", "Returns", "within 5 working days"))
    assert bad.reason == ("'Returns' is in several files (policies.md › Returns, more_policies.md › Returns); "
                          "write it as file › section")
    missing = resolve(kb, Question("Refunds?", "prices.csv › Returns", "x"))
    assert missing.reason == ("no file of the knowledge base is called 'prices.csv' "
                              "(the files: catalog.csv, policies.md, faq.md)")


def test_a_source_file_column_is_read_as_file_then_section():
    data = b"question,expected_source,expected_answer,source_file\nRefunds?,Returns,within 5 working days,policies.md\n"
    (question,) = parse_questions(data, "q.csv")
    assert question.expected_source == "policies.md › Returns"
    assert resolve(base(), question).section_id == "f2.s1"


def test_each_file_alone_is_clean():
    qs = questions()
    for path, asked in ((FILES[0], qs[0]), (FILES[1], Question(qs[1].question, "Returns", qs[1].expected_answer)),
                        (FILES[2], qs[2])):
        (result,) = evaluate(load_path(path), [asked], heading_keyword()).runs[0].per_question
        assert result.grade == "clean", path.name


def test_together_a_policy_line_is_the_decoy_from_its_file():
    evaluation = evaluate(base(), questions(), heading_keyword())
    (run,) = evaluation.runs
    kettle, refunds, ice = run.per_question
    # "Can I return the kettle 30 days after delivery?" -> terms return, kettl, 30, day, deliveri ("can", "i",
    # "the", "after" are stop words; Snowball stems).
    # Kettle Pro's piece ("Returns: 30 days, unused."): return, kettl, 30, day = 4.
    # policies.md's Returns piece ("Returns: 30 days after delivery, ... every kettle"): all five = 5.
    assert [s for _, s in kettle.ranking[:2]] == [5.0, 4.0]
    assert (kettle.grade, kettle.reason, kettle.rank) == ("missed", "decoy", 2)
    assert kettle.top_chunk == "policies.md:heading-1"
    assert (refunds.grade, ice.grade) == ("clean", "clean")
    assert other_file_answers(evaluation, run) == [
        "row 2: “Can I return the kettle 30 days after delivery?” has its answer in catalog.csv, but the top piece "
        "is from policies.md line 3 — a decoy from policies.md: its piece holds the same words."
    ]
    assert file_lines(evaluation, run) == [
        "catalog.csv: 0 of 1 question clean (0%); the top piece came from another "
        "file for 1 (policies.md).",
        "policies.md: 1 of 1 question clean (100%).",
        "faq.md: 1 of 1 question clean (100%).",
    ]


def test_cross_file_check_up_finds_the_conflict_the_shared_line_and_the_named_product():
    kb = base()
    texts = {f.kind: f.text for f in cross_findings(kb)}
    assert texts == {
        "conflict": "“Returns: 30 days after delivery, unused, for every kettle, toaster and blender.” in policies.md "
                    "line 4 vs “Returns: 30 days, unused.” on 1 product (row 2); “Returns: 14 days, sealed.” on 1 "
                    "product (row 3); “Returns: 7 days, unopened.” on 1 product (row 4) in catalog.csv",
        "shared": "“Delivery: Monday to Friday only.” is word for word in policies.md line 8 and faq.md line 4",
        "named": "Blender Max is named in faq.md line 6 and 1 more place; its facts are in catalog.csv row 4",
    }
    evaluation = evaluate(kb, questions(), heading_keyword())
    items = {item.kind: item for item in cross_todo(evaluation, evaluation.runs[0])}
    # The conflict touches the kettle question twice over: its answer is on a conflicting row, and its top
    # piece is the policy line from another file. It is the one not clean.
    assert (items["conflict"].questions, items["conflict"].fixes) == ([2], [2])
    assert items["conflict"].where == "policies.md line 4; catalog.csv row 2, column Returns; " \
                                      "catalog.csv row 3, column Returns; catalog.csv row 4, column Returns"
    assert items["named"].questions == [4]  # the ice question is about Blender Max's FAQ entry
    assert items["shared"].questions == []


def test_the_command_line_names_the_file():
    args = [sys.executable, "-m", "workbench", "evaluate", *map(str, FILES), "--questions", str(KB / "questions.csv"),
            "--strategies", "heading", "--retrievers", "keyword", "--rerankers", "none", "--no-history"]
    table = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert table.returncode == 0, table.stderr
    assert "catalog.csv + policies.md + faq.md: 7 sections, 14 facts" in table.stdout
    assert "a decoy from policies.md: its piece holds the same words" in table.stdout
    assert "The knowledge base of 3 files (catalog.csv, policies.md, faq.md), file by file:" in table.stdout
    assert "To do across the files (3 items):" in table.stdout
    data = json.loads(subprocess.run([*args, "--format", "json"], capture_output=True, text=True, cwd=ROOT,
                                     timeout=300).stdout)
    first = data["runs"][0]["per_question"][0]
    assert (first["grade"], first["reason"], first["top_piece"], first["top_file"]) == (
        "missed", "decoy", "policies.md:heading-1", "policies.md")
    piece = next(p for p in data["pieces"]["heading"] if p["id"] == "policies.md:heading-1")
    own = (KB / "policies.md").read_text()
    (start, end), = piece["file_spans"]
    assert piece["file"] == "policies.md" and own[start:end] == piece["text"]
    assert [f["name"] for f in data["document"]["files"]] == ["catalog.csv", "policies.md", "faq.md"]
    conflict = data["todo_across_files"][0]
    assert {p.get("file") for p in conflict["places"]} == {"policies.md", "catalog.csv"}
    assert conflict["places"][0] == {"file": "policies.md", "section": "Returns", "row": None, "column": None,
                                     "line": 4}


def test_pieces_export_names_each_piece_s_file_with_its_own_offsets():
    kb = base()
    records = piece_records(kb, chunk_document(kb, "heading"))
    assert {r["metadata"]["source"] for r in records} == {"catalog.csv", "policies.md", "faq.md"}
    for record in records:
        part = next(p for p in kb.files if p.name == record["metadata"]["source"])
        meta = record["metadata"]
        body = record["text"]  # heading pieces have no prefix: the text is the file's own slice
        assert part.document.text[meta["start"] : meta["end"]] == body
        assert record["id"].startswith(f"{part.name}:heading-")


def sample_runs(extra: list[Question] = ()):
    asked = parse_questions(SAMPLE_QUESTIONS.read_bytes(), "q.csv") + list(extra)
    settings = Settings(strategies=LEXICAL, retrievers=["keyword"], rerankers=["none"])
    prices = load_path(SAMPLE_CSV)
    return evaluate(prices, asked, settings), evaluate(combine([prices, load_path(POLICIES)]), asked, settings)


def test_price_list_plus_policies_keeps_the_price_list_s_grades_where_nothing_competes():
    # Word-match search scores a piece by its own words only, so a piece's score is the same in the base;
    # a question keeps its grade unless a policies piece wins (tie: the earlier piece, the price list's).
    # BM25 is not like that: its word weights are counted over all the pieces, so adding a file moves
    # scores within the price list too (seen on the sample: concern/bm25 loses 2 questions to its own pieces).
    alone, together = sample_runs([NIMBUS])
    for one, both in zip(alone.runs, together.runs):
        for x, y in zip(one.per_question, both.per_question):
            top = together.chunks[both.strategy][y.ranking[0][0]]
            from_policies = together.document.file_at(top.start)[0].name == "breezy_home_policies.md"
            if x.question is NIMBUS and one.strategy == "heading":
                assert from_policies
            if from_policies and x.answerable:
                assert (y.grade, y.reason) in {("missed", "decoy"), ("missed", "ranked")}, (one.strategy, x.question)
            else:
                assert (x.grade, x.reason) == (y.grade, y.reason), (one.strategy, x.question)
                # below the top, a policies piece may stand between: the answer can only move down
                assert x.rank is None or y.rank >= x.rank


# "Can I return the Nimbus purifier in its original box within 14 days of delivery?" -> terms return, nimbus,
# purifi, origin, box, 14, day, deliveri (the rest are stop words). Nimbus's piece: return, nimbus, purifi, 14,
# day = 5 (the fans': return, origin, box, day = 4). The policies' Returns piece ("Returns: 14 days from
# delivery, in the original box."): return, origin, box, 14, day, deliveri = 6, and it holds "14 days".
NIMBUS = Question("Can I return the Nimbus purifier in its original box within 14 days of delivery?",
                  "Nimbus Air Purifier", "14 days")


def test_where_the_policies_page_competes_the_grade_differs_and_says_why():
    alone, together = sample_runs([NIMBUS])
    one = next(r for r in alone.runs if r.strategy == "heading")
    both = next(r for r in together.runs if r.strategy == "heading")
    assert (one.per_question[-1].grade, one.per_question[-1].ranking[0][1]) == ("clean", 5.0)
    result = both.per_question[-1]
    assert (result.grade, result.reason, result.ranking[0][1], result.rank) == ("missed", "decoy", 6.0, 2)
    assert other_file_answers(together, both)[-1].endswith(
        "the top piece is from breezy_home_policies.md line 3 — a decoy from breezy_home_policies.md: its piece "
        "holds the same words.")
    assert sum(r.grade == "clean" for r in both.per_question) == sum(r.grade == "clean" for r in one.per_question) - 1
    verdict = assess(together)
    assert verdict.recommended is not None


def test_sweep_takes_each_sub_folder_as_one_knowledge_base(tmp_path):
    import shutil

    shop = tmp_path / "kitchen"
    shop.mkdir()
    for path in [*FILES, KB / "questions.csv"]:
        shutil.copy(path, shop / ("kitchen.questions.csv" if path.name == "questions.csv" else path.name))
    (tmp_path / "empty").mkdir()  # no questions file: skipped with the reason
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "sweep", str(tmp_path), "--strategies", "heading", "--retrievers", "keyword",
         "--rerankers", "none", "--no-history", "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    (document,) = data["documents"]
    # files are read in name order: catalog.csv, faq.md, policies.md
    assert document["document"]["name"] == "catalog.csv + faq.md + policies.md"
    assert document["runs"][0]["per_question"][0]["top_file"] == "policies.md"
    assert data["summary"]["skipped"] == [
        {"document": "empty/", "reason": "a knowledge base's folder needs one file named *.questions.csv (none)"}]


def test_the_report_covers_the_base():
    from workbench.output.handover import report_html

    page = report_html(evaluate(base(), questions(), heading_keyword()))
    assert "The knowledge base, file by file (3 files)" in page
    assert "<li>catalog.csv: 0 of 1 question clean (0%); the top piece came from another " \
           "file for 1 (policies.md).</li>" in page
    assert "a decoy from policies.md: its piece holds the same words." in page
    assert "Make policies.md and catalog.csv agree on Returns" in page


def test_generated_questions_come_from_the_base_s_spreadsheets_and_name_the_file():
    from workbench.read.questions import generate_questions

    kb = base()
    generated = generate_questions(kb)
    # catalog.csv: 3 products x price, warranty, returns (the Name column is the product) = 9
    assert len(generated) == 9
    assert {q.expected_source for q in generated} == {"catalog.csv › Kettle Pro", "catalog.csv › Toaster Duo",
                                                       "catalog.csv › Blender Max"}
    assert all(resolve(kb, q).section_id.startswith("f1.") for q in generated)


def test_the_report_and_command_line_say_what_the_results_page_says_when_only_the_files_together_need_a_change():
    """Walk-through: on the sample knowledge base the Results page said "Nothing is required in each file on its own;
    the files together need the changes below" above the Returns conflict, while the report and the command line
    said "Nothing is required: your file is ready as it is." above the same conflict."""
    from workbench.advise.advice import advise, todo_heading
    from workbench.output.cli_evaluate import verdict_text
    from workbench.output.handover import report_html

    prices = ROOT / "sample_data" / "breezy_home_price_list.md"
    asked = (parse_questions(SAMPLE_QUESTIONS.read_bytes(), "q.csv")
             + parse_questions((ROOT / "sample_data" / "breezy_home_policies_questions.csv").read_bytes(), "p.csv"))
    settings = Settings(strategies=["fixed", "heading"], retrievers=["bm25"], rerankers=["none"], threshold="auto")
    evaluation = evaluate(combine([load_path(prices), load_path(POLICIES)]), asked, settings)
    advice = advise(evaluation, reader="report")
    assert advice.verdict.status == "Ready" and not advice.advised  # each file alone needs nothing
    assert [item.edit.split(":")[0] for item in advice.across] == [
        "Make breezy_home_policies.md and breezy_home_price_list.md agree on Returns"]
    said = "Nothing is required in each file on its own; the files together need the changes below."
    assert todo_heading(advice) == said
    for text in (report_html(evaluation), verdict_text(evaluation)):
        assert said in text and "your file is ready as it is" not in text
    # The report's heading and its note on places say what the Results page says of these two Markdown files.
    page = report_html(evaluation)
    assert "<h2>What to change in your files</h2>" in page and "Lines are your files&#x27;." in page
    assert "spreadsheets" not in page
