"""Issue 25: what a reader needs on each page is where they look, on a phone (390 x 844) and at 1366 x 900.

Positions are measured in the page itself (bounding boxes, the columns a table draws); screenshots go to
$WORKBENCH_SHOTS (default: the test's own temporary folder) to be looked at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_browser import CHROMIUM, FLAGS, open_on_sample, serve, start_a_model_run
from .test_browser_layout import HIDDEN_COLUMNS, STATE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    with serve(tmp_path_factory.mktemp("app-data")) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(**DESKTOP)
        open_on_sample(page, url)  # every later session opens on the sample
        page.close()
        yield browser, url
        browser.close()


def goto(page, url: str, path: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{url}/{path}")
    expect(page.locator("h1").first).to_be_visible(timeout=120000)
    page.wait_for_timeout(300)
    page.wait_for_function(f"{STATE} !== 'running'", timeout=300000)
    page.wait_for_timeout(800)  # tables and charts lay themselves out after the script ends


def bring_into_view(page, selector: str) -> None:
    page.evaluate("s => { const el = document.querySelector(s); document.querySelector('[data-testid=stMain]')"
                  ".scrollBy(0, el.getBoundingClientRect().top - 70); }", selector)
    page.wait_for_timeout(400)


# A wrapping table's text that does not fit its box: cut off, or scrolled out of sight sideways.
OVERFLOWING_TABLES = """
() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stTable]')].flatMap(table =>
  [table, ...table.querySelectorAll('*')].filter(el => el.scrollWidth > el.clientWidth + 1 && el.clientWidth)
    .map(el => `${el.tagName} overflows (${el.scrollWidth} > ${el.clientWidth}): ${el.innerText.slice(0, 40)}`))
"""


# The columns a table draws without being scrolled sideways: its grid lists, for screen readers, only the
# columns on screen (one partly on screen included), in order.
DRAWN_COLUMNS = """
() => [...document.querySelector('[data-testid=stDataFrame]').querySelectorAll('th[role=columnheader]')]
        .map(th => th.innerText.trim())
"""


def test_the_questions_table_shows_question_place_and_answer_on_a_phone(app, shots):
    """At 390 px the table drew Row, Question and Product only: the answer was a sideways scroll away."""
    browser, url = app
    page = browser.new_page(**PHONE)
    goto(page, url, "questions")
    page.locator("[data-testid=stDataFrame] th[role=columnheader]").first.wait_for(state="attached", timeout=60000)
    bring_into_view(page, "[data-testid=stDataFrame]")
    page.screenshot(path=str(shots / "phone-questions-table.png"))
    drawn = page.evaluate(DRAWN_COLUMNS)
    page.close()
    assert drawn[:4] == ["Row", "Question", "Product or section", "Answer as written"], drawn
    # A column after the answer is drawn (if only its edge): the answer column ends within the screen.
    assert len(drawn) > 4, drawn


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_checkup_shared_lines_show_every_column(app, shots, size):
    """Check-up's shared lines showed two of six columns on a phone, and "which" was cut even at 1366 px."""
    browser, url = app
    page = browser.new_page(**(PHONE if size == "phone" else DESKTOP))
    goto(page, url, "checkup")
    table = page.locator("[data-testid=stTable]").filter(has_text="why it matters")
    table.wait_for(timeout=120000)
    bring_into_view(page, "[data-testid=stTable]")
    page.screenshot(path=str(shots / f"{size}-checkup-shared-lines.png"))
    problems = page.evaluate(HIDDEN_COLUMNS) + page.evaluate(OVERFLOWING_TABLES)
    headers = table.locator("th").all_inner_texts()
    page.close()
    assert problems == [], problems
    assert [h.strip() for h in headers] == ["line", "why it matters", "answers your questions", "which sections",
                                            "where in your file"]


