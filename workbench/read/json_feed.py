"""Product feeds as JSON (a shop platform's or a plugin's export): one product per object, read like a sheet.

A feed is a list of objects, or an object holding one (``{"products": [...]}``, as many platforms' exports
and APIs give it, or deeper: ``{"data": {"products": {"items": [...]}}}``). When the feed holds several lists
of objects (categories beside products, say), the product list is chosen by its shape (``products_of``): its
objects have a name-like key and product-like fields (price, SKU, stock…), and the warning names the list read
and the lists left. Each object is a row: its plain values are cells, a nested object's values are cells named
by their path (``dimensions.width``), and a list is one cell (``tags: red, blue``; a list of objects, such as
variants, gives one cell per field with the items' values in order: ``variants.price: 19.99, 24.99``). A key
given twice in one object keeps both values, as two columns of the same name do in a CSV (most JSON readers
keep only the last, silently). The rows are then read exactly as a spreadsheet's are
(``table.table_to_document``): the product-name column, variants, limits and facts. An object's row is its
place in the list, counted from 2 as a sheet exported from the same list would number it under its header row.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath

from workbench.core.model import Document, WorkbenchError
from workbench.core.wording import plural
from workbench.read.base import LOADERS, Loader
from workbench.read.headers import NAME_HEADERS, NAME_WORDS
from workbench.read.table import Table, table_to_document
from workbench.read.textio import check_size, decode_text

DEPTH = 4  # nested objects deeper than this are one cell of JSON text: a feed's facts sit near the top
SEARCH_DEPTH = 4  # how deep in the feed's objects a list of products is looked for (data.catalog.products.items)
# Fields that mark an object as a product rather than a category, a page or a customer: any key holding one of
# these words (price, regular_price, variants.sku, stock_quantity…).
PRODUCT_WORDS = ("price", "sku", "stock", "inventory", "variant", "variants", "brand", "weight", "gtin", "ean",
                 "upc", "mpn", "barcode", "availability", "available", "currency", "warranty", "model", "size",
                 "colour", "color", "material", "dimensions", "quantity", "sale", "cost", "msrp", "offers")
Cell = tuple[str, int]  # a column: its dotted path, and which of that path's values in one object (1, or 2 for a twice-given key)


class Pairs(dict):
    """An object that gave a key more than once: the dict of its last values (as json gives it), and ``pairs``,
    every key and value in the order written."""

    pairs: list[tuple[str, object]]


def _keep_pairs(pairs: list[tuple[str, object]]) -> dict:
    if len({key for key, _ in pairs}) == len(pairs):
        return dict(pairs)
    kept = Pairs(pairs)
    kept.pairs = pairs
    return kept


@LOADERS.register("json")
class JsonLoader(Loader):
    order = 50
    kind = "spreadsheet"
    extensions = (".json",)

    def load(self, data: bytes, name: str, *, name_column: str | None = None, **_options: object) -> Document:
        check_size(data, name)
        text, encoding, warnings = decode_text(data, name)
        try:
            feed = json.loads(text, object_pairs_hook=_keep_pairs)
        except json.JSONDecodeError as error:
            raise WorkbenchError(f"{name} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}.") from None
        except RecursionError:  # the decoder stops at Python's depth limit (about 1,000 levels): said in plain words
            raise WorkbenchError(
                f"{name} holds lists or objects nested hundreds of levels inside each other; a product feed's products "
                "sit a few levels down. Export the feed again from the shop."
            ) from None
        found = lists_of_objects(feed)
        if not found:
            raise WorkbenchError(
                f"{name} holds no list of products: the workbench reads a JSON list of objects, or an object with "
                "one (such as {\"products\": [...]})."
            )
        path, items = products_of(found)
        if len(found) > 1:
            left = [f"{_where(other)} ({plural(len(objects), 'object')})" for other, objects in found if other != path]
            warnings.append(
                f"{name} holds {len(found)} lists of objects; the products were read from {_where(path)} "
                f"({plural(len(items), 'object')}{_why(items)}). Left out: "
                f"{', '.join(left[:5])}{f' and {len(left) - 5:,} more' if len(left) > 5 else ''}."
            )
        columns: dict[Cell, None] = {}
        flat = []
        twice: list[str] = []
        for number, item in enumerate(items, start=2):
            cells: dict[Cell, str] = {}
            flatten(item, "", cells, 0)
            columns.update(dict.fromkeys(cells))
            flat.append(cells)
            if any(occurrence > 1 for _, occurrence in cells):
                twice.append(_twice_given(cells, number))
        if twice:
            warnings.append(
                f"{name}: {'; '.join(twice[:5])}{f'; and {len(twice) - 5:,} more products' if len(twice) > 5 else ''}. "
                "Both values were kept, as two columns of the same name are in a spreadsheet; most programs reading "
                "the feed keep only the last, so check which one is right."
            )
        order = list(columns)
        rows = [(number, [cells.get(column, "") for column in order]) for number, cells in enumerate(flat, start=2)]
        header = [path for path, _ in order]
        return table_to_document(Table(PurePath(name).stem, header, rows, encoding, tuple(warnings)), name, name_column)


def _where(path: str) -> str:
    return f"“{path}”" if path else "the top-level list"


def _why(items: list[dict]) -> str:
    """Why this list was taken: what its objects hold that the others' lack (said only when they do)."""
    if any(_product_like(key) for item in items[:200] for key in item):
        return ", with names and product fields such as price or SKU"
    if any(_name_like(key) for item in items[:200] for key in item):
        return ", with names"
    return ""


