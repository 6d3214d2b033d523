"""Golden questions: reading and writing them as CSV, and generating them from a spreadsheet's columns.

Tying a question to the document (its section, its answer's place) is ``workbench.read.resolve``.
"""

from __future__ import annotations

import csv
import io
import re

from workbench.core import limits
from workbench.core.exports import csv_text, spreadsheet_bytes, unescape_cell
from workbench.core.model import Document, Question, Section, WorkbenchError
from workbench.core.named_forms import fold_accents
from workbench.read.base_of_files import FILE_MARK
from workbench.read.data_columns import data_columns, unasked_columns
from workbench.read.headers import column_roles
from workbench.read.language import document_languages
from workbench.read.question_wording import RETURNS_STEMS
from workbench.read.question_wordings_asia import ALL_KIND_WORDS, chinese_script
from workbench.read.question_wordings_more import wording_for
from workbench.read.spreadsheet import sniff_delimiter
from workbench.read.textio import decode_text
from workbench.read.unfilled import is_zero, no_value

COLUMNS = ("question", "expected_source", "expected_answer", "kind")
# Optional: "yes" on a question the app generated that its owner has not yet edited or accepted.
GENERATED = "generated"
# Optional: the file of a knowledge base the answer is in (else written "file › section" in expected_source).
SOURCE_FILE = "source_file"

# A question's number everywhere (app table, command line, report, downloads, to-do) is its row in the
# questions file as a spreadsheet shows it: the header is row 1, so the first question is row 2.
FIRST_ROW = 2
YES = re.compile(r"^(yes|y|true|1)$", re.IGNORECASE)


def parse_questions(data: bytes, name: str, rejected: list[tuple[int, str]] | None = None) -> list[Question]:
    """Read a questions CSV with columns ``question,expected_source,expected_answer[,kind][,generated]``.

    ``generated`` (yes, or empty) marks a question the app wrote that its owner has not checked yet.

    With a ``rejected`` list, a row that cannot be taken is noted there (row, reason) instead of
    stopping the whole file.
    """
    text, _, _ = decode_text(data, name)
    limits.allow_long_cells()  # a long cell is named below, with its row, not by the csv module's own limit
    reader = csv.DictReader(io.StringIO(text), delimiter=sniff_delimiter(text, name))  # Excel in Europe saves ';'
    try:
        header = [(field or "").strip().lower() for field in reader.fieldnames or []]
    except csv.Error as error:
        raise WorkbenchError(f"{name}, line 1: not readable as CSV ({error}).") from None
    missing = [column for column in COLUMNS[:3] if column not in header]
    if missing:
        raise WorkbenchError(
            f"{name} lacks the column(s) {', '.join(missing)}; its first row must read "
            "question,expected_source,expected_answer[,kind]."
        )
    reader.fieldnames = header
    questions = []
    records = iter(reader)
    number = 1
    while True:
        try:
            record = next(records)
        except StopIteration:
            break
        except csv.Error as error:  # a cell past the csv module's size limit, a stray NUL…
            raise WorkbenchError(f"{name}, line {reader.line_num + 1}: not readable as CSV ({error}).") from None
        number += 1
        if number - 1 > limits.MAX_QUESTIONS:  # each question is graded under every setup: bound the work first
            raise WorkbenchError(
                f"{name} has more than {limits.MAX_QUESTIONS:,} questions; the workbench reads "
                f"{limits.questions_sentence()}. Keep a sample of them in another file."
            )
        longest = max((len(value) for value in record.values() if isinstance(value, str)), default=0)
        if longest > limits.MAX_QUESTION_CELL:
            raise WorkbenchError(
                f"{name}, row {number}: a cell holds {longest:,} characters; the workbench reads "
                f"{limits.questions_sentence()}."
            )
        # Our own export escapes a formula-like cell with an apostrophe; read back, it is the text typed.
        values = {column: unescape_cell((record.get(column) or "").strip()) for column in COLUMNS}
        if not any(values.values()):
            continue
        if not values["question"]:
            if rejected is None:
                raise WorkbenchError(f"{name}, row {number}: the question is empty.")
            rejected.append((number, "the question is empty"))
            continue
        generated = bool(YES.match((record.get(GENERATED) or "").strip()))
        source_file = unescape_cell((record.get(SOURCE_FILE) or "").strip())
        if source_file and values["expected_source"]:  # a knowledge base's file, written as the source's first step
            values["expected_source"] = f"{source_file} › {values['expected_source']}"
        questions.append(Question(**values, row=number, generated=generated))
    if not questions and rejected is None:
        raise WorkbenchError(f"{name} holds no questions.")
    return questions


