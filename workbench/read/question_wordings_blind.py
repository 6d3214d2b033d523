"""Generated questions worded in Persian, Lithuanian, Bulgarian, Croatian, Serbian and Malay (issue 35's blind probe,
blind44), kept apart from the other tables so no module outgrows a screenful of templates.

Before, these files' questions came out in English with their headers in them ("How much is the زعفران سرگل?"). Each
names the product as the file writes it, so it is found word for word, and asks as the language's customers do in a
chat: Persian colloquially ("قیمت … چنده؟"), Bulgarian and Serbian with the product after the verb ("Колко струва
…?"), Malay as Shopee's buyers do ("Berapa harga …?").
"""

from __future__ import annotations

from workbench.read.question_wording import Wording
from workbench.read.question_wordings_script import _units

PERSIAN = Wording(
    asks={
        "price": "قیمت {product} چنده؟", "colour": "{product} چه رنگ‌هایی داره؟", "size": "{product} چه سایزهایی داره؟",
        "material": "جنس {product} چیه؟", "stock": "{product} موجوده؟", "warranty": "{product} چقدر گارانتی داره؟",
        "care": "{product} رو چطور نگهداری کنم؟", "weight": "وزن {product} چقدره؟", "dimensions": "ابعاد {product} چقدره؟",
        "width": "عرض {product} چقدره؟", "height": "ارتفاع {product} چقدره؟", "depth": "عمق {product} چقدره؟",
        "length": "طول {product} چقدره؟", "delivery": "{product} کی می‌رسه؟", "category": "{product} توی کدوم دسته‌ست؟",
        "description": "{product} چیه؟", "brand": "برند {product} چیه؟",
    },
    count="از {product} چند تا موجوده؟",
    returns={"exchange": "{product} رو میشه عوض کرد؟", "refund": "پول {product} رو پس می‌دین؟",
             "return": "{product} رو میشه پس داد؟"},
    other="{column} {product}؟",
    in_unit="، به {unit}؟",
    units=_units("میلی‌متر, سانتی‌متر, متر, اینچ, فوت, گرم, کیلوگرم, پوند, اونس, لیتر, میلی‌لیتر"),
)

LITHUANIAN = Wording(
    asks={
        "price": "Kiek kainuoja {product}?", "colour": "Kokių spalvų yra {product}?", "size": "Kokių dydžių yra {product}?",
        "material": "Iš ko pagamintas {product}?", "stock": "Ar {product} yra sandėlyje?",
        "warranty": "Kokia {product} garantija?", "care": "Kaip prižiūrėti {product}?", "weight": "Kiek sveria {product}?",
        "dimensions": "Kokie {product} matmenys?", "width": "Koks {product} plotis?", "height": "Koks {product} aukštis?",
        "depth": "Koks {product} gylis?", "length": "Koks {product} ilgis?", "delivery": "Per kiek laiko atvyks {product}?",
        "category": "Kokiai kategorijai priklauso {product}?", "description": "Kas yra {product}?",
        "brand": "Koks {product} gamintojas?",
    },
    count="Kiek vienetų {product} liko?",
    returns={"exchange": "Ar galima pakeisti {product}?", "refund": "Ar grąžinsite pinigus už {product}?",
             "return": "Ar galima grąžinti {product}?"},
    other="{column}: {product}?",
    in_unit=", {unit}?",
    units=_units("milimetrais, centimetrais, metrais, coliais, pėdomis, gramais, kilogramais, svarais, uncijomis, "
                 "litrais, mililitrais"),
)

