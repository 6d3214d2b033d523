"""How a question generated from a spreadsheet's column is worded: in the file's own language.

The kinds of column a customer asks about (price, colour, size, …) are named by header words in every language
whose headers the workbench reads (``read.headers``: English, German, French, Spanish, Italian, Dutch, Portuguese,
Polish and Swedish, and Danish, Finnish, Czech, Hungarian, Turkish, Russian, Ukrainian and Greek; Japanese, Chinese
and Korean in ``question_wordings_asia``),
so a French export's "Prix" column is the price and its "Poids" the weight whatever the file's language. How the
question is then put follows the file's main language (``read.language``): "Combien coûte Bonnet tricoté ?" for a
French file, "Was kostet Wollmütze?" for a German one, the English wording as before for an English file and for
a language with no wording here. Before, a French file's questions came out half English ("What is the prix sp
cial of the Bonnet tricoté?").

The templates name the product without an article ("Combien coûte Bonnet tricoté ?"): the article depends on
the product's gender, which a column of names does not say; the question stays plain and names its product.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from workbench.core.named_forms import fold_accents

# French "de" before a vowel or a mute h is "d'": "Catégorie d'Accessoires d'hiver", "Combien d'Écharpes". An h that
# is sounded (aspiré) keeps "de": the product words a shop is likely to start a name with.
VOWEL_START = re.compile(r"^[aeiouyàâäéèêëîïôöùûüœæ]", re.IGNORECASE)
H_START = re.compile(r"^h", re.IGNORECASE)
ASPIRATED_H = re.compile(
    r"^(hache|haie|hamac|hamburger|hamster|hanche|handball|hangar|harnais|harpe|haut|hautbois|hérisson|hêtre|hibou|"
    r"hochet|hockey|homard|housse|hublot|hotte|houppelande|houx|hutte|hall|halte|haltère|hareng|haricot)",
    re.IGNORECASE)


def french_elides(word: str) -> bool:
    """Whether French "de" before ``word`` is written "d'": a vowel, or an h that is not sounded."""
    return bool(VOWEL_START.match(word) or (H_START.match(word) and not ASPIRATED_H.match(word)))

# Kinds a customer asks about and the header words that name them (whole words, lowercase, accents off), best
# first: the first kind whose words a header holds is the header's kind.
KIND_WORDS = (
    ("price", r"price|cost|mrp|amount|prix|tarif|preis|verkaufspreis|sonderpreis|precio|prezzo|prijs|preco|cena|pris|"
              r"ar|fiyat|fiyati|hinta|цена|ціна|τιμη"),
    ("colour", r"colou?rs?|couleurs?|farben?|colores|colore|colori|kleur|kleuren|cor|cores|kolor|kolory|farg|farger|"
               r"farve|barva|szin|renk|vari|цвет|колір|χρωμα"),
    ("size", r"sizes?|tailles?|grosse|grossen|tallas?|taglia|taglie|maat|maten|tamanhos?|rozmiary?|storlek|storlekar|"
             r"storrelse|velikost|meret|beden|koko|размер|розмір|μεγεθος"),
    ("material", r"materials?|fabrics?|matieres?|materiaux|materiau|tissu|materialien|stoff|materiales|materiale|"
                 r"materiali|materiaal|stof|tecido|material|tkanina"),
    ("stock", r"stock|inventory|qty|quantity|availability|quantite|disponibilite|lager|lagerbestand|bestand|menge|"
              r"verfugbarkeit|existencias|inventario|cantidad|disponibilidad|quantita|giacenza|disponibilita|voorraad|"
              r"aantal|estoque|quantidade|disponibilidade|ilosc|stan|dostepnosc|antal|lagersaldo|mnozstvi|"
              r"raktarkeszlet|stok|varastossa|количество|остаток|кількість|αποθεμα"),
    ("warranty", r"warranty|guarantee|garantie|gewahrleistung|garantia|garanzia|gwarancja|garanti"),
    ("returns", r"returns?|refunds?|exchanges?|retours?|remboursements?|echanges?|ruckgabe|rucksendung|retoure|"
                r"umtausch|erstattung|devoluciones|devolucion|reembolsos?|resi|reso|rimborsi|rimborso|ruilen|"
                r"terugbetaling|devolucao|devolucoes|troca|trocas|zwroty?|wymiana|retur|returer|byte"),
    ("care", r"care|washing|cleaning|entretien|lavage|pflege|pflegehinweise|cuidado|cuidados|lavado|cura|"
             r"lavaggio|manutenzione|onderhoud|wasvoorschrift|lavagem|pielegnacja|pranie|skotsel|tvatt"),
    ("weight", r"weight|poids|gewicht|peso|waga|vikt|vaegt|hmotnost|suly|agirlik|paino|вес|вага|βαρος"),
    ("dimensions", r"dimensions?|size_?cm|abmessungen|masse|dimensiones|dimensioni|afmetingen|dimensoes|wymiary|"
                   r"matt"),
    ("width", r"width|wide|largeur|breite|ancho|anchura|larghezza|breedte|largura|szerokosc|bredd"),
    ("height", r"height|tall|hauteur|hohe|altura|altezza|hoogte|wysokosc|hojd"),
    ("depth", r"depth|deep|profondeur|tiefe|profundidad|profondita|diepte|profundidade|glebokosc|djup"),
    ("length", r"length|long|longueur|lange|longitud|lunghezza|lengte|comprimento|dlugosc|langd"),
    ("delivery", r"shipping|delivery|dispatch|livraison|expedition|lieferung|lieferzeit|versand|envio|entrega|"
                 r"spedizione|consegna|levering|verzending|levertijd|dostawa|wysylka|leverans|frakt"),
    # Asked as a customer asks where to find it, not "Categorías de …?" (the header said back as a question).
    ("category", r"categor[a-z]*|kategor[a-z]*|категор[а-яіїє]*|раздел|розділ|κατηγορ[α-ως]*"),
    ("brand", r"brands?|marke|marque|marca|merk|marka|varumarke|marki|maerke|varemaerke|merkki|tuotemerkki|znacka|"
              r"бренд|производитель|виробник|μαρκα"),
    # A short description answers "what is it like?", not "Krótki opis – Koc?" (a long one is never asked).
    ("description", r"descriptions?|desc|beschreibung|kurzbeschreibung|descriptif|descripcion|descrizione|"
                    r"beschrijving|omschrijving|descricao|opis|beskrivning|beskrivelse|kuvaus|popis|leiras|aciklama|"
                    r"описание|анонс|опис|περιγραφη"),
)
# Arabic, Hebrew, Hindi, Thai, Vietnamese and Indonesian header words, folded as ``questions.column_words`` folds
# ("स्टॉक" is "सटक"); Thai's (and Estonian's, blind45) found inside a header, one word ("จำนวนในสต็อก", "Tavahind").
SCRIPT_KIND_WORDS = {
    "price": ("السعر سعر מחיר कीमत मूल्य दाम giá harga kaina cijena قیمت cena দাম মূল্য ფასი", "ราคา hind"), "stock": ("الكمية المخزون מלאי स्टॉक kho stok likutis kolicina موجودی наличност laos noliktava", "สต็อก"),
    "brand": ("الماركة العلامة מותג ब्रांड hiệu merek", "แบรนด์ ยี่ห้อ"), "category": ("التصنيف الفئة קטגוריה श्रेणी mục kategorija دسته категории kategorijas kategooria kategooriad კატეგორიები", "หมวดหมู่"),
    "description": ("الوصف وصف תיאור विवरण tả deskripsi keterangan aprasymas opis توضیحات penerangan apraksts বিবরণ აღწერა", "รายละเอียด kirjeldus"),
}
KIND_WORDS = tuple((kind, "|".join([pattern, *(fold_accents(word) for word in SCRIPT_KIND_WORDS.get(kind, ("", ""))[0].split()),
                                    *(rf"\w*{fold_accents(word)}\w*" for word in SCRIPT_KIND_WORDS.get(kind, ("", ""))[1].split())]))
                   for kind, pattern in KIND_WORDS)
# Which question a returns column asks, by the start of its header's words: an exchange column does not test
# "can I return it?".
RETURNS_STEMS = (
    ("exchange", ("exchange", "echange", "umtausch", "cambio", "ruil", "troca", "wymian", "byte")),
    ("refund", ("refund", "rembours", "erstatt", "reembols", "rimbors", "terugbetal")),
    ("return", ("return", "retour", "ruckgabe", "rucksend", "devolu", "reso", "resi", "zwrot", "retur")),
)


@dataclass(frozen=True)
class Wording:
    """A language's generated questions: one template per kind, ``{product}`` the product's name."""

    asks: dict[str, str]
    count: str  # a stock column holding a number: "how many", not "is it in stock?"
    returns: dict[str, str]  # "exchange", "refund", "return"
    other: str  # any other column: ``{column}`` its header
    in_unit: str  # the end of a measurement's question when the unit is said: ``{unit}``
    units: dict[str, str] = field(default_factory=dict)  # the English unit names, in this language
    # A word written shorter before the product's name when that name starts so: ("de", "d'", French rule).
    elisions: tuple[tuple[str, str, Callable[[str], bool]], ...] = ()

    def ask(self, template: str, product: str, **values: str) -> str:
        """``template`` with the product's name put in, and the word before it elided where the language does:
        French "Type de Accessoires" is "Type d'Accessoires"."""
        for word, short, elides in self.elisions:
            if elides(product):
                template = re.sub(rf"\b{word} \{{product\}}", f"{short}{{product}}", template)
        return template.format(product=product, **values)

    def other_column(self, column: str, product: str, english_words: str) -> str:
        """The question for a column of no known kind: English says the header's words lowercased ("noise
        level"), the others the header as written ("Prix spécial de …")."""
        shown = english_words if self is ENGLISH else column if "\u10d0" <= column[:1] <= "\u10ff" else column[:1].upper() + column[1:]  # Georgian: upper() is Mtavruli ("Ფასი")
        return self.ask(self.other, product, column=shown)

    def with_unit(self, question: str, unit: str) -> str:
        """The question ending with the unit the answer is in: "How tall is the Desk Fan, in centimetres?"."""
        return question.rstrip(" ?;？؟") + self.in_unit.format(unit=self.units.get(unit, unit))  # ";", "？": Greek's, CJK's "?"


