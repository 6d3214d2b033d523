"""Hostile, damaged and unusual files: refused in plain words, never a traceback, a hang or a memory blow-up."""

from __future__ import annotations

import csv
import io
import os
import re
import sqlite3
import subprocess
import sys
import tracemalloc
import zipfile
from xml.etree.ElementTree import ParseError

import pytest

from workbench.core import limits
from workbench.core.model import WorkbenchError
from workbench.read.loaders import load_bytes, load_path, read_boundary, sheet_names
from workbench.read.questions import parse_questions
from workbench.search.cross_encoder import load_cross_encoder

from .conftest import ROOT, peak_script
from .hostile import SHEET, rewrite_part, workbook_bytes, xlsx_bomb

PRODUCTS = [["name", "price"], *[[f"Product {i}", 10 * i] for i in range(1, 11)]]


def refused(call, *fragments: str) -> str:
    with pytest.raises(WorkbenchError) as caught:
        call()
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


# --- 1. What a file may unpack to -------------------------------------------------------------

def test_an_xlsx_bomb_is_refused_before_anything_is_unpacked(tmp_path):
    bomb = xlsx_bomb(tmp_path / "bomb.xlsx", 400 << 20)  # one cell of 400 MB, packed into ~0.4 MB
    assert bomb.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        message = refused(lambda: load_path(bomb), "bomb.xlsx unpacks to 400 MB", limits.limits_sentence())
        refused(lambda: sheet_names(bomb.read_bytes(), "bomb.xlsx"), "unpacks to 400 MB")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 << 20, f"reading the bomb took {peak >> 20} MB"  # the file's own bytes and a little more
    assert "Split it into smaller files" in message


def test_a_csv_whose_long_headers_multiply_its_text(monkeypatch):
    """Each cell becomes "Header: value": 100 columns with 1,000-character headers make 1 character cells huge."""
    monkeypatch.setattr(limits, "MAX_CHARACTERS", 1_000_000)
    header = ",".join(f"{'h' * 1000}{i}" for i in range(100))
    rows = "\n".join("name," + ",".join("x" for _ in range(99)) for _ in range(20))  # 20 rows x ~100 KB of text each
    data = ("name," + header.split(",", 1)[1] + "\n" + rows.replace("name,", "Fan,")).encode()
    assert len(data) < 120_000
    refused(lambda: load_bytes(data, "wide.csv"), "wide.csv makes more than 1,000,000 characters of text")


