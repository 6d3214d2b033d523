"""Shop files from Japan, mainland China, Taiwan and Korea as their systems and Excel save them (issue 35): Shift_JIS
(cp932), GB18030 (GBK), Big5 (cp950) and EUC-KR (cp949), each read in its own code page, not as a Windows page's
letters ("Џ¤•i–ј" for "商品名"); their headers' roles known; their words read as customers type them."""

from __future__ import annotations

import pytest

from workbench.read.textio import decode_text

from .conftest import ROOT

WRITTEN = ROOT / "tests" / "data" / "written"
FILES = [("chaki_makeshop_ja.csv", "cp932", "Shift_JIS"), ("lingshi_youzan_zh.csv", "gb18030", "GB18030"),
         ("banshou_shopline_tw.csv", "cp950", "Big5"), ("bansang_cafe24_ko.csv", "cp949", "EUC-KR")]


@pytest.mark.parametrize(("name", "encoding", "said"), FILES)
def test_each_export_is_read_in_its_own_code_page_and_the_warning_names_it(name, encoding, said):
    data = (WRITTEN / name).read_bytes()
    text, found, warnings = decode_text(data, name)
    assert found == encoding  # on main: windows-1251 or -1250, "Џ¤•i–ј" for "商品名"
    assert text == data.decode(encoding).replace("\r\n", "\n")
    assert f"read as {said}" in warnings[0] and "accented" not in warnings[0]


@pytest.mark.parametrize(("text", "encoding"), [
    ("商品名,価格\nお茶碗,1200\nほうじ茶のティーバッグ,800\n", "cp932"),
    ("商品名称,价格\n红枣,39.90\n开心果,49.00\n每日坚果,129.00\n", "gb18030"),
    ("商品名稱,售價\n鳳梨酥,450\n牛軋糖,280\n烏龍茶,680\n", "cp950"),
    ("상품명,판매가\n참기름,28000\n고추장은 맛있어요,22000\n", "cp949"),
])
def test_a_few_lines_are_enough_to_tell_the_four_apart(text, encoding):
    # Each page's bytes decode "validly" in the others too (Korean "상품명" read as GBK is "惑前疙", Big5's "商品名稱"
    # "坝珇嘿"), as rare characters: the reading with the most common characters wins.
    assert decode_text(text.encode(encoding), "x.csv")[:2] == (text, encoding)


def test_a_japanese_text_in_gbk_is_read_as_gbk_writes_it():
    text = (WRITTEN / "okurimono_faq_ja.md").read_text(encoding="utf-8")
    assert decode_text(text.encode("gb18030"), "x.md")[:2] == (text, "gb18030")


@pytest.mark.parametrize("page", ["cp1252", "cp1250", "cp1251", "cp1253", "cp1254"])
def test_every_line_of_the_written_western_files_keeps_its_windows_page(page):
    # Each non-ASCII line of the probe files of the other languages, as a file of its own, in each Windows page it
    # encodes in: none is taken for Japanese, Chinese or Korean (a line has too few wide characters, or too few
    # common ones, in every East Asian reading).
    from workbench.read.textio import _east_asian_text

    checked = 0
    for path in sorted(WRITTEN.glob("*")):
        if path.suffix not in (".csv", ".md", ".txt") or any(f"_{code}." in path.name for code in ("ja", "zh", "tw", "ko")):
            continue
        text = decode_text(path.read_bytes(), path.name)[0]
        for line in text.split("\n"):
            try:
                data = line.encode(page)
            except UnicodeEncodeError:
                continue
            if not data.isascii():
                checked += 1
                assert _east_asian_text(data) is None, (path.name, line)
    assert checked > 20