def test_run_and_the_verdict_are_near_the_top_of_results_on_a_phone(app, shots):
    """On a phone Results was about 14 screens long, with Run about 4,300 px down, under the to-do list."""
    browser, url = app
    page = browser.new_page(**PHONE)
    goto(page, url, "results")
    page.locator(".st-key-chart_grid .js-plotly-plot").wait_for(timeout=120000)
    page.wait_for_timeout(800)
    page.screenshot(path=str(shots / "phone-results-top.png"))
    where = page.evaluate("""() => {
      const main = document.querySelector('[data-testid=stMain]');
      const top = el => el.getBoundingClientRect().top + main.scrollTop;
      const run = [...main.querySelectorAll('button')].find(b => b.innerText.trim() === 'Run the questions');
      const verdict = [...main.querySelectorAll('[data-testid=stAlert]')].find(a => /^(Ready|Looks ready|Needs work|Not ready) —/.test(a.innerText.trim()));
      return {run: top(run), verdict: top(verdict), height: main.scrollHeight};
    }""")
    page.close()
    assert where["run"] < 844 - 60, where  # on the first screen, the whole button
    assert where["verdict"] < 2 * 844, where  # the verdict on the first two
    # Secondary material folded: under 12 screens (about 14 before the fold; 9,117 px, under 11, at stop 29). It is
    # 9,284-9,322 px since the bot-ready panel says what its figure is measured against and a piece's label names
    # every product it holds.
    assert where["height"] < 12 * 844, where


def test_during_a_run_the_progress_and_stop_are_on_screen(app, tmp_path, monkeypatch, shots):
    """The page went to its top at Run, a screen above the progress bar and Stop (drawn under the to-do list)."""
    from playwright.sync_api import expect

    browser, _ = app
    monkeypatch.setenv("WORKBENCH_EMBEDDING_CACHE", "off")  # the model reads every text: a run long enough to look at
    # A server of its own for each size, reading without the cache: one server kept the vectors the first run made
    # before Stop in memory, and in the fresh-clone CI the second run finished in 0.6 s, before its progress bar drew.
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        (tmp_path / size).mkdir()
        with serve(tmp_path / size) as url:
            page = browser.new_page(**options)
            start_a_model_run(page, url)
            page.screenshot(path=str(shots / f"{size}-during-run.png"))
            height = options["viewport"]["height"]
            # Waited for, not read at one instant: the progress line redraws several times a second.
            expect(page.get_by_test_id("stProgress")).to_be_visible(timeout=60000)
            bar = page.get_by_test_id("stProgress").bounding_box()
            stop = page.get_by_role("button", name="Stop").bounding_box()
            page.get_by_role("button", name="Stop").click()
            expect(page.get_by_text("You stopped the run")).to_be_visible(timeout=60000)
            page.close()
            assert bar and 0 <= bar["y"] and bar["y"] + bar["height"] <= height, (size, bar)
            assert stop and 0 <= stop["y"] and stop["y"] + stop["height"] <= height, (size, stop)


