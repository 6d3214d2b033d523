"""Product feeds as JSON (a shop platform's or a plugin's export): one product per object, read like a sheet.

A feed is a list of objects, or an object holding one (``{"products": [...]}``, as many platforms' exports
and APIs give it). Each object is a row: its plain values are cells, a nested object's values are cells named
by their path (``dimensions.width``), and a list is one cell (``tags: red, blue``; a list of objects, such as
variants, gives one cell per field with the items' values in order: ``variants.price: 19.99, 24.99``). The
rows are then read exactly as a spreadsheet's are (``table.table_to_document``): the product-name column,
variants, limits and facts. An object's row is its place in the list, counted from 2 as a sheet exported from
the same list would number it under its header row.
"""

from __future__ import annotations

import json
from pathlib import PurePath

from workbench.core.model import Document, WorkbenchError
from workbench.read.base import LOADERS, Loader
from workbench.read.table import Table, table_to_document
from workbench.read.textio import check_size, decode_text

DEPTH = 4  # nested objects deeper than this are one cell of JSON text: a feed's facts sit near the top


@LOADERS.register("json")
class JsonLoader(Loader):
    order = 50
    kind = "spreadsheet"
    extensions = (".json",)

    def load(self, data: bytes, name: str, *, name_column: str | None = None, **_options: object) -> Document:
        check_size(data, name)
        text, encoding, warnings = decode_text(data, name)
        try:
            feed = json.loads(text)
        except json.JSONDecodeError as error:
            raise WorkbenchError(f"{name} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}.") from None
        except RecursionError:  # the decoder stops at Python's depth limit (about 1,000 levels): said in plain words
            raise WorkbenchError(
                f"{name} holds lists or objects nested hundreds of levels inside each other; a product feed's products "
                "sit a few levels down. Export the feed again from the shop."
            ) from None
        items = products_of(feed)
        if items is None:
            raise WorkbenchError(
                f"{name} holds no list of products: the workbench reads a JSON list of objects, or an object with "
                "one (such as {\"products\": [...]})."
            )
        header: dict[str, None] = {}
        flat = []
        for item in items:
            cells: dict[str, str] = {}
            flatten(item, "", cells, 0)
            header.update(dict.fromkeys(cells))
            flat.append(cells)
        columns = list(header)
        rows = [(number, [cells.get(column, "") for column in columns]) for number, cells in enumerate(flat, start=2)]
        return table_to_document(Table(PurePath(name).stem, columns, rows, encoding, tuple(warnings)), name, name_column)


def products_of(feed: object) -> list[dict] | None:
    """The list of product objects: the feed itself, or the first list of objects among its values."""
    if isinstance(feed, dict):
        feed = next((value for value in feed.values() if _objects(value)), None)
    return feed if _objects(feed) else None


def _objects(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def flatten(value: object, path: str, cells: dict[str, str], depth: int) -> None:
    """Put ``value``'s plain values into ``cells`` under their dotted paths."""
    if isinstance(value, dict) and depth < DEPTH:
        for key, inner in value.items():
            flatten(inner, f"{path}.{key}" if path else str(key), cells, depth + 1)
    elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value) and depth < DEPTH:
        columns: dict[str, list[str]] = {}
        for item in value:  # variants and the like: each field's values side by side
            inner: dict[str, str] = {}
            flatten(item, path, inner, depth + 1)
            for key, text in inner.items():
                columns.setdefault(key, []).append(text)
        for key, texts in columns.items():
            joined = ", ".join(text for text in texts if text)
            if joined:
                cells[key] = joined
    elif isinstance(value, list):
        joined = ", ".join(text for text in (_plain(item) for item in value) if text)
        if joined:
            cells[path] = joined
    else:
        text = _plain(value)
        if text:
            cells[path] = text


def _plain(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value).strip()