@pytest.mark.parametrize(("name", "roles"), [
    ("chaki_makeshop_ja.csv", {"name": "商品名", "price": "販売価格(税込)", "description": "商品説明",
                               "category": "カテゴリ"}),  # the price with tax, not 販売価格(税抜) before it
    ("lingshi_youzan_zh.csv", {"name": "商品名称", "price": "价格（元）", "description": "商品描述",
                               "category": "商品分组"}),
    ("banshou_shopline_tw.csv", {"name": "商品名稱", "price": "售價", "description": "商品描述",
                                 "category": "商品分類"}),
    ("bansang_cafe24_ko.csv", {"name": "상품명", "price": "판매가", "description": "상품 요약설명",
                               "category": "상품분류"}),  # 판매가 with VAT, not 상품가 before it
])
def test_each_export_opens_with_its_columns_read(name, roles):
    from workbench.read.headers import column_roles
    from workbench.read.loaders import load_bytes

    document = load_bytes((WRITTEN / name).read_bytes(), name)  # on main: "no column that looks like a product name"
    assert column_roles(document.columns, document.name_column) == roles
    assert len(document.sections) == 1 + (8 if "tw" not in name else 7)


@pytest.mark.parametrize(("header", "price"), [
    (["商品名", "価格(税抜)", "価格（税込）"], "価格（税込）"),
    (["商品名称", "售价", "含税价格"], "售价"),  # "含税价格" is no price header of the list: the list's decides
    (["상품명", "소비자가", "판매가(부가세 포함)"], "판매가(부가세 포함)"),
    (["상품명", "소비자가", "가격"], "가격"),
])
def test_the_price_with_tax_is_taken_where_a_file_has_both(header, price):
    from workbench.read.headers import column_roles

    assert column_roles(header, header[0])["price"] == price


def test_a_kanas_voicing_mark_and_a_hangul_syllable_survive_folding():
    from workbench.core.named_forms import fold_accents

    # NFKD took "ゴ" apart ("カテコリ") and "상" into its letters; full-width forms still narrow.
    assert [fold_accents(word) for word in ("カテゴリ", "상품명", "価格（税込）", "１２０円", "livrée")] == [
        "カテゴリ", "상품명", "価格(税込)", "120円", "livree"]


def test_korean_is_read_as_syllable_pairs_so_a_word_meets_it_with_its_particle():
    from workbench.core.words import tokenize

    # Whole, "배송비는" never met a customer's "배송은" or "배송비": pairs share "배송" (and "송비").
    assert tokenize("배송비는 얼마예요?") == ["배송", "송비", "비는", "얼마", "마예", "예요"]
    assert set(tokenize("배송은")) & set(tokenize("배송비는")) == {"배송"}


def test_japanese_particle_and_ending_pairs_are_stop_words_and_the_subject_stays():
    from workbench.core.words import analyzer

    japanese = analyzer(("ja",))
    # 急須 / 須は / ih / でも / も使 / 使え / えま / ます / すか: the pairs of particles and endings go.
    assert japanese.terms("急須はIHでも使えますか") == ["急須", "須は", "ih", "も使", "使え"]
    chinese = analyzer(("zh",))
    assert chinese.terms("牛肉干辣不辣？") == ["牛肉", "肉干", "干辣", "辣不", "不辣"]  # 不 names the subject here
    assert chinese.terms("可以开发票吗") == ["以开", "开发", "发票", "票吗"]  # 可以: every shop's text has it
    assert chinese.terms("有什麼顏色") == ["有什", "麼顏", "顏色"]  # 什麼 in traditional characters too


@pytest.mark.parametrize(("name", "language"), [
    ("chaki_makeshop_ja.csv", "Japanese"), ("lingshi_youzan_zh.csv", "Chinese"), ("banshou_shopline_tw.csv", "Chinese"),
    ("bansang_cafe24_ko.csv", "Korean"), ("okurimono_faq_ja.md", "Japanese")])
def test_each_file_is_said_to_be_read_with_its_languages_rules(name, language):
    from workbench.read.language import reading_sentence
    from workbench.read.loaders import load_bytes

    document = load_bytes((WRITTEN / name).read_bytes(), name)
    # Before: "Written in Japanese, which word search has no rules for; read with English word rules".
    assert reading_sentence(document) == f"Written in {language}; read with {language} word rules."


