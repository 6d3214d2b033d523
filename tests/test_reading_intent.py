"""Read what the user meant, or say why not: stray quotes, hidden sheets, renamed files, long cells, wide styles."""

from __future__ import annotations

import io
import time

import openpyxl
import pytest
from openpyxl.styles import PatternFill

from workbench.core.model import WorkbenchError
from workbench.output.cli import main
from workbench.read.loaders import load_bytes, load_path
from workbench.read.spreadsheet import sniff_delimiter

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS, SAMPLES
from .hostile import workbook_bytes


def test_a_stray_quote_is_named_with_its_row_and_the_lines_it_swallowed():
    rows = [f"Product {i},{i}" for i in range(1, 6)]
    rows[1] = '"Product 2 big,2'  # a cell that opens a quote in row 3 of the file and never closes it
    data = ("name,price\n" + "\n".join(rows) + "\n").encode()
    document = load_bytes(data, "quotes.csv")
    # Product 1, then "Product 2 …" swallowing the 3 lines after it (products 3-5) into its name.
    assert [s.heading for s in document.sections[1:]][:1] == ["Product 1"]
    assert len(document.sections) == 3
    (warning,) = document.warnings
    assert warning.startswith('Row 3 of quotes.csv opens a quote (") that is closed only 3 lines later, or never')


def test_a_quoted_cell_on_several_lines_is_no_warning():
    data = b'name,notes\nFan,"line one\nline two\nline three"\nLamp,plain\n'
    document = load_bytes(data, "notes.csv")
    assert document.warnings == ()
    assert [s.heading for s in document.sections[1:]] == ["Fan", "Lamp"]


def test_the_delimiter_is_found_in_linear_time_and_right():
    assert sniff_delimiter("name;price\nFan;10\nLamp;12\n") == ";"
    assert sniff_delimiter("name\tprice\tnote\nFan\t10\ta, b\nLamp\t12\tc\n") == "\t"
    assert sniff_delimiter('name,price\n"Fan; big",10\nLamp,12\n') == ","
    # A 20 KB line of quotes and delimiters made csv.Sniffer take 17 s; this reads the sample once.
    began = time.perf_counter()
    sniff_delimiter('"a";,|' * 4000)
    assert time.perf_counter() - began < 5  # a hang detector on a shared machine, not a time budget


def test_a_long_description_is_read_not_refused_by_the_csv_modules_limit():
    long = "x" * 200_000  # past the csv module's default of 131,072 characters a field
    document = load_bytes(f'name,description\nFan,"{long}"\n'.encode(), "long.csv")
    assert document.text.count("x") == 200_000


def test_hidden_sheets_are_skipped_by_default_and_listed():
    workbook = openpyxl.Workbook()
    old = workbook.active
    old.title = "Old prices"
    old.append(["name", "price"])
    old.append(["Retired fan", 1])
    old.sheet_state = "hidden"
    products = workbook.create_sheet("Products")
    products.append(["name", "price"])
    products.append(["Zephyr Fan", 40])
    out = io.BytesIO()
    workbook.save(out)
    document = load_bytes(out.getvalue(), "shop.xlsx")
    assert [s.heading for s in document.sections[1:]] == ["Zephyr Fan"]
    assert document.warnings == (
        "shop.xlsx has 1 hidden sheet, left out: 'Old prices'. The visible sheet 'Products' was read; "
        "choose a hidden one by name to read it instead.",
    )
    chosen = load_bytes(out.getvalue(), "shop.xlsx", sheet="Old prices")  # still readable when asked for
    assert [s.heading for s in chosen.sections[1:]] == ["Retired fan"]


def test_styled_empty_cells_out_to_column_xfd_are_not_cells():
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["name", "price"])
    for number in range(1, 401):
        sheet.append([f"Product {number}", number])
    fill = PatternFill("solid", fgColor="FFFF00")
    for row in range(1, 402):
        sheet.cell(row, 16384).fill = fill  # column XFD: 401 x 16,384 = 6.6 million cells by the styles
    out = io.BytesIO()
    workbook.save(out)
    document = load_bytes(out.getvalue(), "styled.xlsx")
    assert len(document.sections) == 401  # the title and 400 products


