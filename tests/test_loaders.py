"""Loaders on tricky input: exact canonical text, spans and plain errors."""

from __future__ import annotations

import datetime as dt
import io

import openpyxl
import pytest

from workbench.core.model import WorkbenchError
from workbench.read.excel import format_cell
from workbench.read.loaders import load_bytes, load_path, parse_markdown, sheet_names

from .conftest import SAMPLE_CSV, SAMPLE_MD, SAMPLE_XLSX


def headings(document):
    return [section.heading for section in document.sections]


def facts_of(document, heading):
    section = next(s for s in document.sections if s.heading == heading)
    return [document.slice(fact.span) for fact in section.facts]


def check_spans(document):
    for section in document.sections:
        assert 0 <= section.span[0] <= section.span[1] <= len(document.text)
        for fact in section.facts:
            assert section.span[0] <= fact.span[0] < fact.span[1] <= section.span[1]
            assert document.slice(fact.span).strip() == document.slice(fact.span)


# --- Markdown -------------------------------------------------------------------------------

def test_atx_and_setext_headings_with_paths():
    text = "Intro line\n\nShop\n====\n\nFans\n----\nWarranty: 1 year.\n\n### Ceiling Fan ###\nPrice: 10\n"
    document = parse_markdown(text, "shop.md")
    assert headings(document) == ["", "Shop", "Fans", "Ceiling Fan"]
    assert [s.level for s in document.sections] == [0, 1, 2, 3]
    assert document.sections[3].path == ("Shop", "Fans")
    assert facts_of(document, "") == ["Intro line"]  # the preamble is kept as its own section
    assert facts_of(document, "Fans") == ["Warranty: 1 year."]
    assert facts_of(document, "Ceiling Fan") == ["Price: 10"]
    # A section runs from its heading line to the next heading.
    fans = document.sections[2]
    assert document.slice(fans.span) == "Fans\n----\nWarranty: 1 year.\n"
    assert document.slice(fans.heading_span) == "Fans\n----"
    check_spans(document)


def test_heading_inside_code_fence_is_not_a_heading():
    text = "# Guide\n```bash\n# not a heading\nrun\n```\n~~~\n## nor this\n~~~\n## Real\ntext\n"
    document = parse_markdown(text, "g.md")
    assert headings(document) == ["Guide", "Real"]
    assert "# not a heading" in facts_of(document, "Guide")


def test_front_matter_and_horizontal_rules_are_not_setext_headings():
    text = "---\ntitle: Quick start\n---\n# Title\n\nSome text\n\n-----\n\nMore text\n"
    document = parse_markdown(text, "q.md")
    # The front matter is page settings, not a preamble section; the rule under "Some text" is not an
    # underline (a blank line sits between them) and not a fact.
    assert headings(document) == ["Title"]
    assert facts_of(document, "Title") == ["Some text", "More text"]


@pytest.mark.parametrize(
    "decoration",
    ["-----", "***", "_ _ _", "* * *", "|---|:--:|", "| --- | --- |", "|  |  |", "•••", "==  =="],
)
def test_decoration_lines_are_not_facts(decoration):
    document = parse_markdown(f"# Fan\n\nPrice: 10\n\n{decoration}\nWarranty: 1 year\n", "d.md")  # the blank line: no setext underline
    assert facts_of(document, "Fan") == ["Price: 10", "Warranty: 1 year"]


def test_code_fence_markers_are_not_facts_but_the_code_is():
    text = "# Setup\n```bash\npip install fan\n```\n~~~\nfan --on\n~~~\n"
    assert facts_of(parse_markdown(text, "c.md"), "Setup") == ["pip install fan", "fan --on"]


def test_yaml_front_matter_is_no_fact_and_no_section():
    text = "---\ntitle: Fans\nlayout: shop\n---\nFree delivery.\n# Fan\nPrice: 10\n"
    document = parse_markdown(text, "y.md")
    assert headings(document) == ["", "Fan"]
    assert facts_of(document, "") == ["Free delivery."]


def test_table_rows_with_words_stay_facts():
    text = "# Sizes\n| Size | Price |\n|------|------:|\n| S | 10 |\n|   |   |\n"
    assert facts_of(parse_markdown(text, "t.md"), "Sizes") == ["| Size | Price |", "| S | 10 |"]


def test_heading_html_anchor_is_removed_and_crlf_normalised():
    document = load_bytes(b'<a name="lcd"></a>LCD Screen\r\n----------\r\nIt is bright.\r\n', "w.md")
    assert "\r" not in document.text
    assert headings(document) == ["LCD Screen"]


