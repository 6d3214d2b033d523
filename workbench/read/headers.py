"""Which column of a shop's table plays which part, by its header, in every language the workbench reads: the
product's name, price, description and category, a variant's handle and its parent. Data and the rule that reads it
(``column_roles``); ``read.table`` makes the Document."""

from __future__ import annotations

import re

import regex

from workbench.core.model import Document
from workbench.core.named_forms import fold_accents

# Headers that name the product, best first; then any header containing one of the words.
NAME_HEADERS = ("name", "product name", "product", "title", "product title", "item", "item name", "product_name")
NAME_WORDS = ("name", "title", "product", "item")
# The product name in a shop's own language: German, French, Spanish, Italian, Dutch and Portuguese headers, and
# Polish, Swedish, Danish, Norwegian, Finnish, Czech, Romanian, Hungarian, Turkish and Catalan ones (the languages
# word search has rules for), compared lowercased and without accents ("TITRE", "Título", "Název"). Looked for
# after the English ones (so an English file is read as before): a whole header first, then a header holding one of
# ``OTHER_NAME_WORDS`` ("Nom du produit", "Nazwa produktu"). A code's header ("Artikel-Nr.") is never a name, so
# "artikel" and "article" count only whole.
OTHER_NAME_HEADERS = (
    "bezeichnung", "artikelname", "artikelbezeichnung", "produktname", "produkt", "titel", "artikel",  # de
    "nom", "nom du produit", "titre", "produit", "libelle", "designation", "article",  # fr
    "nombre", "nombre del producto", "titulo", "producto", "articulo",  # es
    "nome", "nome prodotto", "nome del prodotto", "titolo", "prodotto", "articolo", "denominazione",  # it
    "naam", "productnaam", "artikelnaam",  # nl ("titel", "product" above)
    "nome do produto", "produto", "artigo", "designacao",  # pt
    "nazwa", "nazwa produktu", "tytul",  # pl ("produkt" above)
    "namn", "produktnamn", "benamning", "artikelnamn", "produktnavn", "navn", "varenavn", "betegnelse",  # sv, da, no
    "nimi", "tuotenimi", "tuotteen nimi", "tuote",  # fi
    "nazev", "nazev produktu", "nazev zbozi",  # cs
    "denumire", "denumire produs", "nume", "nume produs", "produs",  # ro
    "nev", "termeknev", "termek neve", "termek nev", "termek",  # hu
    "urun adi", "urun ismi", "urun",  # tr
    "nom del producte", "producte",  # ca
    "название", "наименование", "название товара", "наименование товара", "товар",  # ru
    "назва", "назва товару", "найменування",  # uk
    "ονομα", "ονομα προιοντος", "τιτλος", "προιον",  # el
)
OTHER_NAME_WORDS = ("bezeichnung", "artikelname", "produktname", "titel", "nom", "titre", "produit", "nombre",
                    "titulo", "producto", "nome", "titolo", "prodotto", "naam", "productnaam", "produto", "nazwa",
                    "namn", "produktnamn", "navn", "produktnavn", "nimi", "nazev", "denumire", "nume", "nev", "adi",
                    "tytul",  # Allegro's "Tytuł oferty"
                    "название", "наименование", "назва", "ονομα")
