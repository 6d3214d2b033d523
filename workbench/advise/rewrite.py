"""A bot-ready version of a file: the same facts, laid out so any cut keeps them with their product.

The rewrite is Markdown in which

- every product or section has its own heading (a spreadsheet's variant rows stay grouped under
  their product, as the loader read them; a heading repeated under several parents gets its
  parent's name in front);
- every line that more than one product shares word for word carries its product's name
  ("Aurora Ceiling Fan — Warranty: 1 year."), so a piece holding only that line still says
  whose it is;
- text under no heading gets one (named after the file);
- a section longer than the search model reads is split into parts under subheadings taken from
  the part's own first line.

Nothing is invented: every line of the original is copied as it is, only headings and product
names (both taken from the original) are added. ``tests/test_rewrite.py`` checks that each
original fact's text appears in the rewrite under the same product.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import PurePath

from workbench.core.model import Document, Question, Section, Settings
from workbench.core.wording import part_word, plural, verb
from workbench.cut.windows import WINDOW_SIZE, Fixed
from workbench.read.markdown import FENCE, closes_fence, is_decoration, parse_markdown
from workbench.run.names import lower_first, reranker_name, retriever_name

# all-MiniLM-L6-v2 reads at most 256 word pieces and ignores the rest; in English that is
# about 1,000 characters, so a longer section is split before the model cuts it off unseen.
MODEL_CHARACTERS = 1000
LIST_OR_QUOTE = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+|\s*>\s*)")
MEANINGFUL = re.compile(r"[^\W_]")
DASH = " — "


@dataclass
class Rewrite:
    text: str
    named_lines: int = 0  # shared lines that now carry their product's name
    titled_preamble: str = ""  # the heading given to text under no heading, if there was any
    split_sections: list[str] = field(default_factory=list)  # sections cut into parts
    part: str = "product"  # what one of the file's parts is called (``DocumentKind.part``): a terms page's are sections

    def summary(self) -> list[str]:
        """What changed, in plain words."""
        out = []
        if self.named_lines:
            out.append(f"{plural(self.named_lines, 'line')} shared word for word by several {self.part}s now "
                       f"{verb(self.named_lines, 'names its', 'name their')} {self.part}.")
        if self.titled_preamble:
            out.append(f"The text under no heading now sits under “{self.titled_preamble}”.")
        for title in self.split_sections:
            out.append(f"“{title}” was longer than the search model reads, so it is split into parts.")
        return out or ["Every section already had its own heading and no line was shared: only the layout changed."]


def what_the_rewrite_does(document: Document) -> str:
    """The bot-ready panel's promise, in the file's own noun for its parts and true to ``rewrite``: its only
    additions are headings (a part's own name, or the file's name over text under no heading) and, on a line several
    parts share, the part's name."""
    part, parts = document.form.part, document.form.parts()
    return (f"The same facts, laid out so that wherever a bot cuts, each fact stays with its {part}: every {part} has "
            f"its own heading, and every line several {parts} share word for word now names its {part}. The only "
            f"words added are headings and {part} names, taken from your file or its name.")


