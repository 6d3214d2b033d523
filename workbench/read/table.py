"""A table of rows as a Document: which column names the products, which rows are variants, and the text.

The canonical text is Markdown: ``# {title}``, then for each product
``## {name}`` and one ``{Column}: {value}`` line per cell that states a fact (``unfilled``: not an empty cell, an
"N/A", or a parent row's 0 above its variants' prices). Rows with an empty
name are variants of a product (matched by a handle/slug column when there is
one, else the nearest named row above); their cells join that product. A named row
joins an earlier product too when the platform says it is one of its variants: it
repeats the product's name and handle (Square writes the item's name and reference
handle on every variation row), or its parent column names the product's ID or SKU
(WooCommerce's variation "Candle - Sea Salt" with Parent "id:1021").

A CSV file (``spreadsheet``), an Excel sheet (``excel``) and a JSON feed (``json_feed``) are each read into a
``Table`` and rendered here.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from workbench.core import limits
from workbench.core.model import Document, Fact, Section, WorkbenchError
from workbench.core.wording import rows_named, verb
from workbench.read.data_columns import HTML, NUMBER
from workbench.read.header_rows import PREAMBLE_ROWS, template_hint, two_row_header
from workbench.read.headers import (
    ENGLISH_SPLIT,
    HANDLE_HEADERS,
    KEY_HEADERS,
    LANGUAGE_TAG,
    LETTERS,
    NAME_HEADERS,
    NAME_WORDS,
    OTHER_NAME_HEADERS,
    OTHER_NAME_WORDS,
    PARENT_HEADERS,
    east_asian_role,
    folded,
)
from workbench.read.price_words import price_words_warning
from workbench.read.unfilled import left_out_sentence, no_value, parent_zeros

SHOWN_COLUMNS = 40  # a message names this many columns, then counts the rest (a row of 16,384 is one screen too many)


class NoNameColumn(WorkbenchError):
    """No header looks like a product name; ``columns`` are the ones the user can choose from.

    The message names no way of choosing (a command-line flag or a select box): each caller adds its own.
    """

    def __init__(self, message: str, columns: list[str], header_row: int = 1) -> None:
        super().__init__(message)
        self.columns = columns
        self.header_row = header_row  # the file's row the headings were read from: above it, only blank rows


@dataclass
class Table:
    """A grid of stripped cell strings with the row numbers the user sees."""

    title: str
    header: list[str]
    rows: list[tuple[int, list[str]]]
    encoding: str = "utf-8"
    warnings: tuple[str, ...] = ()
    header_row: int = 1  # the first row that holds anything: a blank row above it is skipped, as a blank line is


def clean_cell(cell: str) -> str:
    """Strip the cell; keep a multi-line cell's lines but drop its blank ones."""
    cell = cell.replace("\r\n", "\n").replace("\r", "\n").strip()
    if "\n" in cell:
        cell = "\n".join(line.rstrip() for line in cell.split("\n") if line.strip())
    return cell


def page_text(cell: str) -> str:
    """A cell written as HTML (Shopify's "Body (HTML)", WooCommerce's "Description") as its page reads: entities
    decoded ("30&nbsp;g" is "30 g", so an owner's answer "30 g of beans" is found and searched as typed) and
    WooCommerce's exporter's literal "\\n" a line break (its importer reads it back so). The tags stay: they are
    what the shop's system reads, and what the check-up looks in for scripts and links. Any other cell is as written."""
    if "&" not in cell and "\\n" not in cell or not HTML.search(cell):
        return cell
    return clean_cell(html.unescape(cell.replace("\\n", "\n")).replace("\xa0", " "))


def find_name_column(header: list[str], wanted: str | None, name: str, header_row: int = 1) -> int:
    """The index of the product-name column, found by its header or named by the user. ``header_row``: the file's
    row the header was read from; past row 1, the rows above were blank, and the headings may be a product's cells
    (a file whose headings row was left empty)."""
    lowered = [cell.strip().lower() for cell in header]
    if wanted is not None:
        if wanted.strip().lower() in lowered:
            return lowered.index(wanted.strip().lower())
        raise WorkbenchError(
            f"{name} has no column called {wanted!r}. Its columns are: {', '.join(h for h in header if h)}."
        )
    index = name_like_column(header)
    if index is None:
        columns = [h for h in header if h]
        raise NoNameColumn(
            f"{name} has no column that looks like a product name (name, title, product, item, or the same in "
            "German, French, Spanish, Italian, Dutch, Portuguese, Polish or the Nordic languages: Bezeichnung, "
            "titre, nombre, nome, naam, nazwa, namn…; or in Japanese, Chinese or Korean: 商品名, 商品名称, 상품명). "
            f"Its columns are: {', '.join(columns[:SHOWN_COLUMNS]) or 'none'}"
            + (f" and {len(columns) - SHOWN_COLUMNS:,} more." if len(columns) > SHOWN_COLUMNS else ".")
            + (f" They are row {header_row}'s cells, the first row that holds anything: "
               + ("the rows above are blank." if header_row > 2 else "row 1 is blank.") if header_row > 1 else "")
            + (f" A header below a title is looked for in the first {PREAMBLE_ROWS} rows that hold anything: if "
               "yours is further down, delete the rows above it." if len(columns) == 1 else ""),
            columns,
            header_row,
        )
    return index


