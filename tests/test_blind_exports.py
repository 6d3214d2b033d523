"""Six shop files the workbench had not seen (blind42), as their systems export them: seller templates and listings
exports in Excel with a title, instructions and column groups above the header (Ozon, Mercado Libre, Allegro) and a
hint row under it (Ozon's "Число"), headers with their unit after a comma ("Цена, руб.*"), a Brazilian Nuvemshop
CSV, a French export with "Prix barré" and a narrow no-break space in "1 849,00 €", a Romanian FAQ with numbered
headings and bold questions. Each opens in its language, with its columns read."""

from __future__ import annotations

import io

import openpyxl
import pytest

from workbench.read.headers import column_roles

from .conftest import ROOT

WRITTEN = ROOT / "tests" / "data" / "written"


def _xlsx(rows: list[list[object]]) -> bytes:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


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
