"""A price given in words ("auf Anfrage") is warned of by row, product and value, with the other amount a bot may
quote instead (walk44: an Excel export with "auf Anfrage" in Preis and 89 in Vergleichspreis got no warning)."""

from __future__ import annotations

from workbench.read.loaders import load_bytes

from .conftest import xlsx_bytes


def priced(document) -> list[str]:
    return [warning for warning in document.warnings if "as a number" in warning]


def test_an_excel_export_under_a_title_row_names_the_sheet_row_the_product_and_its_words():
    data = xlsx_bytes([
        ["Preisliste Winter 2026 – Keramik Müller"],
        ["Produktname", "Preis", "Vergleichspreis", "Farbe"],
        ["Teekanne Bergblick", 39.9, 49.9, "Blau"],
        ["Kaffeebecher Nordlicht", 14.5, 18, "Grün"],
        ["Dzbanek ceramiczny Bolesławiec", "auf Anfrage", 89, "Weiß"],
        ["Müslischale Alpenglühen", 12, None, "Rot"],
    ])
    document = load_bytes(data, "keramik.xlsx")
    # Row 5 as Excel numbers it: the title is row 1, the header row 2, the Polish jug the third product.
    assert priced(document) == [
        "Row 5 (Dzbanek ceramiczny Bolesławiec) gives its price, in column Preis, as “auf Anfrage”, not an amount: "
        "a bot asked what it costs can only repeat these words, or may quote another amount on that row as the price "
        "(Vergleichspreis: 89). If it has a price, write it in Preis as a number."
    ]
    # The title row's warning quotes it as every warning quotes the shop's text (it was Python's 'Preisliste …').
    assert document.warnings[0] == ("The header of keramik.xlsx is row 2: the rows above it (a title or instructions, "
                                    "first “Preisliste Winter 2026 – Keramik Müller”) were left out.")
    assert "Preis: auf Anfrage" in document.text  # still read as the shop wrote it: the warning changes nothing


def test_several_rows_are_said_in_one_warning_and_a_row_without_another_amount_names_none():
    data = ("Nom,Prix,Couleur\n"
            "Bol,12,Bleu\n"
            "Théière,sur demande,Vert\n"
            "Tasse,Gratuit,Rouge\n").encode()
    assert priced(load_bytes(data, "vaisselle.csv")) == [
        "Rows 3 and 4 give their price, in column Prix, as words, not an amount: “sur demande” (Théière) and "
        "“Gratuit” (Tasse): a bot asked what one costs can only repeat those words. If they have a price, write it "
        "in Prix as a number."
    ]


def test_amounts_in_any_script_empty_and_unfilled_prices_and_a_file_without_a_price_column_warn_nothing():
    data = ("Name,Price,Colour\n"
            "Kettle,$29.99,Red\n"
            "Jug,٤٩,Blue\n"       # Arabic-Indic digits: an amount
            "Mug,,Green\n"        # empty: said, if at all, by the check-up's missing values
            "Bowl,N/A,White\n").encode()  # a mark nobody filled in: left out as empty
    assert priced(load_bytes(data, "shop.csv")) == []
    assert priced(load_bytes(b"Name,Colour\nKettle,on request\n", "shop.csv")) == []


def test_more_than_three_are_counted_and_a_compare_at_price_is_named_by_its_row():
    rows = "".join(f"Lamp {n},on request,{n}9.00\n" for n in range(1, 6))
    data = ("Title,Variant Price,Variant Compare At Price\n" + rows).encode()
    assert priced(load_bytes(data, "lamps.csv")) == [
        "Rows 2, 3, 4, 5 and 6 give their price, in column Variant Price, as words, not an amount: “on request” "
        "(Lamp 1), “on request” (Lamp 2), “on request” (Lamp 3) and 2 more: a bot asked what one costs can only "
        "repeat those words, or may quote another amount on its row as the price (Variant Compare At Price: 19.00, "
        "on row 2). If they have a price, write it in Variant Price as a number."
    ]
