"""The JSON product-feed loader: objects become rows read as a sheet's are, nested values named by their path."""

import json

import pytest

from workbench.core.model import WorkbenchError
from workbench.read.loaders import SUPPORTED, load_bytes

FEED = {
    "products": [
        {"title": "Aurora Fan", "price": 149.0, "tags": ["ceiling", "white"], "in_stock": True,
         "variants": [{"sku": "A-1", "price": 149}, {"sku": "A-2", "price": 159}], "dimensions": {"width": 120},
         "note": None},
        {"title": "Zephyr Fan", "price": 39},
    ]
}


def test_a_feed_reads_as_one_product_per_object_with_paths_for_nested_values():
    document = load_bytes(json.dumps(FEED).encode(), "feed.json")
    assert document.kind == "spreadsheet" and [s.title for s in document.sections][1:] == ["Aurora Fan", "Zephyr Fan"]
    aurora = document.sections[1]
    assert [document.slice(f.span) for f in aurora.facts] == [
        "price: 149.0", "tags: ceiling, white", "in_stock: yes",  # a list is one cell; true is "yes"
        "variants.sku: A-1, A-2", "variants.price: 149, 159",  # a list of objects: each field's values in order
        "dimensions.width: 120",  # a nested object's value named by its path; null leaves no cell
    ]
    # Rows as a sheet of the same list would number them under its header: the first object is row 2.
    assert [(f.row, f.column) for f in document.sections[2].facts] == [(3, "price")]


def test_a_bare_list_is_a_feed_too():
    document = load_bytes(json.dumps(FEED["products"]).encode(), "list.json")
    assert [s.title for s in document.sections][1:] == ["Aurora Fan", "Zephyr Fan"]


@pytest.mark.parametrize(("data", "words"), [
    (b'{"products": [1, 2]}', "holds no list of products"),
    (b'{"name": "x"}', "holds no list of products"),
    (b'[{"title": "A",}]', "is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 16"),
])
def test_what_is_not_a_feed_is_named_in_plain_words(data, words):
    with pytest.raises(WorkbenchError, match=f"^bad.json {words}"):
        load_bytes(data, "bad.json")


def test_the_upload_box_and_the_sweep_take_json_files():
    assert ".json" in SUPPORTED


def test_the_product_list_is_chosen_by_its_shape_and_the_lists_left_are_named():
    """Categories written first used to be read as the products (the first list of objects was taken)."""
    feed = {
        "categories": [{"id": 1, "name": "Fans", "slug": "fans"}, {"id": 2, "name": "Heaters", "slug": "heaters"}],
        "products": [{"name": "Desk Fan", "price": 19, "category": 1}, {"name": "Oil Heater", "sku": "OH-2"},
                     {"name": "Tower Fan", "price": 29}],
        "meta": {"pages": [{"page": 1}]},
    }
    document = load_bytes(json.dumps(feed).encode(), "shop.json")
    assert [s.title for s in document.sections][1:] == ["Desk Fan", "Oil Heater", "Tower Fan"]
    assert document.warnings == (
        "shop.json holds 3 lists of objects; the products were read from “products” (3 objects, with names and "
        "product fields such as price or SKU). Left out: “categories” (2 objects), “meta.pages” (1 object).",
    )


def test_a_product_list_nested_in_an_api_answer_is_found():
    feed = {"data": {"collections": {"items": [{"name": "Summer", "slug": "summer"}]},
                     "products": {"items": [{"name": "Desk Fan", "variants": [{"sku": "D1", "price": 19}]}]}}}
    document = load_bytes(json.dumps(feed).encode(), "api.json")
    assert [s.title for s in document.sections][1:] == ["Desk Fan"]
    assert "variants.price: 19" in document.text
    assert "read from “data.products.items” (1 object" in document.warnings[0]
    assert "Left out: “data.collections.items” (1 object)." in document.warnings[0]


def test_a_single_list_is_read_without_a_word():
    assert load_bytes(json.dumps(FEED).encode(), "feed.json").warnings == ()


def test_a_key_given_twice_keeps_both_values_as_two_columns_and_is_named():
    """A CSV with two Price columns keeps both; json.loads alone would keep only the last price (24)."""
    data = (b'[{"name": "Desk Fan", "price": 19, "price": 24, "size": {"w": 1, "w": 2}},'
            b' {"name": "Lamp", "price": 12}]')
    document = load_bytes(data, "dup.json")
    fan = document.sections[1]
    assert [(document.slice(f.span), f.column, f.row) for f in fan.facts] == [
        ("price: 19", "price", 2), ("price: 24", "price", 2), ("size.w: 1", "size.w", 2), ("size.w: 2", "size.w", 2)]
    assert [document.slice(f.span) for f in document.sections[2].facts] == ["price: 12"]
    assert document.warnings == (
        "dup.json: the product 'Desk Fan' gives 'price' and 'size.w' twice. Both values were kept, as two columns of "
        "the same name are in a spreadsheet; most programs reading the feed keep only the last, so check which one "
        "is right.",
    )
