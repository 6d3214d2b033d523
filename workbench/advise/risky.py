"""The check-up's risky content: orders to a bot, code that would run in a web page, and links and images to
outside sites, each with its place in the user's file. Orders are found by ``workbench/advise/injection.py``.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from workbench.advise.injection import risky_lines
from workbench.advise.meaning import meaning_lines
from workbench.core.model import Document
from workbench.encode import started_encoder
from workbench.grade.places import Places

if TYPE_CHECKING:
    from workbench.encode.embedding import Encoder

OUTSIDE_LINK = re.compile(r"(?:https?:)?//[^\s)\"'<>\]]+", re.IGNORECASE)
HOST = re.compile(r"(?:https?:)?//(?:www\.)?([^/\s)\"'<>\]:?#]+)", re.IGNORECASE)

# Linear on any line (DESIGN.md, "Patterns on user text"): each scan stops at the next opening bracket, so
# a line of many unclosed "![" or "<img" is read once, not once from each of them to the line's end.
IMAGE = re.compile(r"!\[[^\[\]]*\]\(([^()]+)\)|<img\b[^<>]*?\bsrc\s*=\s*[\"']?([^\"'\s<>]+)", re.IGNORECASE)
MAY_LINK = re.compile(r"!\[|<img|//", re.IGNORECASE)  # what every match of IMAGE or OUTSIDE_LINK holds


@dataclass
class Finding:
    """A risky line: where it is and what it says."""

    line_number: int  # in the canonical text; ``where`` names the place in the user's file
    text: str
    kind: str  # "instruction" | "script" | "link" | "image"
    where: str = ""
    span: tuple[int, int] | None = None  # the line's offsets in the canonical text


def risky_findings(
    document: Document, places: Places, own: set[str], encoder: Encoder | None = None, meaning: bool | None = None
) -> list[Finding]:
    """Lines a bot could be tricked by or made to repeat: orders to a bot (by pattern, and by meaning as
    ``audit.audit`` says for ``meaning``), a web page's script links, and links or images to a host not in
    ``own`` (the shop's own)."""
    risky: list[Finding] = []

    def outside(target: str) -> bool:
        host = HOST.match(target.strip())
        return bool(host) and host.group(1).lower() not in own

    orders: dict[int, list[str]] = defaultdict(list)
    for number, kind in risky_lines(document.text):  # normalised first: see workbench/advise/injection.py
        orders[number].append(kind)
    if meaning is not False:
        reader = encoder if meaning and encoder is not None else None
        started = started_encoder()  # the process's model, if made: a word search imports none of its modules
        if meaning or (started is not None and started.loaded):
            from workbench.encode.embedding import get_encoder

            reader = reader or get_encoder  # called only when a line is a candidate: most files load no model
        for number in meaning_lines(document.text, reader) if reader is not None else ():
            if "instruction" not in orders[number]:
                orders[number].append("instruction")
    for link in document.risky_links:  # a web page's script links, which its conversion to Markdown drops
        risky.append(Finding(0, link, "script", "the page's source (not in the text it converts to)"))
    # Only a line holding "![", "<img" or "//" can hold an image or a link: the others are not read again (on
    # 200,000 products each line's two pattern scans took 5 s).
    lines = document.text.split("\n")
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    linked = {bisect.bisect_right(starts, match.start()) for match in MAY_LINK.finditer(document.text)}
    for number in sorted(linked | orders.keys()):
        line, start = lines[number - 1], starts[number - 1]
        found = list(orders.get(number, ()))
        images = {m.group(1) or m.group(2) for m in IMAGE.finditer(line)}
        found += ["image" for target in images if outside(target)]
        if not images and any(outside(m.group()) for m in OUTSIDE_LINK.finditer(line)):
            found.append("link")
        for kind in found:
            risky.append(Finding(number, line.strip(), kind, places.of((start, start + len(line))),
                                 (start, start + len(line))))
    return risky


def own_hosts(text: str) -> list[str]:
    """The shop's own site: a host that most of the file's links point to (at least 3 of them).

    A catalog's image links all point at the shop's own server; a link to another host in one
    line is the kind a bot could be tricked into repeating.
    """
    hosts = Counter(match.group(1).lower() for match in HOST.finditer(text))
    total = sum(hosts.values())
    return sorted(host for host, count in hosts.items() if count >= 3 and count * 2 >= total)
