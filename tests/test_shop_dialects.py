"""Shop files as Excel saves them outside the English-speaking world, read as their writers wrote them: a `;`
between cells and a decimal comma, Windows-1252 with its euro sign, Windows-1250 on a Polish computer, Excel's
"Unicode text" (.txt, UTF-16, tabs); headers in Polish and Swedish; a price written "12,99 €" or "R$ 39,90" known
as a number, so no word is ever advised into it; and the command line saying the file's language."""

from __future__ import annotations

import codecs
import subprocess
import sys

import pytest

from workbench.read.data_columns import classify, data_columns
from workbench.read.headers import column_roles
from workbench.read.loaders import load_bytes
from workbench.read.table import name_like_column

from .conftest import ROOT

ITALIAN = "Codice;Nome;Prezzo;Descrizione\nCAF-1;Moka Express 3 tazze;12,99 €;Caffettiera in alluminio.\n" \
          "CAF-2;Macinacaffè manuale;79,00 €;Macine coniche in acciaio.\n"
POLISH = "Nazwa;Cena z podatkiem;Ilość;Opis\nKołdra puchowa;499,00 zł;6;Lekka kołdra z puchu.\n" \
         "Poduszka z łuską gryki;89,00 zł;20;Wypełniona łuską gryki.\n"
DUTCH = "Artikelnummer\tProductnaam\tPrijs\tOmschrijving\r\nFTS-1\tStadsfiets\t€ 549,00\tOmafiets met 3 versnellingen." \
        "\r\nFTS-2\tKinderfiets\t€ 229,95\tMet zijwieltjes.\r\n"


def test_an_italian_excel_export_in_windows_1252_opens_with_its_name_column_and_its_prices_as_written():
    document = load_bytes(ITALIAN.encode("cp1252"), "listino.csv")  # the euro sign is byte 0x80
    assert document.encoding == "windows-1252"
    assert document.name_column == "Nome"
    assert [section.heading for section in document.sections[1:]] == ["Moka Express 3 tazze", "Macinacaffè manuale"]
    assert "Prezzo: 12,99 €" in document.text.split("\n")
    assert column_roles(document.columns, document.name_column) == {
        "name": "Nome", "price": "Prezzo", "description": "Descrizione"}
    assert data_columns(document)["Prezzo"] == "numbers"  # a price: no customer's word is ever written into it


def test_a_polish_file_saved_in_windows_1250_reads_its_letters_right():
    document = load_bytes(POLISH.encode("cp1250"), "posciel.csv")
    assert document.encoding == "windows-1250"
    assert "Ilość" in document.columns  # read as 1252 it was "Iloœæ", and "Kołdra" was "Ko³dra"
    assert [section.heading for section in document.sections[1:]] == ["Kołdra puchowa", "Poduszka z łuską gryki"]
    assert "read as Windows-1250" in document.warnings[0]
    assert column_roles(document.columns, document.name_column) == {
        "name": "Nazwa", "price": "Cena z podatkiem", "description": "Opis"}


def test_western_signs_that_1250_reads_as_letters_keep_a_file_in_1252():
    # Spain's "¿" opens a word and "m³" ends one: neither sits between two letters, so the file stays 1252.
    text = "Nombre;Precio\n¿Jabón natural?;3,50 €\nCubo de 2 m³;5,00 €\nTabla ¿barata?;1,00 £\n"
    document = load_bytes(text.encode("cp1252"), "tienda.csv")
    assert document.encoding == "windows-1252"
    assert [section.heading for section in document.sections[1:]] == ["¿Jabón natural?", "Cubo de 2 m³",
                                                                        "Tabla ¿barata?"]


def test_excels_unicode_text_is_read_as_the_table_it_is():
    document = load_bytes(codecs.BOM_UTF16_LE + DUTCH.encode("utf-16-le"), "fietsen.txt")
    assert document.form.table
    assert document.encoding == "utf-16"
    assert document.name_column == "Productnaam"
    assert [section.heading for section in document.sections[1:]] == ["Stadsfiets", "Kinderfiets"]
    assert "Prijs: € 549,00" in document.text.split("\n")


def test_a_text_file_with_a_tab_in_it_is_still_prose():
    text = "Levering\n\nWij bezorgen binnen 2 dagen.\tOok op zaterdag.\nRetourneren kan 30 dagen lang.\n"
    document = load_bytes(text.encode("utf-8"), "info.txt")
    assert not document.form.table


