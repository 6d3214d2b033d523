"""Small words said right: possessives, plurals, mid-sentence case, and what a document's parts are called.

Every sentence the workbench builds around a user's name or a count goes through these, so "Furniture
returns's line", "1 of the 4 pieces … do not carry" and "langchain common" cannot come back one place at a time.
"""

from __future__ import annotations

import re

from workbench.core.kinds import kind_named
from workbench.core.limits import MB

# Characters that act on a terminal instead of being shown: C0 controls (escape, bell, carriage return: a name
# holding "\x1b[2J" would clear the screen), delete, C1 controls, and the bidirectional marks and overrides that
# reorder what is shown after them ("\u202e" makes "gpj.exe" read "exe.jpg").
_UNSHOWN = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
            *range(0x2066, 0x206A)]
_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_ESCAPES = {chr(code): _NAMED.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}") for code in _UNSHOWN}
# Found by one pattern and replaced match by match: a 10 MB table has none, and is scanned once at C speed (a
# translation table looked up every character, 1.8 s for 10 MB).
_FIND = re.compile("[" + "".join(map(re.escape, _ESCAPES)) + "]")
_FIND_KEEPING_LINES = re.compile("[" + "".join(re.escape(c) for c in _ESCAPES if c not in "\t\n") + "]")


def printable(text: object, lines: bool = False) -> str:
    """``text`` as it may be printed to a terminal: each character that would act on the terminal instead of being
    shown (see ``_UNSHOWN``) written as its escape (``\\x1b``, ``\\x07``, ``\\u202e``), so a file name or a value
    of the user's is shown and can do nothing. ``lines``: a text of several lines (a table) keeps its line breaks
    and tabs. Every message the command line prints goes through this."""
    return (_FIND_KEEPING_LINES if lines else _FIND).sub(lambda match: _ESCAPES[match.group()], str(text))


def possessive(name: str) -> str:
    """ "Aurora Ceiling Fan's", "Furniture returns'", "Large items'": a name ending in s takes the apostrophe only.

    A shop's names are often plural ("Large items", "Furniture returns"), and an added "'s" after their s reads
    as a slip; after a singular name ending in s ("Nimbus'") the bare apostrophe is still good English.
    """
    name = name.strip()
    return f"{name}'" if name[-1:].lower() == "s" else f"{name}'s"


def owned(name: str, thing: str, english: bool = True, after: str = "") -> str:
    """ "Aurora Ceiling Fan's “Price” line" when the file is in English; "the “Price” line of «배송 기간»" when it is
    not: an English "'s" on a heading in another language reads as a slip ("■ 배송 기간's line", "Versand's line"),
    and the guillemets set the shop's own words apart from the sentence and from the “…” that quote a customer's
    words and the columns. ``after`` follows the thing ("line", " that holds the answer")."""
    return f"{possessive(name)} {thing}{after}" if english else f"the {thing} of «{name.strip()}»{after}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 piece", "4 pieces", "2 boxes" (``many`` for an irregular plural: plural(3, "child", "children"))."""
    return f"{count:,} {word if count == 1 else many or _plural(word)}"


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def verb(count: int, one: str, many: str) -> str:
    """The verb agreeing with a count: verb(1, "does", "do") -> "does"."""
    return one if count == 1 else many


def and_list(items: list[str] | tuple[str, ...]) -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"."""
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def rows_named(numbers: list[int], shown: int = 10) -> str:
    """ "Row 7", "Rows 2, 5 and 9", "Rows 2, 5, … 31 and 99,990 more": a list of rows said in one line, the first
    ``shown`` by number. A file with one faulty row per line gave one warning per row (100,000 on one screen)."""
    if len(numbers) == 1:
        return f"Row {numbers[0]:,}"
    named = [f"{number:,}" for number in numbers[:shown]]
    if len(numbers) > shown:
        return f"Rows {', '.join(named)} and {len(numbers) - shown:,} more"
    return f"Rows {', '.join(named[:-1])} and {named[-1]}"


def lower_first(name: str) -> str:
    """Mid-sentence case that keeps a name's own capitals: "Cut at headings" -> "cut at headings", but
    "BM25 word search", "LangChain common" and "PDF pages" stay as they are (a capital past the first letter
    of the first word marks a name or an acronym)."""
    first = name.split(" ", 1)[0]
    if any(character.isupper() for character in first[1:]):
        return name
    return name[:1].lower() + name[1:]


def part_word(kind: str, plural: bool = False) -> str:
    """What a document's parts are called: a spreadsheet's are products, any other document's sections."""
    form = kind_named(kind)
    return form.parts() if plural else form.part


