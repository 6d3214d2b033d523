"""The check-up grows with the file, not with its square: a line number is found without reading from the start.

Counting the line breaks before an offset for each heading made ``audit`` of one 8 MB Markdown file of 160,000
headings run for more than 9 minutes (10 times as many headings, 100 times the work). Speed is measured in
``bench/audit_headings.py``; here the text itself counts how much of it is scanned, which no machine's load moves.
"""

from __future__ import annotations

import dataclasses

from workbench.advise.audit import audit
from workbench.grade.places import Places
from workbench.read.loaders import load_bytes


class CountingText(str):
    """The file's text, counting the characters its own searches (count, find, index) scan."""

    scanned = 0

    def _scan(self, start, end) -> None:
        start = 0 if start is None else max(start, 0)
        end = len(self) if end is None else min(end, len(self))
        CountingText.scanned += max(0, end - start)

    def count(self, sub, start=None, end=None):
        self._scan(start, end)
        return str.count(self, sub, start, end)

    def find(self, sub, start=None, end=None):
        self._scan(start, end)
        return str.find(self, sub, start, end)

    def rfind(self, sub, start=None, end=None):
        self._scan(start, end)
        return str.rfind(self, sub, start, end)

    def index(self, sub, start=None, end=None):
        self._scan(start, end)
        return str.index(self, sub, start, end)


def headings(count: int) -> bytes:
    return "".join(f"{'#' * (i % 6 + 1)} Section {i}\nSome words about item {i}.\n" for i in range(count)).encode()


def test_the_check_up_of_4000_headings_scans_its_text_a_bounded_number_of_times(monkeypatch):
    monkeypatch.setattr(CountingText, "scanned", 0)
    document = load_bytes(headings(4000), "headings.md")
    counted = dataclasses.replace(document, text=CountingText(document.text))
    result = audit(counted)
    result.as_dict()
    # Counting from the start for each of the 4,000 sections scanned 356,097,430 characters of a 179,776-character
    # text (about 2,000 times the text); found once and searched by halves, the text is not scanned by count at all.
    assert len(counted.text) == 179_776
    assert CountingText.scanned <= 2 * len(counted.text), CountingText.scanned


def test_line_numbers_found_by_halves_are_the_lines_counted_from_the_start():
    text = "# A\none\n\n## B\ntwo\nthree\n"
    document = load_bytes(text.encode(), "small.md")
    places = Places(document)
    for offset in range(len(document.text) + 1):
        assert places.line(offset) == document.text.count("\n", 0, offset) + 1, offset
    # "# A" is line 1, "## B" line 4 (after a blank line), "three" line 6.
    assert [places.line(document.text.index(s)) for s in ("# A", "## B", "three")] == [1, 4, 6]


def test_the_to_do_lists_places_find_their_lines_without_rescanning(monkeypatch):
    """The JSON's to-do places (``place_record``) name each place's line: once per section, never from the start."""
    from workbench.advise.todo_places import place_record

    monkeypatch.setattr(CountingText, "scanned", 0)
    document = load_bytes(headings(4000), "headings.md")
    counted = dataclasses.replace(document, text=CountingText(document.text))
    lines = [place_record(counted, section.heading_span)["line"] for section in counted.sections]
    assert lines[:3] == [1, 3, 5] and lines[-1] == 7999  # each heading two lines below the one before
    assert CountingText.scanned <= 2 * len(counted.text), CountingText.scanned
