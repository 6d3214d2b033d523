"""Spreadsheets choose themselves: the product sheet past an "About" note, and a column to pick when none is named."""

from __future__ import annotations

import io
import subprocess
import sys

import openpyxl
import pytest
from streamlit.testing.v1 import AppTest

from workbench.core.model import WorkbenchError
from workbench.read.loaders import NoNameColumn, default_sheet, load_bytes

from .conftest import ROOT

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def workbook(sheets: dict[str, list[list[object]]]) -> bytes:
    """A real .xlsx written by openpyxl, sheets in the given order."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


ABOUT_FIRST = workbook(
    {
        "About": [["Breezy Home price list"], ["Prices in euros, valid from 1 March."], [], ["Questions? Call the shop."]],
        "Products": [["SKU", "Product Name", "Price"], ["F-1", "Aurora Ceiling Fan", 129], ["L-2", "Lumo Desk Lamp", 39]],
        "Notes": [["Remark"], ["Stock counted on Monday"]],
    }
)
NO_NAME = workbook({"Codes": [["Code", "Label", "Price"], ["A1", "Aurora Ceiling Fan", 129], ["B2", "Lumo Desk Lamp", 39]]})


def test_the_sheet_with_a_name_column_is_read_by_default():
    assert default_sheet(ABOUT_FIRST, "shop.xlsx") == "Products"
    document = load_bytes(ABOUT_FIRST, "shop.xlsx")
    assert [s.heading for s in document.sections] == ["Products", "Aurora Ceiling Fan", "Lumo Desk Lamp"]
    assert document.name_column == "Product Name"
    # Asked for by name, the note sheet is still read as it is, and fails as before.
    with pytest.raises(NoNameColumn):
        load_bytes(ABOUT_FIRST, "shop.xlsx", sheet="About")


def test_with_no_name_like_sheet_the_first_is_read():
    assert default_sheet(NO_NAME, "codes.xlsx") == "Codes"


def test_no_name_column_lists_the_columns_and_names_no_flag():
    with pytest.raises(NoNameColumn) as raised:
        load_bytes(NO_NAME, "codes.xlsx")
    assert raised.value.columns == ["Code", "Label", "Price"]
    assert "--" not in str(raised.value)
    assert [s.heading for s in load_bytes(NO_NAME, "codes.xlsx", name_column="Label").sections][1:] == [
        "Aurora Ceiling Fan", "Lumo Desk Lamp"
    ]


def test_the_command_line_names_its_flag(tmp_path):
    path = tmp_path / "codes.xlsx"
    path.write_bytes(NO_NAME)
    done = subprocess.run([sys.executable, "-m", "workbench", "audit", str(path)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 2
    assert "Its columns are: Code, Label, Price. Choose one with --name-column." in done.stderr


def upload(name: str, data: bytes) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at = at.switch_page("pages/document.py").run()
    at.file_uploader(key="uploader").set_value((name, data, XLSX))
    return at.run()


def every_text(at: AppTest) -> str:
    """All the words the page shows: messages, labels, options."""
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success") for e in at.get(kind)]
    parts += [f"{box.label} {box.options}" for box in at.selectbox]
    return "\n".join(str(part) for part in parts)


def test_app_picks_the_product_sheet_past_an_about_note():
    at = upload("shop.xlsx", ABOUT_FIRST)
    assert not at.exception and not at.error
    assert at.selectbox(key="w_sheet").value == "Products"
    assert at.selectbox(key="w_sheet").options == ["About", "Products", "Notes"]
    assert next(m.value for m in at.metric if m.label == "Products") == "2"
    assert at.selectbox(key="w_name_column").value == "Product Name"
    # Choosing the note sheet asks for a column in the app's own words, then the products sheet again reads.
    at.selectbox(key="w_sheet").set_value("About").run()
    assert at.selectbox(key="pick_name_column").options == ["Breezy Home price list"]
    assert "--" not in every_text(at)
    at.selectbox(key="w_sheet").set_value("Products").run()
    assert next(m.value for m in at.metric if m.label == "Products") == "2"


def test_app_offers_a_select_box_of_columns_when_none_is_a_name():
    at = upload("codes.xlsx", NO_NAME)
    assert not at.exception and not at.error
    box = at.selectbox(key="pick_name_column")
    assert box.options == ["Code", "Label", "Price"] and box.value is None
    assert "No column here looks like a product name" in every_text(at)
    assert "--name-column" not in every_text(at) and "--" not in every_text(at)
    # Another page points back to the Document page, also without any command-line words.
    other = at.switch_page("pages/cuts.py").run()
    assert "Pick the column that holds the product names on the **Document** page." in every_text(other)
    assert "--" not in every_text(other)
    at = other.switch_page("pages/document.py").run()
    at.selectbox(key="pick_name_column").set_value("Label").run()
    assert not at.error
    assert next(m.value for m in at.metric if m.label == "Products") == "2"
    assert at.selectbox(key="w_name_column").value == "Label"


# A price list whose headings row was left blank: its first product's cells are read as the headings.
BLANK_HEADINGS_CSV = ",,,\nJabón de lavanda,6.50,JAB-01,Jabón artesanal\nChampú de romero,9.95,CHA-02,Champú sólido\n"


def test_headings_read_past_a_blank_first_row_say_which_row():
    with pytest.raises(NoNameColumn) as raised:
        load_bytes(BLANK_HEADINGS_CSV.encode(), "jabones.csv")
    assert raised.value.columns == ["Jabón de lavanda", "6.50", "JAB-01", "Jabón artesanal"]
    assert raised.value.header_row == 2
    assert str(raised.value).endswith("They are row 2's cells, the first row that holds anything: row 1 is blank.")
    # A workbook's rows are Excel's: two blank rows above, the headings are row 3's.
    with pytest.raises(NoNameColumn) as raised:
        load_bytes(workbook({"Sheet": [[], [None, None], ["Soap", 2]]}), "soap.xlsx")
    assert raised.value.header_row == 3 and str(raised.value).endswith("the rows above are blank.")
    # Headings in row 1, as usual: nothing added.
    with pytest.raises(NoNameColumn) as raised:
        load_bytes(NO_NAME, "codes.xlsx")
    assert raised.value.header_row == 1 and str(raised.value).endswith("Its columns are: Code, Label, Price.")


def test_app_says_a_blank_headings_row_is_no_file_without_fault():
    """The walk-through uploaded a CSV whose headings row is blank: the page said "Nothing is wrong with the file"
    and offered the first soap's cells as the columns to pick from."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at = at.switch_page("pages/document.py").run()
    at.file_uploader(key="uploader").set_value(("jabones.csv", BLANK_HEADINGS_CSV.encode(), "text/csv")).run()
    assert not at.exception and not at.error
    assert "Nothing is wrong with the file" not in every_text(at)
    assert [w.value for w in at.warning] == [
        "Row 1 is blank, so row 2, the first that holds anything, was read as the column headings: Jabón de lavanda, "
        "6\\.50, JAB\\-01, Jabón artesanal. If that row is a product, type a heading over each column in row 1 (Name, "
        "Price, …) and upload the file again; if those are the headings, pick the column that names each product."]
    # The choice is still there: picked, the file opens with the one product below the headings.
    at.selectbox(key="pick_name_column").set_value("Jabón de lavanda").run()
    assert not at.error and next(m.value for m in at.metric if m.label == "Products") == "1"


@pytest.mark.parametrize("data", [b",,,\n", b";;;\r\n;;;\r\n", b'"","",""\n,,\n'])
def test_a_csv_of_only_empty_cells_is_empty_not_a_column_to_pick(data):
    """The walk-through's CSV whose only row is blank cells was read as one column called ",,,", and the page
    offered it as the product-name column of a file with "nothing wrong" with it."""
    with pytest.raises(WorkbenchError) as raised:
        load_bytes(data, "blank.csv")
    assert not isinstance(raised.value, NoNameColumn)
    assert str(raised.value) == "blank.csv is empty: its rows hold only empty cells, there is nothing to read."
    # One cell that holds anything is a file to read, as before.
    with pytest.raises(NoNameColumn):
        load_bytes(data + b"x,,,\n", "blank.csv")