# The other columns a shop's export has in every language, said on the Document page ("read as the price"): a whole
# header first ("Precio normal", WooCommerce's regular price, before its "Precio rebajado"), then a header whose
# first word is one of these ("Precio impuestos excluidos", "Cena z podatkiem").
ROLE_HEADERS = {
    "price": ("price", "regular price", "sale price", "variant price", "preis", "verkaufspreis", "prix", "prix ttc", "precio",
              "precio impuestos incluidos", "cena z podatkiem", "cena brutto",
              "precio normal", "prezzo", "prijs", "preco", "cena", "pris", "ordinarie pris", "hinta", "pret", "ar",
              "fiyat", "preu", "cena s dph", "brutto ar", "satis fiyati", "цена", "розничная цена", "ціна",
              "роздрібна ціна", "κανονικη τιμη", "τιμη"),
    "description": ("description", "short description", "body (html)", "body html", "beschreibung", "kurzbeschreibung", "descriptif",
                    "descripcion", "descripcion corta", "descrizione", "descrizione breve", "beschrijving",
                    "omschrijving", "descricao", "opis", "krotki opis", "beskrivning", "kort beskrivning",
                    "beskrivelse", "kuvaus", "popis", "descriere", "leiras", "aciklama", "descripcio", "kratky popis",
                    "hosszu leiras", "rovid leiras", "kisa aciklama", "детальное описание", "описание", "анонс", "аннотация",
                    "опис", "περιγραφη", "συντομη περιγραφη"),
    "category": ("category", "categories", "kategorie", "categorie", "categoria", "categorias", "rubrique",
                 "warengruppe", "kategorier", "kategoria", "kategorii", "kategori", "kategoriat", "categorii",
                 "kategoriak", "kategoriler", "раздел", "категория", "категории", "категорія", "категорії",
                 "κατηγοριες", "κατηγορια"),
}
# A struck-through price ("compare at" in Shopify's words): what the product cost before, shown crossed out beside
# its price. Never the price, whatever its place or its first word ("Prix barré" before "Prix de vente" was read
# as the price, and a price question expected it): a whole header, folded, or its first word. Its cells stay in
# the product's text as the shop labelled them ("Prix barré: 2 099,00 €"), which says to a bot, in the shop's
# language, what the price was; no price question is asked of them. Nuvemshop's "Preço promocional" is no such
# price: it is the sale price the customer pays, beside "Preço" (WooCommerce's "Sale price" likewise).
COMPARE_AT_HEADERS = (
    "compare at price", "compare-at price", "variant compare at price", "old price", "was price",  # en
    "streichpreis", "vergleichspreis", "uvp", "alter preis", "prix barre", "ancien prix", "precio tachado", "precio anterior",
    "precio de comparacion", "prezzo barrato", "prezzo di confronto", "preco de comparacao", "preco antigo",
    "vergelijkingsprijs", "oude prijs", "cena przekreslona", "stara cena", "старая цена", "цена до скидки",
    "зачеркнутая цена",
)
HANDLE_HEADERS = ("handle", "slug", "url key", "url_key", "product handle", "reference handle", "parent", "parent sku")
# A variation's own row names its product here (WooCommerce: "id:1021" or the parent's SKU), by one of KEY_HEADERS.
PARENT_HEADERS = ("parent", "parent sku", "parent id")
KEY_HEADERS = ("id", "sku")

# Japanese, Chinese (simplified and traditional) and Korean headers, as Rakuten, makeshop, Taobao, Youzan, Shopline
# and Cafe24 export them, best first; looked for when no other language's header plays the role, by the header's
# words before a bracket ("販売価格(税込)", "价格（元）" is "价格"). Of several prices, the one with tax (``TAX_INCLUDED``),
# as Czech "Cena s DPH" is taken over "Cena bez DPH": what the customer pays. Korean 판매가 (the selling price, with
# VAT) comes before 상품가 (without) and 소비자가 (the list price shown struck through).
EAST_ASIAN_HEADERS = {
    "name": ("商品名", "商品名称", "商品名稱", "宝贝名称", "寶貝名稱", "产品名称", "產品名稱", "品名", "名称", "名稱",
             "商品", "상품명", "제품명", "품명", "상품 이름", "상품이름"),
    "price": ("販売価格", "価格", "税込価格", "売価", "通常価格", "単価", "定価", "价格", "售价", "销售价", "销售价格",
              "一口价", "宝贝价格", "现价", "零售价", "单价", "售價", "價格", "銷售價", "特價", "單價", "原價", "定價",
              "판매가", "판매가격", "가격", "상품가", "소비자가", "정가"),
    "description": ("商品説明", "商品説明文", "説明", "説明文", "商品紹介", "pc用商品説明文", "スマートフォン用商品説明文",
                    "商品描述", "描述", "宝贝描述", "商品详情", "详情", "商品简介", "简介", "商品说明", "说明",
                    "商品說明", "說明", "商品簡介", "簡介", "商品摘要", "摘要", "상품설명", "상품 설명", "상세설명",
                    "상품 상세설명", "상품 요약설명", "요약설명", "상품 간략설명", "간략설명", "설명"),
    "category": ("カテゴリ", "カテゴリー", "商品カテゴリ", "カテゴリ名", "分類", "商品分類", "商品分类", "分类", "类目",
                 "宝贝类目", "商品分组", "分组", "類別", "商品類別", "分組", "상품분류", "분류", "카테고리",
                 "상품 카테고리"),
}
TAX_INCLUDED = ("税込", "含税", "含稅", "부가세 포함", "부가세포함", "vat포함", "vat 포함")
BRACKETED = regex.compile(r"\s*[(\[【〔].*?[)\]】〕]\s*")