def name_like_column(header: list[str]) -> int | None:
    """The index of the column whose header reads like a product name, best first; None when none does: a whole
    English header, another language's (``OTHER_NAME_HEADERS``), then an English word in a header, another's."""
    lowered = [LANGUAGE_TAG.sub("", cell.strip().lower()) for cell in header]
    for candidate in NAME_HEADERS:
        if candidate in lowered:
            return lowered.index(candidate)
    keys = [folded(cell) for cell in header]
    for candidate in OTHER_NAME_HEADERS:
        if candidate in keys:
            return keys.index(candidate)
    for words, cells, split in ((NAME_WORDS, lowered, ENGLISH_SPLIT.split), (OTHER_NAME_WORDS, keys, LETTERS.split)):
        for index, cell in enumerate(cells):
            if any(word in split(cell) for word in words):
                return index
    return east_asian_role(keys, "name")


# PREAMBLE_ROWS (``read.header_rows``): rows that hold anything, looked at for a header below a title: a seller template
# (Ozon's, Wildberries') writes a title, an instruction and a row of column groups above it; a listings export one title


def header_position(records: list[list[str]]) -> int:
    """Which of a sheet's first rows that hold anything is its header: the first, unless it has no name-like column
    of a header of two cells or more and a later one has, every row above that later one being a title, an
    instruction or a row of column groups (fewer filled cells than it: a data row is as wide as its header). Read as the header, a title
    line was the only column and the real header a product."""
    def filled(record: list[str]) -> int:
        return sum(1 for cell in record if cell)

    if len(records) > 1 and _field_keys(records[0]) and _names_for_keys(records[1], filled(records[0])):
        return 1
    if not records or (filled(records[0]) > 1 and name_like_column(records[0]) is not None):
        return 0
    for index, record in enumerate(records[1:PREAMBLE_ROWS], start=1):
        width = filled(record)
        if width > 1 and name_like_column(record) is not None:
            return index if all(filled(above) < width for above in records[:index]) else 0
    return 0


# A mass-update sheet (Shopee's) writes its fields' keys above the header a seller reads: "et_title_product_name"
# over "Nama Produk". Read as the header, the keys' "product_id" was taken for the name ("product" is a name word).
FIELD_KEY = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _field_keys(record: list[str]) -> bool:
    """Whether every filled cell of a row of two or more is a field's key, lowercase words joined by underscores."""
    cells = [cell for cell in record if cell]
    return len(cells) > 1 and all(FIELD_KEY.fullmatch(cell) for cell in cells)


def _names_for_keys(record: list[str], keys: int) -> bool:
    """Whether the row under a row of keys is its header: as many cells, none a key or a number (a product's row has
    its price), and one that names the product."""
    cells = [cell for cell in record if cell]
    return (len(cells) == keys and not any(FIELD_KEY.fullmatch(cell) or NUMBER.match(cell) for cell in cells)
            and name_like_column(record) is not None)


@dataclass(frozen=True)
class HeaderFound:
    """Where a sheet's header is among its rows that hold anything (``index``: 0 unless below a title), the row
    under it that is a template's hint, left out (``hint_row``, the file's number; None when there is none), and
    the warning that says so (None for a header in the first row)."""

    index: int
    hint_row: int | None = None
    warning: str | None = None
    header: list[str] | None = None  # the header read with its second row (``two_row_header``), None when one row


