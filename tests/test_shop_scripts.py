"""Shop files from Russia, Ukraine, Greece, Turkey, the Czech Republic and Hungary as their Excel saves them (issue 35):
Windows-1251 (Cyrillic), -1253 (Greek), -1254 (Turkish) and -1250 with Czech and Hungarian letters, each read in its
own code page, not as Windows-1252's accented letters ("Íàçâàíèå" for "Название"); their headers' roles known; and the
Western files that share those bytes still read as Windows-1252."""

from __future__ import annotations

import subprocess
import sys

import pytest

from workbench.read.data_columns import data_columns
from workbench.read.headers import column_roles
from workbench.read.loaders import load_bytes
from workbench.read.table import name_like_column
from workbench.read.textio import decode_text

from .conftest import ROOT

WRITTEN = ROOT / "tests" / "data" / "written"

RUSSIAN = "Артикул;Название;Цена;Описание\nMYL-1;Мыло «Лаванда»;350,00;Мыло на оливковом масле.\n" \
          "SHA-2;Твёрдый шампунь;490,00;Без сульфатов.\n"
GREEK = "Όνομα;Τιμή προσφοράς;Κανονική τιμή;Περιγραφή\nΜέλι θυμαρίσιο;;12,50;Αγνό μέλι από την Κρήτη.\n" \
        "Μέλι πεύκου;17,90;19,90;Σκούρο μέλι από τη Θάσο.\n"
TURKISH = "Ürün Adı;Satış Fiyatı;Açıklama\nPamuklu Peştemal;349,90;Plajda ve hamamda kullanılır.\n" \
          "İpek Yastık Kılıfı;749,00;Elde, soğuk suda yıkanmalı.\n"
CZECH = "Název;Cena bez DPH;Cena s DPH;Popis\nHrnek puntík;288,43;349,00 Kč;Ručně malovaný, průměr 8 cm.\n" \
        "Konvice;735,54;890,00 Kč;Do myčky nedávejte, myjte ručně.\n"
HUNGARIAN = "Cikkszám;Termék Név;Nettó Ár;Bruttó Ár;Hosszú Leírás\nPAP-1;Édes paprika;1173;1 490 Ft;Kőmalomban " \
            "őrölve, nem erős.\nPAP-2;Csípős paprika;1252;1 590 Ft;Közepesen erős őrlemény.\n"


@pytest.mark.parametrize(("text", "page", "encoding", "name", "price"), [
    (RUSSIAN, "cp1251", "windows-1251", "Название", "Цена"),
    (GREEK, "cp1253", "windows-1253", "Όνομα", "Κανονική τιμή"),  # WooCommerce's regular price, not its sale price
    (TURKISH, "cp1254", "windows-1254", "Ürün Adı", "Satış Fiyatı"),
    (CZECH, "cp1250", "windows-1250", "Název", "Cena s DPH"),  # what the customer pays: the price with VAT
    (HUNGARIAN, "cp1250", "windows-1250", "Termék Név", "Bruttó Ár"),
])
def test_a_file_saved_in_its_countrys_code_page_reads_its_letters_and_columns(text, page, encoding, name, price):
    document = load_bytes(text.encode(page), "export.csv")
    assert document.encoding == encoding
    header = text.split("\n", 1)[0].split(";")
    assert document.name_column == name  # read as 1252 the headers were "Íàçâàíèå", "Ürün Adý": no name column
    assert {document.name_column, *document.columns} == set(header)
    assert [section.heading for section in document.sections[1:]] == [
        line.split(";")[header.index(name)] for line in text.strip().split("\n")[1:]]
    assert column_roles(document.columns, name)["price"] == price
    assert f"read as {encoding.replace('windows', 'Windows')}" in document.warnings[0]
    assert data_columns(document)[price] == "numbers"


def test_ukrainian_and_bulgarian_in_windows_1251_are_cyrillic_not_greek():
    for text in ("Назва;Ціна\nЧай зелений, м'ята і шипшина;185\nЇжак у тумані;90\n",
                 "Име;Цена\nЧерен чай с мед;12,50\nЗелен чай;9,90\n"):
        assert decode_text(text.encode("cp1251"), "x.csv")[:2] == (text, "windows-1251")


def test_greek_in_capitals_is_still_greek():
    text = "ΟΝΟΜΑ;ΤΙΜΗ\nΜΕΛΙ ΘΥΜΑΡΙΣΙΟ ΚΡΗΤΗΣ;12,50\nΕΛΑΙΟΛΑΔΟ ΜΕΣΣΗΝΙΑΣ;14,80\n"
    assert decode_text(text.encode("cp1253"), "x.csv")[1] == "windows-1253"


@pytest.mark.parametrize("text", [
    "Nome;Prezzo\nCaffè così buono, più forte;3,50\nLunedì e martedì;1,00\n",  # Italian ì ù è end words
    "Nome;Preço\nPromoções e limões;3,50\nPõe na mesa, botões;2,00\n",  # Portuguese õ before an "e"
    "Heiti;Verð\nÞað er gott að vera hér;500\nÝmis vara, þú sérð;900\nHæ;1\n",  # Icelandic ð þ ý, and á é æ
    "Nom;Prix\nCrème brûlée, très bonne;3,50\nGoût de pêche;2,00\n",  # French û, è inside words
])
def test_western_files_with_those_letters_stay_windows_1252(text):
    assert decode_text(text.encode("cp1252"), "x.csv")[:2] == (text, "windows-1252")


