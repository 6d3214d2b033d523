"""A shop's export read in its own language: the name, price, description and category columns found by headers in
German, French, Spanish, Italian, Dutch and Portuguese (`read.table`), and a file with none opens in the app with a
column picker (`ui.document`), checked in real Chromium."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from workbench.read.headers import column_roles, roles_sentence
from workbench.read.loaders import NoNameColumn, load_bytes
from workbench.read.table import name_like_column

from .conftest import ROOT
from .test_browser import CHROMIUM, FLAGS, keep_local, serve

FRENCH = ("TITRE,DESCRIPTIF,PRIX,CATÉGORIE\n"
          "Tapis berbère,Laine tissée à la main,129 €,Décoration\n"
          "Lampe de bureau Lumo,Lampe à bras articulé,39 €,Luminaires\n").encode()
NAMELESS = "Référence,Montant,Remarque\nA1,129 €,Livrée montée\nB2,39 €,Ampoule fournie\n".encode()


@pytest.mark.parametrize(("header", "name"), [
    (["Artikelnummer", "Bezeichnung", "Beschreibung", "Preis", "Kategorie"], "Bezeichnung"),
    (["Artikelnummer", "Artikelname", "Kurzbeschreibung", "Preis"], "Artikelname"),
    (["Art.-Nr.", "Titel", "Preis"], "Titel"),
    (["Référence", "Nom du produit", "Description", "Prix"], "Nom du produit"),
    (["SKU", "Nombre", "Descripción", "Precio", "Categoría"], "Nombre"),
    (["Código", "TÍTULO", "Precio"], "TÍTULO"),
    (["Codice", "Nome", "Descrizione", "Prezzo", "Categoria"], "Nome"),
    (["Artikelnummer", "Naam", "Beschrijving", "Prijs", "Categorie"], "Naam"),
    (["Referência", "Nome do produto", "Descrição", "Preço"], "Nome do produto"),
])
def test_the_name_column_is_found_in_six_more_languages(header, name):
    assert header[name_like_column(header)] == name


def test_english_headers_win_as_before_and_a_code_is_never_a_name():
    assert name_like_column(["Titel", "Name"]) == 1  # an English header first, whatever its place
    assert name_like_column(["Art.-Nr.", "Preis"]) is None  # "Art" and "Nr" name nothing
    assert name_like_column(["Artikel-Nr.", "Preis"]) is None  # "artikel" counts only as a whole header


def test_a_french_export_opens_without_naming_its_column():
    document = load_bytes(FRENCH, "boutique.csv")
    assert document.name_column == "TITRE"
    assert [s.heading for s in document.sections][1:] == ["Tapis berbère", "Lampe de bureau Lumo"]
    assert column_roles(document.columns, document.name_column) == {
        "name": "TITRE", "price": "PRIX", "description": "DESCRIPTIF", "category": "CATÉGORIE"}
    assert roles_sentence(document.columns, document.name_column) == (
        "Product names from TITRE, prices from PRIX, descriptions from DESCRIPTIF, categories from CATÉGORIE.")


def test_the_command_line_opens_the_french_export(tmp_path):
    path = tmp_path / "boutique.csv"
    path.write_bytes(FRENCH)
    done = subprocess.run([sys.executable, "-m", "workbench", "audit", str(path)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_a_file_with_no_name_column_names_the_languages_it_looked_in():
    with pytest.raises(NoNameColumn) as raised:
        load_bytes(NAMELESS, "codes.csv")
    assert raised.value.columns == ["Référence", "Montant", "Remarque"]
    assert "German, French, Spanish, Italian, Dutch, Portuguese, Polish or the Nordic languages" in str(raised.value)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium")
def test_in_chromium_the_french_export_opens_and_a_nameless_one_asks_for_its_column(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    french, nameless = tmp_path / "boutique.csv", tmp_path / "codes.csv"
    french.write_bytes(FRENCH)
    nameless.write_bytes(NAMELESS)
    with serve(tmp_path) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1400, "height": 1800})
        outside = keep_local(context)
        page = context.new_page()
        page.goto(url)
        expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=60000)
        page.locator("input[type=file]").first.set_input_files(str(french))
        expect(page.get_by_text("What was read from boutique.csv")).to_be_visible(timeout=60000)
        expect(page.get_by_text("Product names from TITRE, prices from PRIX, descriptions from DESCRIPTIF, "
                                "categories from CATÉGORIE.")).to_be_visible(timeout=30000)
        expect(page.get_by_text("Written in French; read with French word rules")).to_be_visible()
        page.screenshot(path=str(tmp_path / "french-export.png"), full_page=True)
        # Added beside it, a file whose columns name no product: a plain note and a picker, no error; picking opens it.
        page.locator("input[type=file]").last.set_input_files(str(nameless))
        expect(page.get_by_text("No column in codes.csv looks like a product name")).to_be_visible(timeout=60000)
        assert page.locator("[data-testid='stException'], [data-testid='stAlertContentError']").count() == 0
        page.screenshot(path=str(tmp_path / "nameless-picker.png"), full_page=True)
        page.get_by_role("combobox", name="Which column holds the product name?").last.click()
        page.get_by_role("option", name="Remarque").click()
        expect(page.get_by_text("The knowledge base as a whole")).to_be_visible(timeout=60000)
        expect(page.get_by_text("No column in codes.csv looks like a product name")).to_have_count(0)
        page.screenshot(path=str(tmp_path / "nameless-picked.png"), full_page=True)
        browser.close()
    assert outside == []


def test_a_polish_tytul_header_names_the_product():
    """"Tytuł" is listed as "tytul": headers are folded by the one folding (``named_forms.fold_accents``), which
    takes Polish "ł" to "l"; the header folding of its own did not, and "Tytuł" named nothing."""
    from workbench.read.headers import folded

    assert folded("Tytuł") == "tytul" and folded("Długość") == "dlugosc"
    assert name_like_column(["Indeks", "Tytuł", "Cena"]) == 1
