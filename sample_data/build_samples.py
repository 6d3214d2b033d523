"""Writes the sample shop's price list as CSV, XLSX and Markdown from one table.

Breezy Home is fictional. Several products share identical lines ("Warranty:
1 year.", the returns rule, the care note): the ambiguity the workbench exists
to expose. Run ``python sample_data/build_samples.py`` after editing PRODUCTS.
"""

from __future__ import annotations

import csv
from pathlib import Path

HERE = Path(__file__).parent
COLUMNS = ["Name", "Handle", "SKU", "Price", "Colour", "Power", "Noise", "Warranty", "Returns", "Care", "Stock"]
RETURNS = "30 days, unused, in the original box."
CARE = "Wipe with a dry cloth."
# Each row: name, handle, sku, price, colour, power, noise, warranty, returns, care, stock.
# A row with an empty name is a variant of the product with the same handle.
PRODUCTS = [
    ["Aurora Ceiling Fan", "aurora", "BH-CF-AUR-W", "149.00", "White", "55 W", "38 dB", "1 year.", RETURNS, CARE, "12"],
    ["", "aurora", "BH-CF-AUR-O", "159.00", "Oak", "", "", "", "", "", "4"],
    ["Boreal Ceiling Fan", "boreal", "BH-CF-BOR", "229.00", "Matt black", "32 W", "29 dB", "2 years.", RETURNS, CARE, "7"],
    ["Zephyr Table Fan", "zephyr", "BH-TF-ZEP", "39.90", "White", "25 W", "45 dB", "1 year.", RETURNS, CARE, "40"],
    ["Mistral Tower Fan", "mistral", "BH-TW-MIS", "89.00", "Grey", "45 W", "41 dB", "1 year.", RETURNS, CARE, "18"],
    ["Sirocco Pedestal Fan", "sirocco", "BH-PF-SIR", "59.00", "White", "45 W", "47 dB", "2 years.", RETURNS, CARE, "25"],
    ["", "sirocco", "BH-PF-SIR-B", "64.00", "Black", "", "", "", "", "", "9"],
    ["Nimbus Air Purifier", "nimbus", "BH-AP-NIM", "199.00", "White", "40 W", "33 dB", "3 years.",
     "14 days, filter seal unbroken.", "Replace the HEPA filter every 12 months.", "6"],
    ["Cirrus Dehumidifier", "cirrus", "BH-DH-CIR", "249.00", "White", "210 W", "42 dB", "2 years.",
     "14 days, filter seal unbroken.", "Empty and rinse the water tank weekly.", "3"],
    ["Solano Space Heater", "solano", "BH-SH-SOL", "79.00", "Red", "2000 W", "35 dB", "1 year.", RETURNS, CARE, "15"],
    ["Chinook Oil Heater", "chinook", "BH-OH-CHI", "119.00", "White", "1500 W", "20 dB", "2 years.", RETURNS, CARE, "0"],
    ["Foehn Humidifier", "foehn", "BH-HU-FOE", "69.00", "Sage green", "30 W", "26 dB", "1 year.", RETURNS,
     "Descale monthly with white vinegar.", "22"],
]
INTRO = (
    "Breezy Home sells fans, heaters and air treatment for the home. Prices are in euros and include VAT. "
    "Delivery is free on orders over 50 euros."
)


def write_csv() -> None:
    with open(HERE / "breezy_home_price_list.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows(PRODUCTS)


def write_xlsx() -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Price list"
    sheet.append(COLUMNS)
    for row in PRODUCTS:
        cells: list[object] = list(row)
        cells[3] = float(row[3])  # a real number cell, shown with two decimals as a shop would format it
        cells[10] = int(row[10])
        sheet.append(cells)
    for (cell,) in sheet.iter_rows(min_row=2, min_col=4, max_col=4):
        cell.number_format = "0.00"
    notes = workbook.create_sheet("Notes")
    notes.append(["Note"])
    notes.append([INTRO])
    workbook.save(HERE / "breezy_home_price_list.xlsx")


def write_markdown() -> None:
    lines = ["# Breezy Home price list", "", INTRO, ""]
    for row in PRODUCTS:
        if row[0]:
            lines += ["", f"## {row[0]}"]
        else:
            lines.append("")
        for column, value in zip(COLUMNS[2:], row[2:]):
            if value:
                lines.append(f"{column}: {value}")
    (HERE / "breezy_home_price_list.md").write_text("\n".join(lines).strip() + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_csv()
    write_xlsx()
    write_markdown()
