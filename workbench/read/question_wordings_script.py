"""Generated questions worded in Arabic, Hebrew, Hindi, Thai, Vietnamese and Indonesian (issue 35's third probe),
kept apart from ``question_wording`` and ``question_wordings_more`` so no module outgrows a screenful of templates.

Before, these files' questions came out in English with their headers in them ("What is the السعر of the …?").
Each names the product as the file writes it, so it is found word for word: Arabic and Hebrew ask after it as a
chat does ("كوب حراري: …؟"), Hindi puts the product first as its word order does ("असम चाय की कीमत क्या है?"), Thai
writes the question without spaces but one before a name that may end in a letter ("… ราคาเท่าไหร่"), and
Vietnamese and Indonesian ask as their customers do ("… giá bao nhiêu?", "Berapa harga …?").
"""

from __future__ import annotations

from workbench.read.question_wording import Wording

UNITS = ("millimetres", "centimetres", "metres", "inches", "feet", "grams", "kilograms", "pounds", "ounces", "litres",
         "millilitres")


def _units(names: str) -> dict[str, str]:
    """The English unit names (``UNITS``, in order) in a language, given as one line split at commas."""
    return dict(zip(UNITS, (name.strip() for name in names.split(",")), strict=True))


# Arabic asks with "؟", its question mark.
ARABIC = Wording(
    asks={
        "price": "{product}: بكم؟", "colour": "{product}: ما الألوان المتوفرة؟", "size": "{product}: ما المقاسات المتوفرة؟",
        "material": "{product}: من أي خامة؟", "stock": "{product}: هل هو متوفر؟", "warranty": "{product}: كم مدة الضمان؟",
        "care": "{product}: كيف أنظفه؟", "weight": "{product}: كم وزنه؟", "dimensions": "{product}: ما أبعاده؟",
        "width": "{product}: كم عرضه؟", "height": "{product}: كم ارتفاعه؟", "depth": "{product}: كم عمقه؟",
        "length": "{product}: كم طوله؟", "delivery": "{product}: متى يصل؟", "category": "{product}: في أي قسم؟",
        "description": "{product}: ما هو؟", "brand": "{product}: ما الماركة؟",
    },
    count="{product}: كم قطعة متوفرة؟",
    returns={"exchange": "{product}: هل أقدر أستبدله؟", "refund": "{product}: هل أسترد المبلغ؟",
             "return": "{product}: هل أقدر أرجعه؟"},
    other="{product}: {column}؟",
    in_unit="، بال{unit}؟",
    units=_units("مليمتر, سنتيمتر, متر, إنش, قدم, غرام, كيلوغرام, رطل, أونصة, لتر, مليلتر"),
)

HEBREW = Wording(
    asks={
        "price": "כמה עולה {product}?", "colour": "{product}: באילו צבעים יש?", "size": "{product}: באילו מידות יש?",
        "material": "{product}: ממה זה עשוי?", "stock": "{product}: יש במלאי?", "warranty": "{product}: כמה אחריות יש?",
        "care": "{product}: איך מנקים?", "weight": "{product}: כמה זה שוקל?", "dimensions": "{product}: מה המידות?",
        "width": "{product}: מה הרוחב?", "height": "{product}: מה הגובה?", "depth": "{product}: מה העומק?",
        "length": "{product}: מה האורך?", "delivery": "{product}: תוך כמה זמן מגיע?",
        "category": "{product}: באיזו קטגוריה?", "description": "{product}: מה זה?", "brand": "{product}: איזה מותג?",
    },
    count="{product}: כמה יחידות יש במלאי?",
    returns={"exchange": "{product}: אפשר להחליף?", "refund": "{product}: אפשר לקבל החזר?",
             "return": "{product}: אפשר להחזיר?"},
    other="{product}: {column}?",
    in_unit=", ב{unit}?",
    units=_units('מ"מ, ס"מ, מטרים, אינצ\'ים, רגל, גרם, ק"ג, פאונד, אונקיות, ליטר, מ"ל'),
)

HINDI = Wording(
    asks={
        "price": "{product} की कीमत क्या है?", "colour": "{product} किन रंगों में मिलता है?",
        "size": "{product} किन साइज़ में मिलता है?", "material": "{product} किस चीज़ से बना है?",
        "stock": "क्या {product} स्टॉक में है?", "warranty": "{product} पर कितनी वारंटी है?",
        "care": "{product} को कैसे साफ करें?", "weight": "{product} का वज़न कितना है?",
        "dimensions": "{product} का नाप क्या है?", "width": "{product} की चौड़ाई कितनी है?",
        "height": "{product} की ऊंचाई कितनी है?", "depth": "{product} की गहराई कितनी है?",
        "length": "{product} की लंबाई कितनी है?", "delivery": "{product} कितने दिन में पहुंचेगा?",
        "category": "{product} किस श्रेणी में है?", "description": "{product} कैसा है?",
        "brand": "{product} किस ब्रांड का है?",
    },
    count="{product} के कितने पीस स्टॉक में हैं?",
    returns={"exchange": "क्या {product} बदल सकते हैं?", "refund": "क्या {product} का पैसा वापस मिलेगा?",
             "return": "क्या {product} लौटा सकते हैं?"},
    other="{product} – {column}?",
    in_unit=", {unit} में?",
    units=_units("मिलीमीटर, सेंटीमीटर, मीटर, इंच, फुट, ग्राम, किलोग्राम, पाउंड, औंस, लीटर, मिलीलीटर"),
)