def questions_to_csv(questions: list[Question]) -> str:
    """The questions as CSV that a spreadsheet opens safely and ``parse_questions`` reads back unchanged.

    The ``generated`` column is written only when some question is still the app's own, so a set the
    owner wrote reads as it always did."""
    rows = [[q.question, q.expected_source, q.expected_answer, q.kind] for q in questions]
    if not any(q.generated for q in questions):
        return csv_text([COLUMNS, *rows])
    return csv_text([(*COLUMNS, GENERATED), *(row + ["yes" if q.generated else ""] for row, q in zip(rows, questions))])


def questions_file(questions: list[Question]) -> bytes:
    """``questions_to_csv`` as the file the owner downloads, which Excel opens in the file's language
    (``spreadsheet_bytes``); ``parse_questions`` reads its BOM and leaves it out."""
    return spreadsheet_bytes(questions_to_csv(questions))


# Columns no customer asks about: identifiers, links, pictures, codes, search-engine text.
SKIPPED = re.compile(
    r"^(id|ids|url|urls|link|links|slug|handle|image|images|img|src|photo|picture|thumbnail|sku|skus|barcode|ean|upc|"
    r"gtin|mpn|meta|seo|code|uuid|guid|position|status|published|tags?|vendor|template|currency|unit|name|tax|"
    r"backorderable|track|tracking|visible|visibility|discontinue|available|assets?|facets?|attribute|options?|new|sale|"
    r"featured|recommends|file|path|filename|"
    # A product's search words in the other languages whose headers are read: no customer asks for its tags.
    r"etiquetas|etiquettes|schlagworter|etichette|trefwoorden|tagi|taggar|"
    # Codes and a currency in the other languages' exports (Czech "Kód", Turkish "Stok Kodu", Hungarian "Cikkszám",
    # Russian "Артикул", Greek "Κωδικός"): never a customer's question.
    r"kod|kodu|cikkszam|varenummer|tuotenumero|артикул|код|валюта|κωδικος|αναγνωριστικο|"
    # Arabic "رمز المنتج", Hebrew 'מק"ט', Hindi "कोड", Thai "รหัสสินค้า", Vietnamese "Mã sản phẩm", Indonesian "Kode"
    # (folded as ``column_words`` folds: the vowel signs off).
    r"رمز|מק|कड|รหส\w*|ma|kode|"
    # Japanese, Chinese and Korean exports' codes (Rakuten's 商品管理番号, Youzan's 商品编码, Cafe24's 상품코드).
    r"独自商品コード|商品コード|商品番号|商品管理番号|品番|商品编码|商品编号|编码|货号|商品貨號|貨號|商品編號|"
    r"상품코드|자체|품번|상품번호|코드)$"
)
YES_NO = re.compile(r"^(1|yes|no|y|n)$", re.IGNORECASE)  # a flag, not a fact a customer asks for
TRUE_FALSE = ("true", "false")  # a system's flag, no customer's answer; nor is a 0 (``unfilled``: one rule)
FAQ_QUESTION_COLUMN = re.compile(r"faq.*question|question.*\d|^q\d+$", re.IGNORECASE)
FAQ_ANSWER_COLUMN = re.compile(r"faq.*answer|answer.*\d|^a\d+$", re.IGNORECASE)
COUNT = re.compile(r"^\d[\d,. ]*$")  # a number of items, as a stock column holds
SPELLING = {"color": "colour", "colors": "colours", "gray": "grey"}

# Units a measurement's column header or its product's unit column may name, as a customer reads them.
UNITS = {"mm": "millimetres", "cm": "centimetres", "m": "metres", "in": "inches", "inch": "inches",
         "inches": "inches", "ft": "feet", "feet": "feet", "g": "grams", "kg": "kilograms", "lb": "pounds",
         "lbs": "pounds", "pounds": "pounds", "oz": "ounces", "l": "litres", "ml": "millilitres"}
MEASURED = {"weight": ("weight",), "dimensions": ("dimensions", "width", "height", "depth", "length")}
HAS_LETTERS = re.compile(r"[^\W\d_]")


