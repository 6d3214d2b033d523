"""Seeded synthetic catalogs in the shape of real shop exports, for benchmarks and scale tests.

Several columns, variant rows with an empty name (joined by handle), and
identical lines shared by many products ("Warranty: 2 years.", the returns
rule, the care note): the same traps as a real export, at any size.
"""

from __future__ import annotations

import csv
import io
import random

from workbench.core.model import Question

ADJECTIVES = ["Breezy", "Nordic", "Urban", "Solar", "Coastal", "Alpine", "Velvet", "Copper", "Misty", "Amber"]
MATERIALS = ["Oak", "Steel", "Linen", "Cotton", "Bamboo", "Walnut", "Glass", "Ceramic", "Wool", "Brass"]
NOUNS = ["Ceiling Fan", "Table Lamp", "Desk Chair", "Throw Blanket", "Kettle", "Humidifier", "Rug", "Mirror",
         "Bookshelf", "Heater", "Vase", "Clock"]
COLOURS = ["White", "Black", "Grey", "Sage green", "Navy", "Sand", "Terracotta"]
SIZES = ["S", "M", "L", "XL"]
WARRANTIES = ["1 year.", "2 years.", "3 years."]
RETURNS = ["30 days, unused, in the original box.", "14 days, seal unbroken.", "60 days, any condition."]
CARE = ["Wipe with a dry cloth.", "Machine wash at 30 degrees.", "Dust weekly.", "Oil twice a year.",
        "Descale monthly with white vinegar."]
COLUMNS = ["Handle", "Name", "SKU", "Category", "Price", "Colour", "Size", "Stock", "Warranty", "Returns", "Care",
           "Description"]


def catalog_rows(products: int, seed: int = 0) -> list[list[str]]:
    """The rows (without header) of a catalog of ``products`` products, 1 to 3 variant rows each."""
    rng = random.Random(seed)
    rows = []
    for number in range(products):
        noun = rng.choice(NOUNS)
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(MATERIALS)} {noun} {1000 + number}"
        handle = name.lower().replace(" ", "-")
        description = (
            f"The {name} is a {rng.choice(['quiet', 'sturdy', 'light', 'classic', 'compact'])} "
            f"{noun.lower()} for the {rng.choice(['living room', 'bedroom', 'office', 'kitchen', 'hallway'])}. "
            f"{rng.choice(['Designed in Lisbon.', 'Made from recycled parts.', 'Assembled by hand.', 'Ships flat-packed.'])}"
        )
        variants = rng.randint(1, 3)
        for variant in range(variants):
            price = f"{rng.randint(9, 400)}.{rng.choice(['00', '50', '90', '99'])}"
            first = variant == 0
            rows.append([
                handle,
                name if first else "",
                f"SKU-{1000 + number}-{variant}",
                noun if first else "",
                price,
                rng.choice(COLOURS),
                rng.choice(SIZES),
                str(rng.randint(0, 80)),
                rng.choice(WARRANTIES) if first else "",
                rng.choice(RETURNS) if first else "",
                rng.choice(CARE) if first else "",
                description if first else "",
            ])
    # As in real exports, some variant rows come at the end, found only by their handle.
    tail = [i for i, row in enumerate(rows) if not row[1]][: max(1, products // 20)]
    moved = [rows[i] for i in tail]
    rows = [row for i, row in enumerate(rows) if i not in set(tail)] + moved
    return rows


def catalog_csv(products: int, seed: int = 0) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(catalog_rows(products, seed))
    return out.getvalue().encode("utf-8")


def catalog_questions(products: int, count: int = 100, seed: int = 0) -> list[Question]:
    """Golden questions on the catalog: warranty, price, SKU and care of named products, and 5 unanswerable."""
    rows = catalog_rows(products, seed)
    named = {}
    for row in rows:
        if row[1]:
            named[row[0]] = row
    rng = random.Random(seed + 1)
    picks = rng.sample(sorted(named), min(count - 5, len(named)))
    questions = []
    for index, handle in enumerate(picks):
        row = named[handle]
        column, value = [("Warranty", row[8]), ("Price", row[4]), ("SKU", row[2]), ("Care", row[10])][index % 4]
        questions.append(
            Question(f"What is the {column.lower()} of the {row[1]}?", row[1], f"{column}: {value}", "exact")
        )
    for text in ["Do you sell garden furniture?", "Can I pay in instalments?", "Do you ship to Canada?",
                 "Is there a student discount?", "What is the warranty on the Typhoon fan 1?"]:
        questions.append(Question(text, "", "", "unanswerable"))
    return questions[:count]
