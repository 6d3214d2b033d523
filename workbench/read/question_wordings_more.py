"""Generated questions worded in Danish, Finnish, Czech, Hungarian, Turkish, Russian, Ukrainian and Greek (the
wording of ``question_wording``, kept apart so neither module outgrows a screenful of templates).

Before, a Czech or Turkish export's questions came out in English with its headers folded into them ("What is the
satis fiyati of the Pamuklu Peştemal Çizgili?"), and a Russian or Greek one had none at all. Languages that inflect
a noun after most question words (Czech, Hungarian, Finnish, Russian, Ukrainian, Greek) name the product first and
ask after a colon ("Pamuklu Peştemal: …" is how customers write in a chat), so the product's name stays as the file
writes it and is found word for word; where the language's question takes the name as it is (Danish "Hvad koster
{product}?", Russian "Сколько стоит {product}?"), it is asked so.
"""

from __future__ import annotations

from workbench.read.question_wording import ENGLISH, WORDINGS, Wording
from workbench.read.question_wordings_asia import ASIAN_WORDINGS
from workbench.read.question_wordings_blind import BLIND_WORDINGS
from workbench.read.question_wordings_blind45 import BLIND45_WORDINGS
from workbench.read.question_wordings_script import SCRIPT_WORDINGS

DANISH = Wording(
    asks={
        "price": "Hvad koster {product}?",
        "colour": "Hvilke farver fås {product} i?",
        "size": "Hvilke størrelser fås {product} i?",
        "material": "Hvilket materiale er {product} lavet af?",
        "stock": "Er {product} på lager?",
        "warranty": "Hvilken garanti er der på {product}?",
        "care": "Hvordan vedligeholder jeg {product}?",
        "weight": "Hvor meget vejer {product}?",
        "dimensions": "Hvilke mål har {product}?",
        "width": "Hvor bred er {product}?",
        "height": "Hvor høj er {product}?",
        "depth": "Hvor dyb er {product}?",
        "length": "Hvor lang er {product}?",
        "delivery": "Hvor lang er leveringstiden på {product}?",
        "category": "I hvilken kategori finder jeg {product}?",
        "description": "Hvordan er {product}?",
        "brand": "Hvilket mærke er {product}?",
    },
    count="Hvor mange {product} er der på lager?",
    returns={"exchange": "Kan jeg bytte {product}?", "refund": "Kan jeg få pengene tilbage for {product}?",
             "return": "Kan jeg returnere {product}?"},
    other="{column} for {product}?",
    in_unit=", i {unit}?",
    units={"millimetres": "millimeter", "centimetres": "centimeter", "metres": "meter", "inches": "tommer",
           "feet": "fod", "grams": "gram", "kilograms": "kilo", "pounds": "pund", "ounces": "ounce",
           "litres": "liter", "millilitres": "milliliter"},
)

FINNISH = Wording(
    asks={
        "price": "{product}: paljonko maksaa?",
        "colour": "{product}: missä väreissä sitä saa?",
        "size": "{product}: missä koossa sitä saa?",
        "material": "{product}: mistä materiaalista se on?",
        "stock": "{product}: onko varastossa?",
        "warranty": "{product}: kuinka pitkä takuu sillä on?",
        "care": "{product}: miten sitä hoidetaan?",
        "weight": "{product}: paljonko se painaa?",
        "dimensions": "{product}: mitkä ovat sen mitat?",
        "width": "{product}: kuinka leveä se on?",
        "height": "{product}: kuinka korkea se on?",
        "depth": "{product}: kuinka syvä se on?",
        "length": "{product}: kuinka pitkä se on?",
        "delivery": "{product}: kauanko toimitus kestää?",
        "category": "{product}: mistä kategoriasta sen löytää?",
        "description": "{product}: millainen se on?",
        "brand": "{product}: mikä merkki se on?",
    },
    count="{product}: montako on varastossa?",
    returns={"exchange": "{product}: voiko sen vaihtaa?", "refund": "{product}: saako rahat takaisin?",
             "return": "{product}: voiko sen palauttaa?"},
    other="{product}: {column}?",
    in_unit=", {unit}?",
    units={"millimetres": "millimetreinä", "centimetres": "senttimetreinä", "metres": "metreinä", "inches": "tuumina",
           "feet": "jalkoina", "grams": "grammoina", "kilograms": "kiloina", "pounds": "paunoina",
           "ounces": "unsseina", "litres": "litroina", "millilitres": "millilitroina"},
)

