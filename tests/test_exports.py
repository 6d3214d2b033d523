"""Every file a spreadsheet may open goes through one escaping function; no cell can start a formula."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest

from workbench.core.exports import FORMULA_START, csv_text, safe_cell, unescape_cell
from workbench.core.model import Question, Settings
from workbench.output.cli import main
from workbench.output.handover import results_xlsx
from workbench.output.report import to_csv
from workbench.read.loaders import load_bytes
from workbench.read.questions import parse_questions, questions_to_csv
from workbench.run.evaluate import evaluate

from .conftest import ROOT

# The prefixes the issue lists (= + - @ TAB CR), a ';' that a ';'-splitting Excel would cut at, and full-width forms.
HOSTILE = [
    '=HYPERLINK("http://evil.example","click")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "fan;=1+1",
    "fan|+1",
    "\uff1d1+1",
]
DOCUMENT = (
    "# Shop\n\n## Fan\nPrice: 10\nNote: -5% off; =HYPERLINK(\"http://evil.example\")\n\n"
    "## =Lamp\nPrice: 5\n@Warranty: 1 year.\n"
)


def hostile_questions() -> list[Question]:
    questions = []
    for number, text in enumerate(HOSTILE, start=1):
        questions.append(Question(text + " price of the fan?", "Fan", "Price: 10", "exact", row=number))
    questions.append(Question("=1+1 lamp?", "=Lamp", "Price: 5", "exact", row=len(HOSTILE) + 1))
    questions.append(Question("-do you sell;=chairs?", "", "", "unanswerable", row=len(HOSTILE) + 2))
    return questions


@pytest.fixture(scope="module")
def evaluation():
    document = load_bytes(DOCUMENT.encode(), "shop.md")
    settings = Settings(strategies=["fixed", "heading"], retrievers=["keyword"], rerankers=["none"], size=40, overlap=0)
    result = evaluate(document, hostile_questions(), settings)
    assert not result.bad_questions
    return result


def assert_csv_is_inert(text: str) -> None:
    """Split the way Excel might (on ',', ';', tab or '|'): no cell, quoted or not, starts a formula."""
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert not cell.startswith(FORMULA_START), repr(cell)
    # Split on another delimiter, quotes that open mid-field are not honoured and a quoted line break
    # ends the row: look at every raw piece between delimiters and line breaks.
    for piece in re.split(r"[,;\t|\r\n]", text):
        assert not piece.lstrip('"').startswith(FORMULA_START), repr(piece)


def assert_xlsx_is_inert(data: bytes) -> int:
    workbook = openpyxl.load_workbook(io.BytesIO(data))  # not data_only: a formula shows as a formula cell
    cells = 0
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{sheet.title}!{cell.coordinate} is a formula: {cell.value!r}"
                assert not (isinstance(cell.value, str) and cell.value.startswith(FORMULA_START)), cell.value
                cells += 1
    return cells


def pieces_csv(evaluation) -> str:
    from workbench.output.pieces import export_pieces

    return "".join(export_pieces(evaluation.document, evaluation.chunks[s], "csv") for s in evaluation.chunks)


EXPORTS = {
    "questions CSV (Questions page, CLI input)": lambda e: questions_to_csv(hostile_questions()),
    "chunk export CSV (Cuts and Results pages)": pieces_csv,
    "results CSV (Compare page, --format csv)": lambda e: to_csv(e),
    "results Excel (Compare page, --format xlsx)": lambda e: results_xlsx(e),
}


@pytest.mark.parametrize("name", list(EXPORTS))
def test_every_export_is_inert(name, evaluation):
    data = EXPORTS[name](evaluation)
    if isinstance(data, bytes):
        assert assert_xlsx_is_inert(data) > 40
    else:
        assert_csv_is_inert(data)
        # Nothing lost: every hostile question (or, for pieces, the file's hostile lines) is in it, escaped.
        expected = ["=Lamp", "@Warranty: 1 year."] if name.startswith("chunk") else [t.strip() for t in HOSTILE]
        cells = [unescape_cell(cell) for row in csv.reader(io.StringIO(data, newline="")) for cell in row]
        for text in expected:
            assert any(text in cell for cell in cells), text


def test_the_command_line_writes_the_same_inert_files(tmp_path):
    document = tmp_path / "shop.md"
    document.write_text(DOCUMENT, encoding="utf-8")
    questions = tmp_path / "questions.csv"
    questions.write_text(questions_to_csv(hostile_questions()), encoding="utf-8")
    for fmt in ("csv", "xlsx"):
        out = tmp_path / f"out.{fmt}"
        code = main(["evaluate", str(document), "--questions", str(questions), "--strategies", "fixed,heading",
                     "--retrievers", "keyword", "--rerankers", "none",
                     "--format", fmt, "--out", str(out), "--no-history"])
        assert code == 0
        if fmt == "csv":
            assert_csv_is_inert(out.read_text(encoding="utf-8"))
        else:
            assert_xlsx_is_inert(out.read_bytes())


def test_questions_round_trip_through_their_escaped_export():
    """Exported and imported again, every hostile question is exactly as typed (leading blank space aside)."""
    back = parse_questions(questions_to_csv(hostile_questions()).encode(), "golden.csv")
    # Exact, tab included; a carriage return comes back as a line break (every file's line ends are normalised).
    assert [q.question for q in back] == [q.question.replace("\r", "\n") for q in hostile_questions()]
    assert [q.expected_source for q in back] == [q.expected_source for q in hostile_questions()]


def test_text_that_already_starts_with_an_apostrophe_round_trips():
    """A question typed with its own apostrophe before a formula sign keeps it: the export adds one more, and
    reading back takes off only that one (before, "'=1+1 fan?" came back as "=1+1 fan?")."""
    typed = ["'=1+1 fan?", "''=2 fan?", "fan;'=1+1?", "'quoted' fan?", "fan;''+1?"]
    questions = [Question(text, "Fan", "Price: 10", "exact", row=n) for n, text in enumerate(typed, start=2)]
    text = questions_to_csv(questions)
    assert_csv_is_inert(text)
    assert [q.question for q in parse_questions(text.encode(), "golden.csv")] == typed
    assert safe_cell("'=1") == "''=1" and unescape_cell("''=1") == "'=1"
    assert safe_cell("'quoted'") == "'quoted'" and unescape_cell("'quoted'") == "'quoted'"  # no sign: untouched


def test_a_semicolon_cell_is_quoted_and_escaped():
    assert csv_text([["row", "fan;=1+1", 3, None, 0.5]]) == "row,\"fan;'=1+1\",3,,0.5\n"
    assert safe_cell("-2+3") == "'-2+3" and safe_cell(-2) == -2 and safe_cell("2-3") == "2-3"


def test_no_module_writes_a_spreadsheet_file_another_way():
    """Every CSV writer and workbook is made in workbench/core/exports.py or passes its cells through it."""
    allowed = {
        "workbench/core/exports.py": "the one place",
        "workbench/output/handover.py": "the Excel export: every cell through exports.xlsx_cell (tested above)",
        "workbench/output/fixed_file.py": "the owner's own file written back, every cell as it was; the fixes only "
        "append words to cells that held text, so no cell starts with a sign it did not start with (test_proof)",
    }
    for path in [*ROOT.glob("workbench/**/*.py"), *ROOT.glob("pages/*.py"), *ROOT.glob("ui/*.py"), ROOT / "app.py"]:
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if re.search(r"csv\.writer\(|csv\.DictWriter\(|openpyxl\.Workbook\(|\.to_csv\(|\.to_excel\(", text):
            assert name in allowed, f"{name} writes a spreadsheet file without workbench/core/exports.py"


def test_every_download_in_the_app_is_one_of_the_tested_exports():
    """Every download a spreadsheet may open (CSV, Excel) hands out one of the exports enumerated above."""
    tested = ("questions_to_csv(", "questions_file(", "to_csv(", "results_xlsx(", "export_pieces(")  # _file: _to_csv with a BOM
    for path in [*ROOT.glob("pages/*.py"), *ROOT.glob("ui/*.py")]:
        text = path.read_text(encoding="utf-8")
        for start in [m.start() for m in re.finditer(r"download_button\(", text)]:
            depth, end = 0, start
            for end in range(text.index("(", start), len(text)):  # the call up to its closing parenthesis
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
            call = text[start : end + 1]
            if re.search(r"text/csv|spreadsheet|\.csv|\.xlsx|csv\b", call):
                assert any(name in call for name in tested), f"{path.name}: {call[:200]}"


def test_downloads_name_their_figures_in_words_and_the_file_they_are_about():
    """The Excel summary heads each figure with its plain name ("first right piece's rank score", not "mrr"), an
    "About the columns" sheet says what each means with its id; a download is named after its file, no hash."""
    from workbench.output.report import download_stem
    from workbench.read.base_of_files import combine
    from workbench.read.loaders import load_path

    from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS

    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    evaluation = evaluate(document, questions, Settings(strategies=["fixed", "heading"], retrievers=["keyword"],
                                                        rerankers=["none"]))
    workbook = openpyxl.load_workbook(io.BytesIO(results_xlsx(evaluation)))
    header = [cell.value for cell in workbook["Summary"][1]]
    assert "mrr" not in header and "ndcg" not in header and "hit_rate" not in header
    assert {"first right piece's rank score", "every right piece's rank score", "found in the top k"} <= set(header)
    assert header[-3:] == ["strategy", "retriever", "reranker"]  # the ids keep their own columns for scripts
    about = {row[3]: row[1:3] for row in workbook["About the columns"].iter_rows(min_row=2, values_only=True)}
    assert about["mrr"][0] == "first right piece's rank score" and "MRR" in about["mrr"][1]
    header = next(csv.reader(io.StringIO(to_csv(evaluation))))
    # A person reads the scores under their plain names; scripts read them by id in their own columns, last.
    assert {"top piece's score", "refuse below"} <= set(header)
    assert header[-7:] == ["strategy", "retriever", "reranker", "reason", "top_chunk_id", "top_score", "refuse_below"]
    assert download_stem(document) == "breezy_home_price_list"
    base = combine([document, load_path(SAMPLE_MD.parent / "breezy_home_policies.md")])
    assert download_stem(base) == "breezy_home_price_list+breezy_home_policies"


def test_every_graded_answer_says_why_and_a_mixed_one_names_the_other_products():
    """Issue 25: the answers CSV's "why" was empty for clean and mixed rows; a mixed row now names whose text
    the top piece also holds, and the Excel answers say the same."""
    text = ("# Shop\n\n## Desk Fan\nPrice: 10\nColour: white\n\n## Tower Fan\nPrice: 20\nColour: black\n\n"
            "## Table Lamp\nPrice: 5\nColour: red\n")
    document = load_bytes(text.encode(), "shop.md")
    questions = [Question("What does the desk fan cost?", "Desk Fan", "Price: 10", "exact", row=2),
                 Question("Do you sell chairs?", "", "", "unanswerable", row=3)]
    evaluation = evaluate(document, questions, Settings(strategies=["fixed", "heading"], retrievers=["keyword"],
                                                        rerankers=["none"]))
    rows = list(csv.DictReader(io.StringIO(to_csv(evaluation))))
    why = {(row["strategy"], row["row"]): (row["grade"], row["why"]) for row in rows}
    assert why[("fixed", "2")] == ("mixed", "the top piece holds the answer, but also text of other sections "
                                   "(Tower Fan, Table Lamp), so the bot may mix them up")
    assert why[("heading", "2")] == ("clean", "the top piece holds the answer and nothing about other products")
    assert all(row["why"] for row in rows)
    sheet = openpyxl.load_workbook(io.BytesIO(results_xlsx(evaluation)))["Answers"]
    header = [cell.value for cell in sheet[1]]
    excel = [dict(zip(header, row)) for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert {row["why"] for row in excel} == {row["why"] for row in rows}


def test_the_excel_file_reads_right_widths_refuse_below_and_every_column_explained():
    """Issue 25: every column was Excel's default narrow width, "refuse below" showed 0.3333333333333333 and the
    "About the columns" sheet explained the Summary's figures only, none of the Answers' or Pieces' columns."""
    from openpyxl.utils import get_column_letter

    from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS

    document = load_bytes(SAMPLE_MD.read_bytes(), SAMPLE_MD.name)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    evaluation = evaluate(document, questions, Settings(strategies=["fixed", "heading"], retrievers=["keyword"],
                                                        rerankers=["none"], threshold=1 / 3))
    workbook = openpyxl.load_workbook(io.BytesIO(results_xlsx(evaluation)))
    assert workbook.sheetnames == ["Summary", "Answers", "Pieces", "About the columns"]

    def column(sheet, header):
        headers = [cell.value for cell in sheet[1]]
        letter = get_column_letter(headers.index(header) + 1)
        return sheet.column_dimensions[letter].width, sheet[letter][1:]

    for sheet in workbook.worksheets:  # every column has its width, none past 60 characters
        for index in range(1, sheet.max_column + 1):
            width = sheet.column_dimensions[get_column_letter(index)].width
            assert width and 6 <= width <= 60, (sheet.title, index, width)
    answers = workbook["Answers"]
    width, cells = column(answers, "question")
    assert width == max(len(cell.value) for cell in cells) + 2  # as wide as the longest question
    assert column(answers, "row")[0] <= 8 and column(answers, "grade")[0] <= 14  # a short column stays narrow
    width, cells = column(workbook["Pieces"], "text")
    assert width == 60  # capped, and a long piece wraps in it; a short one stays on its line
    assert all(cell.alignment.wrap_text for cell in cells if len(cell.value) > 58 or "\n" in cell.value)
    assert not column(answers, "row")[1][0].alignment.wrap_text
    # A long header over short figures wraps rather than widening its column to its own length.
    summary = workbook["Summary"]
    width, _ = column(summary, "first right piece's rank score")
    assert width == 14 and summary.cell(1, [c.value for c in summary[1]].index("first right piece's rank score") + 1
                                        ).alignment.wrap_text

    width, cells = column(summary, "refuse below")
    assert [cell.value for cell in cells] == [0.333, 0.333]  # as the Compare page shows it
    assert {cell.number_format for cell in cells} == {"0.000"}

    about = list(workbook["About the columns"].iter_rows(min_row=2, values_only=True))
    explained = {(sheet, name): meaning for sheet, name, meaning, _ in about}
    for sheet in ("Summary", "Answers", "Pieces"):
        for cell in workbook[sheet][1]:
            assert explained.get((sheet, cell.value)), (sheet, cell.value)
    assert len(about) == sum(workbook[sheet].max_column for sheet in ("Summary", "Answers", "Pieces"))
    assert explained[("Answers", "expected_source")] == (
        "The product or section whose text holds the answer, as your questions file names it (empty: your file "
        "cannot answer the question).")
    assert explained[("Pieces", "piece")] == "The piece's id, by which the Answers sheet's top_piece column names it."