def test_the_reports_question_grid_wraps_on_a_phone_and_stays_a_grid_on_a_computer(app, shots):
    """The downloaded report's question x strategy grid scrolled sideways in its own box on a phone."""
    from workbench.core.model import Question, Settings
    from workbench.output.handover import report_html
    from workbench.read.loaders import load_bytes
    from workbench.run.evaluate import evaluate

    document = load_bytes(b"# Shop\n\n## Fan\nPrice: 10\nWarranty: 1 year.\n\n## Lamp\nPrice: 5\nWarranty: 2 years.\n",
                          "shop.md")
    questions = [Question("What is the price of the fan?", "Fan", "Price: 10", "exact", row=2),
                 Question("How long is the warranty of the lamp?", "Lamp", "Warranty: 2 years.", "exact", row=3)]
    settings = Settings(strategies=["fixed", "heading", "concern", "langchain-recursive-1000"], retrievers=["keyword"],
                        rerankers=["none"], size=40, overlap=0)
    html = report_html(evaluate(document, questions, settings))
    browser, _ = app
    measure = """() => {
      const grid = document.querySelector('table.grid');
      const cells = [...grid.querySelectorAll('td.cell')].map(c => c.getBoundingClientRect());
      grid.scrollIntoView();
      return {scroll: grid.scrollWidth - grid.clientWidth, right: Math.max(...cells.map(r => r.right)),
              width: innerWidth, head: getComputedStyle(grid.querySelector('tr.head')).display,
              named: getComputedStyle(grid.querySelector('td.cell'), '::before').content};
    }"""
    for size, options in (("phone", PHONE), ("desktop", DESKTOP)):
        page = browser.new_page(**options)
        page.set_content(html)
        found = page.evaluate(measure)
        page.screenshot(path=str(shots / f"{size}-report-grid.png"))
        page.close()
        assert found["scroll"] <= 1 and found["right"] <= found["width"], (size, found)
        if size == "phone":  # each grade named by its strategy, the header row gone
            assert found["head"] == "none" and '-character windows: ' in found["named"], found
        else:
            assert found["head"] == "table-row", found


def test_the_compare_chart_stays_on_a_phones_screen(app, shots):
    """Compare's chart stuck out of the screen on a phone: its axis title ran past the chart and the page's edge."""
    browser, url = app
    page = browser.new_page(**PHONE)
    goto(page, url, "compare")
    page.locator(".js-plotly-plot").first.wait_for(timeout=120000)
    bring_into_view(page, ".js-plotly-plot")
    page.screenshot(path=str(shots / "phone-compare-chart.png"))
    outside = page.evaluate("""() => {
      const out = [];
      const edge = document.querySelector('[data-testid=stMain]').getBoundingClientRect();
      for (const plot of document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')) {
        const frame = plot.getBoundingClientRect();
        for (const text of plot.querySelectorAll('.xtitle, .ytitle, .legendtext, g.xtick text, g.ytick text')) {
          const r = text.getBoundingClientRect();
          if (r.width && (r.right > Math.min(frame.right, edge.right - 8) || r.left < frame.left))
            out.push(`${text.textContent.slice(0, 50)}: ${Math.round(r.left)}-${Math.round(r.right)} in ${Math.round(frame.left)}-${Math.round(frame.right)}`);
        }
      }
      return out;
    }""")
    page.close()
    assert outside == [], outside


def test_the_checkup_shared_lines_fit_a_phone_on_a_200_row_catalog(app, tmp_path, shots):
    """A catalog's shared lines name dozens of products and rows: the wrapping table must still fit 390 px."""
    from tests.synthetic import catalog_csv, catalog_questions

    from .test_browser_layout import seed

    browser, _ = app
    seed(tmp_path, ("catalog_200_rows.csv", catalog_csv(100)), catalog_questions(100, 60))
    with serve(tmp_path) as url:
        page = browser.new_page(**PHONE)
        goto(page, url, "checkup")
        page.locator("[data-testid=stTable]").filter(has_text="why it matters").wait_for(timeout=120000)
        bring_into_view(page, "[data-testid=stTable]")
        page.screenshot(path=str(shots / "phone-checkup-catalog.png"))
        problems = page.evaluate(HIDDEN_COLUMNS) + page.evaluate(OVERFLOWING_TABLES)
        page.close()
    assert problems == [], problems


# A word of a wrapping table broken inside ("cle an", "mis sed"): its letters drawn on two lines. Allowed only for
# a word wider than the whole table, which cannot fit any other way (a cell's own width is no measure: the words
# broke because the table had squeezed their column below them).
BROKEN_WORDS = """
() => {
  const out = [];
  for (const cell of document.querySelectorAll('[data-testid=stMain] [data-testid=stTable] :is(th, td)')) {
    const room = cell.closest('[data-testid=stTable]').clientWidth;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[\\p{L}\\p{N}]+/gu)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const lines = new Set(rects.map(r => Math.round(r.top)));
        const width = rects.reduce((sum, r) => sum + r.width, 0);
        if (lines.size > 1 && width <= room + 1) out.push(`“${word[0]}” broken in “${cell.innerText.slice(0, 30)}”`);
      }
    }
  }
  return [...new Set(out)];
}
"""


