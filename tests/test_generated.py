"""Generated questions: asked about their column's own word, naming their product, and marked as the app's own
until the owner edits or accepts them (in the questions CSV, the workspace and the app's table)."""

from __future__ import annotations

import pytest

from workbench.core.model import Question
from workbench.read.loaders import load_bytes, load_path
from workbench.read.question_sets import import_questions
from workbench.read.question_wording import ENGLISH, FRENCH
from workbench.read.questions import generate_questions, parse_questions, questions_to_csv
from workbench.store.workspace import Workspace

from .conftest import ROOT, SAMPLE_CSV

SHOP = (
    b"name,price,exchanges,refund_policy,returns,faq_1_question,faq_1_answer\n"
    b"Oak Desk,120.00,Exchange within 14 days.,Full refund within 30 days.,Return it unused.,"
    b"How tall is it?,75 cm from floor to top.\n"
    b"Pine Shelf,45.00,No exchanges on sale items.,Refund to the card used.,Return within a month.,"
    b"Does the Pine Shelf come assembled?,No: it ships flat.\n"
)


def test_a_return_refund_or_exchange_column_asks_about_its_own_word():
    questions = generate_questions(load_bytes(SHOP, "shop.csv"), columns=["exchanges"])
    assert [q.question for q in questions] == ["Can I exchange the Oak Desk?", "Can I exchange the Pine Shelf?"]
    refunds = generate_questions(load_bytes(SHOP, "shop.csv"), columns=["refund_policy"])
    assert [q.question for q in refunds] == ["Can I get a refund on the Oak Desk?", "Can I get a refund on the Pine Shelf?"]
    returns = generate_questions(load_bytes(SHOP, "shop.csv"), columns=["returns"])
    assert [q.question for q in returns] == ["Can I return the Oak Desk?", "Can I return the Pine Shelf?"]
    # One question per product per kind: the three columns are one kind, so all columns give one each.
    every = generate_questions(load_bytes(SHOP, "shop.csv"))
    assert sum(q.question.startswith("Can I") for q in every) == 2


def test_every_generated_question_names_its_product_and_is_marked_generated():
    for document in (load_bytes(SHOP, "shop.csv"), load_path(SAMPLE_CSV)):
        questions = generate_questions(document, limit=1000)
        assert questions
        for question in questions:
            assert question.expected_source.lower() in question.question.lower(), question
            assert question.generated and question.kind == "generated"
    faq = [q.question for q in generate_questions(load_bytes(SHOP, "shop.csv"), columns=["faq_1_question"])]
    # The FAQ's question that does not name its product gets the name in front; one that does is kept as it is.
    assert faq == ["Oak Desk: How tall is it?", "Does the Pine Shelf come assembled?"]


def test_the_generated_flag_round_trips_through_the_csv_and_the_workspace(tmp_path):
    questions = [Question("Own question?", "Oak Desk", "120.00", "exact"),
                 Question("How much is the Oak Desk?", "Oak Desk", "120.00", "generated", generated=True)]
    text = questions_to_csv(questions)
    assert text.splitlines()[0] == "question,expected_source,expected_answer,kind,generated"
    back = parse_questions(text.encode(), "q.csv")
    assert [q.generated for q in back] == [False, True]
    # A set the owner wrote is written as before: no generated column at all.
    assert questions_to_csv(questions[:1]).splitlines()[0] == "question,expected_source,expected_answer,kind"
    assert parse_questions(b"question,expected_source,expected_answer,generated\nA?,X,1,yes\nB?,X,2,\n", "q.csv")[0].generated
    workspace = Workspace(tmp_path / "w.sqlite")
    workspace.save_questions("key", "shop.csv", questions)
    assert [q.generated for q in workspace.questions_for("key", "shop.csv").questions] == [False, True]
    imported = import_questions([], text.encode(), "q.csv", "add").questions
    assert [q.generated for q in imported] == [False, True]