def find_header(filled: list[tuple[int, list[str]]], name: str) -> HeaderFound:
    """The header of a CSV file or an Excel sheet, read from its rows that hold anything, as (row number, cells):
    the first 2 * PREAMBLE_ROWS + 1 of them are enough. Blank rows are skipped here as everywhere else in a table:
    a blank row under the header, then a template's hint, is the same file as the hint right under it, and the hint
    is looked for in the same ten rows below it whatever blank rows sit among them."""
    position = header_position([record for _, record in filled[:PREAMBLE_ROWS]])
    hint = template_hint([record for _, record in filled[position + 1:position + 2 + PREAMBLE_ROWS]])
    joined = two_row_header(filled[position][1], filled[position + 1][1]) if hint else None
    if not position and joined is None:
        return HeaderFound(0)
    hint_row = filled[position + 1][0] if hint else None
    warning = preamble_warning(name, filled[position][0], filled[0][1], None if joined else hint_row) if position else ""
    if joined is not None:  # said as the other warnings quote the shop's text
        named = next(both for both, top in zip(joined, filled[position][1] + [""] * len(joined)) if both != top)
        warning += (" " if warning else "") + (f"Row {hint_row} of {name} is its header's second row: a column under "
                                               f"a cell merged across several is named by both rows (“{named}”).")
    return HeaderFound(position, hint_row, warning, joined)


def preamble_warning(name: str, header_row: int, first: list[str], hint_row: int | None = None) -> str:
    """Says that the rows above a header found below a title were left out, naming the first, and the row under
    it (``hint_row``, past any blank rows) when it was a template's hint (``template_hint``)."""
    title = next(cell for cell in first if cell)
    under = f", and row {hint_row} under it, which says what to write in each column," if hint_row else ""
    above = "the fields' codes for the shop's system" if _field_keys(first) else "a title or instructions"
    # Quoted as the other warnings quote the shop's text; repr's 'Preisliste …' stood beside them in Python's quotes.
    return (f"The header of {name} is row {header_row}: the rows above it ({above}, first "
            f"“{title[:60]}”){under} were left out.")


def _index_of(lowered: list[str], headers: tuple[str, ...], name_index: int) -> int | None:
    return next((lowered.index(h) for h in headers if h in lowered and lowered.index(h) != name_index), None)


def _parent_of(record: list[str], parent_index: int | None, by_key: dict[str, int]) -> int | None:
    """The earlier product a row's parent column names by its ID or SKU ("id:1021", WooCommerce's form), or None."""
    if parent_index is None or no_value(record[parent_index]):
        return None
    value = record[parent_index].strip()
    return by_key.get(value[3:] if value.lower().startswith("id:") else value)