def _normal(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


def _body(document: Document, section: Section) -> list[str]:
    """The section's own lines after its heading, without blank lines at either end."""
    start = section.heading_span[1] if section.heading else section.span[0]
    lines = document.text[start : section.span[1]].split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _is_statement(line: str) -> bool:
    text = _normal(line)
    return bool(text) and bool(MEANINGFUL.search(text)) and not is_decoration(line) and not text.startswith("|")


def _with_name(line: str, name: str) -> str:
    """``name — line``, after any list marker or quote sign, so a list stays a list."""
    marker = LIST_OR_QUOTE.match(line)
    head = marker.group(1) if marker else ""
    return head + name + DASH + line[len(head) :].lstrip()


def title_from_name(name: str) -> str:
    stem = re.sub(r"[_\-]+", " ", PurePath(name).stem).strip()
    return (stem[:1].upper() + stem[1:]) if stem else "About this document"


def _label(lines: list[str], name: str, width: int = 60) -> str:
    """A part's subheading: its own first line, without list or emphasis marks, cut at a word. A line that
    carries the product's ``name`` (a shared line, named) is labelled without it, or the heading said the name
    twice; a line that is only a link (``image1_src: https://…``) says nothing a reader looks for. So the first
    line of the part's own is taken, else the first without a link, else the first."""
    named = name + DASH
    written = [LIST_OR_QUOTE.sub("", line) for line in lines if line.strip()]
    unlinked = [line for line in written if "://" not in line]
    # A line of its own says more than one the part shares with other products (named, "Kettle — weight_unit:
    # lb", which headed 28 of the Spree export's 95 parts).
    own = [line for line in unlinked if not line.startswith(named)]
    first = (own or unlinked or written or [""])[0].removeprefix(named)
    text = _normal(re.sub(r"[*_`>#|]+", " ", first))
    if len(text) <= width:
        return text
    return text[:width].rsplit(" ", 1)[0] + "…"


def _units(lines: list[str]) -> list[list[str]]:
    """The lines as units that are never split: one line, or a whole fenced code block (```` ``` ```` or
    ``~~~`` to its closing fence, blank lines included), so no part opens a fence that the next one closes."""
    units: list[list[str]] = []
    fence = ""
    for line in lines:
        if fence:
            units[-1].append(line)
            if closes_fence(fence, line):
                fence = ""
        else:
            units.append([line])
            opener = FENCE.match(line)  # as the Markdown reader finds fences, so the rewrite reads back the same
            fence = opener.group(1) if opener else ""
    return units


def _code(lines: list[str]) -> set[int]:
    """Indices of the lines of fenced code blocks, fences included: never named, never changed. A shared
    "```console" line named "Access PiKVM — ```console" stopped opening its block while its closing fence
    still opened one, and every heading after it became code: the bot-ready file lost its sections."""
    code, at = set(), 0
    for unit in _units(lines):
        if FENCE.match(unit[0]):
            code.update(range(at, at + len(unit)))
        at += len(unit)
    return code


def _parts(lines: list[str], limit: int) -> list[list[str]]:
    """Split lines into parts of at most ``limit`` characters: at blank lines first, then at line ends,
    never inside a fenced code block (a longer one stays whole)."""
    if len("\n".join(lines)) <= limit:
        return [lines]
    blocks: list[list[list[str]]] = [[]]  # paragraphs, as their units
    for unit in _units(lines):
        if len(unit) > 1 or unit[0].strip():
            blocks[-1].append(unit)
        elif blocks[-1]:
            blocks.append([])
    pieces: list[list[str]] = []
    for block in (b for b in blocks if b):
        text = [line for unit in block for line in unit]
        if len("\n".join(text)) <= limit:
            pieces.append(text)
        else:  # one long block: its units, a unit longer than the limit staying whole
            pieces.extend(block)
    parts: list[list[str]] = []
    for piece in pieces:
        if parts and len("\n".join(parts[-1])) + 2 + len("\n".join(piece)) <= limit:
            parts[-1] += ["", *piece]
        else:
            parts.append(list(piece))
    return parts


def rewrite(document: Document, limit: int = MODEL_CHARACTERS) -> Rewrite:
    """The bot-ready Markdown of ``document``."""
    sections = document.sections
    bodies = {section.id: _body(document, section) for section in sections}
    holders: dict[str, set[str]] = defaultdict(set)
    code = {section.id: _code(bodies[section.id]) for section in sections}
    for section in sections:
        for number, line in enumerate(bodies[section.id]):
            if section.heading and _is_statement(line) and number not in code[section.id]:
                holders[_normal(line)].add(section.id)
    shared = {line for line, ids in holders.items() if len(ids) > 1}
    repeated = Counter(section.heading for section in sections if section.heading)
    top = min((section.level for section in sections if section.heading), default=1)

    result = Rewrite("", part=document.form.part)
    out: list[str] = []
    for section in sections:
        if section.heading:
            title = section.heading
            if repeated[title] > 1 and section.path:
                title = section.path[-1] + DASH + title
            level = section.level
        else:
            title = result.titled_preamble = title_from_name(document.name)
            level = top
        lines = []
        for number, line in enumerate(bodies[section.id]):
            if _normal(line) in shared and number not in code[section.id]:
                line = _with_name(line, title)
                result.named_lines += 1
            lines.append(line)
        out.append("#" * level + " " + title)
        parts = _parts(lines, limit) if lines else []
        if len(parts) > 1:
            result.split_sections.append(title)
        labels: Counter[str] = Counter()
        for number, part in enumerate(parts):
            if number:
                # Two parts opening on the same line (a variant's row in one price list, then in another
                # currency's) get numbered headings, not one heading over different rows.
                label = _label(part, title)
                labels[label] += 1
                label += f" ({labels[label]})" if labels[label] > 1 else ""
                out += ["", "#" * min(level + 1, 6) + " " + title + DASH + label]
            out += part
        out.append("")
    result.text = "\n".join(out).rstrip("\n") + "\n"
    return result


def rewrite_name(name: str) -> str:
    return PurePath(name).stem + ".bot-ready.md"


def rewritten_document(document: Document) -> Document:
    """The rewrite read back as a document, named ``{stem}.bot-ready.md``."""
    return parse_markdown(rewrite(document).text, rewrite_name(document.name))


@dataclass(frozen=True)
class Recommended:
    """What the verdict's recommended setup already gets from the original file: the bar a rewrite must pass
    before the panel tells the owner to hand it over."""

    name: str  # the setup's display name ("Cut at headings, BM25 word search")
    clean: int
    answerable: int


@dataclass
class Before:
    """The side-by-side grade: the same questions on the original and on its rewrite."""

    size: int
    answerable: int
    original: dict[str, int]  # grade -> count, plus "decoy" for misses caused by another product's words
    rewrite: dict[str, int]

    long_sections: int = 0  # sections of the rewrite longer than one window
    sections: int = 0
    kind: str = "spreadsheet"  # the document's kind: its parts are products or sections (wording.part_word)
    retriever: str = "keyword"  # the search and re-check both files were graded with (ids)
    reranker: str = "none"
    fixed: dict[str, int] | None = None  # the file with the to-do's fixes, graded the same way

    def under(self) -> str:
        """ "300-character windows, BM25 word search, not re-checked": what both files were graded with."""
        return (f"{self.size}-character windows, {lower_first(retriever_name(self.retriever))}, "
                f"{lower_first(reranker_name(self.reranker))}")

    def sentence(self) -> str:
        said = (
            f"your file: {self.original['clean']} of {self.answerable} clean with {self.under()} "
            f"→ bot-ready file: {self.rewrite['clean']} of {self.answerable}"
        )
        if self.answerable and not self.gains:
            # Said, not left as a bare "0 → 0" (or a loss as "no gain"): the owner should know why and what helps.
            said += ". " + self._why_no_gain("No gain" if self.rewrite["clean"] == self.original["clean"] else "Worse")
        return said

    def _why_no_gain(self, verdict: str) -> str:
        part, parts = part_word(self.kind), part_word(self.kind, plural=True)
        if self.long_sections * 2 >= self.sections:
            # The bot-ready copy's sections (a long one split in parts), not the file's: "21 of 23" beside a
            # Document page that said 11 sections read as a miscount.
            return (f"{verdict} with windows this small: {self.long_sections} of the bot-ready copy's {self.sections} "
                    f"parts under a heading are longer than {self.size} characters, so a window seldom holds a "
                    f"{part}'s name with its fact. Cutting at headings keeps them together (see the recommendation "
                    "above).")
        return (f"{verdict} with windows this small: most of this file's sections are shorter than {self.size} "
                f"characters, so each window takes in several {parts} whatever their lines say, and answers come out "
                f"mixed. Cutting at headings keeps each {part} apart (see the recommendation above).")

    @property
    def gains(self) -> bool:
        """The bot-ready file answers more questions cleanly than the original with these windows: only then is it
        offered (the sample's went 0 → 0 of 22 and was offered for download all the same)."""
        return self.rewrite["clean"] > self.original["clean"]

    def not_offered(self) -> str:
        """Why the app offers no bot-ready file, with the figures that decided it."""
        part, parts = part_word(self.kind), part_word(self.kind, plural=True)
        mine, ready = self.original["clean"], self.rewrite["clean"]
        than = "no more than" if ready == mine else "fewer than"
        if not self.answerable:
            return (f"Not offered: a bot-ready copy of your file (every {part} under its own heading) can only be "
                    "judged on questions your file answers, and you have none yet.")
        said = (f"Tried on your file and not offered: a bot-ready copy, with every {part} under its own heading and "
                f"each line several {parts} share naming its {part}, answers {ready} of {self.answerable} of your "
                f"questions cleanly with {self.under()}, {than} your own file ({mine} of {self.answerable}).")
        return f"{said} {self._why_no_gain('Nothing to gain' if ready == mine else 'Worse')}"

    def hand_over(self, recommended: Recommended | None = None) -> str:
        """What to do with the bot-ready file, in one sentence that agrees with the grades beside it: "give it
        to whoever builds your bot" only when it answered more questions cleanly than the original, and more
        than the ``recommended`` setup already gets from the original as it is. On the Spree export it said so
        of a rewrite that went from 10 to 12 of 43 with 300-character windows and BM25, while the recommended
        setup answered 41 of 43 from the file as it was. Said only of a file that ``gains``: one that does not is
        not offered (``not_offered``)."""
        ready, gained = self.rewrite["clean"], self.rewrite["clean"] - self.original["clean"]
        measured = (f"With {self.under()}, it answers {ready} of {self.answerable} of your questions cleanly, "
                    f"{gained} more than your own file")
        if recommended is None or not recommended.answerable:
            return f"{measured}: give this file to whoever builds your bot."
        setup = lower_first(recommended.name)
        if ready * recommended.answerable <= recommended.clean * self.answerable:  # no better a share
            return (f"{measured}; but your own file as it is already answers {recommended.clean} of "
                    f"{recommended.answerable} cleanly with the recommended setup ({setup}). Keep your file with that "
                    f"setup: the bot-ready file helps only a bot that must cut into {self.size}-character windows.")
        return (f"{measured}, and more than the {recommended.clean} of {recommended.answerable} your own file gets "
                f"with the recommended setup ({setup}): give this file to whoever builds your bot.")

    @property
    def worse(self) -> bool:
        """The bot-ready file answers fewer questions cleanly than the original, with these windows."""
        return self.rewrite["clean"] < self.original["clean"]

    def line(self, which: str) -> str:
        """ "6 clean, 0 mixed, 26 missed", and how many misses another part's identical line caused when any did:
        "(0 because of another section's identical line)", said twice in one caption, was noise in brackets."""
        counts = {"original": self.original, "fixed": self.fixed}.get(which) or self.rewrite
        said = f"{counts['clean']} clean, {counts['mixed']} mixed, {counts['missed']} missed"
        if counts.get("refused"):  # an answerable question the bot handed to a person (the run's refusal level)
            said += f", {counts['refused']} wrongly refused"
        if counts["decoy"]:
            said += f" ({counts['decoy']} because of another {part_word(self.kind)}'s identical line)"
        return said


def grade_rewrite(document: Document, questions: list[Question], size: int = WINDOW_SIZE, encoder_factory=None,
                  base: Document | None = None, retriever: str = "keyword", reranker: str = "none",
                  fixed: Document | None = None, threshold: float | str | None = None) -> Before:
    """Grade the same questions on the original and on its rewrite, with windows of ``size``, under ``retriever``
    and ``reranker`` (the app passes its verdict's when they need no model, so the two say the same thing).

    The golden questions resolve against the rewrite because it keeps every product's name. With ``base`` (a
    knowledge base holding ``document`` as one of its files), the file is graded in the base: the base as it is,
    then the base with the rewrite in the file's place, under the file's name. ``fixed``: the file with the
    to-do's fixes (``advise/proof.py``), graded the same way as a third row. ``threshold``: the run's refusal
    level (the app passes its verdict's), so "your file" is the verdict's figure for the same windows: without it a
    question the verdict's bot refused counted clean here (walk46: 4 of 14 beside the verdict's 3 of 14).
    """
    from dataclasses import replace

    from workbench.run.evaluate import evaluate

    settings = Settings(strategies=[Fixed.id], retrievers=[retriever], rerankers=[reranker], size=size,
                        threshold=threshold)
    counts, answerable = [], []
    ready = rewritten_document(document)
    graded = (document, ready)
    if base is not None:
        from workbench.read.base_of_files import combine

        placed = replace(ready, name=document.name)
        graded = (base, combine([placed if part.name == document.name else part.document for part in base.files]))
    elif fixed is not None:
        graded = (document, ready, fixed)
    for doc in graded:
        run = evaluate(doc, questions, settings, encoder_factory=encoder_factory).runs[0]
        answerable.append(run.answerable)
        grades = {grade: run.counts[grade] for grade in ("clean", "mixed", "missed")}
        if threshold is not None:  # answerable questions the run's refusal level handed to a person
            grades["refused"] = sum(1 for r in run.per_question if r.grade == "refused"
                                    and r.question.answerable)
        grades["decoy"] = sum(1 for r in run.per_question if r.grade == "missed" and r.reason == "decoy")
        counts.append(grades)
    sections = [s for s in ready.sections if s.facts]
    long = sum(1 for s in sections if s.span[1] - s.span[0] > size)
    return Before(size, answerable[0], counts[0], counts[1], long, len(sections), document.kind, retriever, reranker,
                  counts[2] if len(counts) > 2 else None)
