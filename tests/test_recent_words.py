"""The Document page's recent list says sizes and times as a person reads them (issue 25's walk-through: it said
"19236 bytes, last opened 2026-12-03 16:10 UTC")."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from workbench.core.wording import recent_line, size_words, when_words

BERLIN_WINTER = dt.timezone(dt.timedelta(hours=1))
NOW = dt.datetime(2026, 12, 3, 16, 30, tzinfo=dt.UTC)  # 17:30 in that zone


@pytest.mark.parametrize(("size", "said"), [
    (0, "0 bytes"), (1, "1 byte"), (812, "812 bytes"), (1024, "1 KB"), (19_236, "19 KB"), (1_048_000, "1.0 MB"),
    (1_258_291, "1.2 MB"), (10_485_760, "10 MB"), (50 * 1024 * 1024, "50 MB"),
])
def test_sizes_are_said_in_bytes_kb_or_mb(size, said):
    assert size_words(size) == said


@pytest.mark.parametrize(("stamp", "said"), [
    ("2026-12-03T16:10:05.123456+00:00", "today 17:10"),
    ("2026-12-02T23:30:00+00:00", "today 00:30"),  # after midnight in the zone, though still the 2nd in UTC
    ("2026-12-02T08:14:00+00:00", "yesterday 09:14"),
    ("2026-12-01T08:14:00+00:00", "1 Dec 09:14"),
    ("2026-03-09T08:05:00+00:00", "9 Mar 09:05"),
    ("2025-12-02T08:14:00+00:00", "2 Dec 2025 09:14"),
    ("2026-12-01T08:14:00", "1 Dec 09:14"),  # a stamp without a zone is UTC, as the workspace writes them
])
def test_times_are_said_in_local_time_in_plain_words(stamp, said):
    assert when_words(stamp, now=NOW, zone=BERLIN_WINTER) == said


def test_the_recent_line_reads_as_one_phrase():
    assert recent_line(19_236, "2026-12-03T16:10:05+00:00", now=NOW, zone=BERLIN_WINTER) == (
        "19 KB, last opened today 17:10")


def test_by_default_the_time_is_this_computers_local_time(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30, no summer time
    time.tzset()
    try:
        stamp = (dt.datetime.now(dt.UTC) - dt.timedelta(days=3)).replace(hour=3, minute=40)
        local = stamp.astimezone(dt.timezone(dt.timedelta(hours=5, minutes=30)))
        assert when_words(stamp.isoformat()).endswith(f" {local:%H:%M}") and local.strftime("%H:%M") == "09:10"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