def table_to_document(table: Table, name: str, name_column: str | None = None) -> Document:
    """Render a table as the Markdown of one section per product, recording every span."""
    limits.check_columns(name, len(table.header))
    held = sum(1 for _, record in table.rows if any(record))  # empty rows are skipped, never padded
    if len(table.header) * max(held, 1) > limits.MAX_GRID:  # every row that holds something is padded to the header
        raise limits.too_big(
            name, f"has {len(table.header):,} columns and {held:,} rows: more than {limits.MAX_GRID:,} cells"
        )
    filled = sum(len(record) - record.count("") for _, record in table.rows)  # a JSON feed's too: each is a fact
    if filled > limits.MAX_CELLS:
        raise limits.too_big(name, f"has more than {limits.MAX_CELLS:,} cells that hold something")
    header = [cell or f"Column {index + 1}" for index, cell in enumerate(table.header)]
    name_index = find_name_column(table.header, name_column, name, table.header_row)
    lowered = [cell.lower() for cell in header]
    handle_index = _index_of(lowered, HANDLE_HEADERS, name_index)
    if handle_index is None:  # Shopee's variation rows repeat their product's "ID Produk" and name: one product
        handle_index = next((i for i, cell in enumerate(lowered) if i != name_index and "id" in cell.split()), None)
    parent_index = _index_of(lowered, PARENT_HEADERS, name_index)
    key_indexes = [i for i in (_index_of(lowered, (key,), name_index) for key in KEY_HEADERS) if i is not None]
    warnings = list(table.warnings)
    too_wide: list[int] = []  # rows with cells past the last column, and rows before any product: said once each
    orphans: list[int] = []

    # Group rows into products, keeping the order in which products first appear.
    products: list[tuple[str, list[tuple[int, list[str]]]]] = []
    by_handle: dict[str, int] = {}
    by_key: dict[str, int] = {}  # a product's ID and SKU, for variations that name their parent by either
    width = len(header)
    for number, record in table.rows:
        if not any(record):
            continue
        if len(record) < width:
            record = record + [""] * (width - len(record))
        elif len(record) > width:
            extra = [cell for cell in record[len(header) :] if cell]
            if extra:
                too_wide.append(number)
            record = record[: len(header)]
            if not any(record):
                continue
        product_name = record[name_index]
        handle = record[handle_index] if handle_index is not None and not no_value(record[handle_index]) else ""
        parent = _parent_of(record, parent_index, by_key)
        if product_name and parent is not None:
            products[parent][1].append((number, record))
        elif product_name and handle in by_handle and products[by_handle[handle]][0] == product_name:
            products[by_handle[handle]][1].append((number, record))
        elif product_name:
            products.append((product_name, [(number, record)]))
            if handle and handle not in by_handle:
                by_handle[handle] = len(products) - 1
            for key in key_indexes:
                if not no_value(record[key]):
                    by_key.setdefault(record[key].strip(), len(products) - 1)
        elif handle and handle in by_handle:
            products[by_handle[handle]][1].append((number, record))
        elif products:
            products[-1][1].append((number, record))
        else:
            orphans.append(number)
    if too_wide:
        warnings.append(f"{rows_named(too_wide)} {verb(len(too_wide), 'has', 'have')} more cells than there are "
                        "columns; the extra cells were left out.")
    if orphans:
        warnings.append(f"{rows_named(orphans)} {verb(len(orphans), 'has', 'have')} no product name and no named row "
                        f"above {verb(len(orphans), 'it', 'them')}; {verb(len(orphans), 'it was', 'they were')} left out.")
    if not products:
        raise WorkbenchError(
            f"{name} has no products: the column {header[name_index]!r} is empty in every row."
        )
    priced = price_words_warning(header, products, header[name_index])
    if priced:
        warnings.append(priced)

    # Built by appending pieces and counting their length (two million of them in 200,000 products): the
    # offsets are the running length, and the text limit is checked after each line, as "Column: value" lines
    # from long headers can multiply the text.
    parts: list[str] = []
    append = parts.append
    limit = limits.MAX_CHARACTERS

    def too_long() -> WorkbenchError:
        return limits.too_big(name, f"makes more than {limits.MAX_CHARACTERS:,} characters of text")

    title_line = f"# {table.title}"
    append(title_line)
    append("\n\n")
    title_span = (0, len(title_line))
    length = len(title_line) + 2
    if length > limit:
        raise too_long()
    sections = [Section("s0", table.title, 1, (), (0, title_span[1]), title_span, ())]
    labels = [f"{column}: " for column in header]
    zeros_left: dict[str, int] = {}  # products whose first row's 0 was left out, by column
    marks_left: dict[str, int] = {}  # cells of only "N/A", "-"…, by column
    used = [False] * len(header)
    path = (table.title,)
    for number, (product_name, rows) in enumerate(products, start=1):
        section_id = f"s{number}"
        heading_line = f"## {product_name}"
        append(heading_line)
        start, length = length, length + len(heading_line)
        heading_span = (start, length)
        facts: list[Fact] = []
        first_row = rows[0][1]
        # A parent row's 0 above its variants is left out; rows that each carry the name (Square's variations) are each
        # an item as sold, and a 0 in stock on the first is a fact.
        parent = len(rows) > 1 and not all(record[name_index] for _, record in rows)
        zeros = parent_zeros([record for _, record in rows]) if parent else set()
        for column in zeros:
            zeros_left[header[column]] = zeros_left.get(header[column], 0) + 1
        for row_index, (row_number, record) in enumerate(rows):
            append("\n" if row_index == 0 else "\n\n")
            length += 1 if row_index == 0 else 2
            first_line = True
            for column, value in enumerate(record):
                if column == name_index:
                    continue
                if no_value(value):
                    if value:
                        marks_left[header[column]] = marks_left.get(header[column], 0) + 1
                    continue
                if row_index == 0 and column in zeros:
                    continue
                if row_index > 0 and value == first_row[column]:
                    continue  # a variant repeating its product's handle or description adds nothing
                if not first_line:
                    append("\n")
                    length += 1
                first_line = False
                line = labels[column] + page_text(value)
                append(line)
                facts.append(Fact((length, length + len(line)), section_id, column=header[column], row=row_number))
                length += len(line)
                used[column] = True
                if length > limit:
                    raise too_long()
        sections.append(Section(section_id, product_name, 2, path, (start, length), heading_span, tuple(facts)))
        append("\n\n")
        length += 2
        if length > limit:
            raise too_long()
    used_columns = {column for column, seen in enumerate(used) if seen}
    left_out = left_out_sentence(zeros_left, marks_left)
    if left_out:
        warnings.append(left_out)
    text = "".join(parts).rstrip("\n") + "\n"
    return Document(
        name=name,
        kind="spreadsheet",
        text=text,
        sections=tuple(sections),
        warnings=tuple(warnings),
        encoding=table.encoding,
        columns=tuple(header[i] for i in sorted(used_columns)),
        name_column=header[name_index],
    )
