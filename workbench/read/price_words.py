"""A price cell that holds words, not an amount ("auf Anfrage", "sur demande"): said on the Document page by row.

A bot asked what such a product costs can only repeat the words, and a compare-at price on the same row
("Vergleichspreis: 89", Shopify's "Variant Compare At Price") is then the only amount beside the product's name:
the one a bot is likely to quote as its price. The walk-through's Excel export had "auf Anfrage" in Preis and 89
in Vergleichspreis, and the page said nothing.
"""

from __future__ import annotations

import regex

from workbench.core.wording import and_list, rows_named
from workbench.read.headers import ROLE_HEADERS, column_roles, folded
from workbench.read.unfilled import no_value

SHOWN = 3  # the values quoted in one warning; the rest are counted
DIGIT = regex.compile(r"\p{Nd}")  # any script's digits: "٤٩" and "४९" are amounts too
WORDS = regex.compile(r"[^\p{L}]+")
# The words that make a header a price: the price role's one-word headers ("preis", "prix", "cena"), not the
# two-letter Hungarian "ar" that starts and ends too many words. Another column with a header word that starts or
# ends with one ("Vergleichspreis", "Compare At Price", "Prix barré") holds another amount.
PRICE_WORDS = tuple(header for header in ROLE_HEADERS["price"] if len(header) >= 4 and not WORDS.search(header))


def _is_price_header(header: str) -> bool:
    return any(word.startswith(PRICE_WORDS) or word.endswith(PRICE_WORDS) for word in WORDS.split(folded(header)) if word)


def price_words_warning(header: list[str], products: list[tuple[str, list[tuple[int, list[str]]]]],
                        name_column: str) -> str | None:
    """The warning for price cells without a digit, naming each row, its product and its words, and the other
    amount a bot may quote instead; None when every price is an amount (or no column is read as the price)."""
    price = column_roles(header, name_column).get("price")
    if price is None:
        return None
    column = header.index(price)
    others = [index for index, cell in enumerate(header) if index != column and _is_price_header(cell)]
    found: list[tuple[int, str, str]] = []  # row, product, words
    instead: list[tuple[int, str]] = []  # another amount on such a row: (5, "Vergleichspreis: 89")
    for product, rows in products:
        for number, record in rows:
            cell = record[column].strip()
            if no_value(cell) or DIGIT.search(cell):
                continue
            found.append((number, product, cell if len(cell) <= 60 else cell[:60].rstrip() + "…"))
            instead += [(number, f"{header[index]}: {record[index].strip()}") for index in others
                        if DIGIT.search(record[index])]
    if not found:
        return None
    one = len(found) == 1
    if one:
        said = (f"{rows_named([found[0][0]])} ({found[0][1]}) gives its price, in column {price}, as “{found[0][2]}”, "
                "not an amount: a bot asked what it costs can only repeat these words")
    else:
        quoted = [f"“{words}” ({product})" for _, product, words in found[:SHOWN]]
        quoted += [f"{len(found) - SHOWN:,} more"] if len(found) > SHOWN else []
        said = (f"{rows_named([number for number, _, _ in found])} give their price, in column {price}, as words, not "
                f"an amount: {and_list(quoted)}: a bot asked what one costs can only repeat those words")
    if instead:  # one example: the row's other amount, the one a bot would quote
        row, amount = instead[0]
        said += (f", or may quote another amount on {'that' if one else 'its'} row as the price "
                 f"({amount}" + ("" if one else f", on row {row:,}") + ")")
    return said + f". If {'it has' if one else 'they have'} a price, write it in {price} as a number."
