"""A delimited file is read as its writer wrote it: the delimiter is found by parsing, quotes and all.

Tables full of what confuses a guess (commas, semicolons, tabs, bars, quotes and line breaks inside cells,
non-ASCII text) are written by the csv module with every delimiter and quoting mode, with or without a BOM,
with CRLF or LF line ends, and read back cell for cell by the workbench's own reader. Examples are few per
delimiter and mode, derandomized and without a deadline, so this is seconds of the suite on a shared machine.

QUOTE_NONE is written without an escape character: spreadsheet programs and shop exports quote cells, and a
reader that took backslashes as escapes would spoil every ordinary cell holding one (an image path
``C:\\photos\\fan.jpg``). So an unquoted file's cells hold no delimiter, quote or line break of their own, but
may hold the other delimiters, which is what makes its delimiter hard to guess.

A header row is of plain column names (letters of any script, digits, spaces and light punctuation): it is
what makes a file's shape knowable at all. A one-column file whose header were ``a;b`` is two columns to anyone.
"""

from __future__ import annotations

import codecs
import csv
import io

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from workbench.core.model import WorkbenchError  # noqa: E402
from workbench.read.loaders import load_bytes  # noqa: E402
from workbench.read.spreadsheet import read_csv, sniff_delimiter  # noqa: E402
from workbench.read.table import clean_cell  # noqa: E402
from workbench.read.textio import (  # noqa: E402
    ASCII_LETTERS,
    HIGH_LETTERS,
    NOT_WESTERN,
    THAI_BYTES,
    THAI_MARK_SHARE,
    THAI_MARKS,
)

FEW = settings(max_examples=12, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DELIMITERS = [",", ";", "\t", "|"]
QUOTING = {"minimal": csv.QUOTE_MINIMAL, "all": csv.QUOTE_ALL, "nonnumeric": csv.QUOTE_NONNUMERIC,
           "none": csv.QUOTE_NONE}

# What breaks a guess: every delimiter, quotes, line breaks of each kind, spaces, and text of other scripts.
PIECES = [",", ";", "\t", "|", '"', '""', "'", "\n", "\r\n", "\r", " ", "  ", "é", "ß", "Ω", "ж", "中文", "€", "—",
          "“", "”", "😀", "\u00a0", "Fan", "Lamp", "10", "3.50", "a, b; c", "12\" screen", "C:\\photos\\fan.jpg",
          "A light, airy throw; it drapes, it breathes", "Soy wax, cotton wick; amber glass, 60 hours"]
CELL_TEXT = st.lists(st.sampled_from(PIECES) | st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=3),
                     max_size=8).map("".join)
# Descriptions as shops write them: words run together with commas, semicolons, bars and tabs, a different number
# of each per cell (a raw count of delimiters per line read a catalog of such cells with the wrong one).
WORD = st.sampled_from(["soft", "linen", "oak", "60 hours", "350 ml", "Größe", "中文", "café", "“best”", '"big"', "x"])
PROSE = st.lists(st.tuples(WORD, st.sampled_from([", ", "; ", " | ", "\t", " ", ",", ";"])), min_size=1, max_size=12
                 ).map(lambda parts: "".join(word + gap for word, gap in parts).strip())
NUMBER = st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False, width=32)
HEADER = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Lo", "Nd"), whitelist_characters=" _-()%/.#&'"),
                 min_size=1, max_size=14).filter(str.strip)


@st.composite
def tables(draw):
    """A header of 1-30 names and 1-300 rows of cells, each cell drawn from a pool (drawing 9,000 cells one by one
    would spend the examples on generating rather than reading)."""
    columns = draw(st.integers(1, 6) | st.integers(1, 30))  # small tables as often as large: a few rows of
    rows = draw(st.integers(1, 8) | st.integers(1, 300))  # prose are the easiest to misjudge
    pool = draw(st.lists(PROSE | CELL_TEXT | NUMBER, min_size=1, max_size=40))
    pick = draw(st.randoms(use_true_random=False))
    header = draw(st.lists(HEADER, min_size=columns, max_size=columns))
    body = [[pick.choice(pool) if pick.random() < 0.85 else "" for _ in range(columns)] for _ in range(rows)]
    return header, body


