"""Generated questions worded in Japanese, Chinese (simplified and traditional) and Korean, as customers type them
in a shop's chat: the product's name first, as the file writes it (no particle or measure word is fitted to it), the
question after it ("南部鉄器 急須はいくらですか？", "五香牛肉干 200g多少钱？", "국산 참기름 350ml 얼마예요?").

A Chinese file is asked in the script it is written in (``chinese_script``): language detection says "zh" for both.
"""

from __future__ import annotations

import regex

from workbench.read.question_wording import KIND_WORDS, Wording

# Japanese, Chinese (both scripts) and Korean header words of the same kinds, whole runs of characters as
# ``questions.column_words`` reads them ("販売価格(税込)" is "販売価格" and "税込"): added to the kinds' patterns.
EAST_ASIAN_KIND_WORDS = {
    "price": r"価格|販売価格|税込価格|売価|通常価格|単価|定価|价格|售价|销售价|销售价格|一口价|现价|零售价|单价|售價|"
             r"價格|銷售價|特價|單價|原價|定價|판매가|판매가격|가격|상품가|소비자가|정가",
    "colour": r"色|カラー|颜色|顏色|색상|컬러",
    "size": r"サイズ|尺码|尺碼|尺寸|사이즈|크기",
    "material": r"素材|材質|材质|재질|소재",
    "stock": r"在庫|在庫数|在庫数量|库存|库存数量|庫存|庫存數量|재고|재고수량|재고량",
    "weight": r"重さ|重量|무게|중량",
    "category": r"カテゴリ|カテゴリー|商品カテゴリ|分類|商品分類|商品分类|分类|类目|商品分组|分组|類別|分組|상품분류|분류|"
                r"카테고리",
    "brand": r"ブランド|メーカー|品牌|牌子|브랜드|제조사",
    "description": r"商品説明|商品説明文|説明|説明文|商品紹介|商品描述|描述|商品详情|详情|商品简介|简介|商品说明|说明|"
                   r"商品說明|說明|商品簡介|簡介|商品摘要|摘要|상품설명|설명|상세설명|요약설명|간략설명",
}
# ``question_wording.KIND_WORDS`` with these added: what ``questions.column_kind`` reads.
ALL_KIND_WORDS = tuple((kind, f"{words}|{EAST_ASIAN_KIND_WORDS[kind]}" if kind in EAST_ASIAN_KIND_WORDS else words)
                       for kind, words in KIND_WORDS)

JAPANESE = Wording(
    asks={
        "price": "{product}はいくらですか？",
        "colour": "{product}は何色がありますか？",
        "size": "{product}はどのサイズがありますか？",
        "material": "{product}の素材は何ですか？",
        "stock": "{product}の在庫はありますか？",
        "warranty": "{product}の保証期間はどのくらいですか？",
        "care": "{product}はどうお手入れすればいいですか？",
        "weight": "{product}の重さはどのくらいですか？",
        "dimensions": "{product}の寸法はどのくらいですか？",
        "width": "{product}の幅はどのくらいですか？",
        "height": "{product}の高さはどのくらいですか？",
        "depth": "{product}の奥行きはどのくらいですか？",
        "length": "{product}の長さはどのくらいですか？",
        "delivery": "{product}はいつ届きますか？",
        "category": "{product}はどのカテゴリにありますか？",
        "description": "{product}はどんな商品ですか？",
        "brand": "{product}はどこのメーカーですか？",
    },
    count="{product}の在庫はいくつありますか？",
    returns={"exchange": "{product}は交換できますか？", "refund": "{product}は返金してもらえますか？",
             "return": "{product}は返品できますか？"},
    other="{product}の{column}は？",
    in_unit="（{unit}で）？",
    units={"millimetres": "ミリ", "centimetres": "センチ", "metres": "メートル", "inches": "インチ",
           "feet": "フィート", "grams": "グラム", "kilograms": "キロ", "pounds": "ポンド", "ounces": "オンス",
           "litres": "リットル", "millilitres": "ミリリットル"},
)