def test_rows_and_cells_are_counted_while_reading(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ROWS", 5)
    refused(lambda: load_bytes(workbook_bytes(PRODUCTS), "many.xlsx"), "many.xlsx has more than 5 rows")
    refused(lambda: load_bytes(b"name,price\n" + b"Fan,1\n" * 6, "many.csv"), "many.csv has more than 5 rows")
    monkeypatch.setattr(limits, "MAX_ROWS", 1_000)
    monkeypatch.setattr(limits, "MAX_GRID", 50)
    refused(lambda: load_bytes(b"name" + b"," * 60 + b"\nFan\n", "commas.csv"), "has more than 50 cells, empty ones")
    monkeypatch.setattr(limits, "MAX_GRID", 10_000)
    monkeypatch.setattr(limits, "MAX_CELLS", 50)
    assert len(load_bytes(b"name" + b"," * 60 + b"\nFan\n", "commas.csv").sections) == 2  # 2 cells hold something
    many = b"name,price,colour\n" + b"Fan,1,red\n" * 17  # 3 + 51 cells that hold something
    refused(lambda: load_bytes(many, "many.csv"), "many.csv has more than 50 cells that hold something")
    refused(lambda: load_bytes(workbook_bytes([["name", "price", "colour"], *[["Fan", 1, "red"]] * 17]), "many.xlsx"),
            "many.xlsx has more than 50 cells that hold something")
    feed = "[" + ", ".join('{"name": "Fan", "price": 1, "colour": "red"}' for _ in range(17)) + "]"
    refused(lambda: load_bytes(feed.encode(), "many.json"), "many.json has more than 50 cells that hold something")


def test_the_readme_states_the_limits():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert limits.limits_sentence() in " ".join(readme.split())
    assert limits.questions_sentence() in " ".join(readme.split())
    assert limits.converted_sentence() in " ".join(readme.split())


def test_the_app_refuses_the_bomb_with_the_same_message(tmp_path):
    from .test_app import open_app, plain, upload

    bomb = xlsx_bomb(tmp_path / "bomb.xlsx", 300 << 20)
    at = upload(open_app(), "bomb.xlsx", bomb.read_bytes())
    assert not at.exception
    shown = [plain(error.value) for error in at.error]
    assert any("bomb.xlsx unpacks to 300 MB" in text and limits.limits_sentence() in text for text in shown), shown


# --- 2. Excel files read as they are ----------------------------------------------------------

def test_a_wrong_dimension_tag_loses_no_rows():
    data = rewrite_part(workbook_bytes(PRODUCTS), SHEET, lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:B2"', xml))
    assert b'<dimension ref="A1:B2"' in zipfile.ZipFile(io.BytesIO(data)).read(SHEET)
    document = load_bytes(data, "exported.xlsx")
    assert [s.heading for s in document.sections[1:]] == [f"Product {i}" for i in range(1, 11)]
    assert "price: 100" in document.text


def test_formulas_saved_without_values_are_reported():
    # openpyxl saves formulas without computing them, as some exporters do: no cached <v> in the file.
    rows = [["name", "price", "price with tax"], *[[f"Product {i}", 10 * i, f"=B{i + 1}*1.2"] for i in range(1, 5)]]
    document = load_bytes(workbook_bytes(rows), "formulas.xlsx")
    assert document.warnings == (
        "Column 'price with tax' (C) holds 4 formulas saved without their values, so cells C2, C3, C4 and C5 read as "
        "empty. Open the file in Excel or LibreOffice Calc and save it again (both store each formula's value with "
        "it), then upload it again.",
    )
    assert "price with tax" not in document.text


def test_two_uncached_formulas_in_the_price_column_leave_two_empty_cells_named_and_the_rest_is_read(tmp_path):
    """A price column with 2 formulas saved without values: the file is read and graded (exit 0), the two cells
    named with how to re-save the file."""
    rows = [["name", "price", "colour"], ["Desk Fan", 19, "white"], ["Tower Fan", "=B2*2", "black"],
            ["Heater", "=B2+5", "grey"], ["Lamp", 12, "red"]]
    path = tmp_path / "formulas.xlsx"
    path.write_bytes(workbook_bytes(rows))
    warning = ("Column 'price' (B) holds 2 formulas saved without their values, so cells B3 and B4 read as empty. "
               "Open the file in Excel or LibreOffice Calc and save it again (both store each formula's value with "
               "it), then upload it again.")
    document = load_path(path)
    assert document.warnings == (warning,)
    assert [s.heading for s in document.sections[1:]] == ["Desk Fan", "Tower Fan", "Heater", "Lamp"]
    assert [document.slice(f.span) for f in document.sections[2].facts] == ["colour: black"]
    questions = tmp_path / "q.csv"
    questions.write_text("question,expected_source,expected_answer\nHow much is the Lamp?,Lamp,12\n"
                         "What colour is the Heater?,Heater,grey\n")
    code, out, err = _cli("evaluate", str(path), "--questions", str(questions), "--no-history",
                          "--strategies", "heading", "--retrievers", "keyword", "--rerankers", "none")
    assert code == 0, err
    assert err.startswith(f"warning: {warning}\n")


def test_uncached_formulas_past_ten_are_counted():
    rows = [["name", "total"], *[[f"P{i}", f"=1+{i}"] for i in range(1, 13)], ["Q", 5]]
    (warning,) = load_bytes(workbook_bytes(rows), "many.xlsx").warnings
    assert "holds 12 formulas saved without their values, so cells B2, B3, B4, B5, B6, B7, B8, B9, B10, B11 and " \
           "2 more read as empty." in warning


def test_one_stray_cell_at_xfd1048576_leaves_the_products_read(tmp_path):
    """The used range of a 5-column sheet with a stray cell at its last row and column is 5 x 1,048,576 cells: it
    was refused as more than 5,000,000 cells. Only the rows that hold something count, and the cell is noted."""
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in [["name", "price", "colour", "sku", "stock"], ["Desk Fan", 19, "white", "D1", 3],
                ["Tower Fan", 29, "black", "T1", 4], ["Heater", 49, "grey", "H1", 5], ["Lamp", 12, "red", "L1", 6]]:
        sheet.append(row)
    sheet["XFD1048576"] = "x"
    path = tmp_path / "stray.xlsx"
    workbook.save(path)
    document = load_path(path)
    assert [s.heading for s in document.sections[1:]] == ["Desk Fan", "Tower Fan", "Heater", "Lamp"]
    assert document.warnings == ("Row 1,048,576 has more cells than there are columns; the extra cells were left out.",)
    assert document.text.endswith("## Lamp\nprice: 12\ncolour: red\nsku: L1\nstock: 6\n")  # the stray "x" left out


def test_formulas_with_their_values_are_read_quietly():
    data = rewrite_part(
        workbook_bytes([["name", "total"], ["Fan", "=1+1"]]),
        SHEET,
        # as Excel saves it: formula and value (openpyxl writes an empty <v/> in either spelling, lxml's or not)
        lambda xml: re.sub(rb"<f>1\+1</f><v\s*/>|<f>1\+1</f><v></v>", b"<f>1+1</f><v>2</v>", xml),
    )
    document = load_bytes(data, "cached.xlsx")
    assert document.warnings == () and "total: 2" in document.text


def test_a_password_protected_workbook_is_named_as_such(tmp_path):
    pytest.importorskip("msoffcrypto", reason="msoffcrypto-tool (requirements-dev.txt) encrypts the file")
    import io

    from msoffcrypto.format.ooxml import OOXMLFile

    locked = io.BytesIO()
    OOXMLFile(io.BytesIO(workbook_bytes(PRODUCTS))).encrypt("secret", locked)
    message = refused(lambda: load_bytes(locked.getvalue(), "locked.xlsx"), "locked.xlsx is protected with a password")
    assert ".xls)" not in message


# --- 6. One boundary for the errors reading raises ----------------------------------------------

def cut_sheet(xml: bytes) -> bytes:
    return xml[: len(xml) // 2]


LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'.encode() for i in range(1, 10))
    + b']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
    b'<c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>'
)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (cut_sheet, "the XML inside it is damaged"),
        (lambda xml: LAUGHS, "the XML inside it is damaged"),
    ],
    ids=["truncated XML", "billion laughs"],
)
def test_damaged_xml_inside_an_xlsx(change, fragment):
    data = rewrite_part(workbook_bytes(PRODUCTS), SHEET, change)
    message = refused(lambda: load_bytes(data, "damaged.xlsx"), "damaged.xlsx")
    # With lxml installed openpyxl fails already while opening ("not a readable Excel file"), without it while
    # reading the rows (the boundary's words): either way one plain line naming the file.
    assert fragment in message or "is not a readable Excel file" in message, message
    assert "\n" not in message


