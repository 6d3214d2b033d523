"""Every page reads right at 1366 x 900 and on a phone (390 x 844), on the sample and a 200-row catalog.

With four strategies on Cuts, the page never scrolls sideways, no text is cut off (an ellipsis, or an element
running past the page), the question x strategy grid's labels never overlap, and no chart shows Plotly's
mode bar (always shown on a touch screen, over legends and labels). Screenshots go to $WORKBENCH_SHOTS
(default: the test's own temporary folder) to be looked at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .test_browser import CHROMIUM, FLAGS, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
PAGES = ["", "cuts", "questions", "results", "compare", "checkup"]  # "" is the Document page
FOUR = ["fixed", "heading", "concern", "langchain-recursive-1000"]
STATE = "document.querySelector('[data-testid=stApp]').getAttribute('data-test-script-state')"

# What a reader would see as wrong, found in the page itself: each problem as one line of text.
PROBLEMS = """
() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) out.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
  const main = document.querySelector('[data-testid="stMain"]');
  const edge = main.getBoundingClientRect();
  const inScroller = (el) => {  // a box of its own that scrolls (code, a table, a fixed-height container)
    for (let a = el.parentElement; a && a !== main; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/(auto|scroll)/.test(s.overflowX) || /(auto|scroll)/.test(s.overflowY)) return true;
    }
    return false;
  };
  const texts = main.querySelectorAll('p, li, h1, h2, h3, label, button, span, summary, [data-baseweb="tag"] span, [data-baseweb="select"] div');
  for (const el of texts) {
    const r = el.getBoundingClientRect();
    const words = (el.innerText || '').trim();
    if (!r.width || !r.height || !words || inScroller(el)) continue;
    if (r.right > edge.right + 2) out.push(`runs past the page by ${Math.round(r.right - edge.right)} px: ${words.slice(0, 60)}`);
  }
  for (const el of main.querySelectorAll('*')) {  // any text shortened with an ellipsis ("Pieces mix…")
    const words = (el.innerText || '').trim();
    if (!words || inScroller(el) || getComputedStyle(el).textOverflow !== 'ellipsis') continue;
    if (el.scrollWidth > el.clientWidth + 2) out.push(`cut off: ${words.slice(0, 60)}`);
  }
  for (const el of main.querySelectorAll('*')) {  // text of its own clipped by its box ("None: the file cannot a")
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || inScroller(el)) continue;
    const s = getComputedStyle(el);
    if (s.overflowX === 'hidden' && s.whiteSpace.startsWith('nowrap') && el.scrollWidth > el.clientWidth + 2)
      out.push(`clipped: ${el.textContent.trim().slice(0, 60)}`);
  }
  for (const plot of main.querySelectorAll('.js-plotly-plot')) {
    const frame = plot.getBoundingClientRect();
    if (plot.querySelector('.modebar-btn')) out.push('a chart shows its mode bar');
    for (const title of plot.querySelectorAll('.gtitle, .g-gtitle text, .infolayer .annotation-text')) {
      const r = title.getBoundingClientRect();
      if (r.width && (r.right > frame.right + 1 || r.left < frame.left - 1))
        out.push(`a chart's title runs off it: ${title.textContent.slice(0, 60)}`);
    }
  }
  const grid = main.querySelector('.st-key-chart_grid');
  if (grid) {
    for (const axis of ['xtick', 'ytick']) {
      const boxes = [...grid.querySelectorAll(`g.${axis} text`)].map(t => t.getBoundingClientRect()).filter(b => b.width);
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
        if (overlap) out.push(`grid labels ${i} and ${j} of the ${axis === 'xtick' ? 'strategies' : 'questions'} overlap`);
      }
    }
  }
  return [...new Set(out)];
}
"""

# On Compare & report, the tables a reader needs show every column: none scrolls sideways out of sight (at 390 px
# its tables used to show their first two columns only). The "every figure" table, folded in an expander, may.
HIDDEN_COLUMNS = """
() => {
  const out = [];
  const main = document.querySelector('[data-testid="stMain"]');
  const edge = main.getBoundingClientRect();
  for (const grid of main.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')) {
    if (grid.closest('[data-testid="stExpander"]')) continue;
    if (grid.scrollWidth > grid.clientWidth + 1) out.push(`a table hides columns off to the side (${grid.scrollWidth} > ${grid.clientWidth})`);
  }
  for (const cell of main.querySelectorAll('[data-testid="stTable"] th, [data-testid="stTable"] td')) {
    const r = cell.getBoundingClientRect();
    if (r.width && r.right > edge.right + 2) out.push(`a table's column runs past the page: ${cell.innerText.slice(0, 40)}`);
  }
  return [...new Set(out)];
}
"""


def seed(data: Path, document: tuple[str, bytes] | None, questions=None) -> None:
    """The saved work a new session opens on: four strategies on Cuts, and the given document."""
    from workbench.store.workspace import Workspace

    workspace = Workspace(data / "workspace.sqlite")
    settings = workspace.preference("settings", {}) or {}
    workspace.set_preference("settings", {**settings, "cut_strategies": FOUR})
    if document is not None:
        key = workspace.open_document(*document)
        workspace.save_questions(key, document[0], questions)
    workspace.close()


def look(page, url: str, shots: Path, label: str) -> list[str]:
    from playwright.sync_api import expect

    problems = []
    for path in PAGES:
        page.goto(f"{url}/{path}")
        expect(page.locator("h1").first).to_be_visible(timeout=120000)
        page.wait_for_timeout(300)
        page.wait_for_function(f"{STATE} !== 'running'", timeout=300000)
        if path == "results":
            expect(page.locator(".st-key-chart_grid .js-plotly-plot")).to_be_visible(timeout=120000)
        page.wait_for_timeout(800)  # charts and tables lay themselves out after the script ends
        problems += [f"{label} {path or 'document'}: {p}" for p in page.evaluate(PROBLEMS)]
        if path == "compare":
            problems += [f"{label} compare: {p}" for p in page.evaluate(HIDDEN_COLUMNS)]
        if path == "results":  # the grid at the top of the screen, below Streamlit's fixed header
            page.evaluate("() => { const grid = document.querySelector('.st-key-chart_grid'); document.querySelector("
                          "'[data-testid=stMain]').scrollBy(0, grid.getBoundingClientRect().top - 70); }")
            page.wait_for_timeout(300)
            page.screenshot(path=str(shots / f"{label}-results-grid.png"))
        # The page scrolls inside Streamlit's main block, not the window: screenshot it screen by screen.
        height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
        for screen in range(min(4, -(-height // page.viewport_size["height"]))):
            page.evaluate(f"document.querySelector('[data-testid=stMain]').scrollTo(0, {screen} * innerHeight)")
            page.wait_for_timeout(150)
            page.screenshot(path=str(shots / f"{label}-{path or 'document'}-{screen + 1}.png"))
    return problems


def test_every_page_fits_the_desktop_and_a_phone_with_four_strategies(tmp_path):
    from playwright.sync_api import sync_playwright

    from tests.synthetic import catalog_csv, catalog_questions

    shots = Path(os.environ.get("WORKBENCH_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    data.mkdir()
    seed(data, None)
    problems: list[str] = []
    with serve(data) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for which in ("sample", "catalog"):
            if which == "catalog":  # 100 products with their variant rows: about 200 rows
                seed(data, ("catalog_200_rows.csv", catalog_csv(100)), catalog_questions(100, 60))
            for size, (width, height) in SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height}, is_mobile=size == "phone",
                                        has_touch=size == "phone")
                problems += look(page, url, shots, f"{which}-{size}")
                page.close()
        browser.close()
    assert problems == [], "\n".join(problems)