def _unit_columns(document: Document, section: Section) -> dict[str, str]:
    """The units a product's unit columns give, by the kind of column they measure: Spree's "dimensions_unit: in"
    and "weight_unit: lb" -> {"width": "inches", …, "weight": "pounds"}; a bare "unit" column measures every
    kind here."""
    found: dict[str, str] = {}
    for fact in section.facts:
        words = column_words(fact.column or "")
        if not words or words[-1] not in ("unit", "units"):
            continue
        unit = UNITS.get(document.slice(fact.span)[len(fact.column) + 2:].strip().lower())
        if unit is None:
            continue
        measured = MEASURED.get(words[0], ()) if len(words) > 1 else (*MEASURED["weight"], *MEASURED["dimensions"])
        for kind in measured:
            found.setdefault(kind, unit)
    return found


def _unit_of(column: str, kind: str, value: str, unit_columns: dict[str, str]) -> str:
    """The unit a generated question should ask in: "" when the cell carries its own ("2 kg", "2400W"), else the
    one its header names ("height_cm", "Height (cm)"), else its product's unit column's ("dimensions_unit: in").
    The expected answer stays the cell as written, so it is still found word for word in the file."""
    if HAS_LETTERS.search(re.sub(r"(?<=\d)\s*[x×]\s*(?=\d)", "", value)):  # "30 x 20" carries no unit
        return ""
    words = column_words(column)
    if len(words) > 1 and words[-1] in UNITS:
        return UNITS[words[-1]]
    return unit_columns.get(kind, "")


def column_words(column: str) -> list[str]:
    """A column's name as words, accents off: "custom_field.custom.noise_level" -> ["noise", "level"], "Prix
    spécial" -> ["prix", "special"], "Größe" -> ["grosse"]."""
    last = re.split(r"[.>/]", column.strip())[-1] or column
    last = fold_accents(last).replace("ß", "ss")  # the one folding: Polish "Długość" is "dlugosc"
    # Letters of any script: a Russian "Цена" or a Greek "Τιμή" is a word too ("[^a-z]" left them none).
    return re.findall(r"[^\W\d_]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", last).lower())


def column_label(column: str) -> str:
    """A column's header as a sentence names it: its last part, underscores as spaces, case and spelling kept
    ("custom_field.custom.voltage" -> "voltage", "product_type" -> "product type", "colors" stays "colors"). The
    place of a to-do item still gives the header as the file has it."""
    last = re.split(r"[.>/]", column.strip())[-1].strip() or column
    return re.sub(r"[_\s]+", " ", last).strip() or column


def humanize(column: str) -> str:
    """A column's name as a customer would say it: "noise_level" -> "noise level", "colors" -> "colours"."""
    return " ".join(SPELLING.get(word, word) for word in column_words(column))


def column_kind(column: str) -> str | None:
    """The kind of question a column answers ("price", "colour", …), "faq", "other", or None to skip it."""
    if FAQ_QUESTION_COLUMN.search(column):
        return "faq"
    words = column_words(column)
    if not words or any(SKIPPED.match(word) for word in words) or FAQ_ANSWER_COLUMN.search(column):
        return None
    for kind, pattern in ALL_KIND_WORDS:
        if any(re.fullmatch(pattern, word) for word in words):
            return kind
    return "other"


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _short(value: str, limit: int = 80) -> str:
    """The start of a long cell, cut at a word, still found word for word in the text."""
    if len(value) <= limit:
        return value
    return value[:limit].rsplit(" ", 1)[0]