ENGLISH = Wording(
    asks={
        "price": "How much is the {product}?",
        "colour": "What colours does the {product} come in?",
        "size": "What sizes does the {product} come in?",
        "material": "What is the {product} made of?",
        "stock": "Is the {product} in stock?",
        "warranty": "What warranty does the {product} have?",
        "care": "How do I look after the {product}?",
        "weight": "How much does the {product} weigh?",
        "dimensions": "What are the dimensions of the {product}?",
        "width": "How wide is the {product}?",
        "height": "How tall is the {product}?",
        "depth": "How deep is the {product}?",
        "length": "How long is the {product}?",
        "delivery": "How long does delivery of the {product} take?",
        "category": "Which category is the {product} in?",
        "description": "What is the {product} like?",
        "brand": "What brand is the {product}?",
    },
    count="How many of the {product} are in stock?",
    returns={"exchange": "Can I exchange the {product}?", "refund": "Can I get a refund on the {product}?",
             "return": "Can I return the {product}?"},
    other="What is the {column} of the {product}?",
    in_unit=", in {unit}?",
)

GERMAN = Wording(
    asks={
        "price": "Was kostet {product}?",
        "colour": "In welchen Farben gibt es {product}?",
        "size": "In welchen Größen gibt es {product}?",
        "material": "Aus welchem Material ist {product}?",
        "stock": "Ist {product} auf Lager?",
        "warranty": "Wie lange ist die Garantie auf {product}?",
        "care": "Wie pflege ich {product}?",
        "weight": "Wie schwer ist {product}?",
        "dimensions": "Welche Maße hat {product}?",
        "width": "Wie breit ist {product}?",
        "height": "Wie hoch ist {product}?",
        "depth": "Wie tief ist {product}?",
        "length": "Wie lang ist {product}?",
        "delivery": "Wie lange dauert die Lieferung von {product}?",
        "category": "In welcher Kategorie finde ich {product}?",
        "description": "Können Sie mir {product} beschreiben?",
        "brand": "Von welcher Marke ist {product}?",
    },
    count="Wie viele Stück von {product} haben Sie auf Lager?",
    returns={"exchange": "Kann ich {product} umtauschen?", "refund": "Bekomme ich für {product} mein Geld zurück?",
             "return": "Kann ich {product} zurückschicken?"},
    other="{column} von {product}?",
    in_unit=", in {unit}?",
    units={"millimetres": "Millimetern", "centimetres": "Zentimetern", "metres": "Metern", "inches": "Zoll",
           "feet": "Fuß", "grams": "Gramm", "kilograms": "Kilogramm", "pounds": "Pfund", "ounces": "Unzen",
           "litres": "Litern", "millilitres": "Millilitern"},
)