# Thai writes no space between words; one is kept after the product's name, which the question's words follow.
THAI = Wording(
    asks={
        "price": "{product} ราคาเท่าไหร่", "colour": "{product} มีสีอะไรบ้าง", "size": "{product} มีไซซ์อะไรบ้าง",
        "material": "{product} ทำจากอะไร", "stock": "{product} มีของไหม", "warranty": "{product} รับประกันกี่ปี",
        "care": "{product} ดูแลรักษาอย่างไร", "weight": "{product} หนักเท่าไหร่", "dimensions": "{product} ขนาดเท่าไหร่",
        "width": "{product} กว้างเท่าไหร่", "height": "{product} สูงเท่าไหร่", "depth": "{product} ลึกเท่าไหร่",
        "length": "{product} ยาวเท่าไหร่", "delivery": "{product} ส่งกี่วัน", "category": "{product} อยู่หมวดไหน",
        "description": "{product} เป็นอย่างไร", "brand": "{product} ยี่ห้ออะไร",
    },
    count="{product} เหลือกี่ชิ้น",
    returns={"exchange": "{product} เปลี่ยนได้ไหม", "refund": "{product} ขอเงินคืนได้ไหม", "return": "{product} คืนได้ไหม"},
    other="{product} {column}",
    in_unit=" กี่{unit}",
    units=_units("มิลลิเมตร, เซนติเมตร, เมตร, นิ้ว, ฟุต, กรัม, กิโลกรัม, ปอนด์, ออนซ์, ลิตร, มิลลิลิตร"),
)

VIETNAMESE = Wording(
    asks={
        "price": "{product} giá bao nhiêu?", "colour": "{product} có những màu nào?", "size": "{product} có những size nào?",
        "material": "{product} làm bằng chất liệu gì?", "stock": "{product} còn hàng không?",
        "warranty": "{product} bảo hành bao lâu?", "care": "{product} bảo quản thế nào?",
        "weight": "{product} nặng bao nhiêu?", "dimensions": "{product} kích thước bao nhiêu?",
        "width": "{product} rộng bao nhiêu?", "height": "{product} cao bao nhiêu?", "depth": "{product} sâu bao nhiêu?",
        "length": "{product} dài bao nhiêu?", "delivery": "{product} giao mấy ngày?",
        "category": "{product} thuộc danh mục nào?", "description": "{product} là sản phẩm như thế nào?",
        "brand": "{product} của thương hiệu nào?",
    },
    count="{product} còn bao nhiêu cái?",
    returns={"exchange": "{product} có đổi được không?", "refund": "{product} có hoàn tiền không?",
             "return": "{product} có trả lại được không?"},
    other="{column} của {product}?",
    in_unit=", tính bằng {unit}?",
    units=_units("milimét, xentimét, mét, inch, feet, gam, kilôgam, pound, ounce, lít, mililít"),
)

INDONESIAN = Wording(
    asks={
        "price": "Berapa harga {product}?", "colour": "{product} ada warna apa saja?", "size": "{product} ada ukuran apa saja?",
        "material": "{product} bahannya apa?", "stock": "{product} ready stok?", "warranty": "{product} garansinya berapa lama?",
        "care": "Cara merawat {product} bagaimana?", "weight": "Berapa berat {product}?",
        "dimensions": "Berapa ukuran {product}?", "width": "Berapa lebar {product}?", "height": "Berapa tinggi {product}?",
        "depth": "Berapa kedalaman {product}?", "length": "Berapa panjang {product}?",
        "delivery": "{product} dikirim berapa hari?", "category": "{product} masuk kategori apa?",
        "description": "{product} itu seperti apa?", "brand": "{product} mereknya apa?",
    },
    count="Stok {product} tinggal berapa?",
    returns={"exchange": "{product} bisa ditukar?", "refund": "{product} bisa refund?", "return": "{product} bisa diretur?"},
    other="{column} {product}?",
    in_unit=", dalam {unit}?",
    units=_units("milimeter, sentimeter, meter, inci, kaki, gram, kilogram, pon, ons, liter, mililiter"),
)

SCRIPT_WORDINGS = {"ar": ARABIC, "he": HEBREW, "hi": HINDI, "th": THAI, "vi": VIETNAMESE, "id": INDONESIAN}