@pytest.mark.parametrize(("header", "name"), [
    (["ID", "Aktywny (0/1)", "Nazwa", "Kategorie", "Cena bez podatku"], "Nazwa"),
    (["Indeks", "Nazwa produktu", "Cena"], "Nazwa produktu"),
    (["ID", "Typ", "Artikelnummer", "Namn", "Ordinarie pris"], "Namn"),
    (["Varenummer", "Produktnavn", "Pris"], "Produktnavn"),
    (["Tuotenumero", "Tuotenimi", "Hinta"], "Tuotenimi"),
    (["Kód", "Název", "Cena"], "Název"),
])
def test_the_name_column_is_found_in_polish_and_the_nordic_languages(header, name):
    assert header[name_like_column(header)] == name


def test_the_regular_price_is_read_as_the_price_and_a_first_word_names_a_role():
    woocommerce = ["Nombre", "Precio rebajado", "Precio normal", "Descripción corta", "Categorías"]
    assert column_roles(woocommerce, "Nombre") == {
        "name": "Nombre", "price": "Precio normal", "description": "Descripción corta", "category": "Categorías"}
    prestashop = ["Nombre", "Precio impuestos excluidos", "Resumen"]
    assert column_roles(prestashop, "Nombre") == {"name": "Nombre", "price": "Precio impuestos excluidos"}


@pytest.mark.parametrize("prices", [["12,99 €", "7,50 €"], ["R$ 39,90", "R$ 12,90"], ["CHF 12.50", "CHF 8.00"],
                                    ["149,00 zł", "89,00 zł"], ["4 995,00", "349,00"]])
def test_prices_as_shops_write_them_in_every_country_are_numbers(prices):
    assert classify("Prezzo", prices) == "numbers"


def test_a_column_of_words_is_not_numbers_nor_one_of_codes():
    assert classify("Marca", ["Bialetti", "Zassenhaus", "Moka 3"]) is None
    assert classify("Codice", ["CAF-001", "CAF-002", "CAF-003"]) == "identifiers"  # never a question, never a word