def test_sample_markdown_has_every_product():
    document = load_path(SAMPLE_MD)
    assert [s.heading for s in document.sections][:3] == ["Breezy Home price list", "Aurora Ceiling Fan", "Boreal Ceiling Fan"]
    assert sum(1 for s in document.sections if s.level == 2) == 10


# --- Encodings ------------------------------------------------------------------------------

CSV_TEXT = "Name,Price,Note\nCafé crème maker,12.50,Garantie: 2 ans\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le"])
def test_csv_encodings(encoding):
    document = load_bytes(CSV_TEXT.encode(encoding), "list.csv")
    assert headings(document) == ["list", "Café crème maker"]
    assert facts_of(document, "Café crème maker") == ["Price: 12.50", "Note: Garantie: 2 ans"]
    assert document.warnings == ()


def test_windows_1252_csv_is_read_and_reported():
    document = load_bytes("Name,Price\nCafé maker,€12\n".encode("cp1252"), "old.csv")
    assert facts_of(document, "Café maker") == ["Price: €12"]
    assert document.encoding == "windows-1252"
    assert "Windows-1252" in document.warnings[0]


# --- Spreadsheets ---------------------------------------------------------------------------

def test_variant_rows_join_their_product_by_handle_then_by_row_above():
    data = (
        b"handle,Title,Colour,Price\n"
        b"fan,Ceiling Fan,White,100\n"
        b"lamp,Desk Lamp,Black,20\n"
        b",,Red,25\n"  # no handle: the named row above (Desk Lamp)
        b"fan,,Oak,110\n"  # handle 'fan': back to Ceiling Fan, though Desk Lamp is above
    )
    document = load_bytes(data, "shop.csv")
    assert document.name_column == "Title"
    assert facts_of(document, "Ceiling Fan") == ["handle: fan", "Colour: White", "Price: 100", "Colour: Oak", "Price: 110"]
    assert facts_of(document, "Desk Lamp") == ["handle: lamp", "Colour: Black", "Price: 20", "Colour: Red", "Price: 25"]
    rows = [fact.row for fact in document.sections[1].facts]
    assert rows == [2, 2, 2, 5, 5]
    check_spans(document)


def test_padded_cells_are_stripped_and_multiline_cells_kept():
    data = b'name      ,price  ,features\nDuffle Bag,34     ,"Nylon\n\nPolyester  "\n'
    document = load_bytes(data, "bags.csv")
    assert facts_of(document, "Duffle Bag") == ["price: 34", "features: Nylon\nPolyester"]
    check_spans(document)


def test_spreadsheet_canonical_text_is_markdown():
    document = load_bytes(b"Name,Price\nFan,10\nLamp,\n", "s.csv")
    assert document.text == "# s\n\n## Fan\nPrice: 10\n\n## Lamp\n"
    assert document.sections[2].facts == ()


def test_name_column_by_choice_and_plain_error_when_none_found():
    data = b"Code,Label,Price\nA1,Fan,10\n"
    with pytest.raises(WorkbenchError, match=r"no column that looks like a product name.*Code, Label, Price"):
        load_bytes(data, "codes.csv")
    document = load_bytes(data, "codes.csv", name_column="label")
    assert headings(document) == ["codes", "Fan"]
    with pytest.raises(WorkbenchError, match="no column called 'Colour'"):
        load_bytes(data, "codes.csv", name_column="Colour")


def test_sample_csv_and_xlsx_agree():
    csv_doc, xlsx_doc = load_path(SAMPLE_CSV), load_path(SAMPLE_XLSX)
    assert headings(csv_doc)[1:] == headings(xlsx_doc)[1:]
    # The XLSX price cells are numbers formatted "0.00": they read as the shop wrote them.
    assert facts_of(xlsx_doc, "Zephyr Table Fan") == facts_of(csv_doc, "Zephyr Table Fan")
    assert "Price: 39.90" in facts_of(xlsx_doc, "Zephyr Table Fan")


