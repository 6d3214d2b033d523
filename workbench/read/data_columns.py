"""Which spreadsheet columns a shop's system reads as data, and which hold the product's own words.

One rule, in one place: the to-do, the check-up, the fixes, the bot-ready copy and the question generator ask it
before any word is
advised or written into a cell. A cell the shop's system reads (a price, a stock flag, a SKU, an image link, a
date, an attribute's value list, a meta or internal field, HTML markup) breaks the export or the import when a
word is typed into it; words go into a text column (a description, a short description, tags) instead, and a
product with none gets an item naming the column to add.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

import regex

from workbench.core.model import Document, Fact, Section

# A number with an optional currency or unit before or after it, as shops write prices in every country: "$12.50",
# "1,200", "45 W", "20%", and Europe's and Brazil's "12,99 €", "R$ 39,90", "CHF 12.50", "149,00 zł", "1'299.–";
# a code is not one ("CAF-001": a currency's letters are three capitals and a space, or "R$", "US$").
# Persian and Arabic write their digits' groups and decimals with their own signs, "۱۲۰٬۰۰۰" and "۲٫۵" (U+066C, U+066B).
NUMBER = re.compile(r"^(?:[^\w\s]{0,2}|[A-Z]{3}\s|[A-Za-z]{1,2}\$)\s*[-+]?\d[\d.,\s'\u066b\u066c]*"
                    r"(?:%|[^\W\d_]{1,3}\.?|[^\w\s]{1,2})?$")
FLAG = frozenset("0 1 yes no y n true false on off".split())
# A product's code in the shops' languages too: Polish "Indeks", Italian "Codice", Spanish "Código", "Referencia",
# Dutch and Swedish "Artikelnummer", "Art.-Nr.".
ID_WORDS = frozenset("""id ids sku skus ean upc gtin mpn isbn barcode handle slug code codes uuid guid index indeks
    kod kód codice codigo código ref referencia referência reference référence riferimento artikelnummer artikelnr
    nr varenummer tuotenumero""".split())
LINK = re.compile(r"^(?:https?://|www\.|ftp://|//|/?[\w.-]+/[\w./-]*\.(?:jpe?g|png|gif|webp|svg|pdf)\b)", re.IGNORECASE)
LINK_WORDS = frozenset("url urls link links href src image images img thumbnail thumbnails photo photos".split())
# A tag. Linear: the old "(?:\s[^<>]*)?/?\s*>" gave back the attributes' run one character at a time to try
# "\s*>" after each (a cell of "<a " and 40,000 spaces took 14 s, a megabyte hours), and "<\s*/?\s*" split a run of
# spaces two ways; each run is now read once ("<br/ >" and "< /p>" still match).
HTML = re.compile(r"<(?:\s*/)?\s*[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*|/\s*)?>")
DATE = re.compile(
    r"^(?:\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}(?: \d{1,2}:\d{2}(?::\d{2})?)?)$"
)
# A list of values in one cell ("Blue|Green|Red", "category:Electronics|brand:Apple", "S, M, L"): set values
# when its items are short and the same items come back on other rows.
LIST_SPLIT = re.compile(r"\s*[|;\n]\s*|\s*,\s*")
SET_WORDS = frozenset("attribute attributes option options facet facets variant variants values value group groups "
                      "size sizes colour colours color colors category categories taxonomy collection collections"
                      .split())
# What a shop's system keeps for itself: no customer asks for it, so a product without it lacks no fact.
NOT_FACTS = frozenset({"meta or internal fields", "links", "identifiers", "yes/no flags", "dates"})
# A value the shop's system writes for itself: one lowercase code word ("simple", "configurable", "grouped",
# "bundle" in Bagisto's Type column, "active", "standard"). A customer's words are written for a reader: "Black",
# "Vêtements d'hiver", "120 minutes", "WiFi + App".
SYSTEM_WORD = re.compile(r"^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$")
# Columns customers' words belong in, best first: the product's text, then its search words.
DESCRIPTION_WORDS = ("description", "descriptions", "desc", "body", "details", "text", "summary", "content",
                     "beschreibung", "kurzbeschreibung", "descriptif", "descripción", "descripcion", "descrizione",
                     "beschrijving", "omschrijving", "descrição", "descricao", "opis", "beskrivning", "beskrivelse",
                     "kuvaus", "popis", "descriere", "leírás", "açıklama", "описание", "анонс", "анонса", "аннотация", "опис",
                     "περιγραφή",
                     "الوصف", "وصف", "תיאור", "विवरण", "รายละเอียด", "tả", "deskripsi", "keterangan",  # "Mô tả"
                     "aprašymas", "apraksts", "kirjeldus", "lühikirjeldus", "توضیحات", "شرح", "penerangan", "বিবরণ",
                     "აღწერა")
SHORT_WORDS = ("short", "kurz", "kurzbeschreibung", "courte", "brève", "breve", "corta", "curta", "korte", "kort",
               "krótki", "krátký", "rövid", "kısa", "краткое", "анонс", "анонса", "короткий", "σύντομη", "trumpas",
               "kratki", "кратко", "krátky", "краток", "īss", "lühikirjeldus", "მოკლე")
TAG_WORDS = ("tags", "tag", "keywords", "keyword", "search")
# Japanese, Chinese and Korean headers write their words together ("商品説明", "상품 요약설명"): these are found inside
# a header word, not as one.
DESCRIPTION_PARTS = ("説明", "说明", "說明", "描述", "설명")
SHORT_PARTS = ("要約", "概要", "简介", "簡介", "요약")
TAG_PARTS = ("タグ", "キーワード", "标签", "標籤", "关键词", "關鍵字", "태그", "검색어")


def header_words(column: str) -> list[str]:
    """A header's words, lower case: "optionGroups" and "option_groups" are both ["option", "groups"]. A word keeps
    its vowel signs and accent marks (Hindi "विवरण", a decomposed Vietnamese "Mô tả", read composed)."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", unicodedata.normalize("NFC", column))
    return [re.sub(r"\d+$", "", word) for word in regex.split(r"[^\w\p{M}]+|_", spaced.lower()) if word]