def _twice_given(cells: dict[Cell, str], number: int) -> str:
    keys = sorted({path for path, occurrence in cells if occurrence > 1})
    label = next((text for (path, occurrence), text in cells.items() if occurrence == 1 and _name_like(path)), "")
    product = f"the product {label!r}" if label else f"the object in row {number}"
    named = [repr(key) for key in keys]
    return f"{product} gives {' and '.join([', '.join(named[:-1]), named[-1]] if len(named) > 1 else named)} twice"


def lists_of_objects(feed: object, path: str = "", depth: int = 0) -> list[tuple[str, list[dict]]]:
    """Every list of objects in the feed, with its dotted path ("" for the feed itself), in the order written;
    looked for inside objects only (a list inside a product is its variants, not another feed)."""
    if _objects(feed):
        return [(path, feed)]
    if not isinstance(feed, dict) or depth >= SEARCH_DEPTH:
        return []
    found = []
    for key, value in feed.items():
        found += lists_of_objects(value, f"{path}.{key}" if path else str(key), depth + 1)
    return found


def products_of(found: list[tuple[str, list[dict]]]) -> tuple[str, list[dict]]:
    """The list whose objects look most like products: most of them with product fields (price, SKU…), then
    most with a name-like key, then the longest; the first written on a tie (a feed with one list: that one)."""
    def shape(entry: tuple[str, list[dict]]) -> tuple[float, float, int]:
        _, items = entry
        sample = items[:200]  # the shape shows in the first objects; a feed of 100,000 need not be walked twice
        product = sum(any(_product_like(key) for key in item) for item in sample) / len(sample)
        named = sum(any(_name_like(key) for key in item) for item in sample) / len(sample)
        return product, named, len(items)

    return max(found, key=shape)  # max keeps the first of equals


def _name_like(key: str) -> bool:
    words = re.split(r"[^a-z]+", key.lower())
    return key.lower() in NAME_HEADERS or any(word in words for word in NAME_WORDS)


def _product_like(key: str) -> bool:
    return any(word in PRODUCT_WORDS for word in re.split(r"[^a-z]+", key.lower()))


def _objects(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def flatten(value: object, path: str, cells: dict[Cell, str], depth: int) -> None:
    """Put ``value``'s plain values into ``cells`` under their dotted paths (a path given twice: its second cell)."""
    if isinstance(value, dict) and depth < DEPTH:
        for key, inner in getattr(value, "pairs", None) or value.items():
            flatten(inner, f"{path}.{key}" if path else str(key), cells, depth + 1)
    elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value) and depth < DEPTH:
        columns: dict[Cell, list[str]] = {}
        for item in value:  # variants and the like: each field's values side by side
            inner: dict[Cell, str] = {}
            flatten(item, path, inner, depth + 1)
            for key, text in inner.items():
                columns.setdefault(key, []).append(text)
        for (key, _), texts in columns.items():
            joined = ", ".join(text for text in texts if text)
            if joined:
                _put(cells, key, joined)
    elif isinstance(value, list):
        joined = ", ".join(text for text in (_plain(item) for item in value) if text)
        if joined:
            _put(cells, path, joined)
    else:
        text = _plain(value)
        if text:
            _put(cells, path, text)


def _put(cells: dict[Cell, str], path: str, text: str) -> None:
    occurrence = 1
    while (path, occurrence) in cells:
        occurrence += 1
    cells[path, occurrence] = text


def _plain(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value).strip()