def test_the_command_line_says_the_files_language_and_the_columns_it_read(tmp_path):
    path, questions = tmp_path / "listino.csv", tmp_path / "domande.csv"
    path.write_bytes(ITALIAN.encode("cp1252"))
    questions.write_text("question,expected_source,expected_answer\n"
                         "quanto costa la moka?,Moka Express 3 tazze,\"12,99 €\"\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "workbench", "evaluate", str(path), "--questions", str(questions),
                           "--no-history", "--strategies", "heading", "--retrievers", "bm25", "--rerankers", "none"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "Written in Italian; read with Italian word rules."
    assert lines[2] == "Product names from Nome, prices from Prezzo, descriptions from Descrizione."


POLISH_SHOP = ("Indeks;Nazwa;Cena;Kolor;Opis\n"
               "KOL-A;Kołdra puchowa;499,00 zł;Biały;Lekka kołdra z puchu gęsiego, ciepła ale nie za gruba.\n"
               "POD-B;Poduszka gryczana;89,00 zł;Zielony;Wypełniona łuską gryki, dopasowuje się do kształtu szyi.\n"
               "KOC-C;Koc wełniany;260,00 zł;Szary;Tkany w Polsce z wełny merino, nie gryzie i grzeje.\n")


def test_a_polish_files_generated_questions_are_polish_and_never_ask_its_code():
    from workbench.read.questions import generate_questions

    document = load_bytes(POLISH_SHOP.encode("cp1250"), "sklep.csv")
    asked = {(question.question, question.expected_answer) for question in generate_questions(document)}
    assert ("Ile kosztuje Kołdra puchowa?", "499,00 zł") in asked
    assert ("Jakie kolory ma Poduszka gryczana?", "Zielony") in asked
    assert not any(answer.startswith(("KOL", "POD", "KOC")) for _, answer in asked)  # "Indeks" is the code
    assert data_columns(document)["Indeks"] == "identifiers"


def test_a_stock_flag_never_asks_how_many_and_a_digit_flag_is_not_asked():
    from workbench.read.questions import generate_questions

    # English "How many of the Mössa i ull are in stock?" before; then "Finns Mössa i ull i lager?" -> "1", an answer
    # no customer is given (walk-through): a flag written as a digit is not asked, one written in words is.
    swedish = ("Namn;I lager?;Beskrivning\nMössa i ull;1;Varm mössa stickad i Sverige av merinoull.\n"
               "Tält för två;1;Lätt tvåmannatält för fjällvandring som tål kraftig vind.\n").encode()
    asked = [question.question for question in generate_questions(load_bytes(swedish, "butik.csv"))]
    assert not any("lager" in question for question in asked)
    words = ("Namn;I lager?\nMössa i ull;ja\nTält för två;nej\nSovsäck;ja\n").encode()
    asked = [(q.question, q.expected_answer) for q in generate_questions(load_bytes(words, "butik.csv"))]
    assert ("Finns Mössa i ull i lager?", "ja") in asked


def test_the_to_dos_words_leave_out_how_customers_ask_in_dutch_and_swedish():
    from workbench.advise.todo_words import missing_words
    from workbench.core.words import analyzer

    dutch = analyzer(("nl",))
    assert missing_words("hoelang duurt het opladen van de accu?", "Accu van 500 Wh.", "E-bike",
                         analyzer=dutch) == ["opladen"]  # "hoelang", "duurt" were advised as search words
    swedish = analyzer(("sv",))
    assert missing_words("vilket bränsle använder trangian?", "Brinner med rödsprit.", "Stormkök",
                         analyzer=swedish) == ["bränsle", "trangian"]
    assert swedish.search_words_label == "Sökord:" and analyzer(("pl",)).search_words_label == "Słowa kluczowe:"


def test_the_to_dos_words_are_spelt_as_the_customer_wrote_them():
    """The walk-through's German to-do said "Suchbegriffe: wollsocken": a noun a German shop writes capitalised.
    The words are compared lowercased, as the searches read them, and written as asked; the first word of a
    question only keeps a capital past its first letter."""
    from workbench.advise.todo_words import missing_words
    from workbench.core.words import analyzer

    german = analyzer(("de",))
    assert missing_words("Welche Artikelnummer haben die Wollsocken?", "Socken aus Merinowolle.", "Arctic Socken",
                         analyzer=german) == ["Artikelnummer", "Wollsocken"]
    assert missing_words("Wollsocken im Angebot?", "Socken aus Merinowolle.", "Arctic Socken",
                         analyzer=german) == ["wollsocken", "Angebot"]
    assert missing_words("iPhone case in stock?", "Cases for phones.", "Case") == ["iPhone", "stock"]


WRITTEN = ROOT / "tests" / "data" / "written"


@pytest.mark.parametrize(("name", "encoding", "language", "roles"), [
    ("jabones_woocommerce_es.csv", "utf-8-sig", "es",
     {"name": "Nombre", "price": "Precio normal", "description": "Descripción", "category": "Categorías"}),
    ("caffe_magento_it.csv", "windows-1252", "it",
     {"name": "Nome", "price": "Prezzo", "description": "Descrizione", "category": "Categoria"}),
    ("fietsen_unicode_nl.txt", "utf-16", "nl",
     {"name": "Productnaam", "price": "Prijs", "description": "Omschrijving", "category": "Categorie"}),
    ("cafe_loja_pt.csv", "utf-8", "pt",
     {"name": "Nome do produto", "price": "Preço", "description": "Descrição", "category": "Categoria"}),
    ("posciel_prestashop_pl.csv", "windows-1250", "pl",
     {"name": "Nazwa", "price": "Cena z podatkiem", "description": "Opis", "category": "Kategorie"}),
    ("friluft_woocommerce_sv.csv", "utf-8-sig", "sv",
     {"name": "Namn", "price": "Ordinarie pris", "description": "Beskrivning", "category": "Kategorier"}),
])
def test_each_probe_export_opens_without_flags_in_its_language(name, encoding, language, roles):
    from workbench.read.language import document_languages
    from workbench.read.loaders import load_path

    document = load_path(WRITTEN / name)
    assert (document.encoding, document_languages(document)[:1]) == (encoding, (language,))
    assert column_roles(document.columns, document.name_column) == roles
    assert data_columns(document)[roles["price"]] == "numbers"


def test_the_check_up_says_first_how_the_file_was_read():
    done = subprocess.run([sys.executable, "-m", "workbench", "audit", str(WRITTEN / "posciel_prestashop_pl.csv")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        "Written in Polish; read with Polish word rules.",
        "Product names from Nazwa, prices from Cena z podatkiem, descriptions from Opis, categories from Kategorie."]
    assert "read as Windows-1250" in done.stderr


@pytest.mark.parametrize(("value", "fmt", "expected"), [
    (6.5, '#,##0.00\\ "€"', "6.50 €"),  # Excel (es-ES) shows "6,50 €": the file keeps the number and this format
    (39.9, '"R$" #,##0.00', "R$ 39.90"),
    (6.5, "[$€-C0A] #,##0.00", "€ 6.50"),
    (1234.5, "_-* #,##0.00\\ [$€-40C]_-;-* #,##0.00\\ [$€-40C]_-", "1,234.50 €"),  # accounting: padding shows none
    (149.0, "#,##0.00 [$zł-415]", "149.00 zł"),
    (5, "[$-409]0", "5"),  # a locale tag alone shows nothing
    (1234.5, "[Red]#,##0.00", "1,234.50"),
    (12345.0, "0.00E+00", "12345.00"),  # scientific: read as before
])
def test_an_excel_price_keeps_the_currency_its_format_shows(value, fmt, expected):
    from workbench.read.excel import format_cell

    assert format_cell(value, fmt) == expected


def test_an_owners_answer_with_a_decimal_comma_is_found_in_an_excel_price():
    import io

    import openpyxl

    from workbench.core.model import Question
    from workbench.read.resolve import resolve

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Nombre", "Precio", "Descripción"])
    sheet.append(["Jabón de lavanda", 6.5, "Jabón artesanal de aceite de oliva con lavanda, para pieles sensibles."])
    sheet.append(["Jabonera de olivo", 1299, "Jabonera tallada a mano en madera de olivo, con ranuras."])
    sheet["B2"].number_format = sheet["B3"].number_format = '#,##0.00\\ "€"'
    out = io.BytesIO()
    workbook.save(out)
    document = load_bytes(out.getvalue(), "jabones.xlsx")
    assert "Precio: 6.50 €" in document.text.split("\n")
    found = resolve(document, Question("cuanto cuesta el jabon?", "Jabón de lavanda", "6,50 €"))
    assert document.slice(found.answer_span) == "6.50 €"  # was: "the answer '6,50 €' is not in 'Jabón de lavanda'"
    found = resolve(document, Question("y la jabonera?", "Jabonera de olivo", "1.299,00 €"))
    assert document.slice(found.answer_span) == "1,299.00 €"


def test_a_decimal_comma_in_a_comma_separated_row_is_read_as_one_price():
    text = ("Nombre,Precio,Descripción\nJabón de lavanda,6,50,Jabón artesanal\nChampú sólido,€ 9,95 ,Sin sulfatos\n"
            "Jabonera,12,Madera de olivo\nCesta,grande,1,2,de mimbre\n")
    document = load_bytes(text.encode(), "jabones.csv")
    lines = document.text.split("\n")
    assert {"Precio: 6,50", "Descripción: Jabón artesanal", "Precio: € 9,95", "Precio: 12"} <= set(lines)
    assert document.warnings[0].startswith("Rows 2 and 3 of jabones.csv hold a number written with a decimal comma")
    # A row wider for another reason (two cells too many, one pair that could join) keeps the warning it had.
    assert "Precio: grande" in lines and "Row 5 has more cells than there are columns" in document.warnings[1]


def test_the_fixed_copy_writes_into_the_column_read_when_a_decimal_comma_split_a_row():
    from workbench.advise.edits import Edit
    from workbench.output.fixed_file import fixed_bytes

    data = "Nombre,Precio,Descripción\nJabón de lavanda,6,50,Jabón artesanal\nJabonera,12,Madera de olivo\n".encode()
    document = load_bytes(data, "jabones.csv")
    edit = Edit(0, " Palabras clave: piel atópica.", row=2, column="Descripción")
    # Appended to "Jabón artesanal", the row's third column as read, not to "50", the third cell as written.
    assert fixed_bytes(data, "jabones.csv", document, [edit]).decode() == (
        'Nombre,Precio,Descripción\nJabón de lavanda,"6,50",Jabón artesanal Palabras clave: piel atópica.\n'
        "Jabonera,12,Madera de olivo\n")