def written(header, body, delimiter, quoting, line_end):
    """The table as csv.writer writes it, with what that mode cannot write left out of the cells."""
    unsayable = ""
    if quoting == csv.QUOTE_NONE:  # no escape character: a cell cannot hold the delimiter, a quote or a line break
        unsayable = delimiter + '"\r\n'
    elif line_end == "\n" and quoting == csv.QUOTE_MINIMAL:
        # csv.writer quotes a cell for the line end it writes, not for a lone CR, which every reader (Excel, the
        # csv module) takes as a line end: with LF line ends such a table has no faithful file.
        unsayable = "\r"
    drop = str.maketrans("", "", unsayable)
    body = [[cell.translate(drop) if isinstance(cell, str) else cell for cell in row] for row in body]
    if quoting == csv.QUOTE_NONE and len(header) == 1:  # "a single empty field record must be quoted"
        body = [[cell if str(cell).strip() else "-" for cell in row] for row in body]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator=line_end)
    writer.writerow(header)
    writer.writerows(body)
    return out.getvalue(), body


@pytest.mark.parametrize("quoting", QUOTING.values(), ids=QUOTING.keys())
@pytest.mark.parametrize("delimiter", DELIMITERS, ids=["comma", "semicolon", "tab", "bar"])
@FEW
@given(table=tables(), bom=st.booleans(), line_end=st.sampled_from(["\r\n", "\n"]), suffix=st.sampled_from([".csv", ".tsv"]))
def test_a_table_written_by_the_csv_module_reads_back_cell_for_cell(delimiter, quoting, table, bom, line_end, suffix):
    header, body = table
    text, body = written(header, body, delimiter, quoting, line_end)
    data = (codecs.BOM_UTF8 if bom else b"") + text.encode()
    name = f"shop{suffix}"  # a semicolon file called .tsv: the rows outvote the name
    read = read_csv(data, name)
    assert read.header == [clean_cell(cell) for cell in header]
    expected = [[clean_cell(str(cell)) for cell in row] for row in body]
    assert [record for _, record in read.rows if any(record)] == [row for row in expected if any(row)]
    assert read.encoding == ("utf-8-sig" if bom else "utf-8")
    # A row is numbered as a spreadsheet shows it: the header is row 1. A quoted line break does not shift it.
    numbers = [number for number, record in read.rows if any(record)]
    assert numbers == [index + 2 for index, row in enumerate(expected) if any(row)]


CATALOG = '''"name","price","description","materials","care"
"Aurora Linen Throw","89.00","A light, airy throw in washed linen, woven in Portugal, soft from the first use, and large enough for a queen bed; it drapes, it breathes, and it keeps its colour","100% linen, stone-washed, OEKO-TEX certified","Machine wash at 40 degrees, tumble dry low, iron while damp"
"Birch Serving Board","45.00","Cut from a single piece of Finnish birch, oiled, sanded by hand, with a juice groove on one side and a flat face on the other","Birch wood, food-safe oil","Hand wash only, dry upright, oil monthly"
"Cedar Candle, Large","32.50","Hand-poured soy wax with cedar, vetiver and a hint of smoke; burns for about 60 hours, in a reusable amber jar","Soy wax, cotton wick, amber glass","Trim the wick to 5 mm, burn for at most 4 hours at a time"
"Dune Ceramic Mug","24.00","Thrown on the wheel, glazed in sand, speckled, matte outside and glossy inside, holds 350 ml, fits a hand, keeps coffee warm","Stoneware, lead-free glaze","Dishwasher safe, microwave safe, not for the oven"
"Ember Wool Blanket","129.00","Merino and alpaca, brushed for a soft hand, with a blanket stitch edge, warm in winter, light in autumn; made in a family mill","70% merino wool, 30% alpaca","Dry clean, or hand wash cold, dry flat"
'''


