"""A table of rows as a Document: which column names the products, which rows are variants, and the text.

The canonical text is Markdown: ``# {title}``, then for each product
``## {name}`` and one ``{Column}: {value}`` line per cell. Rows with an empty
name are variants of a product (matched by a handle/slug column when there is
one, else the nearest named row above); their cells join that product.

A CSV file (``spreadsheet``), an Excel sheet (``excel``) and a JSON feed (``json_feed``) are each read into a
``Table`` and rendered here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.core import limits
from workbench.core.limits import Budget
from workbench.core.model import Document, Fact, Section, WorkbenchError

# Headers that name the product, best first; then any header containing one of the words.
NAME_HEADERS = ("name", "product name", "product", "title", "product title", "item", "item name", "product_name")
NAME_WORDS = ("name", "title", "product", "item")
HANDLE_HEADERS = ("handle", "slug", "url key", "url_key", "product handle", "parent", "parent sku")


class NoNameColumn(WorkbenchError):
    """No header looks like a product name; ``columns`` are the ones the user can choose from.

    The message names no way of choosing (a command-line flag or a select box): each caller adds its own.
    """

    def __init__(self, message: str, columns: list[str]) -> None:
        super().__init__(message)
        self.columns = columns


@dataclass
class Table:
    """A grid of stripped cell strings with the row numbers the user sees."""

    title: str
    header: list[str]
    rows: list[tuple[int, list[str]]]
    encoding: str = "utf-8"
    warnings: tuple[str, ...] = ()


def clean_cell(cell: str) -> str:
    """Strip the cell; keep a multi-line cell's lines but drop its blank ones."""
    cell = cell.replace("\r\n", "\n").replace("\r", "\n").strip()
    if "\n" in cell:
        cell = "\n".join(line.rstrip() for line in cell.split("\n") if line.strip())
    return cell


def find_name_column(header: list[str], wanted: str | None, name: str) -> int:
    """The index of the product-name column, found by its header or named by the user."""
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
            f"{name} has no column that looks like a product name (name, title, product, item…). "
            f"Its columns are: {', '.join(columns) or 'none'}.",
            columns,
        )
    return index


def name_like_column(header: list[str]) -> int | None:
    """The index of the column whose header reads like a product name, best first; None when none does."""
    lowered = [cell.strip().lower() for cell in header]
    for candidate in NAME_HEADERS:
        if candidate in lowered:
            return lowered.index(candidate)
    for index, cell in enumerate(lowered):
        if any(word in re.split(r"[^a-z]+", cell) for word in NAME_WORDS):
            return index
    return None


def table_to_document(table: Table, name: str, name_column: str | None = None) -> Document:
    """Render a table as the Markdown of one section per product, recording every span."""
    if len(table.header) * max(len(table.rows), 1) > limits.MAX_CELLS:  # every row is padded to the header's width
        raise limits.too_big(
            name, f"has {len(table.header):,} columns and {len(table.rows):,} rows: more than {limits.MAX_CELLS:,} cells"
        )
    header = [cell or f"Column {index + 1}" for index, cell in enumerate(table.header)]
    name_index = find_name_column(table.header, name_column, name)
    lowered = [cell.lower() for cell in header]
    handle_index = next((lowered.index(h) for h in HANDLE_HEADERS if h in lowered and lowered.index(h) != name_index), None)
    warnings = list(table.warnings)

    # Group rows into products, keeping the order in which products first appear.
    products: list[tuple[str, list[tuple[int, list[str]]]]] = []
    by_handle: dict[str, int] = {}
    for number, record in table.rows:
        record = record + [""] * (len(header) - len(record))
        if len(record) > len(header):
            extra = [cell for cell in record[len(header) :] if cell]
            if extra:
                warnings.append(f"Row {number} has more cells than there are columns; the extra cells were left out.")
            record = record[: len(header)]
        if not any(record):
            continue
        product_name = record[name_index]
        handle = record[handle_index] if handle_index is not None else ""
        if product_name:
            products.append((product_name, [(number, record)]))
            if handle and handle not in by_handle:
                by_handle[handle] = len(products) - 1
        elif handle and handle in by_handle:
            products[by_handle[handle]][1].append((number, record))
        elif products:
            products[-1][1].append((number, record))
        else:
            warnings.append(f"Row {number} has no product name and no named row above it; it was left out.")
    if not products:
        raise WorkbenchError(
            f"{name} has no products: the column {header[name_index]!r} is empty in every row."
        )

    parts: list[str] = []
    length = 0
    budget = Budget(name)  # each cell becomes "Column: value": long headers can multiply the text

    def write(piece: str) -> tuple[int, int]:
        nonlocal length
        start = length
        parts.append(piece)
        length += len(piece)
        budget.text(len(piece))
        return start, length

    title_span = write(f"# {table.title}")
    write("\n\n")
    sections = [Section("s0", table.title, 1, (), (0, title_span[1]), title_span, ())]
    used_columns: set[int] = set()
    for number, (product_name, rows) in enumerate(products, start=1):
        section_id = f"s{number}"
        heading_span = write(f"## {product_name}")
        start = heading_span[0]
        facts: list[Fact] = []
        first_row = rows[0][1]
        for row_index, (row_number, record) in enumerate(rows):
            write("\n" if row_index == 0 else "\n\n")
            lines = []
            for column, value in enumerate(record):
                if not value or column == name_index:
                    continue
                if row_index > 0 and value == first_row[column]:
                    continue  # a variant repeating its product's handle or description adds nothing
                lines.append((column, value))
            for line_index, (column, value) in enumerate(lines):
                if line_index:
                    write("\n")
                span = write(f"{header[column]}: {value}")
                facts.append(Fact(span, section_id, column=header[column], row=row_number))
                used_columns.add(column)
        end = length
        sections.append(
            Section(section_id, product_name, 2, (table.title,), (start, end), heading_span, tuple(facts))
        )
        write("\n\n")
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