BULGARIAN = Wording(
    asks={
        "price": "Колко струва {product}?", "colour": "В какви цветове има {product}?", "size": "Какви размери има {product}?",
        "material": "От какъв материал е {product}?", "stock": "{product} наличен ли е?",
        "warranty": "Каква е гаранцията на {product}?", "care": "Как се поддържа {product}?",
        "weight": "Колко тежи {product}?", "dimensions": "Какви са размерите на {product}?",
        "width": "Каква е ширината на {product}?", "height": "Каква е височината на {product}?",
        "depth": "Каква е дълбочината на {product}?", "length": "Каква е дължината на {product}?",
        "delivery": "За колко дни се доставя {product}?", "category": "В коя категория е {product}?",
        "description": "Какво представлява {product}?", "brand": "Каква марка е {product}?",
    },
    count="Колко броя {product} има?",
    returns={"exchange": "Може ли да заменя {product}?", "refund": "Връщате ли парите за {product}?",
             "return": "Може ли да върна {product}?"},
    other="{column} на {product}?",
    in_unit=", в {unit}?",
    units=_units("милиметри, сантиметри, метри, инчове, футове, грамове, килограми, паунда, унции, литри, милилитри"),
)

CROATIAN = Wording(
    asks={
        "price": "Koliko košta {product}?", "colour": "U kojim bojama dolazi {product}?",
        "size": "U kojim veličinama dolazi {product}?", "material": "Od čega je {product}?",
        "stock": "Je li {product} na zalihi?", "warranty": "Kolika je garancija za {product}?",
        "care": "Kako održavati {product}?", "weight": "Koliko je težak {product}?",
        "dimensions": "Koje su dimenzije za {product}?", "width": "Koja je širina za {product}?",
        "height": "Koja je visina za {product}?", "depth": "Koja je dubina za {product}?",
        "length": "Koja je duljina za {product}?", "delivery": "Za koliko dana stiže {product}?",
        "category": "U kojoj je kategoriji {product}?", "description": "Što je {product}?",
        "brand": "Koji je brend {product}?",
    },
    count="Koliko komada {product} imate?",
    returns={"exchange": "Mogu li zamijeniti {product}?", "refund": "Vraćate li novac za {product}?",
             "return": "Mogu li vratiti {product}?"},
    other="{column} za {product}?",
    in_unit=", u {unit}?",
    units=_units("milimetrima, centimetrima, metrima, inčima, stopama, gramima, kilogramima, funtama, uncama, "
                 "litrama, mililitrima"),
)

SERBIAN = Wording(
    asks={**CROATIAN.asks, "price": "Koliko košta {product}?", "length": "Koja je dužina za {product}?",
          "description": "Šta je {product}?", "stock": "Da li je {product} na stanju?"},
    count="Koliko komada {product} imate?",
    returns=CROATIAN.returns,
    other="{column} za {product}?",
    in_unit=", u {unit}?",
    units=CROATIAN.units,
)

MALAY = Wording(
    asks={
        "price": "Berapa harga {product}?", "colour": "{product} ada warna apa?", "size": "{product} ada saiz apa?",
        "material": "{product} diperbuat daripada apa?", "stock": "{product} ada stok?",
        "warranty": "{product} ada waranti berapa lama?", "care": "Macam mana nak jaga {product}?",
        "weight": "Berapa berat {product}?", "dimensions": "Berapa ukuran {product}?", "width": "Berapa lebar {product}?",
        "height": "Berapa tinggi {product}?", "depth": "Berapa dalam {product}?", "length": "Berapa panjang {product}?",
        "delivery": "{product} sampai berapa hari?", "category": "{product} dalam kategori apa?",
        "description": "{product} tu macam mana?", "brand": "{product} jenama apa?",
    },
    count="Stok {product} tinggal berapa?",
    returns={"exchange": "{product} boleh tukar?", "refund": "{product} boleh refund?",
             "return": "{product} boleh pulangkan?"},
    other="{column} {product}?",
    in_unit=", dalam {unit}?",
    units=_units("milimeter, sentimeter, meter, inci, kaki, gram, kilogram, paun, auns, liter, mililiter"),
)

BLIND_WORDINGS = {"fa": PERSIAN, "lt": LITHUANIAN, "bg": BULGARIAN, "hr": CROATIAN, "sr": SERBIAN, "ms": MALAY}