def test_a_quoted_catalog_with_commas_and_semicolons_in_its_text_reads_with_its_real_columns():
    # Counting delimiter characters per raw line found 1 semicolon on 3 of the 6 lines and commas in no agreeing
    # number, so it read ";": six headings (the whole quoted lines) and nothing under them.
    assert sniff_delimiter(CATALOG, "catalog.csv") == ","
    document = load_bytes(CATALOG.encode(), "catalog.csv")
    assert document.warnings == ()
    assert document.columns == ("price", "description", "materials", "care")
    assert [s.heading for s in document.sections] == [
        "catalog", "Aurora Linen Throw", "Birch Serving Board", "Cedar Candle, Large", "Dune Ceramic Mug",
        "Ember Wool Blanket"]
    candle = document.sections[3]
    assert [document.slice(fact.span) for fact in candle.facts] == [
        "price: 32.50",
        "description: Hand-poured soy wax with cedar, vetiver and a hint of smoke; burns for about 60 hours, in a "
        "reusable amber jar",
        "materials: Soy wax, cotton wick, amber glass",
        "care: Trim the wick to 5 mm, burn for at most 4 hours at a time",
    ]
    assert [fact.row for fact in candle.facts] == [4, 4, 4, 4]


def test_the_extension_settles_a_file_both_delimiters_split_alike():
    text = "name\tsize, colour\nFan\t10, white\nLamp\t12, black\n"  # tab and comma both give two agreeing cells
    assert sniff_delimiter(text, "shop.tsv") == "\t"
    assert sniff_delimiter(text, "shop.csv") == ","  # the order of DELIMITERS, as before: comma first


def test_a_one_column_file_is_read_whole_and_said():
    # No delimiter splits the header, so no row is split: "Fan, big" stays one name, nothing is dropped.
    document = load_bytes(b"name\nFan, big\nLamp; small\nDesk | oak\n", "names.csv")
    assert [s.heading for s in document.sections[1:]] == ["Fan, big", "Lamp; small", "Desk | oak"]
    assert document.warnings == (
        "names.csv was read as one column: no comma, semicolon, tab or bar (|) splits its first row into cells. "
        "If it has columns, save it again as CSV with commas between them.",)


def test_rows_that_disagree_under_every_delimiter_are_named():
    # The header splits only on commas; rows 3 and 4 have more comma-separated cells than it: named, not lost.
    data = b"name,price\nFan,10\nLamp,12,extra\nDesk,30,oak,large\nChair,5\n"
    document = load_bytes(data, "ragged.csv")
    assert [s.heading for s in document.sections[1:]] == ["Fan", "Lamp", "Desk", "Chair"]
    assert document.warnings == ("Rows 3 and 4 have more cells than there are columns; the extra cells were left out.",)


def test_the_sample_is_cut_short_without_misleading_the_guess():
    # 64 KB of one long quoted description, cut mid-cell by the sample: the cut record is not counted.
    long = "word, word; " * 8000
    text = f'name,description\nFan,"{long}"\nLamp,short\n'
    assert sniff_delimiter(text, "long.csv") == ","


# How a shop's computer saves text: UTF-8 with or without a BOM, UTF-16 with a BOM (Excel's "Unicode text"), UTF-16
# without one, and Windows-1252 (older Excel exports). Each is read back cell for cell and named.
ENCODINGS = {
    "utf-8": lambda text: text.encode("utf-8"),
    "utf-8-sig": lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    "utf-16": lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
    "utf-16-be-bom": lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    "utf-16-le": lambda text: text.encode("utf-16-le"),
    "utf-16-be": lambda text: text.encode("utf-16-be"),
    "windows-1252": lambda text: text.encode("cp1252"),
}
READ_AS = {"utf-16-be-bom": "utf-16"}


