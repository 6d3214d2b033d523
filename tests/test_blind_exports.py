"""Six shop files the workbench had not seen (blind42), as their systems export them: seller templates and listings
exports in Excel with a title, instructions and column groups above the header (Ozon, Mercado Libre, Allegro) and a
hint row under it (Ozon's "Число"), headers with their unit after a comma ("Цена, руб.*"), a Brazilian Nuvemshop
CSV, a French export with "Prix barré" and a narrow no-break space in "1 849,00 €", a Romanian FAQ with numbered
headings and bold questions. Each opens in its language, with its columns read."""

from __future__ import annotations

import subprocess
import sys

import pytest

from workbench.read.data_columns import data_columns
from workbench.read.headers import column_roles
from workbench.read.loaders import load_bytes

from .conftest import ROOT, xlsx_bytes

WRITTEN = ROOT / "tests" / "data" / "written"



TEMPLATE = [
    ["Шаблон для загрузки товаров"],
    ["Заполните обязательные поля"],
    ["Основная информация", None, None, "Описание"],
    ["Артикул*", "Название товара", "Цена, руб.*", "Аннотация"],
    ["Уникальный номер", "Не более 200 символов", "Число", "Описание для покупателя"],
    ["A-1", "Чайник 800 мл", 1290, "Стекло."],
    ["A-2", "Самовар 3 л", 7450, "2000 Вт."],
    ["A-3", "Кружка 500 мл", 390, "Эмаль."],
]


def test_a_seller_templates_header_is_found_below_its_title_and_its_hint_row_left_out():
    document = load_bytes(xlsx_bytes(TEMPLATE), "ozon.xlsx")  # on main: "no column that looks like a product name"
    assert document.name_column == "Название товара"
    # the three products, not "Не более 200 символов" (the hint row) nor the title
    assert [section.heading for section in document.sections[1:]] == ["Чайник 800 мл", "Самовар 3 л", "Кружка 500 мл"]
    assert "Цена, руб.*: 1290" in document.text.split("\n")
    assert "is row 4" in document.warnings[0] and "row 5 under it" in document.warnings[0]
    # the unit after a comma does not hide the price; Ozon's "Аннотация" is its description
    assert column_roles(document.columns, document.name_column) == {
        "name": "Название товара", "price": "Цена, руб.*", "description": "Аннотация"}


def test_a_csv_with_a_title_line_above_its_header_is_read_from_the_header():
    text = "Mis publicaciones - Exportado el 07/12/2026\n\nTítulo;Precio;Stock\nMate Imperial;$ 48.500;8\n" \
           "Bombilla;$ 21.900;15\nTermo;$ 36.999;22\nYerba;$ 6.450;60\n"
    document = load_bytes(text.encode("utf-8"), "publicaciones.csv")
    assert document.name_column == "Título"
    assert [section.heading for section in document.sections[1:]] == ["Mate Imperial", "Bombilla", "Termo", "Yerba"]
    assert "Precio: $ 48.500" in document.text.split("\n")  # the first product is a product: prices are no hint
    assert document.warnings[0].startswith("The header of publicaciones.csv is row 3:")


def test_a_header_row_is_kept_first_when_it_has_a_name_and_a_data_row_below_is_never_made_the_header():
    # The first row names no product, but it is as wide as the row below that has "Product" in it: not a title.
    text = "Code;Preis;Farbe\nA-1;3,50 €;Product red\nA-2;4,00 €;blau\n"
    with pytest.raises(Exception, match="no column that looks like a product name"):
        load_bytes(text.encode("utf-8"), "liste.csv")
    plain = load_bytes(b"Name;Price\nTea;3.50\n", "plain.csv")
    assert plain.warnings == () and plain.name_column == "Name"


@pytest.mark.parametrize("header, price", [
    (["Nom", "Prix (€)", "Stock"], "Prix (€)"),
    (["Название", "Цена, руб.", "Остаток"], "Цена, руб."),
])
def test_a_price_header_with_its_currency_after_punctuation_is_the_price(header, price):
    assert column_roles(header, header[0])["price"] == price  # on main: no price (the first word was "prix" + "(€)")


def test_allegros_offer_title_names_the_product_and_ozons_annotation_describes_it():
    from workbench.read.table import name_like_column

    assert name_like_column(["ID oferty", "Tytuł oferty", "Cena", "Opis oferty"]) == 1  # on main: None
    assert column_roles(["Артикул*", "Название товара", "Аннотация"], "Название товара")["description"] == "Аннотация"


