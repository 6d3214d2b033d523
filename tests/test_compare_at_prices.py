"""A struck-through ("compare at") price column has its own role: never the price, whatever its place or first word,
never asked as the price, and kept in the product's text under the shop's own label, which says what it is."""

from __future__ import annotations

import pytest

from workbench.read.headers import column_roles, roles_sentence
from workbench.read.loaders import load_bytes
from workbench.read.questions import generate_questions


@pytest.mark.parametrize("compare_at, price", [
    ("Compare at price", "Price"),
    ("Variant Compare At Price", "Variant Price"),  # Shopify's export
    ("Streichpreis", "Verkaufspreis"),
    ("UVP", "Preis"),
    ("Vergleichspreis", "Preis"),  # Shopify's German admin; its generated question asked it as a fact (walk44)
    ("Prix barré", "Prix de vente"),  # on main: the price, by its first word "prix"
    ("Precio tachado", "Precio de venta"),  # on main: the price, by "precio"
    ("Old price", "Price"),
    ("Старая цена", "Цена, руб."),
    ("Цена до скидки", "Цена"),  # first word "цена", but the whole header says what it is
])
def test_a_struck_through_price_before_the_price_is_never_the_price(compare_at, price):
    roles = column_roles(["Name", compare_at, price], "Name")
    assert roles == {"name": "Name", "price": price, "compare_at": compare_at}


def test_the_price_column_wins_in_a_french_csv_and_its_price_question_expects_the_price():
    data = ("Nom;Prix barré;Prix de vente;Description\n"
            "Vélo de ville;2 099,00 €;1 849,00 €;Moteur arrière, batterie 500 Wh.\n"
            "Vélo pliant;;649,00 €;Se plie en 15 secondes.\n").encode()
    document = load_bytes(data, "velos.csv")
    assert roles_sentence(document.columns, document.name_column) == (
        "Product names from Nom, prices from Prix de vente, descriptions from Description, struck-through prices "
        "from Prix barré.")  # on main: "prices from Prix barré", and no word of Prix de vente
    # the shop's own label stays in the text: it tells a bot, in French, that this was the price
    assert "Prix barré: 2 099,00 €" in document.text.split("\n")
    priced = {q.expected_source: q.expected_answer for q in generate_questions(document) if q.question.startswith("Combien")}
    assert priced == {"Vélo de ville": "1 849,00 €", "Vélo pliant": "649,00 €"}  # on main: "2 099,00 €" for the first


def test_a_product_with_only_a_struck_through_price_is_asked_no_price():
    data = b"Name,Compare at price,Price\nKettle,39.00,29.00\nToaster,49.00,\n"
    document = load_bytes(data, "shop.csv")
    asked = [(q.expected_source, q.expected_answer) for q in generate_questions(document)]
    # on main the Toaster was asked "How much is the Toaster?" with 49.00, the price it no longer has
    assert asked == [("Kettle", "29.00")]


def test_nuvemshops_promotional_price_is_the_sale_price_not_a_struck_through_one():
    # "Preço promocional" is what the customer pays during a sale ("Preço" R$ 129,90, promotional R$ 109,90)
    roles = column_roles(["Nome", "Preço", "Preço promocional"], "Nome")
    assert roles == {"name": "Nome", "price": "Preço"}
