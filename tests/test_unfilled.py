"""A cell that states no fact ("N/A", a parent row's 0 above its variants' prices) is read as an empty cell is:
no line in the text, so no piece, bot-ready file or generated question quotes it; the file handed back for
re-import keeps it as it was."""

from workbench.advise.edits import append_to_cell
from workbench.advise.rewrite import rewrite
from workbench.output.fixed_file import fixed_bytes
from workbench.read.loaders import load_bytes, load_path
from workbench.read.questions import generate_questions
from workbench.read.unfilled import is_zero, no_value, parent_zeros

from .conftest import REAL_DATA, needs_real_data

# Spree's layout: the parent row names the product with price 0; its variant rows (no name, same handle) carry
# the prices. The Gift wrap is one row priced 0 (free), the Lamp's stock 0 is a sold-out fact, the Vase's
# variants are all 0 too.
SHOP = (b"Name,Handle,Price,Colour,Stock,Description\n"
        b"Mug,mug,0,N/A,10,Stoneware mug\n"
        b",mug,12.50,Blue,-,\n"
        b",mug,0.00,Red,null,\n"
        b"Gift wrap,,0,,5,Wrapped by hand\n"
        b"Lamp,lamp,45,#N/A,0,nan\n"
        b"Vase,vase,0,None,3,Glass vase\n"
        b",vase,0,Green,,\n")


def test_a_mark_that_a_cell_was_never_filled_is_no_value_and_a_tick_or_a_word_is_one():
    for cell in ("", "N/A", "n/a", "-", "--", "—", "null", "NULL", "None", "#N/A", "nan", "NaN", "TBD", "?"):
        assert no_value(cell), cell
    for cell in ("x", "NA", "0", "No", "none of them", "Non-stick", "-5 °C", "n/a at night"):
        assert not no_value(cell), cell
    for cell in ("0", "0.00", "0,00 €", "$0", "USD 0", "0 kg", "000"):
        assert is_zero(cell), cell
    for cell in ("10", "0.5", "10.00", "", "O", "0 to 5"):
        assert not is_zero(cell), cell


def test_a_parent_rows_zero_is_left_out_only_beside_a_real_value_on_another_row():
    assert parent_zeros([["0", "0", "0"], ["12", "", "0"], ["0", "N/A", "0"]]) == {0}  # only the first column
    assert parent_zeros([["0"]]) == set()  # one row: a free product says so
    assert parent_zeros([["5"], ["0"]]) == set()  # a variant's own 0 (sold out) is a fact: only the parent's goes


def test_the_text_a_bot_reads_states_no_placeholder_as_a_fact():
    document = load_bytes(SHOP, "shop.csv")
    text = document.text
    mug = text[text.index("## Mug") : text.index("## Gift wrap")]
    # The parent's 0 is gone; the variants' own prices stay, the second variant's 0.00 with them (it is its own
    # row's, not the parent's: a variant's 0 stays a fact).
    assert mug == ("## Mug\nHandle: mug\nStock: 10\nDescription: Stoneware mug\n\n"
                   "Price: 12.50\nColour: Blue\n\nPrice: 0.00\nColour: Red\n\n")
    assert "## Gift wrap\nPrice: 0\nStock: 5\nDescription: Wrapped by hand" in text  # free, said so
    assert "## Lamp\nHandle: lamp\nPrice: 45\nStock: 0\n\n" in text  # sold out, said so; #N/A and nan gone
    assert "## Vase\nHandle: vase\nPrice: 0\nStock: 3\nDescription: Glass vase\n\nColour: Green" in text
    for mark in ("N/A", "null", "None", "nan", "Stock: -"):
        assert mark not in text, mark
    # Said once, with the counts: the Mug's price, and 5 marks (N/A, -, null, #N/A, nan, None: the Mug's variant
    # "-" and "null" are in Stock; "nan" in Description).
    assert document.warnings == (
        "A 0 on a product's first row, above real values on its other rows, was left out in Price (1 product): the "
        "shop's system writes it for a product with variants, and a bot would read a price of 0 as free. 6 cells "
        "saying only N/A, -, null or the like (in Colour, Stock and Description) were left out, as empty cells are: "
        "they state no fact.",)


def test_the_bot_ready_file_and_generated_questions_quote_no_placeholder():
    document = load_bytes(SHOP, "shop.csv")
    ready = rewrite(document).text
    assert "Price: 12.50" in ready and "N/A" not in ready and "nan" not in ready
    assert ready.count("Price: 0\n") == 2  # the Gift wrap's and the Vase's: every price they have is 0
    asked = {(q.expected_source, q.question): q.expected_answer for q in generate_questions(document)}
    # The Mug's price question is answered by its first real price, never by the parent's 0; a 0 is never an
    # expected answer (the Gift wrap and the Vase get no price question).
    assert asked[("Mug", "How much is the Mug?")] == "12.50"
    assert "0" not in asked.values() and "0.00" not in asked.values()


def test_the_fixed_file_for_re_import_keeps_every_placeholder_cell_as_it_was():
    document = load_bytes(SHOP, "shop.csv")
    description = next(f for f in document.sections[1].facts if f.column == "Description")
    fixed = fixed_bytes(SHOP, "shop.csv", document, [append_to_cell(description, " Dishwasher safe.")])
    # Only the description cell grew: the parent's price 0, the N/A, the "-", "null", "#N/A" and "nan" cells are
    # the shop system's, and stay for the import to read.
    assert fixed == SHOP.replace(b"Stoneware mug", b"Stoneware mug Dishwasher safe.")


def test_a_mark_in_the_handle_column_groups_nothing():
    data = b"Name,Handle,Price\nKettle,-,30\n,-,35\nToaster,-,40\n,-,45\n"
    document = load_bytes(data, "shop.csv")
    # Each unnamed row joins the named row above it: a "-" handle is no handle, so the Toaster's variant is not
    # sent back to the Kettle (the first row with the handle "-").
    assert [(s.title, [f.row for f in s.facts]) for s in document.sections[1:]] == [
        ("Kettle", [2, 3]), ("Toaster", [4, 5])]


@needs_real_data
def test_the_spree_exports_parent_prices_of_zero_are_left_out():
    document = load_path(REAL_DATA / "spree_sample_products.csv")
    # 37 products, each a parent row priced 0 above variants priced 879.99 and so on: none says "price: 0" now;
    # two parents' compare_at_price 0 went too (their variants give one); the other 35 keep theirs (0 on every row:
    # the check-up asks whether the column is filled in).
    assert "\nprice: 0\n" not in document.text and "\nprice: 0\n" not in rewrite(document).text
    assert document.text.count("\nprice: 879.99\n") == 3
    assert document.text.count("compare_at_price: 0\n") == 35
    assert any("left out in price (37 products) and compare_at_price (2 products)" in w for w in document.warnings)
