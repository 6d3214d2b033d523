"""One numbering of questions everywhere: the row of the questions file as a spreadsheet shows it (header = row 1).

The to-do's question numbers are checked against that file's rows in the app (AppTest), the command line's
JSON, the HTML report and the CSV and Excel downloads, all on the sample.
"""

from __future__ import annotations

import csv
import io
import json
import re

import openpyxl
from streamlit.testing.v1 import AppTest

from workbench.core.model import Settings
from workbench.output.cli import main
from workbench.output.handover import report_html, results_xlsx
from workbench.output.report import to_csv
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate

from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS

# The sample's first to-do item is the warranty line shared word for word by five products. The questions
# whose answer is "Warranty: 1 year." are the 1st and the 3rd question, i.e. lines 2 and 4 of the file.
WARRANTY_ROWS = [2, 4]


def file_rows() -> dict[int, str]:
    """Each question of the sample's questions file by its spreadsheet row (the header is row 1)."""
    lines = list(csv.reader(io.StringIO(SAMPLE_QUESTIONS.read_text(encoding="utf-8"))))
    return {number: cells[0] for number, cells in enumerate(lines, start=1) if number > 1 and cells}


def test_the_warranty_questions_are_rows_2_and_4_of_the_file():
    rows = list(csv.reader(io.StringIO(SAMPLE_QUESTIONS.read_text(encoding="utf-8"))))
    assert rows[0][:3] == ["question", "expected_source", "expected_answer"]  # row 1: the header
    assert [n for n, cells in enumerate(rows, start=1) if n > 1 and cells[2] == "Warranty: 1 year."] == WARRANTY_ROWS
    assert [q.row for q in parse_questions(SAMPLE_QUESTIONS.read_bytes(), "q.csv")][:4] == [2, 3, 4, 5]


def test_the_command_line_json_and_its_csv_and_xlsx_number_questions_by_the_files_rows(capsys, tmp_path):
    common = ["evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--strategies", "fixed,heading", "--threshold", "auto",
              "--retrievers", "keyword", "--rerankers", "none", "--no-history"]
    assert main([*common, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["todo"][0]["questions"] == WARRANTY_ROWS
    texts = file_rows()
    assert [texts[n] for n in data["todo"][0]["questions"]] == [data["questions"][0]["question"],
                                                                data["questions"][2]["question"]]
    out = tmp_path / "answers.csv"
    assert main([*common, "--format", "csv", "--out", str(out)]) == 0
    for record in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))):
        assert texts[int(record["row"])] == record["question"]
    book = tmp_path / "answers.xlsx"
    assert main([*common, "--format", "xlsx", "--out", str(book)]) == 0
    sheet = openpyxl.load_workbook(book)["Answers"]
    header = [cell.value for cell in sheet[1]]
    for values in sheet.iter_rows(min_row=2, values_only=True):
        record = dict(zip(header, values))
        assert texts[record["row"]] == record["question"]


def test_the_report_and_the_apps_downloads_say_the_same_numbers():
    evaluation = evaluate(load_path(SAMPLE_MD), parse_questions(SAMPLE_QUESTIONS.read_bytes(), "q.csv"),
                          Settings(["fixed", "heading"], ["keyword"], ["none"], threshold="auto"))
    assert "affects questions 2, 4" in report_html(evaluation)
    texts = file_rows()
    rows = list(csv.DictReader(io.StringIO(to_csv(evaluation))))
    assert all(texts[int(r["row"])] == r["question"] for r in rows)
    sheet = openpyxl.load_workbook(io.BytesIO(results_xlsx(evaluation)))["Answers"]
    assert [r[3] for r in sheet.iter_rows(min_row=2, max_row=5, values_only=True)] == [2, 3, 4, 5]


def test_the_app_numbers_the_table_results_and_todo_by_the_files_rows():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at = at.switch_page("pages/results.py").run()
    assert not at.exception and not at.error
    # The shared warranty line's item (optional tidying here: every question is clean) names its questions by row.
    todo = next(text for text in (re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown)
                if "Warranty: 1 year. (Aurora Ceiling Fan)" in text)
    numbers = [int(n) for n in re.search(r"affects questions ([\d, ]+)", todo).group(1).split(", ")]
    assert numbers == WARRANTY_ROWS
    at = at.switch_page("pages/questions.py").run()
    table = at.dataframe[0]
    # The editor's index is the file's row: the first question sits on row 2, under the header.
    assert list(table.value.index[:3]) == [2, 3, 4]
    texts = file_rows()
    assert [texts[n] for n in numbers] == [table.value.loc[n, "question"] for n in numbers]