def test_one_czech_letter_inside_a_word_is_not_enough():
    # "ì" inside one word could be a typing slip in an Italian file: two are needed, as for Polish.
    assert decode_text("Nome;Prezzo\nCaffè forte;3,50\nPrìma;1,00\n".encode("cp1252"), "x.csv")[1] == "windows-1252"


def test_opencarts_language_tagged_headers_name_the_product_not_its_id():
    header = ["product_id", "name(uk-ua)", "categories", "price", "description(uk-ua)"]
    assert header[name_like_column(header)] == "name(uk-ua)"  # was product_id: "product" is a name word
    assert column_roles(header, "name(uk-ua)") == {"name": "name(uk-ua)", "price": "price",
                                                   "description": "description(uk-ua)", "category": "categories"}


@pytest.mark.parametrize(("header", "name"), [
    (["Артикул", "Наименование", "Цена"], "Наименование"),
    (["Код", "Назва товару", "Ціна"], "Назва товару"),
    (["Κωδικός", "Όνομα προϊόντος", "Τιμή"], "Όνομα προϊόντος"),
    (["Stok Kodu", "Ürün Adı", "Fiyat"], "Ürün Adı"),
    (["Cikkszám", "Termék Név", "Ár"], "Termék Név"),
])
def test_the_name_column_is_found_in_cyrillic_greek_turkish_and_hungarian(header, name):
    assert header[name_like_column(header)] == name


@pytest.mark.parametrize(("stem", "case"), [
    ("kosmetika_bitrix_ru", "Written in Russian; read with Russian word rules"),
    ("meli_woocommerce_el", "Written in Greek; read with Greek word rules"),
    ("havlu_ikas_tr", "Written in Turkish; read with Turkish word rules"),
    ("hrnky_prestashop_cs", "Written in Czech; read with Czech word rules"),
    ("paprika_unas_hu", "Written in Hungarian; read with Hungarian word rules"),
])
def test_the_written_exports_open_on_the_command_line_in_their_language(stem, case):
    path = WRITTEN / f"{stem}.csv"
    done = subprocess.run([sys.executable, "-m", "workbench", "audit", str(path)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert case in done.stdout
    assert "Windows-1252" not in done.stdout + done.stderr


def test_generated_questions_are_asked_in_the_files_language_and_never_about_its_codes():
    from workbench.read.questions import generate_questions

    russian = generate_questions(load_bytes(RUSSIAN.encode("cp1251"), "export.csv"))
    # Before: no question at all ("Цена" had no word a-z); a Turkish or Czech file's were English.
    assert sorted((q.question, q.expected_answer) for q in russian) == [  # no "Артикул": a code, never asked
        ("Мыло «Лаванда»: что это за товар?", "Мыло на оливковом масле."), ("Сколько стоит Мыло «Лаванда»?", "350,00"),
        ("Сколько стоит Твёрдый шампунь?", "490,00"), ("Твёрдый шампунь: что это за товар?", "Без сульфатов.")]
    turkish = generate_questions(load_bytes(TURKISH.encode("cp1254"), "export.csv"))
    assert turkish[0].question == "Pamuklu Peştemal ne kadar?"
    greek = generate_questions(load_bytes(GREEK.encode("cp1253"), "export.csv"))
    assert ("Πόσο κοστίζει Μέλι πεύκου;", "19,90") in [(q.question, q.expected_answer) for q in greek]


def test_the_price_asked_is_the_one_the_file_is_read_as_priced_by():
    from workbench.read.questions import generate_questions

    czech = generate_questions(load_bytes(CZECH.encode("cp1250"), "export.csv"))
    prices = [(q.question, q.expected_answer) for q in czech if q.question.startswith("Kolik stojí")]
    assert prices == [("Kolik stojí Hrnek puntík?", "349,00 Kč"), ("Kolik stojí Konvice?", "890,00 Kč")]  # not 288,43


def test_a_greek_question_ends_in_its_own_question_mark_when_a_unit_is_added():
    from workbench.read.question_wordings_more import GREEK as WORDING

    assert WORDING.with_unit("Πόσο ζυγίζει Μέλι;", "grams") == "Πόσο ζυγίζει Μέλι, σε γραμμάρια;"


def test_every_language_asks_every_kind_of_question_english_does():
    from workbench.read.question_wording import ENGLISH
    from workbench.read.question_wordings_more import MORE_WORDINGS

    for code, wording in MORE_WORDINGS.items():
        assert wording.asks.keys() == ENGLISH.asks.keys(), code  # a kind left out was an error on the page
        assert wording.units.keys() == {"millimetres", "centimetres", "metres", "inches", "feet", "grams",
                                        "kilograms", "pounds", "ounces", "litres", "millilitres"}, code
