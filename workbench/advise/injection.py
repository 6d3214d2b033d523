"""The check-up's rule for text that gives a bot orders or would run as code in a browser.

A phrase matched with literal single spaces is easy to slip past (a double or no-break space,
a zero-width character, full-width letters, an HTML entity), so every line is normalised first:
HTML entities decoded, Unicode NFKC, zero-width and soft-hyphen characters removed, runs of
blank space made one space. Lines are then joined, so an order wrapped over two lines or hidden
in a multi-line HTML comment is found too, and reported at the line where it starts.
"""

from __future__ import annotations

import bisect
import html
import re
import unicodedata

# Zero-width spaces and joiners, word joiner, BOM, soft hyphen, Mongolian vowel separator: invisible to a
# reader, but they split a word for a pattern.
INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_GAP = r"(?:[^\w\n]|\n(?!\n))+"  # what separates two words: spaces, punctuation, one line break (not a blank line)
_WORDS = rf"(?:{_GAP}\w+){{0,4}}?{_GAP}"  # up to four more words in between ("all of the", "everything you were")

ORDERS = re.compile(
    "|".join(
        (
            # "ignore/forget/disregard … previous/above/prior … (instructions)"
            rf"\b(?:ignore|forget|disregard|override|bypass)(?:{_WORDS}|{_GAP})"
            r"(?:previous|prior|above|earlier|preceding|foregoing|all (?:your|the|of the) (?:instructions|rules)"
            r"|(?:your|the|these|those|my) (?:instructions|rules|guidelines|prompt|directions))\b",
            # "reveal/show/print … your/the system … prompt/instructions"
            rf"\b(?:reveal|show|print|repeat|output|display|tell|share|leak|dump|give|write out)(?:{_WORDS}|{_GAP})"
            r"(?:your|the system|the hidden|the initial|the original|the secret|the full)"
            r"(?: \w+)? (?:prompt|instructions|rules|guidelines|configuration|system message)\b",
            # role prefixes at the start of a line or a cell ("SYSTEM:", or "system: you …"), and chat-template
            # markers; a spreadsheet column called "System" ("System: Android") is not one
            r"(?:^|\n|: )[^\w\n]{0,4}(?-i:SYSTEM|ASSISTANT|DEVELOPER)\s*:",
            r"(?:^|\n)[^\w\n]{0,4}(?:system|assistant|developer)\s*:\s*(?:you|ignore|forget|disregard|reveal"
            r"|always|never|do not|don't)\b",
            r"<\|(?:im_start|im_end|system|assistant|user)\|>|\[/?INST\]|<</?SYS>>",
            r"\byou are now\b|\bsystem prompt\b|\bact as (?:a|an) |\bnew instructions\s*:|\bfrom now on,? you\b",
            r"\bpretend (?:to be|you are)\b|\bdo not tell the (?:user|customer)\b",
        )
    ),
    re.IGNORECASE,
)
# Browsers ignore blank space inside a URL's scheme, so "java script:" runs too.
SCRIPT = re.compile(
    r"<\s*/?\s*script\b|<\s*(?:iframe|object|embed)\b"
    r"|<[a-z][^>\n]*?[\s/\"']on[a-z]{3,}\s*=|\bon(?:error|load|click|mouseover|focus|begin)\s*="
    r"|\bj\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t\s*:|\bvbscript\s*:|\bdata\s*:\s*text/html",
    re.IGNORECASE,
)


def normalise(line: str) -> str:
    """One line as a pattern should see it: entities decoded, NFKC, invisible characters dropped, spaces single."""
    if line.isascii() and "&" not in line:  # most lines: no entity, NFKC changes no ASCII, nothing invisible
        return " ".join(line.split())
    line = unicodedata.normalize("NFKC", html.unescape(line))
    line = INVISIBLE.sub("", line)
    return re.sub(r"\s+", " ", line).strip()


def risky_lines(text: str) -> list[tuple[int, str]]:
    """``(line number from 1, kind)`` for each line where orders to a bot ("instruction") or browser code
    ("script") start; one finding per line and kind, in line order."""
    lines = [normalise(line) for line in text.split("\n")]
    joined = "\n".join(lines)
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    found: dict[tuple[int, str], None] = {}
    for kind, pattern in (("instruction", ORDERS), ("script", SCRIPT)):
        for match in pattern.finditer(joined):
            at = match.start() + (joined[match.start()] == "\n")  # a role prefix's match starts at the newline
            found[(bisect.bisect_right(starts, at), kind)] = None
    # Inside an HTML comment the words are hidden from a person reading the page but not from a bot:
    # look at each comment's text on its own too, so an order split by the comment's markers is found.
    for comment in re.finditer(r"<!--(.*?)(?:-->|$)", joined, re.DOTALL):
        inner = re.sub(r"\s+", " ", comment.group(1))
        if ORDERS.search(inner):
            found[(bisect.bisect_right(starts, comment.start()), "instruction")] = None
    return sorted(found)