def test_a_generated_measurement_question_says_the_unit_its_header_or_unit_column_gives():
    """Issue 25: "How tall is the Steam Generator Iron?" took "11" with no unit, the inches being in the header or in
    the product's unit column (Spree's dimensions_unit, weight_unit). The question now asks in that unit; the
    expected answer stays the cell, found word for word; a cell carrying its own unit ("2 kg") is left as it is."""
    table = load_bytes(b"name,height_cm,weight,dimensions\nDesk Fan,40,2 kg,30 x 20 x 10\n", "shop.csv")
    assert [(q.question, q.expected_answer) for q in generate_questions(table)] == [
        ("How tall is the Desk Fan, in centimetres?", "40"),
        ("How much does the Desk Fan weigh?", "2 kg"),
        ("What are the dimensions of the Desk Fan?", "30 x 20 x 10"),
    ]
    spree = load_bytes(b"name,height,weight,dimensions_unit,weight_unit\nSteam Generator Iron,11,8.8,in,lb\n",
                       "spree.csv")
    assert [(q.question, q.expected_answer) for q in generate_questions(spree)] == [
        ("How tall is the Steam Generator Iron, in inches?", "11"),
        ("How much does the Steam Generator Iron weigh, in pounds?", "8.8"),
    ]


GERMAN_SHOP = (
    "Bezeichnung,Preis,Farbe,Gewicht_kg,Lagerbestand,Umtausch\n"
    "Wollmütze Nordlicht aus Merinowolle,19,Grau,0.2,35,Umtausch nur ungetragen möglich\n"
    "Handschuhe Winterfreude mit Fleecefutter,24,Schwarz,0.3,12,Umtausch innerhalb von 30 Tagen\n"
).encode()
FRENCH_SHOP = (
    "Nom,Prix,Couleur,Poids (kg),Taille,Matière\n"
    "Bonnet en laine tricoté main,19,Gris chiné,0.2,Taille unique,Laine mérinos\n"
    "Écharpe longue en cachemire doux,49,Bleu nuit,0.3,Taille unique,Cachemire\n"
).encode()


def test_a_german_or_french_files_questions_are_asked_in_its_language():
    """Issue 35: a French export's questions came out half English ("What is the prix sp cial of the Bonnet?"):
    the kinds were found by English header words only, and accents split a header's words. Now the kind is found
    in the headers of every language read here and the question is put in the file's language, its unit too."""
    german = generate_questions(load_bytes(GERMAN_SHOP, "laden.csv"))
    assert [(q.question, q.expected_answer) for q in german if q.expected_source.startswith("Wollmütze")] == [
        ("Was kostet Wollmütze Nordlicht aus Merinowolle?", "19"),
        ("In welchen Farben gibt es Wollmütze Nordlicht aus Merinowolle?", "Grau"),
        ("Wie schwer ist Wollmütze Nordlicht aus Merinowolle, in Kilogramm?", "0.2"),
        ("Wie viele Stück von Wollmütze Nordlicht aus Merinowolle haben Sie auf Lager?", "35"),
        ("Kann ich Wollmütze Nordlicht aus Merinowolle umtauschen?", "Umtausch nur ungetragen möglich"),
    ]
    french = generate_questions(load_bytes(FRENCH_SHOP, "boutique.csv"))
    assert [(q.question, q.expected_answer) for q in french if q.expected_source.startswith("Bonnet")] == [
        ("Combien coûte Bonnet en laine tricoté main ?", "19"),
        ("En quelles couleurs existe Bonnet en laine tricoté main ?", "Gris chiné"),
        ("Combien pèse Bonnet en laine tricoté main, en kilogrammes ?", "0.2"),
        ("En quelles tailles existe Bonnet en laine tricoté main ?", "Taille unique"),
        ("En quelle matière est Bonnet en laine tricoté main ?", "Laine mérinos"),
    ]
    # The same French headers in an English file are still asked in English.
    english = b"Nom,Prix,Poids (kg)\nWoollen hat knitted by hand in the Highlands,19,0.2\n"
    assert [q.question for q in generate_questions(load_bytes(english, "shop.csv"))] == [
        "How much is the Woollen hat knitted by hand in the Highlands?",
        "How much does the Woollen hat knitted by hand in the Highlands weigh, in kilograms?"]