def east_asian_role(keys: list[str], role: str) -> int | None:
    """The index of the Japanese, Chinese or Korean header (``folded``) that plays ``role`` (``EAST_ASIAN_HEADERS``),
    None when none does; of several prices, the first that says tax included."""
    wanted = EAST_ASIAN_HEADERS[role]
    bases = [BRACKETED.sub(" ", key).strip() for key in keys]
    found = [index for candidate in wanted for index, base in enumerate(bases) if base == candidate]
    if role == "price":
        taxed = [index for index in found if any(mark in keys[index] for mark in TAX_INCLUDED)]
        found = taxed or found
    return found[0] if found else None


# OpenCart's export names a column's language after it: "name(uk-ua)", "description(en-gb)".
ENGLISH_SPLIT = re.compile(r"[^a-z]+")
LANGUAGE_TAG = re.compile(r"\s*\([a-z]{2}-[a-z]{2}\)$")
LETTERS = regex.compile(r"[^\p{L}]+")  # what parts another language's header into words, in any script


def folded(header: str) -> str:
    """A header as the other languages' names are compared: lowercase, accents off (``core.named_forms.fold_accents``,
    the one folding: Polish "Tytuł" is "tytul", as the list above writes it), spaces single, a language tag off."""
    return LANGUAGE_TAG.sub("", " ".join(fold_accents(header).lower().replace("_", " ").split()))



# Arabic, Hebrew, Hindi, Thai, Vietnamese and Indonesian headers (issue 35's third probe), as Salla, Zid, Konimbo,
# Shopify, Shopee, Haravan or Tokopedia exports write them; folded as every header is compared (``folded``:
# Devanagari's and Thai's vowel signs go as accents do, "कीमत" is "कमत"), so they are written here as shops write them.
SCRIPT_NAME_HEADERS = ("اسم المنتج", "اسم", "الاسم", "المنتج", "שם המוצר", "שם מוצר", "שם", "उत्पाद का नाम", "उत्पाद",
                       "नाम", "ชื่อสินค้า", "ชื่อ", "สินค้า", "tên sản phẩm", "tên", "sản phẩm", "nama produk",
                       "nama barang", "nama", "produk")
SCRIPT_NAME_WORDS = ("اسم", "الاسم", "שם", "नाम", "tên", "nama")
SCRIPT_ROLE_HEADERS = {
    "price": ("السعر", "سعر", "מחיר", "कीमत", "मूल्य", "दाम", "ราคา", "giá", "giá bán", "harga", "harga jual"),
    "description": ("الوصف", "وصف", "תיאור", "विवरण", "รายละเอียด", "mô tả", "deskripsi", "keterangan"),
    "category": ("التصنيف", "الفئة", "القسم", "קטגוריה", "श्रेणी", "หมวดหมู่", "danh mục"),  # Indonesian's "kategori" above
}
# Baltic, South Slavic, Bulgarian, Slovak, Slovenian, Persian, Malay and Bengali headers (issue 35's blind probe:
# Lithuanian "Pavadinimas", Croatian PrestaShop's "Naziv" and "Konačna cijena", the price with tax, before its
# "Osnovna cijena"; Bulgarian WooCommerce's "Име"; Persian "نام محصول", "قیمت (تومان)"; Shopee's "Penerangan Produk").
BLIND_NAME_HEADERS = (
    "pavadinimas", "prekės pavadinimas", "prekės", "prekė", "produkto pavadinimas",  # lt
    "nosaukums", "preces nosaukums", "produkta nosaukums", "prece",  # lv
    "nimetus", "toote nimi", "toote nimetus", "toode",  # et
    "име", "име на продукта", "продукт", "заглавие", "назив", "назив производа", "производ",  # bg, sr
    "naziv", "naziv proizvoda", "ime proizvoda", "proizvod", "artikl", "artikal", "ime izdelka", "izdelek",  # hr, sr, sl
    "názov", "názov produktu", "názov tovaru", "tovar",  # sk
    "نام محصول", "نام کالا", "عنوان محصول", "عنوان", "محصول", "کالا", "نام",  # fa
    "পণ্যের নাম", "পণ্য", "নাম",  # bn
    "სახელი", "დასახელება", "პროდუქტის სახელი", "პროდუქტის დასახელება", "პროდუქტი",  # ka (blind45)
    "назив на производ", "име на производ", "производ",  # mk
)
BLIND_NAME_WORDS = ("pavadinimas", "nosaukums", "nimetus", "име", "назив", "naziv", "názov", "نام", "নাম", "სახელი",
                    "დასახელება")