CZECH = Wording(
    asks={
        "price": "Kolik stojí {product}?",
        "colour": "V jakých barvách je {product}?",
        "size": "V jakých velikostech je {product}?",
        "material": "Z jakého materiálu je {product}?",
        "stock": "Je {product} skladem?",
        "warranty": "Jakou záruku má {product}?",
        "care": "Jak se čistí {product}?",
        "weight": "Kolik váží {product}?",
        "dimensions": "Jaké rozměry má {product}?",
        "width": "Jakou šířku má {product}?",
        "height": "Jakou výšku má {product}?",
        "depth": "Jakou hloubku má {product}?",
        "length": "Jakou délku má {product}?",
        "delivery": "Za jak dlouho dorazí {product}?",
        "category": "{product}: v jaké kategorii to najdu?",
        "description": "{product}: co je to za výrobek?",
        "brand": "{product}: jaké je to značky?",
    },
    count="{product}: kolik kusů máte skladem?",
    returns={"exchange": "Dá se {product} vyměnit?", "refund": "{product}: vrátíte mi peníze?",
             "return": "Dá se {product} vrátit?"},
    other="{product}: {column}?",
    in_unit=", v {unit}?",
    units={"millimetres": "milimetrech", "centimetres": "centimetrech", "metres": "metrech", "inches": "palcích",
           "feet": "stopách", "grams": "gramech", "kilograms": "kilogramech", "pounds": "librách",
           "ounces": "uncích", "litres": "litrech", "millilitres": "mililitrech"},
)

HUNGARIAN = Wording(
    asks={
        "price": "{product}: mennyibe kerül?",
        "colour": "{product}: milyen színekben kapható?",
        "size": "{product}: milyen méretekben kapható?",
        "material": "{product}: miből készül?",
        "stock": "{product}: van raktáron?",
        "warranty": "{product}: mennyi rá a garancia?",
        "care": "{product}: hogyan kell tisztítani?",
        "weight": "{product}: mennyi a súlya?",
        "dimensions": "{product}: mekkorák a méretei?",
        "width": "{product}: milyen széles?",
        "height": "{product}: milyen magas?",
        "depth": "{product}: milyen mély?",
        "length": "{product}: milyen hosszú?",
        "delivery": "{product}: mennyi idő alatt érkezik meg?",
        "category": "{product}: melyik kategóriában találom?",
        "description": "{product}: milyen termék?",
        "brand": "{product}: milyen márkájú?",
    },
    count="{product}: hány darab van raktáron?",
    returns={"exchange": "{product}: ki lehet cserélni?", "refund": "{product}: visszakapom az árát?",
             "return": "{product}: vissza lehet küldeni?"},
    other="{product}: {column}?",
    in_unit=", {unit}?",
    units={"millimetres": "milliméterben", "centimetres": "centiméterben", "metres": "méterben",
           "inches": "hüvelykben", "feet": "lábban", "grams": "grammban", "kilograms": "kilogrammban",
           "pounds": "fontban", "ounces": "unciában", "litres": "literben", "millilitres": "milliliterben"},
)

TURKISH = Wording(
    asks={
        "price": "{product} ne kadar?",
        "colour": "{product} hangi renklerde var?",
        "size": "{product} hangi bedenlerde var?",
        "material": "{product} hangi malzemeden yapılmış?",
        "stock": "{product} stokta var mı?",
        "warranty": "{product} kaç yıl garantili?",
        "care": "{product} nasıl temizlenir?",
        "weight": "{product} ne kadar ağır?",
        "dimensions": "{product}: ölçüleri nedir?",
        "width": "{product} ne kadar geniş?",
        "height": "{product} ne kadar yüksek?",
        "depth": "{product} ne kadar derin?",
        "length": "{product} ne kadar uzun?",
        "delivery": "{product} kaç günde gelir?",
        "category": "{product} hangi kategoride?",
        "description": "{product} nasıl bir ürün?",
        "brand": "{product} hangi marka?",
    },
    count="{product} stokta kaç adet var?",
    returns={"exchange": "{product} değiştirilebilir mi?", "refund": "{product} için para iadesi alabilir miyim?",
             "return": "{product} iade edilebilir mi?"},
    other="{product}: {column}?",
    in_unit=", {unit} olarak?",
    units={"millimetres": "milimetre", "centimetres": "santimetre", "metres": "metre", "inches": "inç",
           "feet": "fit", "grams": "gram", "kilograms": "kilogram", "pounds": "libre", "ounces": "ons",
           "litres": "litre", "millilitres": "mililitre"},
)