FRENCH = Wording(
    asks={
        "price": "Combien coûte {product} ?",
        "colour": "En quelles couleurs existe {product} ?",
        "size": "En quelles tailles existe {product} ?",
        "material": "En quelle matière est {product} ?",
        "stock": "Avez-vous {product} en stock ?",
        "warranty": "Quelle est la garantie de {product} ?",
        "care": "Comment entretenir {product} ?",
        "weight": "Combien pèse {product} ?",
        "dimensions": "Quelles sont les dimensions de {product} ?",
        "width": "Quelle est la largeur de {product} ?",
        "height": "Quelle est la hauteur de {product} ?",
        "depth": "Quelle est la profondeur de {product} ?",
        "length": "Quelle est la longueur de {product} ?",
        "delivery": "Quel est le délai de livraison de {product} ?",
        "category": "Dans quelle catégorie se trouve {product} ?",
        "description": "Pouvez-vous me décrire {product} ?",
        "brand": "De quelle marque est {product} ?",
    },
    count="Combien de {product} avez-vous en stock ?",
    returns={"exchange": "Puis-je échanger {product} ?", "refund": "Puis-je me faire rembourser {product} ?",
             "return": "Puis-je retourner {product} ?"},
    other="{column} de {product} ?",
    in_unit=", en {unit} ?",
    elisions=(("de", "d'", french_elides),),
    units={"millimetres": "millimètres", "centimetres": "centimètres", "metres": "mètres", "inches": "pouces",
           "feet": "pieds", "grams": "grammes", "kilograms": "kilogrammes", "pounds": "livres", "ounces": "onces",
           "litres": "litres", "millilitres": "millilitres"},
)

