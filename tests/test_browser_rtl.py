"""Hebrew on the Cuts page in Chromium: each line laid out from its own edge, the pieces' marks kept whole.

Walk-through (walk42): with the marks of a piece inline, a Hebrew heading that a piece starts at (every heading under
"Cut at headings") was aligned to the left edge while the lines under it sat at the right, and a piece's word-piece
count ("118 wp") wrapped in two. Only a browser's layout shows either.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOT
from .serving import open_and_upload
from .test_browser import CHROMIUM, FLAGS, keep_local, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]

# Per cut shown: how far from its box's right edge each piece's number ends (a Hebrew line starts at the right), and
# each word-piece count's number of line boxes (1: whole).
MEASURE = """() => [...document.querySelectorAll('.wb-cut')].map(cut => {
  const right = cut.getBoundingClientRect().right - parseFloat(getComputedStyle(cut).paddingRight);
  return {tags: [...cut.querySelectorAll('.wb-tag')].map(tag => right - tag.getBoundingClientRect().right),
          wrapped: [...cut.querySelectorAll('.wb-pieces')].filter(count => count.getClientRects().length > 1).length};
})"""


def test_hebrew_headings_start_at_the_right_with_their_piece_marks_whole(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    with serve(tmp_path / "data") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        outside = keep_local(context)
        page = context.new_page()
        open_and_upload(page, url, ROOT / "tests/data/written/nerot_konimbo_he.csv")
        page.get_by_role("link", name="Cuts").click()
        # The two default cuts: 300-character windows, then cut at headings (6 products, a piece each).
        expect(page.locator(".wb-cut").nth(1).locator(".wb-tag")).to_have_count(6, timeout=60000)
        # Measured once the page has settled: retried, as Streamlit may still redraw the second cut.
        page.wait_for_function(f"() => ({MEASURE})().length === 2 && ({MEASURE})()[1].tags.length === 6",
                               timeout=60000)
        windows, headings = page.evaluate(MEASURE)
        browser.close()
    assert outside == []
    # Each heading's mark at the right edge, where the Hebrew line begins (before: about 300 pixels from it).
    assert all(0 <= gap < 12 for gap in headings["tags"]), headings["tags"]  # the red bar after it: 5 px
    assert windows["wrapped"] == 0 and headings["wrapped"] == 0