def generate_questions(document: Document, columns: list[str] | None = None, limit: int = 50) -> list[Question]:
    """Questions a customer would ask, from a spreadsheet's columns; the answer is the cell.

    At most one question per product per kind of column (price, colour, warranty, …), phrased for
    that kind; identifier, link, image, SKU and handle columns are skipped; an FAQ column gives its
    own question with its answer, with the product's name in front when the question does not name it; a
    returns, refund or exchange column asks about its own word. Every question is marked ``generated``
    until its owner edits or accepts it. Products take turns, each starting at a different kind, so a
    capped list (``limit``, 50 by default) still covers many products and kinds.
    """
    if document.files:  # a knowledge base: every spreadsheet in it, each question naming its file
        tables = [part for part in document.files if part.document.form.table]
        if not tables:
            raise WorkbenchError("Questions can be generated from a spreadsheet's columns only, and this knowledge "
                                 "base has none; type them.")
        found = []
        for part in tables:
            for question in generate_questions(part.document, columns, limit):
                question.expected_source = f"{part.name} {FILE_MARK} {question.expected_source}"
                found.append(question)
        return found[:limit]
    if not document.form.table:
        raise WorkbenchError("Questions can be generated from a spreadsheet's columns only; type them for a document.")
    if limit < 1:
        raise WorkbenchError(f"the number of questions to generate must be 1 or more, not {limit}")
    wanted = set(columns) if columns is not None else set(document.columns)
    languages = document_languages(document)
    language = languages[0] if languages else None
    if language == "zh":  # asked in the file's script: "多少钱？" or "多少錢？"
        language = chinese_script(document.text)
    wording = wording_for(language)  # "Combien coûte …" for a French file
    # Columns the shop's system keeps for itself (``read.data_columns``, the one rule): Bagisto's Type
    # ("simple", "configurable") is no customer's question. A stock column stays: "yes" answers "is it in stock?".
    unasked = unasked_columns(document)
    # A flag written as a digit ("¿En inventario?: 1") answers no customer in their words: "1" is no answer to "Is
    # it in stock?". It is not asked; the stock count beside it, when there is one, is ("How many … in stock?").
    digit_flags = {column for column, kind in data_columns(document).items() if kind == "yes/no flags"}
    # The price the Document page says it reads ("prices from Cena z podatkiem"), not the net price beside it, and
    # never a struck-through price ("Prix barré"), even where a product's price cell is empty: it is not asked.
    roles = column_roles(document.columns, document.name_column)
    price_column = roles.get("price")
    per_product: list[list[Question]] = []
    for section in document.sections:
        if not section.heading:
            continue
        found: list[Question] = []
        kinds: set[str] = set()
        facts = list(section.facts)
        unit_columns = _unit_columns(document, section)
        for index, fact in enumerate(facts):
            if fact.column not in wanted or fact.column == roles.get("compare_at"):
                continue
            kind = column_kind(fact.column)
            if kind is None or (kind != "faq" and kind in kinds) or (fact.column in unasked and kind != "stock"):
                continue
            value = document.slice(fact.span)[len(fact.column) + 2 :].strip()
            if no_value(value) or "\n" in value or is_zero(value) or value.lower() in TRUE_FALSE:
                continue
            if fact.column in digit_flags and value.isdigit():
                continue
            if kind == "price" and fact.column != price_column and any(f.column == price_column for f in facts):
                continue
            if kind == "faq":
                answer = next((f for f in facts[index + 1 :] if FAQ_ANSWER_COLUMN.search(f.column or "")), None)
                if answer is None:
                    continue
                text = document.slice(answer.span)[len(answer.column) + 2 :].strip()
                question, expected = value, _short(text)
                if _fold(section.heading) not in _fold(question):  # "Is it quiet?" must say which product
                    question = f"{section.heading}: {question}"
            elif kind == "other":
                if len(value) > 80 or YES_NO.match(value):
                    continue  # long descriptions make poor expected answers
                kind = fact.column
                question = wording.other_column(column_label(fact.column), section.heading, humanize(fact.column))
                expected = value
            else:
                if len(value) > 80:
                    continue
                if kind == "returns":
                    words = column_words(fact.column)
                    asked = next((asked for asked, stems in RETURNS_STEMS
                                  if any(w.startswith(stem) for w in words for stem in stems)), "return")
                    template = wording.returns[asked]
                elif kind == "stock" and COUNT.match(value):
                    # "5000" (or "1" in a column of counts) answers "how many", not "is it in stock?"
                    template = wording.count
                else:
                    template = wording.asks[kind]
                question, expected = wording.ask(template, section.heading), value
                unit = _unit_of(fact.column, kind, value, unit_columns) if kind in MEASURED["dimensions"] + (
                    "weight",) else ""
                if unit:  # "How tall is the Desk Fan, in inches?" -> "11": the answer's unit said
                    question = wording.with_unit(question, unit)
            kinds.add(kind)
            found.append(Question(question, section.heading, expected, "generated", generated=True))
        if found:
            per_product.append(found)
    # Round robin over products, each starting at a different kind, until the cap.
    questions: list[Question] = []
    turn = 0
    while len(questions) < limit and any(per_product):
        for number, found in enumerate(per_product):
            if found and len(questions) < limit:
                questions.append(found.pop((number + turn) % len(found) if turn == 0 else 0))
        turn += 1
    return questions