SPANISH = Wording(
    asks={
        "price": "¿Cuánto cuesta {product}?",
        "colour": "¿En qué colores viene {product}?",
        "size": "¿En qué tallas viene {product}?",
        "material": "¿De qué material es {product}?",
        "stock": "¿Tienen {product} en stock?",
        "warranty": "¿Qué garantía tiene {product}?",
        "care": "¿Cómo se cuida {product}?",
        "weight": "¿Cuánto pesa {product}?",
        "dimensions": "¿Qué medidas tiene {product}?",
        "width": "¿Qué ancho tiene {product}?",
        "height": "¿Qué altura tiene {product}?",
        "depth": "¿Qué profundidad tiene {product}?",
        "length": "¿Qué largo tiene {product}?",
        "delivery": "¿Cuánto tarda el envío de {product}?",
        "category": "¿En qué categoría está {product}?",
        "description": "¿Cómo es {product}?",
        "brand": "¿De qué marca es {product}?",
    },
    count="¿Cuántas unidades de {product} tienen en stock?",
    returns={"exchange": "¿Puedo cambiar {product}?", "refund": "¿Me devuelven el dinero de {product}?",
             "return": "¿Puedo devolver {product}?"},
    other="¿{column} de {product}?",
    in_unit=", en {unit}?",
    units={"millimetres": "milímetros", "centimetres": "centímetros", "metres": "metros", "inches": "pulgadas",
           "feet": "pies", "grams": "gramos", "kilograms": "kilos", "pounds": "libras", "ounces": "onzas",
           "litres": "litros", "millilitres": "mililitros"},
)

