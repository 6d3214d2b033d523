"""An Excel export's price in words is named on the Document page by row, product and value, as the shop wrote them.

Walk-through (walk44): a German shop's workbook, a title row above its header, "auf Anfrage" as a Polish jug's
Preis and 89 as its Vergleichspreis, showed only the title-row warning; a bot asked the jug's price had 89 as the
only amount beside its name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .serving import open_and_upload
from .test_browser import CHROMIUM, FLAGS, keep_local, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]


def test_a_price_in_words_is_warned_of_by_its_excel_row_with_the_shops_own_text_unformatted(tmp_path):
    import openpyxl
    from playwright.sync_api import expect, sync_playwright

    book = openpyxl.Workbook()
    for row in (["Preisliste Winter 2026 – Keramik Müller"], ["Produktname", "Preis", "Vergleichspreis"],
                ["Teekanne Bergblick", 39.9, 49.9],
                # Asterisks that Markdown would turn into italics: the page must show them as typed.
                ["Dzbanek *ceramiczny* Bolesławiec", "auf Anfrage", 89],
                ["Müslischale Alpenglühen", 12, None]):
        book.active.append(row)
    workbook = tmp_path / "keramik_mueller.xlsx"
    book.save(workbook)
    with serve(tmp_path / "data") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        outside = keep_local(context)
        page = context.new_page()
        open_and_upload(page, url, workbook)
        warning = page.locator("[data-testid=stAlert]").filter(has_text="not an amount")
        expect(warning).to_be_visible(timeout=30000)
        shown = warning.inner_text()
        italics = warning.locator("em").count()
        page.screenshot(path=str(tmp_path / "price-in-words.png"), full_page=True)
        browser.close()
    assert outside == []
    # Row 4 as Excel numbers it: the title is row 1, the header row 2.
    assert " ".join(shown.split()) == (
        "Row 4 (Dzbanek *ceramiczny* Bolesławiec) gives its price, in column Preis, as “auf Anfrage”, not an amount: "
        "a bot asked what it costs can only repeat these words, or may quote another amount on that row as the price "
        "(Vergleichspreis: 89). If it has a price, write it in Preis as a number.")
    assert italics == 0