@pytest.mark.parametrize("encoding", ENCODINGS, ids=ENCODINGS)
@FEW
@given(table=tables(), delimiter=st.sampled_from(DELIMITERS))
def test_a_table_in_any_usual_encoding_reads_back_cell_for_cell(encoding, table, delimiter):
    header, body = table
    if encoding == "windows-1252":  # only what Windows-1252 can hold; bytes that also read as UTF-8 are UTF-8,
        # and the letters that inside a word are Polish, Czech, Hungarian or Turkish ones ("Ko³dra" is "Kołdra",
        # "prùmìr" "průměr", "Açýklama" "Açıklama": tests/test_shop_dialects.py, tests/test_shop_scripts.py)
        def western(cell: str) -> str:
            return bytes(b for b in cell.encode("cp1252", "ignore") if b not in NOT_WESTERN).decode("cp1252")

        header = [western(cell) or "x" for cell in header]
        body = [[western(cell) if isinstance(cell, str) else cell for cell in row] for row in body]
    text, body = written(header, body, delimiter, csv.QUOTE_MINIMAL, "\r\n")
    data = ENCODINGS[encoding](text)
    if encoding == "windows-1252":
        try:
            data.decode("utf-8")
            hypothesis.assume(False)
        except UnicodeDecodeError:
            pass
        # A text whose letters are mostly accented ones is Cyrillic or Greek to the reader: no Western text is.
        accented = len(data) - len(data.translate(None, HIGH_LETTERS))
        hypothesis.assume(accented <= len(data) - len(data.translate(None, ASCII_LETTERS)))
        # Nor one whose bytes are mostly in Thai's range with Thai's vowel signs and tone marks among them
        # (``textio._script_page``): each is an accented letter or a sign in 1252, which no Western text writes more
        # of than letters.
        in_thai = len(data) - len(data.translate(None, THAI_BYTES))
        hypothesis.assume(in_thai <= len(data) - len(data.translate(None, ASCII_LETTERS))
                          or len(data) - len(data.translate(None, THAI_MARKS)) < max(1, THAI_MARK_SHARE * in_thai))
    read = read_csv(data, "shop.csv")
    assert read.encoding == READ_AS.get(encoding, encoding)
    assert read.header == [clean_cell(cell) for cell in header]
    expected = [[clean_cell(str(cell)) for cell in row] for row in body]
    assert [record for _, record in read.rows if any(record)] == [row for row in expected if any(row)]
    assert any("read as Windows-1252" in warning for warning in read.warnings) == (encoding == "windows-1252")


def test_utf16_without_a_mark_and_with_few_ascii_letters_is_text_in_its_byte_order():
    # What the property test found: U+0100 and an emoji's surrogates put their zero bytes on the side ASCII does not,
    # so counting zeros on one side called this binary (and in little-endian order, guessed the order wrong).
    text = "0,0\r\nĀ𐀀,Ā𐀀\r\nĀ𐀀,Ā𐀀\r\n"
    for encoding in ("utf-16-le", "utf-16-be"):
        read = read_csv(text.encode(encoding), "shop.csv")
        assert (read.encoding, read.header, [record for _, record in read.rows]) == (
            encoding, ["0", "0"], [["Ā𐀀", "Ā𐀀"], ["Ā𐀀", "Ā𐀀"]])
    # A UTF-8 file with a stray NUL reads as neither order (byte-swapped ASCII is no ASCII): still called binary.
    with pytest.raises(WorkbenchError, match="looks like a binary file"):
        read_csv(b"name,price\nFan\x00,10\n", "shop.csv")


# A workbook often opens on notes ("About", "Read me") before its product sheet: the sheet read by default is the
# first one laid out as a table with a product-name column, whatever words the notes use.
NOTE = st.lists(st.sampled_from(["Product", "catalogue", "name", "Title:", "item", "prices", "in", "EUR", "2024",
                                 "Read", "me", "Größe", "中文"]), min_size=1, max_size=8).map(" ".join)
OTHER_HEADER = st.sampled_from(["price", "Preis", "colour", "size (cm)", "stock", "description", "sku", "Größe"])


@FEW
@given(notes=st.lists(st.lists(NOTE, min_size=1, max_size=4), max_size=3), others=st.lists(OTHER_HEADER, min_size=1,
       max_size=5, unique=True), position=st.integers(0, 5), products=st.lists(PROSE, min_size=1, max_size=12))
def test_the_product_sheet_is_read_whatever_the_notes_before_it_say(notes, others, position, products):
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for number, lines in enumerate(notes, start=1):
        sheet = workbook.create_sheet(f"Notes {number}")
        for line in lines:
            sheet.append([line])
    sheet = workbook.create_sheet("Products")
    header = [*others]
    header.insert(min(position, len(header)), "name")
    sheet.append(header)
    names = [f"{text} {number}" for number, text in enumerate(products, start=1)]  # each row its own product
    for product in names:
        sheet.append([product if column == "name" else f"{column} of {product}" for column in header])
    out = io.BytesIO()
    workbook.save(out)
    document = load_bytes(out.getvalue(), "shop.xlsx")
    assert [section.heading for section in document.sections[1:]] == [clean_cell(name) for name in names]
    assert sum(len(section.facts) for section in document.sections) == len(names) * len(others)