def test_an_external_entity_is_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xxe = (
        f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{secret}">]>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>'
        '<row r="2"><c r="A2" t="inlineStr"><is><t>Fan &xxe;</t></is></c></row></sheetData></worksheet>'
    ).encode()
    data = rewrite_part(workbook_bytes(PRODUCTS), SHEET, lambda xml: xxe)
    try:
        document = load_bytes(data, "xxe.xlsx")
    except WorkbenchError as error:
        assert "xxe.xlsx cannot be read" in str(error) or "xxe.xlsx is not a readable Excel file" in str(error)
    else:
        assert "TOP-SECRET" not in document.text


def test_a_damaged_zip_and_a_broken_checksum(tmp_path):
    data = bytearray(workbook_bytes(PRODUCTS))
    start = data.find(b"PK\x03\x04", data.find(SHEET.encode()) - 40)
    data[start + 200 : start + 260] = b"\x00" * 60  # the sheet's packed bytes overwritten
    refused(lambda: load_bytes(bytes(data), "crc.xlsx"), "crc.xlsx")


def test_a_file_that_cannot_be_read(tmp_path):
    link = tmp_path / "memory.md"
    link.symlink_to("/proc/self/mem")  # a regular file whose read fails with an I/O error
    refused(lambda: load_path(link), "memory.md cannot be read", "Input/output error")


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "shop.md"
    os.mkfifo(fifo)
    command = [sys.executable, "-m", "workbench", "audit", str(fifo)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "is not an ordinary file (a pipe, socket or device)" in done.stderr and "Traceback" not in done.stderr


def test_a_device_is_refused(tmp_path):
    link = tmp_path / "null.csv"
    link.symlink_to("/dev/zero")  # would never end
    refused(lambda: load_path(link), "is not an ordinary file")


def test_a_huge_question_cell():
    data = b"question,expected_source,expected_answer\nWhat is the price?,Fan,10\n" + b"x" * 1_000_000 + b",Fan,10\n"
    # Named with its row and the limit, not the csv module's "field larger than field limit (131072)".
    refused(lambda: parse_questions(data, "questions.csv"), "questions.csv, row 3: a cell holds 1,000,000 characters; "
            "the workbench reads at most 10,000 questions a file, each cell at most 20,000 characters.")


def test_a_cross_encoder_config_that_is_a_list(tmp_path):
    (tmp_path / "config.json").write_text("[1, 2, 3]")
    refused(lambda: load_cross_encoder(str(tmp_path)), "is not a model configuration")


@pytest.mark.parametrize(
    "error, words",
    [
        (zipfile.BadZipFile("File is not a zip file"), "it is damaged or cut short"),
        (ParseError("no element found"), "the XML inside it is damaged"),
        (csv.Error("new-line character seen in unquoted field"), "it is not readable as CSV"),
        (UnicodeDecodeError("utf-16-le", b"\x00\xd8", 0, 2, "unexpected end of data"), "its text is damaged"),
        (sqlite3.DatabaseError("file is not a database"), "a database it needs is damaged"),
        (OSError(5, "Input/output error"), "it could not be read (Input/output error)"),
        (AttributeError("'list' object has no attribute 'get'"), "its contents are not laid out"),
    ],
    ids=["zipfile", "XML", "csv", "encoding", "sqlite3", "OSError", "parser bug"],
)
def test_the_read_boundary_names_the_file_and_the_cause_for_each_kind(error, words):
    def reader():
        raise error

    message = refused(lambda: read_boundary("shop.xlsx", reader), "shop.xlsx cannot be read: ", words)
    assert "\n" not in message


def test_damaged_utf16_text_is_a_plain_error():
    data = "name,price\nFan,10\n".encode("utf-16-le") + b"\x00\xd8"  # a lone high surrogate at the end
    refused(lambda: load_bytes(b"\xff\xfe" + data, "utf16.csv"), "utf16.csv")


# --- Issue 23: one input budget, applied before the work -------------------------------------------

def test_a_docx_bomb_is_refused_from_its_directory(tmp_path):
    from .hostile import docx_bomb

    bomb = docx_bomb(tmp_path / "bomb.docx", 64 << 20)  # word/document.xml of 64 MB, packed into ~70 KB
    assert bomb.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        refused(lambda: load_path(bomb), "bomb.docx one part inside it (word/document.xml) unpacks to 64 MB",
                limits.converted_sentence())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 << 20, f"reading the bomb took {peak >> 20} MB"  # was 4.1 GB at 200 MB


def test_a_pdf_stream_bomb_is_refused_by_inflating_in_bounded_steps(tmp_path, monkeypatch):
    from .hostile import pdf_bomb

    monkeypatch.setattr(limits, "MAX_PDF_STREAM_BYTES", 8 << 20)
    bomb = pdf_bomb(tmp_path / "bomb.pdf", 32 << 20)  # one flate stream of 32 MB, packed into ~32 KB
    tracemalloc.start()
    try:
        refused(lambda: load_path(bomb), "bomb.pdf holds a stream that unpacks to more than 8 MB")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, f"reading the bomb took {peak >> 20} MB"  # the limit and one 1 MB step, not 32 MB


def test_a_small_pdf_stream_passes_the_check(tmp_path):
    from .hostile import pdf_bomb

    limits.check_pdf_streams(pdf_bomb(tmp_path / "small.pdf", 1 << 20).read_bytes(), "small.pdf")  # 1 MB: no error


def test_a_large_web_page_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    from .hostile import html_page

    monkeypatch.setattr(limits, "MAX_CONVERTED_BYTES", 1 << 20)
    page = html_page(tmp_path / "big.html", 2)
    refused(lambda: load_path(page), "big.html is 2 MB; the workbench reads web pages and Word text of at most 1 MB")


def test_a_part_that_unpacks_far_more_than_real_files_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "RATIO_FROM", 1 << 20)
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"A" * (4 << 20))  # 4 MB of one letter packs ~1,000 times
    refused(lambda: limits.check_zip(data.getvalue(), "dense.xlsx"), "dense.xlsx one part inside it "
            "(xl/worksheets/sheet1.xml) unpacks to 4 MB from", "real files stay under 200")