def _internal(column: str) -> bool:
    """A meta or internal field by its name: "Meta: _wpcom_is_markdown", "_price", "hidden", "internal notes"."""
    lowered = column.strip().lower()
    words = header_words(column)
    return (lowered.startswith(("meta:", "meta_", "meta ", "_")) or lowered == "meta" or "hidden" in words
            or "internal" in words)


def is_tags(column: str) -> bool:
    return any(word in TAG_WORDS or _has_part(word, TAG_PARTS) for word in header_words(column))


def _has_part(word: str, parts: tuple[str, ...]) -> bool:
    """A header word holds one of these (``DESCRIPTION_PARTS``), in a script that writes words together."""
    return not word.isascii() and any(part in word for part in parts)


def _list_values(cells: list[str]) -> bool:
    """Cells that are lists of short values repeating across rows: an attribute's value list, facets."""
    listed = [cell for cell in cells if LIST_SPLIT.search(cell)]
    if len(listed) * 2 < len(cells) or len(cells) < 2:
        return False
    items = [item for cell in cells for item in LIST_SPLIT.split(cell) if item]
    if not items or max(len(item) for item in items) > 40:
        return False
    return len({item.lower() for item in items}) * 2 <= len(items)


def values_of(document: Document) -> dict[str, list[str]]:
    """Each column's non-empty cell values, as the document holds them ("Column: value" facts)."""
    values: dict[str, list[str]] = defaultdict(list)
    for fact in document.facts:
        if fact.column:
            cell = document.slice(fact.span)[len(fact.column) + 1 :].strip()
            if cell:
                values[fact.column].append(cell)
    return values


def classify(column: str, cells: list[str]) -> str | None:
    """What a column holds that a shop's system reads, in plain words, or None for free text."""
    words = set(header_words(column))
    if _internal(column):
        return "meta or internal fields"
    if not cells:
        return None
    distinct = {cell.lower() for cell in cells}
    share = len(cells) * 0.9
    if distinct <= FLAG:
        return "yes/no flags"
    if sum(1 for cell in cells if NUMBER.match(cell)) >= share:
        return "numbers"
    if sum(1 for cell in cells if DATE.match(cell)) >= share:
        return "dates"
    if words & LINK_WORDS or sum(1 for cell in cells if LINK.match(cell)) * 2 >= len(cells):
        return "links"
    if words & ID_WORDS or (len(cells) >= 3 and len(distinct) == len(cells)
                            and all(" " not in c and any(ch.isdigit() for ch in c) for c in cells)):
        return "identifiers"
    if sum(1 for cell in cells if HTML.search(cell)) * 2 >= len(cells):
        return "HTML markup"
    if is_tags(column):  # a product's search words: customers' words belong here
        return None
    if words & SET_WORDS and max(len(c) for c in cells) <= 80:
        return "set values"
    if _list_values(cells):
        return "set values"
    if len(cells) >= 4 and len(distinct) * 2 <= len(cells) and max(len(c) for c in cells) <= 60:
        return "set values"
    return None


