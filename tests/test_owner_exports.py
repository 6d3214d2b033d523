"""Exports of platforms the other tests do not have (Shopify's full export, WooCommerce's variations and HTML,
Square's item library), read as their writers wrote them, and advice that never types into what the shop's system
reads. The files are in tests/data/written (their README says how each was saved)."""

from __future__ import annotations

from pathlib import Path

from workbench.advise.advice import advise
from workbench.core.model import Question, Settings
from workbench.output.fixed_file import fixed_bytes
from workbench.read.data_columns import data_columns, text_column
from workbench.read.headers import column_roles
from workbench.read.loaders import load_bytes, load_path
from workbench.run.evaluate import evaluate

WRITTEN = Path(__file__).parent / "data" / "written"
WORD_SEARCH = Settings(["heading"], ["keyword"], ["none"])


def titles(document) -> list[str]:
    return [section.title for section in document.sections[1:]]


def test_shopify_reads_variant_price_as_the_price_and_body_html_as_the_description():
    document = load_path(WRITTEN / "kettle_shopify_en.csv")
    roles = column_roles(document.columns, document.name_column)
    assert (roles["price"], roles["description"]) == ("Variant Price", "Body (HTML)")
    # 13 products: the variant and image rows (Handle only) join their product by handle.
    assert len(titles(document)) == 13 and titles(document)[0] == "Gooseneck Pour-Over Kettle"


def test_square_variation_rows_repeating_name_and_reference_handle_are_one_product():
    document = load_path(WRITTEN / "bakery_square_en.xlsx")
    # 18 rows, 12 items: Sourdough (Whole, Half), Croissant (Single, Box of 6), … each one product, not two of a name.
    assert len(titles(document)) == 12 and len(set(titles(document))) == 12
    [croissant] = [s for s in document.sections if s.title == "Butter Croissant"]
    prices = [document.slice(f.span) for f in croissant.facts if f.column == "Price"]
    assert prices == ["Price: 4.25", "Price: 23.00"]


def test_a_named_row_with_a_different_name_under_the_same_handle_stays_its_own_product():
    data = b"Reference Handle,Item Name,Price\n#a,Loaf,5\n#a,Loaf,3\n#a,Bun,2\n"
    document = load_bytes(data, "items.csv")
    assert titles(document) == ["Loaf", "Bun"]


def test_woocommerce_variations_join_their_parent_by_id_or_sku():
    document = load_path(WRITTEN / "candles_woocommerce_en.csv")
    # 15 rows: 2 variable products with 3 and 2 variations, and 8 simple ones.
    assert len(titles(document)) == 10
    assert "Soy Wax Travel Tin Candle - Sea Salt" not in titles(document)
    [tin] = [s for s in document.sections if s.title == "Soy Wax Travel Tin Candle"]
    assert sorted({f.row for f in tin.facts}) == [2, 3, 4, 5]
    by_sku = load_bytes(b"ID,Type,SKU,Name,Parent,Regular price\n7,variable,JAR,Jar,,\n"
                        b"8,variation,JAR-R,Jar - Red,JAR,30\n9,simple,MUG,Mug,,12\n", "w.csv")
    assert titles(by_sku) == ["Jar", "Mug"]


HTML_SHOP = (
    "Handle,Title,Body (HTML),Tags,Variant SKU,Variant Price\n"
    "kettle,Gooseneck Kettle,<p>A stovetop kettle. Holds 1 litre.</p>,\"kettle, steel\",K-1,54.00\n"
    "mug,Stoneware Mug,<p>Hand-glazed. Holds 350 ml.</p>,mug,M-1,18.00\n"
    "filters,Paper Filters,<p>Unbleached paper filters for pouring coffee.</p>,filters,F-1,6.50\n"
)