def parts_named(document, count: int | None = None) -> str:
    """What ``document``'s parts are called, as the Document page counts them: "products", "sections", or for a
    knowledge base of both kinds "products and sections"; singular for a ``count`` of 1. The report said "11
    products or sections" of a Markdown file the page had counted as 11 sections."""
    forms = {part.document.form for part in document.files} if document.files else {document.form}
    return " and ".join(sorted(form.part if count == 1 else form.parts() for form in forms))


def todo_order_note(kind: str, files=()) -> str:
    """The line under a to-do list's heading: what its places mean for this kind of file. For a knowledge base
    (``files``, its FileParts), what its own files are: the sample's two Markdown files were told "Rows and columns
    are your spreadsheets'", of spreadsheets it did not have."""
    note = kind_named(kind).place_note
    if files:
        tables = {part.document.form.table for part in files}
        if tables == {False}:
            note = "Lines are your files'."
        elif tables == {True}:
            note = "Rows and columns are your spreadsheets'."
    return note  # the order is the heading's ("To do (5 items, …, most questions fixed first):"), said once


def grouped_rows(document) -> str:
    """ "37 products (211 rows; variant rows grouped under their product)" for a spreadsheet (or a knowledge
    base's spreadsheets) whose rows outnumber its products, as a platform export's variant rows do; "" when
    every row is a product of its own. Said beside the count of products, which alone reads as a lost 174 rows."""
    tables = document.tables()
    products = sum(1 for table in tables for section in table.sections if section.facts)
    rows = sum(len({fact.row for fact in table.facts if fact.row is not None}) for table in tables)
    if rows <= products:
        return ""
    return (f"{plural(products, 'product')} ({plural(rows, 'row')}; variant rows grouped under their product: a "
            "row with no name of its own, such as one colour or size, belongs to the product it follows or shares "
            "a handle with)")


def size_words(size: int) -> str:
    """A file's size as a person reads it: "812 bytes", "19 KB", "1.2 MB", "48 MB" (1 KB = 1,024 bytes, as the
    upload limit counts them), never a raw byte count."""
    kb = MB // 1024  # MB: the unit the upload limit is said in
    if size < kb:
        return plural(size, "byte")
    if size < 1000 * kb:  # "1.0 MB", not "1,023 KB"
        return f"{round(size / kb):,} KB"
    return f"{size / MB:.1f} MB" if size < 10 * MB else f"{round(size / MB):,} MB"


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def when_words(stamp: str, now=None, zone=None) -> str:
    """A stored UTC time (ISO 8601) in this computer's local time, in plain words: "today 17:10",
    "yesterday 09:14", "2 Dec 09:14", "2 Dec 2025 09:14" (another year). ``now`` and ``zone`` (an aware
    datetime, a tzinfo) are for tests; by default the clock and the time zone of this computer."""
    import datetime as dt

    moment = dt.datetime.fromisoformat(stamp)
    if moment.tzinfo is None:  # stored in UTC, as every stamp of the workspace is
        moment = moment.replace(tzinfo=dt.UTC)
    moment = moment.astimezone(zone)
    today = (now or dt.datetime.now(dt.UTC)).astimezone(zone).date()
    clock = f"{moment:%H:%M}"
    if moment.date() == today:
        return f"today {clock}"
    if moment.date() == today - dt.timedelta(days=1):
        return f"yesterday {clock}"
    day = f"{moment.day} {MONTHS[moment.month - 1]}"  # not %b: the locale's month names, not the page's English
    return f"{day} {clock}" if moment.year == today.year else f"{day} {moment.year} {clock}"


def recent_line(size: int, used_at: str, now=None, zone=None) -> str:
    """What the Document page's recent list says after a file's name: "19 KB, last opened today 17:10"."""
    return f"{size_words(size)}, last opened {when_words(used_at, now, zone)}"


# Hebrew, Arabic (with its presentation forms), Syriac, Thaana and N'Ko letters: text a browser lays out right to left.
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2068", "\u2069"


def isolated(*texts: str) -> list[str]:
    """The user's texts, each in a bidi isolate when any of them is written right to left, so each keeps its place in
    the English sentence around it; unchanged otherwise (no invisible characters in a left-to-right line).

    Without: "Expected: **كوب حراري ستانلس** — “120”" showed as "Expected: 120“ — كوب حراري ستانلس”" (the number
    after Arabic letters joins their right-to-left run, and the dash and quotes between with it)."""
    if not any(RIGHT_TO_LEFT.search(text) for text in texts):
        return list(texts)
    return [f"{FIRST_STRONG_ISOLATE}{text}{POP_ISOLATE}" for text in texts]