@pytest.mark.parametrize("path", ["compare", "checkup"])
def test_wrapped_tables_break_lines_between_words_on_a_phone(app, shots, path):
    """Walk-through of issue 25: on a phone Compare's tables read "cle an", "mix ed", "mis sed", "refus e belo w":
    the tables were let break any word anywhere to fit. Words break only between words; the tables still fit."""
    browser, url = app
    page = browser.new_page(**PHONE)
    goto(page, url, path)
    page.locator("[data-testid=stTable]").first.wait_for(timeout=120000)
    bring_into_view(page, "[data-testid=stTable]")
    page.screenshot(path=str(shots / f"phone-{path}-table-words.png"))
    broken = page.evaluate(BROKEN_WORDS)
    problems = page.evaluate(HIDDEN_COLUMNS) + page.evaluate(OVERFLOWING_TABLES)
    page.close()
    assert broken == [], broken
    assert problems == [], problems


def header_cells(page) -> tuple[list[tuple[int, int, int]], int]:
    """The questions table's header cells as drawn (it draws on a canvas): for each, its left and right edges and
    where its text ends, in pixels from the table's left, found in a screenshot of the header row; and the
    table's width. A cell's edges are the header's vertical border lines (columns of pixels of the border's
    colour from top to bottom); its text, the dark pixels between them."""
    from io import BytesIO

    from PIL import Image

    box = page.locator("[data-testid=stDataFrame]").first.bounding_box()
    shot = Image.open(BytesIO(page.screenshot(clip={"x": box["x"], "y": box["y"] + 1, "width": box["width"],
                                                   "height": 33}))).convert("L")
    width, height = shot.size
    pixels = shot.load()
    rows = range(3, height - 3)
    background = max(set(pixels[width // 2, y] for y in rows), key=[pixels[width // 2, y] for y in rows].count)

    def border(x: int) -> bool:  # a vertical line: every pixel of the column a little darker than the background
        values = [pixels[x, y] for y in rows]
        return max(values) - min(values) <= 6 and 4 <= background - values[0] <= 60

    edges = [x for x in range(width) if border(x)]
    lines = [x for n, x in enumerate(edges) if not n or x > edges[n - 1] + 1]  # one x a line
    cells = []
    for left, right in zip([0, *lines], [*lines, width - 1]):
        dark = [x for x in range(left + 1, right) if any(pixels[x, y] < background - 80 for y in rows)]
        if dark:
            cells.append((left, right, max(dark)))
    return cells, width


def test_every_header_of_the_questions_table_is_readable_at_1366(app, shots):
    """Walk-through of issue 25: at 1366 px the headers read "Product or sect" and "Answer as writ" (the spare
    width went as much to Kind, App's own and Remove as to them). Each header's text ends inside its cell, with
    the cell's padding to spare, and all eight columns fit the table."""
    browser, url = app
    page = browser.new_page(**DESKTOP)
    goto(page, url, "questions")
    page.locator("[data-testid=stDataFrame] th[role=columnheader]").first.wait_for(state="attached", timeout=60000)
    bring_into_view(page, "[data-testid=stDataFrame]")
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / "desktop-questions-table.png"))
    drawn = page.evaluate(DRAWN_COLUMNS)
    cells, width = header_cells(page)
    page.close()
    assert drawn == ["Row", "Question", "Product or section", "Answer as written", "Check", "Kind", "App's own",
                     "Remove"], drawn
    assert len(cells) == 8, cells
    cut = [(name, cell) for name, cell in zip(drawn, cells) if cell[1] - cell[2] < 6]
    assert cut == [], f"headers cut at their cell's edge (left, right, text's end): {cut}"
