"""What an owner may hand the workbench by mistake, refused or read with nothing lost in silence: a stray zero byte
anywhere in a text file, and a workbook of many product sheets (the limits themselves: tests/test_limits*.py)."""

from __future__ import annotations

import io

import openpyxl
import pytest

from workbench.core.model import WorkbenchError
from workbench.read.loaders import load_bytes

ROWS = "".join(f"Fan {n},{n}.00,Wipe with a dry cloth.\n" for n in range(400))  # about 12 KB


def test_a_zero_byte_past_the_first_8_kb_is_refused_naming_its_line():
    data = ("Name,Price,Care\n" + ROWS).encode()
    at = data.index(b"dry cloth", 8_200) + 2  # "Fan 221,221.00,Wipe with a dr|y cloth." on line 223
    damaged = data[:at] + b"\x00" + data[at:]
    line = damaged.count(b"\n", 0, at) + 1
    with pytest.raises(WorkbenchError) as raised:
        load_bytes(damaged, "shop.csv")
    assert line == 223  # past the first 8 KB, where the old check looked (it was read into the text)
    assert "line 223 holds a zero byte (NUL), after “Fan 221,221.00,Wipe with a dr”" in str(raised.value)
    assert load_bytes(data, "shop.csv").sections[1].title == "Fan 0"  # the same file undamaged reads


def test_a_photo_renamed_csv_is_still_called_binary_without_a_line():
    with pytest.raises(WorkbenchError, match=r"looks like a binary file, not text\. Upload"):
        load_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), "photo.csv")


def test_other_product_sheets_left_unread_are_named_and_counted_not_lost_in_silence():
    book = openpyxl.Workbook()
    book.remove(book.active)
    notes = book.create_sheet("About")
    notes.append(["Prices valid from March"])
    for number in range(8):
        sheet = book.create_sheet(f"Shelf {number}")
        sheet.append(["Name", "Price"])
        sheet.append([f"Fan {number}", 10 + number])
    out = io.BytesIO()
    book.save(out)
    document = load_bytes(out.getvalue(), "shop.xlsx")
    assert [s.title for s in document.sections[1:]] == ["Fan 0"]
    # 7 product sheets besides the one read; the note sheet is none of them.
    assert document.warnings == (
        "shop.xlsx has 7 other sheets laid out as a list of products, not read: 'Shelf 1', 'Shelf 2', 'Shelf 3', "
        "'Shelf 4', 'Shelf 5' and 2 more. Only 'Shelf 0' was read; choose another by name to read it instead, or put "
        "the products in one sheet.",
    )