ITALIAN = Wording(
    asks={
        "price": "Quanto costa {product}?",
        "colour": "In quali colori è disponibile {product}?",
        "size": "In quali taglie è disponibile {product}?",
        "material": "Di che materiale è {product}?",
        "stock": "{product} è disponibile?",
        "warranty": "Che garanzia ha {product}?",
        "care": "Come si cura {product}?",
        "weight": "Quanto pesa {product}?",
        "dimensions": "Quali sono le dimensioni di {product}?",
        "width": "Quanto è largo {product}?",
        "height": "Quanto è alto {product}?",
        "depth": "Quanto è profondo {product}?",
        "length": "Quanto è lungo {product}?",
        "delivery": "Quanto ci mette la consegna di {product}?",
        "category": "In quale categoria si trova {product}?",
        "description": "Com'è {product}?",
        "brand": "Di che marca è {product}?",
    },
    count="Quanti pezzi di {product} avete in magazzino?",
    returns={"exchange": "Posso cambiare {product}?", "refund": "Posso avere un rimborso per {product}?",
             "return": "Posso restituire {product}?"},
    other="{column} di {product}?",
    in_unit=", in {unit}?",
    units={"millimetres": "millimetri", "centimetres": "centimetri", "metres": "metri", "inches": "pollici",
           "feet": "piedi", "grams": "grammi", "kilograms": "chili", "pounds": "libbre", "ounces": "once",
           "litres": "litri", "millilitres": "millilitri"},
)

DUTCH = Wording(
    asks={
        "price": "Wat kost {product}?",
        "colour": "In welke kleuren is {product} er?",
        "size": "In welke maten is {product} er?",
        "material": "Van welk materiaal is {product}?",
        "stock": "Is {product} op voorraad?",
        "warranty": "Hoeveel garantie zit er op {product}?",
        "care": "Hoe onderhoud ik {product}?",
        "weight": "Hoeveel weegt {product}?",
        "dimensions": "Wat zijn de afmetingen van {product}?",
        "width": "Hoe breed is {product}?",
        "height": "Hoe hoog is {product}?",
        "depth": "Hoe diep is {product}?",
        "length": "Hoe lang is {product}?",
        "delivery": "Hoe lang duurt de levering van {product}?",
        "category": "In welke categorie vind ik {product}?",
        "description": "Kunt u {product} beschrijven?",
        "brand": "Van welk merk is {product}?",
    },
    count="Hoeveel stuks van {product} zijn er op voorraad?",
    returns={"exchange": "Kan ik {product} ruilen?", "refund": "Krijg ik mijn geld terug voor {product}?",
             "return": "Kan ik {product} retourneren?"},
    other="{column} van {product}?",
    in_unit=", in {unit}?",
    units={"millimetres": "millimeter", "centimetres": "centimeter", "metres": "meter", "inches": "inch",
           "feet": "voet", "grams": "gram", "kilograms": "kilo", "pounds": "pond", "ounces": "ons",
           "litres": "liter", "millilitres": "milliliter"},
)

PORTUGUESE = Wording(
    asks={
        "price": "Quanto custa {product}?",
        "colour": "Em que cores existe {product}?",
        "size": "Em que tamanhos existe {product}?",
        "material": "De que material é {product}?",
        "stock": "{product} está disponível em estoque?",
        "warranty": "Qual é a garantia de {product}?",
        "care": "Como cuidar de {product}?",
        "weight": "Quanto pesa {product}?",
        "dimensions": "Quais são as dimensões de {product}?",
        "width": "Qual é a largura de {product}?",
        "height": "Qual é a altura de {product}?",
        "depth": "Qual é a profundidade de {product}?",
        "length": "Qual é o comprimento de {product}?",
        "delivery": "Quanto tempo demora a entrega de {product}?",
        "category": "Em que categoria está {product}?",
        "description": "Como é {product}?",
        "brand": "De que marca é {product}?",
    },
    count="Quantas unidades de {product} há em estoque?",
    returns={"exchange": "Posso trocar {product}?", "refund": "Posso ser reembolsado por {product}?",
             "return": "Posso devolver {product}?"},
    other="{column} de {product}?",
    in_unit=", em {unit}?",
    units={"millimetres": "milímetros", "centimetres": "centímetros", "metres": "metros", "inches": "polegadas",
           "feet": "pés", "grams": "gramas", "kilograms": "quilos", "pounds": "libras", "ounces": "onças",
           "litres": "litros", "millilitres": "mililitros"},
)

