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