def test_a_csv_row_of_a_million_cells_is_refused_at_that_row_in_bounded_memory(tmp_path):
    """One row of a million cells made one product of a million facts: 2.8 GB through a check-up. A sheet has at
    most 16,384 columns (Excel's XFD), so the row is refused as soon as it is read."""
    from .hostile import wide_csv

    wide = wide_csv(tmp_path / "wide.csv", 1_000_000, rows=1)
    code = _cli("audit", str(wide))
    assert code[0] == 2 and code[1] == ""
    assert code[2] == (
        f"error: wide.csv has 1,000,000 cells in row 1, more than the 16,384 columns a sheet can have; the workbench "
        f"reads {limits.limits_sentence()}. Split it into smaller files.\n")
    out, peak = _peak_of(
        "from workbench.output.cli import main\n"
        f"status = main(['audit', {str(wide)!r}])\n"
        "assert status == 2, status"
    )
    assert peak < 500, peak  # the 8 MB file read, then refused: the whole check-up would have held 2.8 GB
    widest = wide_csv(tmp_path / "widest.csv", 16_384, rows=3)  # Excel's own width is read
    assert [s.heading for s in load_path(widest).sections[1:]] == ["Product 0", "Product 1", "Product 2"]


def test_a_feed_whose_product_has_a_million_fields_is_refused_by_the_same_column_limit():
    feed = '[{"name": "Fan", ' + ", ".join(f'"f{i}": 1' for i in range(20_000)) + "}]"
    refused(lambda: load_bytes(feed.encode(), "wide.json"),
            "wide.json has 20,001 cells in its header, more than the 16,384 columns a sheet can have")


