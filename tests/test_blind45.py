"""Six shop files in languages and code pages the workbench had not seen (blind45), read as a new user would: an
Estonian WooCommerce export in Windows-1257, Latvian and Georgian WooCommerce exports, a Bengali price list in Excel
and a Macedonian FAQ. On main the Georgian export was refused ("no column that looks like a product name"), the
Estonian one read in Windows-1250 as Finnish with no price, the Latvian one with English rules and no price, the
Bengali one as Serbian and the Macedonian FAQ as Serbian and Bulgarian."""

from __future__ import annotations

import pytest

from workbench.core.words import analyzer
from workbench.read.headers import column_roles
from workbench.read.language import document_languages
from workbench.read.loaders import load_bytes, load_path
from workbench.read.textio import decode_text

from .conftest import ROOT

WRITTEN = ROOT / "tests" / "data" / "written"


@pytest.mark.parametrize(("name", "languages"), [("mishti_dam_bn.xlsx", ("bn",)), ("prasanja_sapuni_mk.md", ("mk",))])
def test_bengali_and_macedonian_are_named_as_themselves(name, languages):
    assert document_languages(load_path(WRITTEN / name)) == languages  # main: Serbian; Serbian and Bulgarian


def test_an_estonian_file_saved_in_windows_1257_reads_its_letters():
    text, encoding, warnings = decode_text((WRITTEN / "metsatee_woocommerce_et.csv").read_bytes(), "metsatee.csv")
    assert encoding == "windows-1257"  # main: Windows-1250, "Nőgesetee", "Ivan-tđai"
    assert "Nõgesetee 60 g" in text and "Ivan-tšai" in text and "Kinkekomplekt „Metsa hõng“" in text
    assert "Estonian" in warnings[0]


def test_hungarian_german_and_portuguese_are_not_taken_for_estonian():
    hungarian = "Termék Név;Leírás\nErős paprika;Csípős, őrölt fűszerpaprika. Ízletes és kiváló minőségű.\n"
    assert decode_text(hungarian.encode("cp1250"), "h.csv")[:2] == (hungarian, "windows-1250")
    german = "Name;Beschreibung\nKäse;Würziger Käse aus Österreich, gereift, mit Äpfeln.\n"
    assert decode_text(german.encode("cp1252"), "d.csv")[1] == "windows-1252"
    portuguese = "Nome;Descrição\nLimões;Põe limões frescos no chá. São ótimos.\n"
    assert decode_text(portuguese.encode("cp1252"), "p.csv")[1] == "windows-1252"


@pytest.mark.parametrize(("code", "asked", "written"), [
    ("lv", "zekem segu dzijas dzintara spilvendranai", "Zeķes Sega Dzija Dzintars Spilvendrāna"),
    ("bn", "রসগোল্লার দইয়ে কালোজামের খেজুরের কাঁচাগোল্লায়", "রসগোল্লা দই কালোজাম খেজুর কাঁচাগোল্লা"),
    ("ka", "ჩურჩხელაში საფერავს ყუთში ტყემალში", "ჩურჩხელა საფერავი ყუთი ტყემალი"),
])
def test_a_customers_inflected_word_meets_the_shops(code, asked, written):
    read = analyzer((code,))  # main: Latvian, Bengali and Georgian words read whole, so no pair met
    assert [read.stem(word) for word in asked.split()] == [read.stem(word.lower()) for word in written.split()]


def test_a_header_in_two_rows_under_merged_cells_names_each_column_by_both():
    document = load_path(WRITTEN / "mishti_dam_bn.xlsx")  # main: row 3 left out as a hint, wholesale "Column 5"
    assert document.columns[2:4] == ("দাম (টাকা) খুচরা", "দাম (টাকা) পাইকারি (১০ কেজির বেশি)")
    assert column_roles(document.columns, document.name_column)["price"] == "দাম (টাকা) খুচরা"
    assert "দাম (টাকা) পাইকারি (১০ কেজির বেশি): ৳340" in document.text
    assert "second row" in document.warnings[0] and "says what to write" not in document.warnings[0]


def test_a_csv_header_in_two_rows_at_the_top_is_read_as_one():
    text = ("Product,Price,,Notes\n,Retail,Wholesale,\nTeapot,24.00,19.00,Cast iron\nCup,6.00,4.50,Porcelain\n"
            "Tray,12.00,9.00,Bamboo\nKettle,30.00,25.00,Steel\n")
    document = load_bytes(text.encode(), "two_rows.csv")
    assert document.columns == ("Price Retail", "Price Wholesale", "Notes")  # main: a product named "" with "Retail"
    assert [section.heading for section in document.sections[1:]] == ["Teapot", "Cup", "Tray", "Kettle"]


def test_generated_questions_are_worded_in_the_files_language():
    from workbench.read.question_wordings_more import wording_for
    from workbench.read.questions import generate_questions

    def asked(name: str) -> list[str]:
        return [question.question for question in generate_questions(load_path(WRITTEN / name), limit=8)]

    assert "რა ღირს რქაწითელი ქარვისფერი 2022?" in asked("ghvino_woocommerce_ka.csv")  # main: refused, no name column
    assert "Kui palju maksab Kummeliõied 40 g?" in asked("metsatee_woocommerce_et.csv")  # main: "Tavahind" no price
    assert "Cik maksā Cimdi ar Lielvārdes jostas rakstu?" in asked("vilna_woocommerce_lv.csv")
    assert "টাঙ্গাইলের চমচম-এর দাম কত?" in asked("mishti_dam_bn.xlsx")  # main: "How much is the টাঙ্গাইলের চমচম?"
    # a Georgian header is said as written: str.upper() makes its first letter Mtavruli ("Ჩვეულებრივი")
    assert wording_for("ka").other_column("ჩვეულებრივი ფასი", "ქისი 2022", "") == "ჩვეულებრივი ფასი: ქისი 2022?"
