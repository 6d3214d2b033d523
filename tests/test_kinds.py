"""A document's kind owns its words and rules (``core/kinds.py``): asked through ``Document.form``, never by id."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.core.kinds import MARKDOWN, kind_named
from workbench.core.wording import part_word, todo_order_note
from workbench.grade.places import Places
from workbench.read.base_of_files import combine
from workbench.read.loaders import load_path

from .conftest import ROOT, SAMPLE_CSV, SAMPLE_MD, SAMPLE_XLSX

KB = Path(__file__).parent / "kb"


def test_each_kind_names_its_parts_and_places():
    sheet, manual = load_path(SAMPLE_CSV), load_path(SAMPLE_MD)
    assert (sheet.form.part, sheet.form.parts(), sheet.form.table, sheet.form.part_level) == ("product", "products", True, 2)
    assert (manual.form.part, manual.form.parts(), manual.form.table, manual.form.part_level) == ("section", "sections", False, 1)
    assert load_path(SAMPLE_XLSX).form is sheet.form  # a workbook's sheet is the same kind as a CSV
    assert part_word("spreadsheet", plural=True) == "products" and part_word("markdown") == "section"
    assert todo_order_note("spreadsheet") == "Rows and columns are your spreadsheet's."
    assert todo_order_note("markdown") == "Lines are your file's."
    assert kind_named("from-a-later-version") is MARKDOWN  # an unknown kind reads as the plainest
    # The place of the same fact: a row and column in the sheet, a line in the manual.
    fan = next(f for f in sheet.facts if sheet.slice(f.span).startswith("Price"))
    assert Places(sheet).of(fan.span) == f"row {fan.row}, column Price" and fan.row == 2
    first = manual.facts[0]
    assert Places(manual).of(first.span) == f"line {manual.text.count(chr(10), 0, first.span[0]) + 1}"


def test_a_knowledge_base_finds_its_tables_among_its_files():
    base = combine([load_path(KB / "catalog.csv"), load_path(KB / "policies.md"), load_path(KB / "faq.md")])
    assert [table.name for table in base.tables()] == ["catalog.csv"]
    assert base.form.table is False and base.form.part == "section"
    assert todo_order_note(base.kind, base.files).endswith(
        "Rows and columns are your spreadsheets'; lines are your other files'.")
    # A base of Markdown files only (the sample) has no spreadsheets to speak of; one of spreadsheets only, no lines.
    sample = combine([load_path(SAMPLE_MD), load_path(SAMPLE_MD.with_name("breezy_home_policies.md"))])
    assert todo_order_note(sample.kind, sample.files) == "Lines are your files'."
    sheets = combine([load_path(KB / "catalog.csv"), load_path(SAMPLE_CSV)])
    assert todo_order_note(sheets.kind, sheets.files) == "Rows and columns are your spreadsheets'."
    assert load_path(SAMPLE_MD).tables() == []
    sheet = load_path(SAMPLE_CSV)
    assert sheet.tables() == [sheet]


def test_no_module_tests_a_document_kind_by_its_id():
    """Every rule that depends on the kind asks ``form`` (its facts), so a kind's id appears only where it is made:
    the kinds themselves and the loaders that name the kind they make."""
    compared = re.compile(r"""kinds?\b\s*(?:[!=]=|in)\s*[({]?\s*["'](?:spreadsheet|markdown|base)["']""")
    found = [f"{path.relative_to(ROOT)}:{number}" for folder in ("workbench", "ui", "pages")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if compared.search(line) or re.search(r"""["'](?:spreadsheet|markdown)["']\s+in\s+kinds""", line)]
    assert found == []