def test_a_headerless_row_of_many_cells_names_a_few_of_them():
    data = ("Fan," + ",".join(f"v{i}" for i in range(100)) + "\n").encode()
    message = refused(lambda: load_bytes(data, "many.csv"), "Its columns are: Fan, v0, v1,")
    assert message.endswith(", v38 and 61 more.")  # 40 named of the 101


def test_a_questions_file_past_the_limit_is_refused_before_grading(monkeypatch):
    monkeypatch.setattr(limits, "MAX_QUESTIONS", 100)
    data = b"question,expected_source,expected_answer\n" + b"Price?,Fan,10\n" * 101
    refused(lambda: parse_questions(data, "many.csv"), "many.csv has more than 100 questions")
    assert len(parse_questions(b"question,expected_source,expected_answer\n" + b"Price?,Fan,10\n" * 100, "q.csv")) == 100


def _cli(*args: str) -> tuple[int, str, str]:
    import contextlib

    from workbench.output.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_an_evaluate_run_past_the_run_budget_is_refused_naming_the_cuts_that_fit(monkeypatch, tmp_path):
    sample = ROOT / "sample_data" / "breezy_home_price_list.md"
    questions = ROOT / "sample_data" / "breezy_home_questions.csv"
    characters = len(load_path(sample).text)
    monkeypatch.setattr(limits, "MAX_RUN_CHARACTERS", characters * 2)
    code, out, err = _cli("evaluate", str(sample), "--questions", str(questions), "--no-history")
    assert code == 2 and out == ""
    assert f"breezy_home_price_list.md makes {characters:,} characters of text; cut " in err
    assert "Choose at most 2 cuts with --strategies (e.g. --strategies heading,fixed), or split the file." in err
    code, _, err = _cli("evaluate", str(sample), "--questions", str(questions), "--no-history",
                        "--strategies", "heading,fixed", "--retrievers", "keyword", "--rerankers", "none")
    assert code == 0, err
    monkeypatch.setattr(limits, "MAX_RUN_CHARACTERS", characters - 1)
    code, _, err = _cli("evaluate", str(sample), "--questions", str(questions), "--strategies", "heading")
    assert code == 2 and err.rstrip().endswith("Split it into smaller files.")