@pytest.mark.parametrize(("name", "asked"), [
    ("chaki_makeshop_ja.csv", [("南部鉄器 急須 あられ 0.6Lはいくらですか？", "8,800"),  # the price with tax
                               ("有田焼 湯呑み 藍染 2客セットの在庫はいくつありますか？", "12"),
                               ("静岡 深蒸し煎茶 100gはどのカテゴリにありますか？", "日本茶")]),
    ("lingshi_youzan_zh.csv", [("每日坚果 混合装 750g（30袋）在哪个分类里？", "坚果炒货"),
                               ("五香牛肉干 200g是什么牌子的？", "草原牧歌"), ("新疆若羌灰枣 500g多少钱？", "39.90")]),
    ("banshou_shopline_tw.csv", [("土鳳梨酥 10入禮盒在哪個分類？", "糕餅"), ("蔓越莓牛軋糖 250g是哪個牌子的？", "日光烘焙"),
                                 ("阿里山高山烏龍茶 150g多少錢？", "680")]),  # traditional characters: 錢, not 钱
    ("bansang_cafe24_ko.csv", [("국산 참깨 참기름 350ml 어느 카테고리에 있나요?", "기름·양념"),
                               ("전통 찹쌀 고추장 1kg 어느 브랜드예요?", "순창댁"), ("유기농 현미 누룽지 500g 얼마예요?", "12000")]),
])
def test_generated_questions_are_asked_in_the_files_language_and_script(name, asked):
    from workbench.read.loaders import load_bytes
    from workbench.read.questions import generate_questions

    questions = generate_questions(load_bytes((WRITTEN / name).read_bytes(), name))
    # Before: "What is the 販売価格 税抜 of the 南部鉄器 急須 あられ 0.6L?" -> "8,000", and 独自商品コード asked.
    assert [(q.question, q.expected_answer) for q in questions[:3]] == asked
    assert not any("コード" in q.question or "编码" in q.question for q in questions)


def test_every_east_asian_wording_asks_every_kind_english_does_and_ends_a_unit_once():
    from workbench.read.question_wording import ENGLISH
    from workbench.read.question_wordings_asia import ASIAN_WORDINGS, JAPANESE

    for code, wording in ASIAN_WORDINGS.items():
        assert wording.asks.keys() == ENGLISH.asks.keys(), code
        assert wording.units.keys() == {"millimetres", "centimetres", "metres", "inches", "feet", "grams",
                                        "kilograms", "pounds", "ounces", "litres", "millilitres"}, code
    assert JAPANESE.with_unit("土鍋の重さはどのくらいですか？", "grams") == "土鍋の重さはどのくらいですか（グラムで）？"


def test_the_fixed_copy_is_written_back_in_shift_jis_with_its_line_ends():
    from workbench.advise.edits import Edit
    from workbench.output.fixed_file import fixed_bytes
    from workbench.read.loaders import load_bytes

    name = "chaki_makeshop_ja.csv"
    data = (WRITTEN / name).read_bytes()
    document = load_bytes(data, name)
    written = fixed_bytes(data, name, document, [Edit(at=0, text="（検索キーワード：代引き）", row=2, column="商品説明")])
    # Row 2 (the first product) of the file as Excel saved it: cp932 and CRLF, the words at the cell's end.
    assert written.replace("（検索キーワード：代引き）".encode("cp932"), b"") == data
    assert written.decode("cp932").split("\r\n")[1].endswith("重さは約1.1kg。（検索キーワード：代引き）")


def test_the_issues_utf8_japanese_file_opens_and_a_file_without_a_name_column_names_the_east_asian_headers():
    from workbench.read.headers import column_roles
    from workbench.read.loaders import load_bytes
    from workbench.read.table import NoNameColumn

    # Issue 35: "商品名,価格,説明" was refused, "no column that looks like a product name".
    document = load_bytes("商品名,価格,説明\n抹茶,2000,宇治の抹茶です。\n".encode(), "shop.csv")
    assert document.encoding == "utf-8" and [s.heading for s in document.sections[1:]] == ["抹茶"]
    assert column_roles(document.columns, document.name_column) == {"name": "商品名", "price": "価格",
                                                                     "description": "説明"}
    with pytest.raises(NoNameColumn) as raised:
        load_bytes("番号,価格\n1,2000\n".encode(), "shop.csv")
    assert "Japanese, Chinese or Korean: 商品名, 商品名称, 상품명" in str(raised.value)
