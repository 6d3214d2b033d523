"""A line of the user's file as a reader quotes it: without Markdown's marks, cut at a word, named by its label."""

from __future__ import annotations

import re

# What ends a sentence: ".", "!", "?", and Japanese's and Chinese's full-width "。", "！", "？".
FULL_WIDTH_STOPS = "。！？"
STOPS = ".!?" + FULL_WIDTH_STOPS
QUESTION_MARKS = "?？؟"  # and Arabic's


def is_sentence(text: str) -> bool:
    """Whether a short text ends as a statement does (".", "!", "。", "！"), not as a question or a title (a "?",
    or no stop at all)."""
    end = text.rstrip()[-1:]
    return bool(end) and end in STOPS and end not in QUESTION_MARKS


# A Markdown link or image, its words kept: "[the FAQ](../faq.md "FAQ")" reads "the FAQ". A shop page links its
# words, and a quote cut from the raw line showed half an address ("… konta](subscription-disabled.md)").
LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*(?:\s+\"[^\"\n]*\")?\)")
# An HTML tag in a Markdown line ("<a name=\"refunds\"></a>", "<b>"): markup, never the owner's words. A "<" not
# followed by a letter ("2 < 3") is text.
TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
LEAD = re.compile(r"^(?:[-+*>#]+|\d+[.)])\s+")  # a list bullet or number, a heading's or quote's lead


def plain(line: str) -> str:
    """A line without Markdown's marks: bold, code, a list bullet or number, a heading's or quote's lead; a link
    or an image as its words, an HTML tag not at all."""
    text = re.sub(r"(\*\*|__|`)", "", TAG.sub("", LINK.sub(r"\1", line))).strip()
    return LEAD.sub("", text)


def shown(line: str, limit: int = 90, marks: bool = False) -> str:
    """A line of the file as a reader quotes it: without Markdown's marks (kept with ``marks``: a line quoted for its
    script tag or link, which plain words would drop), cut at a word past ``limit``."""
    plain_text = LEAD.sub("", line.strip()) if marks else plain(line)
    if len(plain_text) <= limit:
        return plain_text
    cut = plain_text.rfind(" ", 0, limit)
    if cut <= limit // 2:
        cut = limit
        # Never half a web address: a screen turns it into a link to a page that does not exist.
        address = plain_text.rfind("://", 0, limit)
        if address != -1 and " " not in plain_text[address:limit]:
            before = plain_text.rfind(" ", 0, address)
            host_end = plain_text.find("/", address + 3)
            # Cut before the address, or, when it opens the line, after its host (a whole address too).
            cut = before if before != -1 else (host_end if host_end != -1 else limit)
    return plain_text[:cut].rstrip(" ,;:") + " …"


def line_label(line: str) -> str:
    """What a line is called: "Warranty" for "**Warranty:** 1 year"; empty for a sentence with no label.

    Only a short lead before a colon names a line; a paragraph is never quoted whole, and Markdown's
    marks (``**``, ``_``, a list bullet, a heading's ``#``) are not part of the name.
    """
    text = plain(line)
    lead, colon, _ = text.partition(":")
    lead = lead.strip()
    if not colon or not lead or len(lead) > 32 or len(lead.split()) > 4 or "@" in lead or "//" in text[: len(lead) + 3]:
        return ""
    return lead