@pytest.mark.parametrize("file, language, roles", [
    ("cafeteiras_nuvemshop_pt.csv", "Portuguese",
     "Product names from Nome, prices from Preço, descriptions from Descrição, categories from Categorias."),
    ("ceramika_allegro_pl.xlsx", "Polish",
     "Product names from Tytuł oferty, prices from Cena, descriptions from Opis oferty, categories from Kategoria."),
    ("chainaya_ozon_ru.xlsx", "Russian",
     "Product names from Название товара, prices from Цена, руб.*, descriptions from Аннотация."),
    ("mates_mercadolibre_es.xlsx", "Spanish", "Product names from Título, prices from Precio, descriptions from Descripción."),
    ("velos_wizishop_fr.csv", "French",
     "Product names from Nom du produit, prices from Prix TTC, descriptions from Description courte, categories from "
     "Catégorie, struck-through prices from Prix barré."),
    ("ceainarie_faq_ro.md", "Romanian", ""),
])
def test_the_blind_files_open_in_their_language_with_their_columns(file, language, roles):
    done = subprocess.run([sys.executable, "-m", "workbench", "audit", str(WRITTEN / file)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"Written in {language}; read with {language} word rules." in done.stdout
    if roles:
        assert roles in done.stdout.split("\n")


@pytest.mark.parametrize("file, products, price, shown", [
    ("chainaya_ozon_ru.xlsx", 11, "Цена, руб.*", "Цена, руб.*: 7450"),
    ("mates_mercadolibre_es.xlsx", 11, "Precio", "Precio: $ 119.000"),
    ("ceramika_allegro_pl.xlsx", 11, "Cena", "Cena: 1 249,00 zł"),
    ("cafeteiras_nuvemshop_pt.csv", 10, "Preço", "Preço: R$ 1.299,90"),
    ("velos_wizishop_fr.csv", 11, "Prix barré", "Prix barré: 2\u202f099,00 €"),
])
def test_the_blind_exports_read_every_product_and_their_prices_as_written(file, products, price, shown):
    document = load_bytes((WRITTEN / file).read_bytes(), file)
    assert len(document.sections) - 1 == products  # the first section is the file's title
    assert shown in document.text.split("\n")
    assert data_columns(document)[price] == "numbers"  # no customer's word is ever advised into it


FAQ_IT = ("# Domande frequenti\n\n**Quanto costa la spedizione?**\nLa spedizione costa 6,90 €, gratis da 49 €.\n\n"
          "**Posso pagare alla consegna?**\nSì, il contrassegno costa 4 € in più.\n\n```\n\n**not a heading**\n```\n")


def test_a_faq_whose_questions_are_bold_lines_is_cut_at_them():
    document = load_bytes(FAQ_IT.encode("utf-8"), "faq.md")  # on main: one section, the title's, holding it all
    assert [(section.heading, section.level) for section in document.sections] == [
        ("Domande frequenti", 1), ("Quanto costa la spedizione?", 2), ("Posso pagare alla consegna?", 2)]
    assert document.sections[1].path == ("Domande frequenti",)


@pytest.mark.parametrize("text", [
    FAQ_IT.replace("# Domande frequenti", "## Domande frequenti"),  # the writer's own "##" headings: bold is emphasis
    "# FAQ\n\n**Only one bold line**\nText.\n",  # one bold line is emphasis
    "# FAQ\n\nText **bold inside** a line.\n\n**bold** and more\n",  # not wholly bold
])
def test_bold_lines_stay_text_where_the_writer_used_headings_or_emphasis(text):
    document = load_bytes(text.encode("utf-8"), "faq.md")
    assert all(not section.heading.startswith(("Quanto", "Only", "bold")) for section in document.sections)


def test_a_bold_sentence_is_emphasis_and_only_bold_questions_and_titles_open_sections():
    text = ("# Shop FAQ\n\n**Can I return it?**\nYes, within 30 days.\n\n**All sales are final.**\nExcept faulty items.\n\n"
            "**送料はいくら？**\n全国一律500円です。\n\n**返品はできません。**\n\n**Shipping**\nWe ship in 2 days.\n")
    document = load_bytes(text.encode("utf-8"), "faq.md")
    # On main "All sales are final." and "返品はできません。" were headings too, each a section of its own. Offsets by
    # hand: "# Shop FAQ\n" is 0-11; "**Can I return it?**" 12-32 (20 characters), its answer 33-53, the bold
    # sentence 55-79 and its line 80-100, so the section ends at 101; "**送料はいくら？**" (11) starts at 102.
    assert [(s.heading, s.span, s.heading_span) for s in document.sections] == [
        ("Shop FAQ", (0, 11), (0, 10)), ("Can I return it?", (12, 101), (12, 32)),
        ("送料はいくら？", (102, 141), (102, 113)), ("Shipping", (142, 174), (142, 154))]
    assert "**All sales are final.**" in [document.slice(fact.span) for fact in document.sections[1].facts]


@pytest.mark.parametrize("titles", [9, 10, 100_000])
def test_a_header_below_more_titles_than_are_looked_through_is_refused_naming_the_limit(titles, tmp_path):
    """The header is looked for in the first 10 rows that hold anything (``PREAMBLE_ROWS``), whatever the file's
    length: 9 titles above it are read past; from 10 on, the message says where it was looked for."""
    from tests.hostile import titles_then_header
    from workbench.read.table import PREAMBLE_ROWS

    data = titles_then_header(tmp_path / "publicaciones.csv", titles).read_bytes()
    if titles < PREAMBLE_ROWS:
        document = load_bytes(data, "publicaciones.csv")
        assert document.name_column == "Título" and len(document.sections) == 1 + 3  # the title, 3 mates
        return
    with pytest.raises(Exception, match="looked for in the first 10 rows that hold anything") as refused:
        load_bytes(data, "publicaciones.csv")
    assert "Its columns are: Mis publicaciones - Exportado el 07/12/2026 - hoja 0." in str(refused.value)
