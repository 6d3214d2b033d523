"""Issue 25: what a reader needs on each page is where they look, on a phone (390 x 844) and at 1366 x 900.

Positions are measured in the page itself (bounding boxes, the columns a table draws); screenshots go to
$WORKBENCH_SHOTS (default: the test's own temporary folder) to be looked at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .test_browser import CHROMIUM, FLAGS, open_on_sample, serve
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


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("WORKBENCH_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
    problems = page.evaluate(HIDDEN_COLUMNS)
    headers = table.locator("th").all_inner_texts()
    page.close()
    assert problems == [], problems
    assert [h.strip() for h in headers] == ["line", "why it matters", "answers your questions", "which sections",
                                            "where in your file"]