@pytest.mark.parametrize(
    "name, data, words",
    [
        (
            "notes.md",
            b"%PDF-1.4\n%\xe2\xe3\n1 0 obj\n",
            "notes.md is a PDF, not the .md file its name says. Rename it to notes.pdf",
        ),
        (
            "prices.csv",
            (SAMPLES / "breezy_home_price_list.xlsx").read_bytes(),
            "prices.csv is an Excel file, not the .csv",
        ),
        ("prices.txt", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "prices.txt is an old Office file"),
    ],
)
def test_content_is_sniffed_before_the_extension_is_trusted(name, data, words):
    with pytest.raises(WorkbenchError, match=words):
        load_bytes(data, name)


def test_a_word_file_named_md_is_named_as_one(tmp_path):
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_heading("Returns", level=1)
    document.add_paragraph("Thirty days.")
    path = tmp_path / "policy.md"
    document.save(path)
    with pytest.raises(
        WorkbenchError, match="policy.md is a Word file, not the .md file its name says. Rename it to policy.docx"
    ):
        load_path(path)


def test_headings_only_and_formulas_without_values_end_in_a_plain_line(tmp_path, capsys):
    headings = tmp_path / "headings.md"
    headings.write_text("# A\n## B\n### C\n")
    formulas = tmp_path / "formulas.xlsx"
    formulas.write_bytes(workbook_bytes([["name", "price"], *[[f"P{i}", f"=1+{i}"] for i in range(1, 4)]]))
    questions = tmp_path / "q.csv"
    questions.write_text("question,expected_source,expected_answer\nWhat is B?,B,\nPrice of P1?,P1,\n")
    for document, first in (
        (headings, "headings.md holds no text to answer from: 3 headings and nothing under them."),
        (formulas, "formulas.xlsx holds no text to answer from: 4 headings and nothing under them."),
    ):
        code = main(["evaluate", str(document), "--questions", str(questions), "--no-history"])
        out, err = capsys.readouterr()
        assert code == 2 and out == ""
        assert err.splitlines()[-1].startswith(f"error: {first}"), err  # was IndexError: index 0 is out of bounds
        assert "Traceback" not in err


def test_a_file_name_that_is_not_utf8_is_printed_and_saved(tmp_path, capsys):
    import os

    folder = os.fsencode(tmp_path)
    document = os.fsdecode(folder + b"/caf\xe9.md")  # Latin-1 bytes: a surrogate in Python's str
    questions = os.fsdecode(folder + b"/q\xff.csv")
    with open(document, "wb") as out:
        out.write(SAMPLE_MD.read_bytes())
    with open(questions, "wb") as out:
        out.write(SAMPLE_QUESTIONS.read_bytes())
    code = main(
        [
            "evaluate",
            document,
            "--questions",
            questions,
            "--strategies",
            "heading",
            "--retrievers",
            "keyword",
            "--rerankers",
            "none",
            "--format",
            "json",
            "--db",
            str(tmp_path / "h.sqlite"),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert '"name": "caf\ufffd.md"' in out  # the bytes that are not UTF-8 shown as U+FFFD
    code = main(["audit", os.fsdecode(folder + b"/missing\xe9.md")])
    assert code == 2 and "missing\\udce9.md does not exist" in capsys.readouterr().err


def test_a_description_on_several_lines_with_commas_is_no_stray_quote():
    # As Magento exports it: a quoted description over several lines, two of them prose with commas. No line
    # splits into the header's 3 cells, so nothing looks like a swallowed row.
    data = (b'name,description,price\nPack,"<p>Light and strong, roomy.</p>\n<ul>\n<li>Straps, padded, wide, soft</li>\n'
            b'</ul>",49\nTent,plain,99\n')
    document = load_bytes(data, "magento.csv")
    assert document.warnings == ()
    assert [s.heading for s in document.sections[1:]] == ["Pack", "Tent"]