@pytest.mark.slow
def test_a_200000_row_csv_is_checked_and_evaluated_whole(tmp_path):
    """The check-up and a two-cut run of 200,000 products finish (times: bench/hostile.py, BENCHMARKS.md) and
    see every product: the colour shared by a third of them, no risky line, both questions graded."""
    import json

    from workbench.advise.audit import audit

    from .hostile import long_csv

    path = long_csv(tmp_path / "long.csv", 200_000)
    before = path.read_bytes()
    result = audit(load_path(path), meaning=False)
    assert result.products == 200_000 and result.risky == []
    shared = {line.line: line for line in result.shared_lines + result.store_wide + result.placeholders}
    assert len(shared["colour: blue"].sections) == 66_667 and shared["colour: blue"].sections[:2] == ["Product 1",
                                                                                                     "Product 4"]
    assert len(shared["price: 5.50"].sections) == 2_062 and shared["price: 5.50"].harm == "varies"
    questions = tmp_path / "q.csv"
    questions.write_text("question,expected_source,expected_answer\nPrice of Product 5?,Product 5,5.50\n"
                         "What colour is Product 1234?,Product 1234,blue\n")
    code, out, err = _cli("evaluate", str(path), "--questions", str(questions), "--strategies", "heading,fixed",
                          "--retrievers", "keyword", "--rerankers", "none", "--no-history", "--format", "json")
    assert code == 0, err
    runs = json.loads(out)["runs"]
    assert [run["strategy"] for run in runs] == ["heading", "fixed"]
    assert all(len(run["per_question"]) == 2 and run["clean"] + run["mixed"] + run["missed"] == 2 for run in runs)
    assert runs[0]["chunks"] == 200_000  # one piece per product under the heading cut
    assert path.read_bytes() == before


def _peak_of(script: str, timeout: float = 300) -> tuple[str, float]:
    """Run ``script`` in a fresh interpreter; its output and the peak resident memory in MB it printed last."""
    process = subprocess.Popen([sys.executable, "-c", peak_script(script)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err[-2000:]
    return out, float(out.split()[-1])


@pytest.mark.slow
def test_an_xlsx_of_distinct_strings_under_the_cell_limit_is_read_in_bounded_memory(tmp_path):
    """100,000 rows x 10 columns, every cell a different string (a shared-strings table of a million entries),
    written by openpyxl: read whole, every product found, under 1.5 GB. (400,000 such rows unpack to 246 MB in
    one part and are refused from the zip's directory in under a second: bench/hostile.py.)"""
    from .hostile import distinct_strings_xlsx

    path = distinct_strings_xlsx(tmp_path / "distinct.xlsx", 100_000)
    before = path.read_bytes()
    out, peak = _peak_of(
        "from workbench.read.loaders import load_path\n"
        f"document = load_path({str(path)!r})\n"
        "print(len(document.sections), len(document.facts), document.sections[-1].heading)"
    )
    assert out.split()[:4] == ["100001", "900000", "Product", "99999"]
    assert peak < 1536, peak
    assert path.read_bytes() == before


def test_the_apps_run_past_the_run_budget_is_refused_in_its_own_words(monkeypatch):
    """The engine's evaluate holds the same bound (the app runs through it): the user is told in display names how
    many ways of cutting to keep, and where, not a command-line flag; under the bound the run goes on."""
    from workbench.core.model import Settings
    from workbench.run.evaluate import evaluate

    document = load_path(ROOT / "sample_data" / "breezy_home_price_list.md")
    questions = parse_questions((ROOT / "sample_data" / "breezy_home_questions.csv").read_bytes(), "q.csv")
    characters = len(document.text)
    monkeypatch.setattr(limits, "MAX_RUN_CHARACTERS", characters * 2)
    settings = Settings(strategies=["sentence", "fixed", "heading"], retrievers=["keyword"], rerankers=["none"])
    with pytest.raises(WorkbenchError) as refusal:
        evaluate(document, questions, settings)
    # 3 cuts x characters > 2 x characters: two fit, the heading cut and the 300-character windows first.
    assert str(refusal.value).endswith(
        "Under Settings, keep at most 2 ways of cutting the file (for example Cut at headings and 300-character "
        "windows), or split the file.")
    assert "--strategies" not in str(refusal.value)
    assert len(evaluate(document, questions, Settings(strategies=["heading", "fixed"], retrievers=["keyword"],
                                                      rerankers=["none"])).runs) == 2