@FEW
@given(others=st.lists(OTHER_HEADER, min_size=1, max_size=6, unique=True), position=st.integers(0, 6),
       label=st.sampled_from(["name", "Name", "Product Name", "title", "product"]), delimiter=st.sampled_from(DELIMITERS),
       products=st.lists(PROSE, min_size=1, max_size=20))
def test_the_name_column_is_found_wherever_it_stands(others, position, label, delimiter, products):
    header = list(others)
    header.insert(min(position, len(header)), label)
    names = [f"{text} {number}" for number, text in enumerate(products, start=1)]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    writer.writerow(header)
    writer.writerows([product if column == label else f"{column}: {product}" for column in header] for product in names)
    document = load_bytes(out.getvalue().encode(), "shop.csv")
    assert document.name_column == label
    assert [section.heading for section in document.sections[1:]] == [clean_cell(name) for name in names]
    assert sum(len(section.facts) for section in document.sections) == len(names) * len(others)


JSON_VALUE = st.recursive(PROSE | st.integers(-999, 999) | st.booleans(),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                              st.sampled_from(["width", "height", "unit", "colour"]), inner, max_size=3), max_leaves=6)


@FEW
@given(fields=st.dictionaries(st.sampled_from(["price", "sku", "dimensions", "tags", "variants", "stock"]), JSON_VALUE,
                              max_size=4), products=st.lists(PROSE, min_size=1, max_size=15), wrapped=st.booleans())
def test_a_json_feed_reads_one_product_per_object(fields, products, wrapped):
    import json

    names = [f"{text} {number}" for number, text in enumerate(products, start=1)]
    items = [{"name": name, **fields} for name in names]
    feed = {"shop": "Breezy", "count": len(items), "products": items} if wrapped else items
    document = load_bytes(json.dumps(feed, ensure_ascii=False).encode(), "feed.json")
    assert [section.heading for section in document.sections[1:]] == [clean_cell(name) for name in names]
    facts = [len(section.facts) for section in document.sections[1:]]
    assert len(set(facts)) == 1  # every product has the same fields, so the same number of facts


@pytest.mark.parametrize("delimiter", DELIMITERS, ids=["comma", "semicolon", "tab", "bar"])
@FEW
@given(rows=st.lists(st.tuples(PROSE, PROSE, PROSE), min_size=1, max_size=20))
def test_a_questions_file_reads_with_its_own_delimiter(delimiter, rows):
    from workbench.read.questions import parse_questions

    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)  # a spreadsheet program in much of Europe saves ';'
    writer.writerow(["question", "expected_source", "expected_answer"])
    writer.writerows(rows)
    questions = parse_questions(out.getvalue().encode(), "questions.csv")
    expected = [tuple(clean_cell(cell) for cell in row) for row in rows]
    assert [(q.question, q.expected_source, q.expected_answer) for q in questions] == [
        row for row in expected if row[0]]


def test_a_title_line_above_the_column_names_is_said_not_taken_for_a_list():
    # The title splits at its comma, no row below it does: each row is one cell, one heading with nothing under it.
    # The warning says why, so the evaluation's "no text" comes with the row to delete.
    document = load_bytes(b"Product prices, spring 2024\nname;price;colour\nFan;10;white\nLamp;12;black\n",
                          "prices.csv")
    assert document.warnings == (
        "prices.csv was read as one column: its first row, starting 'Product prices', is not split as most rows "
        "below it, which hold semicolons. If that row is a title above the column names, delete it and save the file "
        "again.",)
    # Each line is one heading with nothing under it: the evaluation's "no text" carries this warning with it.
    assert [s.heading for s in document.sections[1:]] == ["name;price;colour", "Fan;10;white", "Lamp;12;black"]
    # A title no delimiter splits, above a header with a name column (a listings export's): the header is found
    # below it and the title said left out (blind42; it was read as one column, as above).
    untitled = load_bytes(b"Product prices\nname;price\nFan;10\nLamp;12\n", "prices.csv")
    assert untitled.warnings == ("The header of prices.csv is row 2: the rows above it (a title or instructions, "
                                 "first “Product prices”) were left out.",)
    assert [s.heading for s in untitled.sections[1:]] == ["Fan", "Lamp"] and "price: 12" in untitled.text