def test_words_go_into_the_html_description_as_a_paragraph_never_into_tags():
    data = HTML_SHOP.encode()
    document = load_bytes(data, "shop.csv")
    assert data_columns(document)["Body (HTML)"] == "HTML markup"
    [kettle] = [s for s in document.sections if s.title == "Gooseneck Kettle"]
    assert text_column(document, kettle, data_columns(document)).column == "Body (HTML)"
    question = Question("What size is the pouring jug?", "Gooseneck Kettle", "1 litre", row=2)
    evaluation = evaluate(document, [question], WORD_SEARCH)
    advice = advise(evaluation, reader="cli")
    [item] = [item for item in advice.todo if item.kind == "words"]
    [edit] = item.edits
    assert (edit.row, edit.column, edit.text) == (2, "Body (HTML)", "<p>Search words: size.</p>")
    assert "“… Search words: size”" in item.edit and "leave the" not in item.edit  # no tags shown to the owner
    assert advice.fix is not None and advice.fix.measured.clean_after == 1
    written = fixed_bytes(data, "shop.csv", document, advice.fix.edits).decode()
    assert "<p>A stovetop kettle. Holds 1 litre.</p><p>Search words: size.</p>" in written
    assert '"kettle, steel"' in written  # the tags cell as it was


def test_a_product_without_a_barcode_an_option_or_a_cost_price_lacks_nothing():
    from workbench.advise.audit import audit

    data = (b"Title,Body,Variant Barcode,Option1 Name,Option1 Value,Cost per item,Weight\n"
            b"Kettle,A kettle.,5060123450011,Color,Black,21.00,780\n"
            b"Grinder,A grinder.,5060123450042,Color,Steel,38.00,520\n"
            b"Mug,A mug.,5060123450059,Color,Green,6.00,390\n"
            b"Gift Card,Sent by email.,,,,,\n")
    document = load_bytes(data, "shop.csv")
    # The weight is a fact a customer asks for; a barcode (digits, named an identifier), an option and the shop's
    # own cost are not.
    assert audit(document).missing_columns == [("Gift Card", ["Weight"])]


def test_html_cells_read_as_their_page_reads_entities_decoded_and_woocommerce_line_breaks():
    shopify = load_path(WRITTEN / "kettle_shopify_en.csv")
    assert "Holds 30 g of beans" in shopify.text and "&nbsp;" not in shopify.text
    assert "<p>Holds 30 g of beans, enough for two cups." in shopify.text  # the tags stay, as the system reads them
    woo = load_path(WRITTEN / "candles_woocommerce_en.csv")
    assert "\\n" not in woo.text
    assert "Description: <h3>About this candle</h3>\n<p>Our travel tin is poured by hand" in woo.text
    plain = load_bytes(b"Name,Note\nFan,Tom &amp; Jerry \\n not HTML\n", "p.csv")  # no tag: as written
    assert "Note: Tom &amp; Jerry \\n not HTML" in plain.text


def test_a_zero_on_the_first_of_variations_that_each_carry_the_name_is_a_fact():
    # Square: every variation row is an item as sold; the first one's 0 in stock is not a parent row's placeholder.
    data = (b"Reference Handle,Item Name,Variation Name,Price,Current Quantity\n"
            b"#loaf,Loaf,Whole,8.50,0\n#loaf,Loaf,Half,4.75,12\n")
    document = load_bytes(data, "items.csv")
    [loaf] = document.sections[1:]
    assert [document.slice(f.span) for f in loaf.facts if f.column == "Current Quantity"] == [
        "Current Quantity: 0", "Current Quantity: 12"]
    assert document.warnings == ()
    # A parent row without the name below it still has its 0 left out (Shopify's variant rows carry only the handle).
    parent = load_bytes(b"Handle,Title,Price\nfan,Fan,0\nfan,,10\nfan,,12\n", "shop.csv")
    assert [parent.slice(f.span) for f in parent.sections[1].facts if f.column == "Price"] == ["Price: 10", "Price: 12"]


def test_a_zero_under_a_yes_no_question_header_is_no_not_a_value_left_unfilled():
    from workbench.advise.audit import audit

    woo = audit(load_path(WRITTEN / "candles_woocommerce_en.csv"))
    # "Backorders allowed?: 0", "Is featured?: 0", "Sold individually?: 0" on every product are answers ("no");
    # Position's 0 (a number) is still asked about.
    assert [line.key for line in woo.placeholders] == ["Position"]
    prices = load_bytes(b"Name,Price,Note\n" + b"".join(b"P%d,0,n%d\n" % (n, n) for n in range(5)), "p.csv")
    assert [line.key for line in audit(prices).placeholders] == ["Price"]
