"""A spreadsheet cell that states no fact: the one rule the table reader, the check-up and the question generator ask.

Two kinds, both read as an empty cell is (no "Column: value" line, so no piece, bot-ready file, generated question
or to-do quotes them as a value):

- a cell holding only a mark that nobody filled it in: "N/A", "-", "null", "None", "#N/A" (Excel's lookup error),
  "nan" (what pandas writes for an empty cell), "TBD";
- a zero on a product's first row in a column its other rows fill with a real value: the shop's system writes
  0 as a configurable parent's price above its variants' own (Spree's export: "price: 0" above 879.99), and a bot
  reads "price: 0" as free. A product with one row, or whose every row says 0, keeps its 0: a free gift wrap or
  a sold-out stock of 0 is a fact.
"""

from __future__ import annotations

import re

from workbench.core.wording import and_list, plural, verb

# Whole-cell marks, compared without case. Not "x" (a tick in a feature column) nor "na" (North America).
NO_VALUE = re.compile(r"^(?:[-—–?]+|n/a|n\.a\.|#n/a|null|nil|none|nan|undefined|tbd|tba|todo|placeholder)$",
                      re.IGNORECASE)
LONGEST_MARK = len("placeholder")
MARK_STARTS = frozenset("-—–?#nNuUtTpP")  # each mark's first character: most cells are passed on it alone
# A zero with an optional currency or unit either side: "0", "0.00", "0,00 €", "$0", "USD 0", "0 kg".
ZERO = re.compile(r"^(?:[^\w\s]{1,3}|[^\W\d_]{1,3})?\s*0+(?:[.,]0+)?\s*(?:[^\w\s]{1,3}|[^\W\d_]{1,3})?$")


def no_value(cell: str) -> bool:
    """An empty cell, or one holding only a mark that it was never filled in ("N/A", "-", "null", "nan")."""
    return not cell or (cell[0] in MARK_STARTS and len(cell) <= LONGEST_MARK and NO_VALUE.match(cell) is not None)


def is_zero(cell: str) -> bool:
    """ "0", "0.00", "0,00 €", "$0": a zero amount."""
    return "0" in cell and len(cell) <= 12 and ZERO.match(cell) is not None


def parent_zeros(records: list[list[str]]) -> set[int]:
    """The columns in which a product's first row (``records[0]``, its parent) says 0 while another of its rows
    gives a real value: the parent's 0 is the system's filler, not the product's price or stock."""
    if len(records) < 2:
        return set()
    first = records[0]
    zeros = [column for column, cell in enumerate(first) if cell and is_zero(cell)]
    return {column for column in zeros
            if any(not no_value(record[column]) and not is_zero(record[column]) for record in records[1:])}


def left_out_sentence(zeros: dict[str, int], marks: dict[str, int]) -> str:
    """What the table reader left out as no fact, one sentence a kind ("" when nothing): ``zeros`` counts the
    products whose first row's 0 was left out, by column; ``marks`` the cells of only "N/A", "-"…, by column."""
    said = []
    if zeros:
        where = and_list([f"{column} ({plural(products, 'product')})" for column, products in zeros.items()])
        said.append(f"A 0 on a product's first row, above real values on its other rows, was left out in {where}: "
                    "the shop's system writes it for a product with variants, and a bot would read a price of 0 as "
                    "free.")
    if marks:
        total = sum(marks.values())
        columns = and_list(list(marks)[:5] + ([f"{len(marks) - 5} more columns"] if len(marks) > 5 else []))
        said.append(f"{plural(total, 'cell')} saying only N/A, -, null or the like (in {columns}) "
                    f"{verb(total, 'was', 'were')} left out, as empty cells are: they state no fact.")
    return " ".join(said)