@pytest.mark.parametrize(("header", "rows", "asked"), [
    ("Nombre,Precio,Peso", ("Gorro de lana tejido a mano para el invierno", "Bufanda larga de cachemira muy suave"),
     ("¿Cuánto cuesta Gorro de lana tejido a mano para el invierno?",
      "¿Cuánto pesa Gorro de lana tejido a mano para el invierno?")),
    ("Nome,Prezzo,Peso", ("Berretto di lana fatto a mano per l'inverno", "Sciarpa lunga di cachemire morbidissima"),
     ("Quanto costa Berretto di lana fatto a mano per l'inverno?",
      "Quanto pesa Berretto di lana fatto a mano per l'inverno?")),
    ("Naam,Prijs,Gewicht", ("Gebreide wollen muts voor de koude winter", "Lange zachte sjaal van kasjmier en wol"),
     ("Wat kost Gebreide wollen muts voor de koude winter?", "Hoeveel weegt Gebreide wollen muts voor de koude winter?")),
    ("Nome,Preço,Peso", ("Gorro de lã tricotado à mão para o inverno", "Cachecol comprido de caxemira muito macio"),
     ("Quanto custa Gorro de lã tricotado à mão para o inverno?",
      "Quanto pesa Gorro de lã tricotado à mão para o inverno?")),
])
def test_spanish_italian_dutch_and_portuguese_files_are_asked_in_theirs(header, rows, asked):
    data = "\n".join([header, *(f'"{name}",19,0.2' for name in rows)]).encode()
    questions = generate_questions(load_bytes(data, "shop.csv"))
    assert tuple(q.question for q in questions if q.expected_source == rows[0]) == asked


def test_a_column_of_the_shop_systems_own_words_is_not_asked_about():
    """Walk-through: Bagisto's "Type" column (simple/configurable/grouped/bundle) gave "Type de Bonnet … ?" ->
    "simple". The one rule of system columns (``read.data_columns``) now says which columns no customer asks
    about; a kind column in a customer's words, a number of no known kind and a stock flag are still asked."""
    shop = (b"name,type,product_type,wattage,in_stock\n"
            b"Desk Fan,simple,Air Treatment,45 W,yes\nTower Fan,configurable,Air Treatment,60 W,no\n"
            b"Kettle,simple,Kitchen Appliance,2200 W,yes\nToaster,simple,Kitchen Appliance,900 W,yes\n")
    asked = [(q.question, q.expected_answer) for q in generate_questions(load_bytes(shop, "shop.csv"))
             if q.expected_source == "Desk Fan"]
    assert asked == [("What is the product type of the Desk Fan?", "Air Treatment"),
                     ("What is the wattage of the Desk Fan?", "45 W"), ("Is the Desk Fan in stock?", "yes")]


@pytest.mark.parametrize(("product", "asked"), [
    ("Accessoires d'hiver", "Catégorie d'Accessoires d'hiver ?"),
    ("Écharpe en laine", "Catégorie d'Écharpe en laine ?"),
    ("Huile de lin", "Catégorie d'Huile de lin ?"),  # a mute h
    ("Housse de couette", "Catégorie de Housse de couette ?"),  # an h aspiré keeps "de"
    ("Bonnet tricoté", "Catégorie de Bonnet tricoté ?"),
])
def test_french_de_before_a_vowel_or_a_mute_h_is_written_d_apostrophe(product, asked):
    assert FRENCH.other_column("Catégorie", product, "category") == asked
    count = FRENCH.ask(FRENCH.count, product)
    assert count.startswith("Combien d'" if "d'" in asked.split()[1] else "Combien de ")
    assert ENGLISH.other_column("Category", product, "category") == f"What is the category of the {product}?"