# Polish names the product in the nominative only (a noun after "na" or "o" changes its ending by gender, which a
# column of names does not say): as the subject, or before a dash, "Kołdra puchowa – czy mogę zwrócić?".
POLISH = Wording(
    asks={
        "price": "Ile kosztuje {product}?",
        "colour": "Jakie kolory ma {product}?",
        "size": "Jakie rozmiary ma {product}?",
        "material": "Z czego jest {product}?",
        "stock": "Czy {product} jest na stanie?",
        "warranty": "Jaką gwarancję ma {product}?",
        "care": "{product} – jak prać i czyścić?",
        "weight": "Ile waży {product}?",
        "dimensions": "Jakie wymiary ma {product}?",
        "width": "Jaką szerokość ma {product}?",
        "height": "Jaką wysokość ma {product}?",
        "depth": "Jaką głębokość ma {product}?",
        "length": "Jaką długość ma {product}?",
        "delivery": "{product} – ile trwa dostawa?",
        "category": "W jakiej kategorii jest {product}?",
        "description": "{product} – jaki to produkt?",
        "brand": "Jakiej marki jest {product}?",
    },
    count="{product} – ile sztuk macie na stanie?",
    returns={"exchange": "{product} – czy mogę wymienić?", "refund": "{product} – czy dostanę zwrot pieniędzy?",
             "return": "{product} – czy mogę zwrócić?"},
    other="{column} – {product}?",
    in_unit=", w {unit}?",
    units={"millimetres": "milimetrach", "centimetres": "centymetrach", "metres": "metrach", "inches": "calach",
           "feet": "stopach", "grams": "gramach", "kilograms": "kilogramach", "pounds": "funtach", "ounces": "uncjach",
           "litres": "litrach", "millilitres": "mililitrach"},
)

SWEDISH = Wording(
    asks={
        "price": "Vad kostar {product}?",
        "colour": "Vilka färger finns {product} i?",
        "size": "Vilka storlekar finns {product} i?",
        "material": "Vilket material har {product}?",
        "stock": "Finns {product} i lager?",
        "warranty": "Vilken garanti har {product}?",
        "care": "Hur sköter jag {product}?",
        "weight": "Hur mycket väger {product}?",
        "dimensions": "Vilka mått har {product}?",
        "width": "Vilken bredd har {product}?",
        "height": "Vilken höjd har {product}?",
        "depth": "Vilket djup har {product}?",
        "length": "Vilken längd har {product}?",
        "delivery": "Hur lång är leveranstiden för {product}?",
        "category": "I vilken kategori finns {product}?",
        "description": "Kan ni beskriva {product}?",
        "brand": "Vilket märke är {product}?",
    },
    count="Hur många {product} finns i lager?",
    returns={"exchange": "Kan jag byta {product}?", "refund": "Får jag pengarna tillbaka för {product}?",
             "return": "Kan jag returnera {product}?"},
    other="{column} för {product}?",
    in_unit=", i {unit}?",
    units={"millimetres": "millimeter", "centimetres": "centimeter", "metres": "meter", "inches": "tum",
           "feet": "fot", "grams": "gram", "kilograms": "kilo", "pounds": "pund", "ounces": "uns",
           "litres": "liter", "millilitres": "milliliter"},
)

WORDINGS = {"en": ENGLISH, "de": GERMAN, "fr": FRENCH, "es": SPANISH, "it": ITALIAN, "nl": DUTCH, "pt": PORTUGUESE,
            "pl": POLISH, "sv": SWEDISH}