def unasked(column: str, cells: list[str]) -> bool:
    """A column no customer asks about: one the system keeps for itself (``NOT_FACTS``), or set values that are
    all the system's own code words (a product type "simple"/"configurable"). Numbers (a price, a weight, a
    wattage) and set values in a customer's words (a colour, a voltage, an activity) are asked about."""
    kind = classify(column, cells)
    return kind in NOT_FACTS or (kind == "set values" and all(SYSTEM_WORD.match(cell) for cell in cells))


def unasked_columns(document: Document) -> set[str]:
    """A spreadsheet's columns no customer asks about (``unasked``); none for a document that is not one."""
    if not document.form.table:
        return set()
    return {column for column, cells in values_of(document).items() if unasked(column, cells)}


# Columns a product may leave empty and lack nothing: an option or variation (a mug with one colour has no option),
# and the shop's cost price (its own, never a customer's answer). Shopify's "Option1 Name", Square's "Option Value 1",
# Etsy's "VARIATION 1 VALUES", Square's "Default Unit Cost", Shopify's "Cost per item".
OPTIONAL_WORDS = frozenset("option options variation variations attribute attributes cost".split())


def never_lacking(document: Document) -> set[str]:
    """A spreadsheet's columns whose empty cell on a product is no fact missing: those no customer asks about
    (``unasked``), identifiers by name (a gift card's "Variant Barcode", whatever its digits look like), and
    options and cost prices (``OPTIONAL_WORDS``)."""
    kinds = data_columns(document)
    return (unasked_columns(document) | {c for c, kind in kinds.items() if kind in NOT_FACTS}
            | {c for c in document.columns if set(header_words(c)) & (ID_WORDS | OPTIONAL_WORDS)})


def data_columns(document: Document) -> dict[str, str]:
    """A spreadsheet's columns whose cells the shop's system reads, and what they hold ("numbers", "yes/no
    flags", "identifiers", "links", "dates", "HTML markup", "set values", "meta or internal fields"). Free-text
    columns are left out; so is every column of a document that is not a spreadsheet."""
    if not document.form.table:
        return {}
    kinds = {}
    for column, cells in values_of(document).items():
        kind = classify(column, cells)
        if kind:
            kinds[column] = kind
    return kinds


OTHER_TEXT = 3  # a free-text column that is not the product's description or tags ("care", "material")


def _rank(column: str) -> int:
    words = header_words(column)
    if any(word in DESCRIPTION_WORDS or _has_part(word, DESCRIPTION_PARTS) for word in words):
        return 2 if any(word in SHORT_WORDS or _has_part(word, SHORT_PARTS) for word in words) else 1
    return OTHER_TEXT


def text_column(document: Document, section: Section, data: dict[str, str]) -> Fact | None:
    """The cell where customers' words may be added to ``section``'s product: its description, else its short
    description, on its first (parent) row, written as text or as HTML (Shopify's "Body (HTML)", WooCommerce's
    "Description": the page the shop shows, where a sentence is text like any other). Never its tags: a platform
    makes each tag a filter and a link on the shop ("new" became a tag claiming the product new), so they are the
    system's as much as a SKU or an option value; never another free-text column (a "care" note is not where a
    customer's word for the product goes), the name column or any other column in ``data``. None when the product
    has no such cell: the item then names the column to add."""
    rows = [fact.row for fact in section.facts if fact.row is not None]
    if not rows:
        return None
    cells = [fact for fact in section.facts if fact.column and fact.column != document.name_column
             and not is_tags(fact.column) and _rank(fact.column) < OTHER_TEXT
             and data.get(fact.column) in (None, "HTML markup")]
    if not cells:
        return None
    first = min(rows)
    own = [fact for fact in cells if fact.row == first] or cells
    return min(own, key=lambda fact: (_rank(fact.column), -(fact.span[1] - fact.span[0])))


def is_html(cell: str) -> bool:
    """A cell written in HTML markup: words added to it go in as a paragraph of their own, so it stays HTML."""
    return HTML.search(cell) is not None


def as_text(cell: str) -> str:
    """A cell as its words read, its HTML tags taken out (what the to-do quotes of words it adds)."""
    return HTML.sub("", cell)
