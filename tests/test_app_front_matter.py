"""The Cuts page says what a Markdown page's YAML front matter is, as a shop owner sees it grey under the cuts
that follow headings (walk46: the Macedonian FAQ's title, date and tags, with no word of why)."""

from __future__ import annotations

from .conftest import ROOT
from .test_app import go, open_app, plain, upload

NOTE = "The lines between the two “---” at the top of this file are the page's settings"


def test_the_cuts_page_says_the_front_matter_is_the_pages_settings_not_facts():
    data = (ROOT / "tests" / "data" / "written" / "prasanja_sapuni_mk.md").read_bytes()
    at = go(upload(open_app(), "prasanja_sapuni_mk.md", data), "pages/cuts.py")
    assert not at.exception
    assert any(plain(c.value).startswith(NOTE) for c in at.caption)  # main: no such note


def test_a_page_without_front_matter_has_no_such_note():
    at = go(open_app(), "pages/cuts.py")  # the sample
    assert not at.exception
    assert not any(plain(c.value).startswith(NOTE) for c in at.caption)
