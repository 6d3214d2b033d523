"""Every pattern that sees the user's text reads it in linear time (DESIGN.md, "Patterns on user text").

The fast tests check that the rewritten patterns still find what they found; the slow one feeds each a
1 MB adversarial line in a fresh interpreter that must finish within 30 s (a backtracking pattern takes
hours on these). The time each takes is measured by bench/hostile.py, not asserted here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from workbench.advise.risky import IMAGE
from workbench.read.markdown import atx_heading, clean_heading, parse_markdown

from .conftest import ROOT

MB = 1 << 20

# (what it is, the code that runs the pattern, the 1 MB line) — each line is the worst case of its pattern
# before the rewrite: quadratic or worse, so 1 MB took from minutes to days.
ADVERSARIAL = {
    "heading: '#' then a long run of spaces": ("atx_heading", "'#' + ' ' * MB + 'x'"),
    "heading: '# a' then a long run of tabs": ("atx_heading", "'# a' + '\\t' * MB + 'x'"),
    "heading text: many '<' and no '>'": ("clean_heading", "'<' * MB"),
    "image: many '![' unclosed": ("images", "'![' * (MB // 2)"),
    "image: many '![a](' unclosed": ("images", "'![a](' * (MB // 5)"),
    "image: many '<img ' unclosed": ("images", "'<img ' * (MB // 5)"),
    "Markdown file: a heading of many '<'": ("parse", "'# ' + '<' * MB"),
    "Markdown file: a heading of tabs": ("parse", "'# a' + '\\t' * MB + 'x\\ntext'"),
    "spreadsheet cell: '<a ' and a long run of spaces": ("html", "'<a ' + ' ' * MB"),
    "spreadsheet cell: '<' and a long run of spaces": ("html", "'<' + ' ' * MB"),
    "spreadsheet cell: many '<div ' unclosed": ("html", "'<div ' * (MB // 5)"),
    "spreadsheet cell as its page: nested tags and entities": ("page", "'<p><b>&amp;' * (MB // 11)"),
    "FAQ bold line: '**a**', a long run of spaces, 'x'": ("parse", "'\\n**a**' + ' ' * MB + 'x'"),
    "FAQ bold line: '**' and a long run of letters": ("parse", "'\\n**' + 'a' * MB"),
}
CALLS = {
    "atx_heading": "from workbench.read.markdown import atx_heading as run",
    "clean_heading": "from workbench.read.markdown import clean_heading as run",
    "images": "from workbench.advise.risky import IMAGE\nrun = lambda line: list(IMAGE.finditer(line))",
    "parse": "from workbench.read.markdown import parse_markdown\nrun = lambda text: parse_markdown(text, 'x.md')",
    "html": "from workbench.read.data_columns import HTML\nrun = lambda line: list(HTML.finditer(line))",
    "page": "from workbench.read.table import page_text as run",
}


def test_html_cells_are_found_as_before():
    from workbench.read.data_columns import HTML

    found = ["<p>x</p>", "<br/>", "<br />", "<br/ >", "< p >", "</ p>", "< /p>", '<a href="x">', "x<y>z"]
    assert all(HTML.search(cell) for cell in found)
    assert not any(HTML.search(cell) for cell in ["<3 love", "a <= b", "price < 10", "<>", "< 5 >"])


def test_atx_headings_read_as_before():
    assert atx_heading("# Fan") == (1, "Fan")
    assert atx_heading("### Fan ###") == (3, "Fan")  # the closing run is not the title
    assert atx_heading("## Fan#") == (2, "Fan#")  # a '#' touching the word is part of it
    assert atx_heading("#\tFan\t##\t") == (1, "Fan")
    assert atx_heading("## a # b ##") == (2, "a # b")
    assert atx_heading("# #") == (1, "")  # the closing run alone: an empty heading, as CommonMark reads it
    assert atx_heading("#") == (1, "")
    assert atx_heading("#Fan") is None  # no space after the '#'s: text, not a heading
    assert atx_heading("####### Fan") is None  # seven: not a heading
    assert atx_heading("    # Fan") is None  # four spaces: code


def test_heading_tags_are_removed_and_unclosed_ones_kept():
    assert clean_heading('Fan <a id="fan"></a>') == "Fan"
    assert clean_heading("Fan < 10 W <b>new</b>") == "Fan < 10 W new"  # a lone '<' is text


def test_images_are_found_as_before():
    line = 'see ![fan](https://x.example/fan.png) and <img alt="a" src="https://y.example/b.png"> too'
    assert [m.group(1) or m.group(2) for m in IMAGE.finditer(line)] == [
        "https://x.example/fan.png",
        "https://y.example/b.png",
    ]
    assert [m.group(1) for m in IMAGE.finditer("![![x](a.png)")] == ["a.png"]  # the innermost complete image


def test_a_heading_after_a_long_run_of_blank_space_is_one_section():
    document = parse_markdown("#" + " " * 5000 + "Fan\nPrice: 10\n", "x.md")
    assert [s.heading for s in document.sections] == ["Fan"]


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(ADVERSARIAL))
def test_each_pattern_reads_a_1mb_adversarial_line_in_linear_time(case):
    call, line = ADVERSARIAL[case]
    script = f"MB = {MB}\n{CALLS[call]}\nrun({line})\n"
    # 30 s is a hang detector, not a time budget: bench/hostile.py measures each (well under a second).
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, timeout=30)