BLIND_ROLE_HEADERS = {
    "price": ("kaina", "kaina su pvm", "hind", "cijena", "konačna cijena", "maloprodajna cijena", "редовна цена",
              "цена с ддс", "قیمت", "قیمت فروش", "দাম", "মূল্য",
              # WooCommerce's regular price, as its Estonian, Latvian, Georgian, Slovak, Slovenian, Lithuanian and
              # Macedonian translations write it, before its sale price (blind45: "Tavahind", "Parastā cena")
              "tavahind", "parastā cena", "ჩვეულებრივი ფასი", "ფასი", "bežná cena", "redna cena", "įprasta kaina",
              "малопродажна цена"),
    "description": ("aprašymas", "trumpas aprašymas", "apraksts", "kirjeldus", "lühikirjeldus", "кратко описание",
                    "kratki opis", "opis proizvoda", "توضیحات", "شرح", "توضیحات محصول", "penerangan",
                    "penerangan produk", "বিবরণ", "აღწერა", "მოკლე აღწერა", "опис", "краток опис"),
    "category": ("kategorija", "kategorijos", "kategooria", "категорија", "دسته‌بندی", "دسته بندی", "دسته", "گروه",
                 "ক্যাটাগরি", "বিভাগ", "kategooriad", "kategorijas", "კატეგორია", "კატეგორიები", "категории"),
}
SCRIPT_NAME_HEADERS += BLIND_NAME_HEADERS
SCRIPT_NAME_WORDS += BLIND_NAME_WORDS
for _role, _headers in BLIND_ROLE_HEADERS.items():
    SCRIPT_ROLE_HEADERS[_role] += _headers
OTHER_NAME_HEADERS += tuple(folded(header) for header in SCRIPT_NAME_HEADERS)
OTHER_NAME_WORDS += tuple(folded(word) for word in SCRIPT_NAME_WORDS)
for _role, _headers in SCRIPT_ROLE_HEADERS.items():
    ROLE_HEADERS[_role] += tuple(folded(header) for header in _headers)


def column_roles(columns: tuple[str, ...] | list[str], name_column: str | None = None) -> dict[str, str]:
    """Which column holds the name (``name_column``, as chosen), the price, the description, the category and the
    struck-through price (``COMPARE_AT_HEADERS``), in any of the languages read here: {"name": "TITRE", "price":
    "PRIX", …}; a role no header plays is left out. The struck-through price's column plays no other role."""
    roles = {"name": name_column} if name_column else {}
    keys = [folded(cell) for cell in columns]
    compare_at = _role_index(keys, COMPARE_AT_HEADERS)
    if compare_at is not None:
        keys[compare_at] = ""
    for role, headers in ROLE_HEADERS.items():
        found = _role_index(keys, headers)
        if found is None:
            found = east_asian_role(keys, role)
        if found is not None:
            roles[role] = columns[found]
    if compare_at is not None:
        roles["compare_at"] = columns[compare_at]
    return roles


def _role_index(keys: list[str], headers: tuple[str, ...]) -> int | None:
    """The first of ``headers`` that is a whole header (folded), else the first header whose first word is one
    ("Precio impuestos excluidos", "Цена, руб.*", Ozon's, say the role by their first word)."""
    found = next((index for candidate in headers for index, key in enumerate(keys) if key == candidate), None)
    if found is None:
        found = next((index for index, key in enumerate(keys) if _first_word(key) in headers), None)
    return found


WORD_AND_DIGITS = regex.compile(r"[^\p{L}\p{N}]+")


def _first_word(key: str) -> str:
    """A folded header's first word, the punctuation after it off: "цена, руб.*" is "цена", "prix (€)" "prix"; a
    digit stays with its word ("category1" is no "category")."""
    return next((word for word in WORD_AND_DIGITS.split(key) if word), "")


ROLE_WORDS = {"name": "product names", "price": "prices", "description": "descriptions", "category": "categories",
              "compare_at": "struck-through prices"}


def columns_read(document: Document) -> str:
    """``roles_sentence`` of a spreadsheet's columns ("" for a document, which has none): what the Document page,
    the command line's table, ``audit`` and the report say of how a table was read."""
    return roles_sentence(document.columns, document.name_column) if document.form.table else ""


def roles_sentence(columns: tuple[str, ...] | list[str], name_column: str | None) -> str:
    """The columns read as the name, price, description, category and struck-through price, in words: "Product
    names from TITRE, prices from PRIX, descriptions from DESCRIPTIF." ("" when none)."""
    said = ", ".join(f"{ROLE_WORDS[role]} from {column}" for role, column in column_roles(columns, name_column).items())
    return said[:1].upper() + said[1:] + "." if said else ""