def _xlsx(rows_by_sheet: dict[str, list[list[object]]], formats: dict[str, str] | None = None) -> bytes:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in rows_by_sheet.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
        for ref, fmt in (formats or {}).items():
            sheet[ref].number_format = fmt
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_xlsx_numbers_as_written_and_sheets_selectable():
    data = _xlsx(
        {
            "Fans": [["Name", "Price", "Weight", "Added"], ["Fan", 1299, 2.0, dt.datetime(2026, 3, 1)], ["Lamp", 12.5, 0.25, None]],
            "Heaters": [["Product", "Price"], ["Heater", 79]],
        },
        formats={"B3": "0.00"},
    )
    assert sheet_names(data, "shop.xlsx") == ["Fans", "Heaters"]
    first = load_bytes(data, "shop.xlsx")
    assert facts_of(first, "Fan") == ["Price: 1299", "Weight: 2", "Added: 2026-03-01"]
    assert facts_of(first, "Lamp") == ["Price: 12.50", "Weight: 0.25"]
    second = load_bytes(data, "shop.xlsx", sheet="Heaters")
    assert headings(second) == ["Heaters", "Heater"]
    with pytest.raises(WorkbenchError, match="no sheet called 'Coolers'"):
        load_bytes(data, "shop.xlsx", sheet="Coolers")


@pytest.mark.parametrize(
    ("value", "fmt", "expected"),
    [(1299.0, "General", "1299"), (1299.5, "General", "1299.5"), (0.2, "0%", "20%"), (1234.5, "#,##0.00", "1,234.50"), (True, "General", "TRUE")],
)
def test_format_cell(value, fmt, expected):
    assert format_cell(value, fmt) == expected


# --- Bad files ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"", "empty.csv", "empty.csv is empty"),
        (b"   \n\n", "blank.md", "blank.md is empty"),
        (b"PK\x03\x04 not really a zip", "broken.xlsx", "broken.xlsx is not a readable Excel file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.csv", "looks like a binary file"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "old.xlsx", "old Excel file"),
        (b"Name,Price\n,\n,\n", "nameless.csv", "has no products"),
        (b"a,b", "list.numbers", "not .numbers"),  # (.pdf is read since issue 12)
    ],
)
def test_bad_files_get_plain_errors(data, name, message):
    with pytest.raises(WorkbenchError, match=message):
        load_bytes(data, name)


def test_orphan_variant_row_is_reported_not_silently_lost():
    document = load_bytes(b"Name,Price\n,5\nFan,10\n", "o.csv")
    assert document.warnings == ("Row 2 has no product name and no named row above it; it was left out.",)


def test_a_fault_on_every_row_is_one_warning_naming_the_first_rows():
    """100,000 rows each with a cell past the last column once gave 100,000 warnings, and the app drew each one:
    the uploader's tab froze for minutes. One line per kind of fault, naming the first ten rows and counting the
    rest; two orphan rows before the first product make the second line."""
    body = "".join(f"Item {n},{n},extra\n" for n in range(2_000))
    document = load_bytes(("Name,Price\n,1\n,2\n" + body).encode(), "wide.csv")
    # Rows 1 (header), 2-3 (no name), then the items on rows 4 to 2,003: ten named, 2,000 - 10 = 1,990 more.
    assert document.warnings == (
        "Rows 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 and 1,990 more have more cells than there are columns; the extra "
        "cells were left out.",
        "Rows 2 and 3 have no product name and no named row above them; they were left out.",
    )
    assert len(document.sections) == 1 + 2_000  # the title section, then each product


def test_a_copy_of_a_markdown_file_reads_only_its_new_lines_to_the_same_sections(monkeypatch):
    """The parser reads each distinct line once and keeps the last document's lines: a copy with one line changed
    reads that line alone, and parses to what a parser reading every line gives (a document longer than
    KEPT_LINES keeps none). Fences, setext underlines, front matter, kramdown attributes and lists included."""
    from workbench.read import markdown

    text = ("---\ntitle: x\n---\nIntro line\n\n# Kettle {#kettle}\n{: .product}\nPrice: 20 EUR\n```\n# not a heading\n"
            "```\nFan\n===\n- item\nTitle\n---\n    code line\n~~~\nx\n~~~~\n## Lamp ##\n| a | b |\n|---|---|\n")
    parse_markdown(text, "shop.md")
    read: list[str] = []
    real = markdown._read_line
    monkeypatch.setattr(markdown, "_read_line", lambda line: read.append(line) or real(line))
    copy = text.replace("Price: 20 EUR", "Price: 20 EUR, kettle")
    kept = parse_markdown(copy, "shop.md")
    assert read == ["Price: 20 EUR, kettle"]
    monkeypatch.setattr(markdown, "KEPT_LINES", 0)  # every line read afresh
    assert parse_markdown(copy, "shop.md") == kept and len(read) == 1 + copy.count("\n") + 1
    assert [s.heading for s in kept.sections] == ["", "Kettle", "Fan", "Title", "Lamp"]
    assert [kept.slice(f.span) for f in kept.sections[1].facts] == ["Price: 20 EUR, kettle", "# not a heading"]