WRITTEN = ROOT / "tests" / "data" / "written"


def test_a_digit_flag_is_not_asked_and_the_stock_count_beside_it_is():
    """Walk-through: WooCommerce's "¿En inventario?" (0/1) gave "¿Tienen Jabón de carbón activo en stock?" -> "1", no
    answer a customer is given; it also took the product's one stock question from the count beside it. A flag
    written as a digit is not asked now; the count is, and a "1" in a column of counts asks how many."""
    asked = {(q.question, q.expected_answer) for q in generate_questions(load_path(WRITTEN / "jabones_woocommerce_es.csv"),
                                                                         limit=1000)}
    assert ("¿Cuántas unidades de Jabón de carbón activo tienen en stock?", "12") in asked
    assert not any(answer == "1" for _, answer in asked)
    swedish = {(q.question, q.expected_answer) for q in generate_questions(
        load_path(WRITTEN / "friluft_woocommerce_sv.csv"), limit=1000)}
    assert ("Hur många Mössa i ull finns i lager?", "30") in swedish  # "I lager?: 1" beside "Lager: 30"
    assert not any(answer == "1" for _, answer in swedish)
    counts = load_bytes(b"name,stock\nDesk Fan,1\nTower Fan,12\nLamp,0\n", "shop.csv")  # counts, one of them 1
    assert [(q.question, q.expected_answer) for q in generate_questions(counts)] == [
        ("How many of the Desk Fan are in stock?", "1"), ("How many of the Tower Fan are in stock?", "12")]


def test_a_category_brand_or_short_description_is_asked_as_a_customer_asks_and_tags_are_not_asked():
    """Walk-through: "¿Categorías de Jabón de carbón activo?", "Marca di Moka Express?", "Krótki opis – Koc?" and
    "¿Etiquetas de …?" said the header back with a question mark. Each is now a customer's question in the file's
    language; a product's search words (tags) are asked about in no language."""
    spanish = {(q.question, q.expected_answer) for q in generate_questions(
        load_path(WRITTEN / "jabones_woocommerce_es.csv"), limit=1000)}
    assert ("¿En qué categoría está Jabón de carbón activo?", "Jabones > Faciales") in spanish
    assert ("¿Cómo es Jabón de carbón activo?", "Limpieza profunda para pieles grasas.") in spanish
    assert not any(question.startswith(("¿Categorías", "¿Etiquetas", "¿Descripción")) for question, _ in spanish)
    italian = {q.question for q in generate_questions(load_path(WRITTEN / "caffe_magento_it.csv"), limit=1000)}
    assert "Di che marca è Moka Express 3 tazze?" in italian
    assert "In quale categoria si trova Moka Express 3 tazze?" in italian
    english = load_bytes(b"name,category,brand,short description,tags\nDesk Fan,Fans,Breezy,A quiet fan.,quiet\n",
                         "shop.csv")
    assert [q.question for q in generate_questions(english)] == [
        "Which category is the Desk Fan in?", "What brand is the Desk Fan?", "What is the Desk Fan like?"]


def test_the_price_asked_is_the_one_the_document_page_reads_not_the_net_price_beside_it():
    """Walk-through: the Document page said "prices from Cena z podatkiem" (with tax) while the generated question
    expected "Cena bez podatku", the net price: "Ile kosztuje Kołdra puchowa całoroczna 200x220?" -> "405,69"."""
    polish = {q.question: q.expected_answer for q in generate_questions(load_path(WRITTEN / "posciel_prestashop_pl.csv"),
                                                                       limit=1000)}
    assert polish["Ile kosztuje Kołdra puchowa całoroczna 200x220?"] == "499,00 zł"