RUSSIAN = Wording(
    asks={
        "price": "Сколько стоит {product}?",
        "colour": "В каких цветах есть {product}?",
        "size": "В каких размерах есть {product}?",
        "material": "Из какого материала {product}?",
        "stock": "{product} есть в наличии?",
        "warranty": "{product}: какая гарантия?",
        "care": "{product}: как ухаживать?",
        "weight": "Сколько весит {product}?",
        "dimensions": "{product}: какие размеры?",
        "width": "{product}: какая ширина?",
        "height": "{product}: какая высота?",
        "depth": "{product}: какая глубина?",
        "length": "{product}: какая длина?",
        "delivery": "{product}: сколько идёт доставка?",
        "category": "{product}: в каком разделе?",
        "description": "{product}: что это за товар?",
        "brand": "{product}: какой бренд?",
    },
    count="{product}: сколько штук в наличии?",
    returns={"exchange": "{product}: можно обменять?", "refund": "{product}: можно вернуть деньги?",
             "return": "{product}: можно вернуть?"},
    other="{product}: {column}?",
    in_unit=", в {unit}?",
    units={"millimetres": "миллиметрах", "centimetres": "сантиметрах", "metres": "метрах", "inches": "дюймах",
           "feet": "футах", "grams": "граммах", "kilograms": "килограммах", "pounds": "фунтах", "ounces": "унциях",
           "litres": "литрах", "millilitres": "миллилитрах"},
)

UKRAINIAN = Wording(
    asks={
        "price": "Скільки коштує {product}?",
        "colour": "У яких кольорах є {product}?",
        "size": "У яких розмірах є {product}?",
        "material": "З якого матеріалу {product}?",
        "stock": "{product} є в наявності?",
        "warranty": "{product}: яка гарантія?",
        "care": "{product}: як доглядати?",
        "weight": "Скільки важить {product}?",
        "dimensions": "{product}: які розміри?",
        "width": "{product}: яка ширина?",
        "height": "{product}: яка висота?",
        "depth": "{product}: яка глибина?",
        "length": "{product}: яка довжина?",
        "delivery": "{product}: скільки йде доставка?",
        "category": "{product}: у якому розділі?",
        "description": "{product}: що це за товар?",
        "brand": "{product}: який бренд?",
    },
    count="{product}: скільки штук у наявності?",
    returns={"exchange": "{product}: можна обміняти?", "refund": "{product}: можна повернути гроші?",
             "return": "{product}: можна повернути?"},
    other="{product}: {column}?",
    in_unit=", у {unit}?",
    units={"millimetres": "міліметрах", "centimetres": "сантиметрах", "metres": "метрах", "inches": "дюймах",
           "feet": "футах", "grams": "грамах", "kilograms": "кілограмах", "pounds": "фунтах", "ounces": "унціях",
           "litres": "літрах", "millilitres": "мілілітрах"},
)

# Greek asks with ";", its question mark.
GREEK = Wording(
    asks={
        "price": "Πόσο κοστίζει {product};",
        "colour": "Σε ποια χρώματα υπάρχει {product};",
        "size": "Σε ποια μεγέθη υπάρχει {product};",
        "material": "Από τι υλικό είναι {product};",
        "stock": "Υπάρχει σε απόθεμα {product};",
        "warranty": "{product}: τι εγγύηση έχει;",
        "care": "{product}: πώς καθαρίζεται;",
        "weight": "Πόσο ζυγίζει {product};",
        "dimensions": "{product}: ποιες είναι οι διαστάσεις;",
        "width": "{product}: τι πλάτος έχει;",
        "height": "{product}: τι ύψος έχει;",
        "depth": "{product}: τι βάθος έχει;",
        "length": "{product}: τι μήκος έχει;",
        "delivery": "{product}: σε πόσες μέρες έρχεται;",
        "category": "{product}: σε ποια κατηγορία είναι;",
        "description": "{product}: τι προϊόν είναι;",
        "brand": "{product}: τι μάρκα είναι;",
    },
    count="{product}: πόσα τεμάχια υπάρχουν σε απόθεμα;",
    returns={"exchange": "{product}: μπορώ να το αλλάξω;", "refund": "{product}: μπορώ να πάρω πίσω τα χρήματα;",
             "return": "{product}: μπορώ να το επιστρέψω;"},
    other="{product}: {column};",
    in_unit=", σε {unit};",
    units={"millimetres": "χιλιοστά", "centimetres": "εκατοστά", "metres": "μέτρα", "inches": "ίντσες",
           "feet": "πόδια", "grams": "γραμμάρια", "kilograms": "κιλά", "pounds": "λίβρες", "ounces": "ουγγιές",
           "litres": "λίτρα", "millilitres": "χιλιοστόλιτρα"},
)

MORE_WORDINGS = {"da": DANISH, "fi": FINNISH, "cs": CZECH, "hu": HUNGARIAN, "tr": TURKISH, "ru": RUSSIAN,
                 "uk": UKRAINIAN, "el": GREEK}


def wording_for(language: str | None) -> Wording:
    """The wording of a file in this language (a code as ``read.language`` finds it): ``question_wording``'s or
    one of these; English when none is. Here, below both tables, so neither module imports the other both ways."""
    code = language or "en"
    return (WORDINGS.get(code) or MORE_WORDINGS.get(code) or SCRIPT_WORDINGS.get(code) or BLIND_WORDINGS.get(code)
            or BLIND45_WORDINGS.get(code) or ASIAN_WORDINGS.get(code, ENGLISH))
