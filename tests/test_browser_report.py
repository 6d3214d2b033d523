"""Issue 25: the downloaded HTML report reads on a phone (390 x 844) and stays as it was at 1366 x 900.

The walk-through saw, at 390 pixels, the narrow bar segments' numbers cut off and run into each other, the worst
questions' four cuts squeezed into four columns a word wide, and the table of every answer scrolling sideways.
The report is opened as the file it is (no app, no server); positions are measured in the page, and screenshots
go to $WORKBENCH_SHOTS (default: the test's own temporary folder) to be looked at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_browser import CHROMIUM, FLAGS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}

# What overflows: any element past the screen's edges, any box that clips or scrolls its content sideways (a bar's
# segment whose number is wider than it is one), and per bar, each segment's number against its segment.
MEASURE = """() => {
  const name = el => el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined
    ? '.' + el.className : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  const outside = [], scrolls = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.left < -0.5 || box.right > innerWidth + 0.5) outside.push(name(el) + ' ' + box.left + '..' + box.right);
    const overflow = getComputedStyle(el).overflowX;
    if (overflow !== 'visible' && el.scrollWidth > el.clientWidth + 1) scrolls.push(name(el));
  }
  const bars = [...document.querySelectorAll('.bar-row')].map(box => {
    const spans = [...box.querySelectorAll('.bar span')].map(span => {
      const range = document.createRange();
      range.selectNodeContents(span);
      const text = range.getBoundingClientRect(), own = span.getBoundingClientRect();
      return {count: span.textContent, shown: parseFloat(getComputedStyle(span).fontSize) > 0,
              inside: text.left >= own.left - 0.5 && text.right <= own.right + 0.5, width: own.width};
    });
    const counts = box.querySelector('.counts');
    return {spans, said: counts && getComputedStyle(counts).display !== 'none' ? counts.textContent : null};
  });
  const answers = document.querySelector('table.answers');
  const cuts = [...document.querySelector('.row').children].map(div => div.getBoundingClientRect());
  return {page: document.documentElement.scrollWidth, width: innerWidth, outside, scrolls, bars,
          head: answers && getComputedStyle(answers.querySelector('tr.head')).display,
          label: answers && getComputedStyle(answers.querySelector('tr:not(.head) td:nth-child(2)'), '::before').content,
          cuts: cuts.map(r => [Math.round(r.left), Math.round(r.width)])};
}"""


@pytest.fixture(scope="module")
def report() -> str:
    """A shop of 40 products with long names and 41 questions (one the file cannot answer), under five cuts: a
    one-question segment of a bar is 2.4% of it, 9 pixels on a phone."""
    from workbench.core.model import Question, Settings
    from workbench.output.handover import report_html
    from workbench.read.loaders import load_bytes
    from workbench.run.evaluate import evaluate

    kinds = ["Dual Basket Air Fryer", "Semi-Automatic Espresso Machine", "Cordless Stick Vacuum",
             "Steam Generator Iron"]
    names = [f"{kinds[n % 4]} {n + 10}L" for n in range(40)]
    text = "# Spree\n\n" + "".join(f"## {name}\nPrice: {100 + n}.99\nColour: white\nWarranty: {n % 3 + 1} years.\n\n"
                                   for n, name in enumerate(names))
    questions = [Question(f"What does the {name} cost?", name, f"Price: {100 + n}.99", "exact", row=n + 2)
                 for n, name in enumerate(names)]
    questions.append(Question("Do you sell gift cards?", "", "", "unanswerable", row=len(names) + 2))
    settings = Settings(strategies=["fixed", "heading", "breadcrumb", "concern", "langchain-recursive-1000"],
                        retrievers=["keyword"], rerankers=["none"], size=120, overlap=0)
    return report_html(evaluate(load_bytes(text.encode(), "spree.md"), questions, settings))


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_report_fits_its_screen_and_no_bar_number_runs_into_another(browser, report, shots, tmp_path, size):
    path = tmp_path / "report.html"
    path.write_text(report, "utf-8")
    page = browser.new_page(**(PHONE if size == "phone" else DESKTOP))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    found = page.evaluate(MEASURE)
    for part, selector in (("bars", ".bars"), ("worst", ".row"), ("answers", "table.answers"),
                           ("settings", "h2:last-of-type")):
        page.evaluate(f"document.querySelector('{selector}')?.scrollIntoView()")
        page.screenshot(path=str(shots / f"{size}-report-{part}.png"))
    page.close()

    assert requests == [path.as_uri()]  # one self-contained file: no font, script or picture fetched
    assert found["page"] <= found["width"], found["page"]
    assert found["outside"] == [] and found["scrolls"] == [], (found["outside"][:5], found["scrolls"][:5])
    spans = [span for bar in found["bars"] for span in bar["spans"]]
    assert spans and all(span["inside"] for span in spans if span["shown"]), [s for s in spans if not s["inside"]]
    for bar in found["bars"]:  # a hidden number is said under its bar, with every other count
        hidden = [span for span in bar["spans"] if not span["shown"]]
        if hidden:
            assert bar["said"] and all(f"{span['count']} " in bar["said"] for span in bar["spans"]), bar
        else:
            assert bar["said"] is None, bar
    hidden = [span for span in spans if not span["shown"]]
    if size == "phone":
        # The one-question segments (9 px) hide their number; every answer is a block naming its values; the
        # worst questions' cuts stand one under another, each the page's width.
        assert any(span["count"] == "1" and span["width"] < 10 for span in hidden), hidden
        assert found["head"] == "none" and found["label"] == '"Question: "', found
        assert len({left for left, _ in found["cuts"]}) == 1 and min(w for _, w in found["cuts"]) > 300, found["cuts"]
    else:  # as before: every number in its bar, a table with its header, four cuts side by side
        assert hidden == [], hidden
        assert found["head"] == "table-row", found
        assert len({left for left, _ in found["cuts"]}) == 4, found["cuts"]