CHINESE = Wording(
    asks={
        "price": "{product}多少钱？",
        "colour": "{product}有哪些颜色？",
        "size": "{product}有哪些尺码？",
        "material": "{product}是什么材质的？",
        "stock": "{product}有货吗？",
        "warranty": "{product}保修多久？",
        "care": "{product}怎么清洗保养？",
        "weight": "{product}有多重？",
        "dimensions": "{product}的尺寸是多少？",
        "width": "{product}有多宽？",
        "height": "{product}有多高？",
        "depth": "{product}有多深？",
        "length": "{product}有多长？",
        "delivery": "{product}多久能到？",
        "category": "{product}在哪个分类里？",
        "description": "{product}是什么样的商品？",
        "brand": "{product}是什么牌子的？",
    },
    count="{product}还有多少件库存？",
    returns={"exchange": "{product}可以换货吗？", "refund": "{product}可以退款吗？", "return": "{product}可以退货吗？"},
    other="{product}的{column}是什么？",
    in_unit="（单位：{unit}）？",
    units={"millimetres": "毫米", "centimetres": "厘米", "metres": "米", "inches": "英寸", "feet": "英尺",
           "grams": "克", "kilograms": "千克", "pounds": "磅", "ounces": "盎司", "litres": "升", "millilitres": "毫升"},
)

# Taiwan's and Hong Kong's: their characters, and their words (保固, 公分, 公克, 現貨).
CHINESE_TRADITIONAL = Wording(
    asks={
        "price": "{product}多少錢？",
        "colour": "{product}有哪些顏色？",
        "size": "{product}有哪些尺寸？",
        "material": "{product}是什麼材質的？",
        "stock": "{product}有現貨嗎？",
        "warranty": "{product}保固多久？",
        "care": "{product}要怎麼清潔保養？",
        "weight": "{product}有多重？",
        "dimensions": "{product}的尺寸是多少？",
        "width": "{product}有多寬？",
        "height": "{product}有多高？",
        "depth": "{product}有多深？",
        "length": "{product}有多長？",
        "delivery": "{product}多久會到？",
        "category": "{product}在哪個分類？",
        "description": "{product}是什麼樣的商品？",
        "brand": "{product}是哪個牌子的？",
    },
    count="{product}還有幾件庫存？",
    returns={"exchange": "{product}可以換貨嗎？", "refund": "{product}可以退款嗎？", "return": "{product}可以退貨嗎？"},
    other="{product}的{column}是什麼？",
    in_unit="（單位：{unit}）？",
    units={"millimetres": "公釐", "centimetres": "公分", "metres": "公尺", "inches": "英寸", "feet": "英尺",
           "grams": "公克", "kilograms": "公斤", "pounds": "磅", "ounces": "盎司", "litres": "公升",
           "millilitres": "毫升"},
)

KOREAN = Wording(
    asks={
        "price": "{product} 얼마예요?",
        "colour": "{product} 무슨 색상이 있나요?",
        "size": "{product} 어떤 사이즈가 있나요?",
        "material": "{product} 소재가 뭐예요?",
        "stock": "{product} 재고 있나요?",
        "warranty": "{product} 보증 기간은 얼마나 되나요?",
        "care": "{product} 어떻게 관리하나요?",
        "weight": "{product} 무게가 얼마나 되나요?",
        "dimensions": "{product} 크기가 어떻게 되나요?",
        "width": "{product} 폭이 얼마나 되나요?",
        "height": "{product} 높이가 얼마나 되나요?",
        "depth": "{product} 깊이가 얼마나 되나요?",
        "length": "{product} 길이가 얼마나 되나요?",
        "delivery": "{product} 배송은 얼마나 걸리나요?",
        "category": "{product} 어느 카테고리에 있나요?",
        "description": "{product} 어떤 상품인가요?",
        "brand": "{product} 어느 브랜드예요?",
    },
    count="{product} 재고가 몇 개 남았나요?",
    returns={"exchange": "{product} 교환되나요?", "refund": "{product} 환불되나요?", "return": "{product} 반품되나요?"},
    other="{product} {column}?",
    in_unit=" ({unit})?",
    units={"millimetres": "밀리미터", "centimetres": "센티미터", "metres": "미터", "inches": "인치", "feet": "피트",
           "grams": "그램", "kilograms": "킬로그램", "pounds": "파운드", "ounces": "온스", "litres": "리터",
           "millilitres": "밀리리터"},
)

ASIAN_WORDINGS = {"ja": JAPANESE, "zh": CHINESE, "zh-Hant": CHINESE_TRADITIONAL, "ko": KOREAN}
HAN = regex.compile(r"\p{Han}")
TRADITIONAL_SHARE = 0.05  # simplified text writes almost none outside GB2312; traditional a sixth or more


def chinese_script(text: str, sample: int = 20_000) -> str:
    """"zh-Hant" for Chinese written in traditional characters, else "zh": traditional text writes many characters
    that GB2312, mainland China's character set, lacks (個, 們, 價, 貨), simplified text almost none."""
    han = HAN.findall(text[:sample])
    outside = sum(1 for char in han if not _in_gb2312(char))
    return "zh-Hant" if han and outside / len(han) >= TRADITIONAL_SHARE else "zh"


def _in_gb2312(char: str) -> bool:
    try:
        char.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True
