"""A to-do list for the file: each edit, where it goes in the user's file, and the questions it would fix.

Every question that is not clean under the recommended setup is explained by what the
file shows (a line shared word for word, a word the customer uses that the product's
text lacks, a section too long, text under no heading), and the check-up's findings join
the same list with the questions each one touches. Items that would fix the most
questions come first.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from workbench.advise.audit import Audit
from workbench.advise.rewrite import DASH
from workbench.advise.shared_lines import SharedLine, column_types
from workbench.core.model import Document, Fact, ResolvedQuestion, Section, Span
from workbench.core.quoting import line_label, shown
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.core.wording import lower_first, part_word, possessive
from workbench.grade.confidence import STOP_WORDS as QUESTION_STOP_WORDS
from workbench.grade.places import Places, join_places, row_runs
from workbench.read.questions import humanize
from workbench.read.resolve import fold
from workbench.run.estimate import uses_model
from workbench.run.names import strategy_name
from workbench.search.retrievers import english_stop_words

# The to-do suggests words a customer uses that the text lacks; a function word ("just", "because") is never one,
# nor a word that frames the question or fills it out ("likely", "cause", "try", "long"): adding those to a line
# makes every line match every question a little more, and no answer more findable.
FRAMING_WORDS = frozenset(
    """come comes sell sells offer offers give available use likely cause causes caused reason long longer try
    tried trying problem problems issue issues happen happens happened work works working make makes made able
    possible usually normally actually really still ever exactly happen way ways kind sort type lot bit good best
    right wrong thing stuff say says said mean means write tell ask asked help"""
    .split()
)


@functools.cache
def _not_content() -> frozenset[str]:
    return english_stop_words() | QUESTION_STOP_WORDS | FRAMING_WORDS


@functools.cache
def _stemmer():
    """English Snowball (Porter2) from ``snowballstemmer``: a small, kept, pure-Python library with no model or data
    files, so "returning" is found in "returned" and "batteries" in "battery" (stripping -s/-es missed both)."""
    import snowballstemmer  # a few milliseconds, but only the to-do needs it

    return snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return _stemmer().stemWord(word)


WORD = re.compile(r"[^\W\d_]{3,}")
# Harm order among items that fix no question: what misleads a bot most comes first.
KIND_ORDER = ("shared", "words", "placeholder", "long", "unheaded", "missing", "refusal", "risky", "names",
              "store-wide", "other")


@dataclass
class Todo:
    kind: str
    edit: str  # what to change, in the imperative
    why: str  # the evidence
    where: str = ""  # in the user's file: rows and columns, or lines
    questions: list[int] = field(default_factory=list)  # golden questions it touches (rows of the questions file)
    fixes: list[int] = field(default_factory=list)  # of those, not clean under the recommended setup
    spans: list[Span] = field(default_factory=list)  # the places of ``where`` as offsets (see todo_records)

    @property
    def affects(self) -> str:
        if not self.questions:
            return "affects none of your questions yet"
        numbers = ", ".join(str(n) for n in self.questions[:12]) + (" …" if len(self.questions) > 12 else "")
        text = f"affects question{'s' if len(self.questions) > 1 else ''} {numbers}"
        if self.fixes:
            text += f" ({len(self.fixes)} not clean now)"
        return text


def content_words(text: str) -> list[str]:
    skip = _not_content()
    return [w for w in WORD.findall(text.lower()) if w not in skip]


def _stems(word: str) -> set[str]:
    """A word's Snowball stem: "colours" matches "colour" but not "colors", "returning" matches "returned"."""
    return {stem(word)}


def missing_words(question: str, section_text: str, name: str, others: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The question's own words that appear nowhere in the product's text (nor in its name), less any word that
    names, or is part of the name of, another product or section (``others``): adding "pro" to the Robot Vacuum's
    line while a "Robot Vacuum Pro" exists is the very confusion the question tests."""
    have = set()
    for word in content_words(section_text + " " + name):
        have |= _stems(word)
    taken = set()
    for other in others:
        for word in WORD.findall(fold(other).lower()):
            taken |= _stems(word)
    missing = []
    for word in content_words(question):
        stems = _stems(word)
        if not (stems & have) and not (stems & taken) and word not in missing:
            missing.append(word)
    return missing


class _Builder:
    def __init__(self, evaluation: Evaluation, run: Run, audit: Audit, baseline: Run | None) -> None:
        self.evaluation = evaluation
        self.document = evaluation.document
        self.run = run
        self.audit = audit
        self.baseline = baseline
        self.places = Places(self.document)
        self.items: dict[tuple, Todo] = {}
        self._names: list[tuple[str, str]] | None = None
        self._answers: Counter[str] | None = None
        self.types = column_types(self.document)  # columns the shop's system reads: never typed into
        self.noun = part_word(self.document.kind)  # a manual's parts are sections, a sheet's products
        self.number = {id(r.question): r.question.row or i + 1 for i, r in enumerate(run.per_question)}
        self.results = {id(r.question): r for r in run.per_question}
        self.resolved = {id(q.question): q for q in evaluation.questions}
        # Whether the recommended setup reads with the language model (and so has its window).
        self.model_reads = uses_model(replace(evaluation.settings, retrievers=[run.retriever], rerankers=[run.reranker]))

    def add(self, key: tuple, make, question: int | None = None, fixes: bool = False) -> Todo:
        item = self.items.get(key)
        if item is None:
            item = self.items[key] = make()
        if question is not None and question not in item.questions:
            item.questions.append(question)
        if fixes and question is not None and question not in item.fixes:
            item.fixes.append(question)
        return item

    # --- what each non-clean question shows -------------------------------------------------------

    def explain(self, result: QuestionResult) -> None:
        number = self.number[id(result.question)]
        if not result.answerable:
            if result.grade == "false-answer":
                self.add(("refusal",), self._refusal, number, fixes=True)
            return
        resolved = self.resolved.get(id(result.question))
        if resolved is None or resolved.section_id is None:
            return
        section = self.document.section(resolved.section_id)
        found = False
        facts = self._answer_facts(resolved)
        for line in [re.sub(r"\s+", " ", self.document.slice(f.span)).strip() for f in facts]:
            shared = self._shared(line)
            if shared is not None:
                self.add(("shared", shared.line), lambda s=shared: self._shared_item(s), number, fixes=True)
                found = True
        text = " ".join(self.document.slice(f.span) for f in section.facts)
        words = missing_words(result.question.question, text, section.heading, self._other_names(section))
        if words:
            fact = facts[0] if facts else None
            self.add(("words", section.id, tuple(words)), lambda: self._words_item(section, words, fact), number, True)
            found = True
        size = dict(self.audit.long_sections).get(section.title) if self.model_reads else None
        if size and self.document.kind == "spreadsheet":  # one item for the whole sheet: see _long_rows_item
            self.add(("long", "rows"), self._long_rows_item, number, True)
            found = True
        elif size:
            self.add(("long", section.title), lambda: self._long_item(section.title, size, section), number, True)
            found = True
        if not section.heading:
            self.add(("unheaded",), self._unheaded_item, number, fixes=True)
            found = True
        if not found:
            self.add(("other", section.id), lambda: self._other_item(section, result), number, fixes=True)

    def _other_names(self, section: Section) -> list[str]:
        """The headings of every other product or section, less the words of this one's own name and path."""
        own = {stem(w) for name in (section.heading, *section.path) for w in WORD.findall(fold(name).lower())}
        if self._names is None:
            self._names = [(s.id, s.heading) for s in self.document.sections if s.heading]
        out = []
        for section_id, heading in self._names:
            if section_id != section.id:
                words = [w for w in WORD.findall(fold(heading).lower()) if stem(w) not in own]
                if words:
                    out.append(" ".join(words))
        return out

    def _answer_facts(self, resolved: ResolvedQuestion) -> list[Fact]:
        """The line (or cell) holding the answer's first occurrence."""
        facts = []
        for start, end in resolved.answer_spans[:1]:
            for fact in self.document.section(resolved.section_id).facts:
                if fact.span[0] <= start and end <= fact.span[1]:
                    facts.append(fact)
        return facts

    def _shared(self, line: str) -> SharedLine | None:
        for shared in (*self.audit.shared_lines, *self.audit.placeholders, *self.audit.store_wide):
            if shared.line == line:
                return shared
        return None

    # --- items ------------------------------------------------------------------------------------

    def _shared_item(self, shared: SharedLine) -> Todo:
        names = ", ".join(shared.sections[:6]) + (f" and {len(shared.sections) - 6} more" if len(shared.sections) > 6 else "")
        key = shared.key or "the line"
        noun = self.noun
        example = (f"“{shared.sections[0]} {humanize(key)}: {shared.value}”" if shared.key
                   else f"“{shared.sections[0]}: {shown(shared.line, 60)}”")
        why = (
            f"“{shown(shared.line)}” is word for word the same under {len(shared.sections)} {noun}s ({names}); a piece "
            f"holding this line but not the {noun}'s name lets a bot quote it for the wrong {noun}."
        )
        if shared.harm == "varies":
            why += f" Other {noun}s have a different “{key}” line, so a mix-up gives a wrong answer."
        stop = "" if example[-2] in ".!?" else "."
        typed = self.types.get(shared.key) if shared.key else None
        if self.document.kind == "spreadsheet" and not typed and shared.key and len(shared.value) <= 60:
            typed = "set values"  # a short value repeated word for word under several products: an option, a facet
        if self.document.kind == "spreadsheet" and typed:
            # Never text typed into a cell the shop's system reads: the bot-ready copy names the product instead.
            bot_ready = f"“{shared.sections[0]}{DASH}{shown(shared.line, 60)}”"
            edit = (f"Hand the bot the bot-ready copy (Results: “Download the bot-ready file”, or python -m workbench "
                    f"rewrite), which puts the product's name on each such line, e.g. {bot_ready}. Keep your shop's "
                    "export as it is.")
            why += (f" The “{key}” column holds {typed} that your shop's system reads: text typed into it would break "
                    "the export or the import.")
        else:
            edit = f"Name the {noun} on the line, e.g. {example}{stop}"  # "section" in a document
        return Todo("shared", edit, why, join_places(shared.places), list(shared.questions),
                    spans=list(shared.spans))

    def _text_column(self, section: Section, words_count: int) -> str | None:
        """The product's free-text column with the most text (a description), where words can be added safely."""
        text = [f for f in section.facts if f.column and f.column not in self.types]
        return max(text, key=lambda f: f.span[1] - f.span[0]).column if text else None

    def _words_item(self, section: Section, words: list[str], fact: Fact | None) -> Todo:
        quoted = ", ".join(f"“{w}”" for w in words)
        plural = len(words) > 1
        line = ""
        if fact is not None:
            label = fact.column or line_label(self.document.slice(fact.span))
            line = f" “{label}” line" if label else " line that holds the answer"
        owner = possessive(section.title) if line else section.title
        edit = f"Add the word{'s' if plural else ''} {quoted} to {owner}{line}, or a synonym line."
        where = self.places.of_fact(fact) if fact is not None else self._section_place(section)
        typed = self.types.get(fact.column) if fact is not None and fact.column else None
        if typed:  # the answer sits in a cell the shop's system reads: the words go into a text column, never there
            text = self._text_column(section, len(words))
            keep = f"leave the “{fact.column}” cell as it is: the column holds {typed} your shop's system reads"
            if text:
                edit = f"Add the word{'s' if plural else ''} {quoted} to {possessive(section.title)} “{text}” text; {keep}."
                row = next((f.row for f in section.facts if f.column == text), None)
                where = f"row {row}, column {text}" if row else where
            else:
                edit = (f"Tell the bot in its instructions that {quoted} {'mean' if plural else 'means'} "
                        f"{possessive(section.title)} “{fact.column}” column; {keep}.")
        return Todo(
            "words",
            edit,
            f"Customers ask with {quoted}, but {possessive(section.title)} text never says {'them' if plural else 'it'}, "
            + ("so the meaning-based search has only the rest of the question to go on, and a word search "
               "misses the answer outright (as “colours” misses a column called “colors”)."
               if self.model_reads else
               "so a search for the question's words misses the answer (as “colours” misses a column called “colors”)."),
            where,
            spans=[fact.span] if fact is not None else section_spans(self.document, section),
        )

    def _long_item(self, title: str, pieces: int, section: Section | None = None) -> Todo:
        why = (f"It is {pieces} word pieces (words or parts of words) long; the meaning-based search model reads "
               f"{self.audit.window} at a time, so it reads the section in parts, and one line in it competes with "
               "the whole section.")
        return Todo("long", f"Split {title} under subheadings.", why, self._section_place(section) if section else "",
                    spans=section_spans(self.document, section) if section else [])

    def _answer_columns(self) -> Counter[str]:
        """The columns holding the answer of a golden question, and to how many."""
        if self._answers is None:
            self._answers = Counter()
            by_section = {}
            for resolved in self.evaluation.questions:
                if resolved.section_id is None:
                    continue
                columns = set()
                for section_id in resolved.sources:  # the answer's first place in each source, as _answer_facts
                    facts = by_section.setdefault(section_id, self.document.section(section_id).facts)
                    spans = [span for span in resolved.answer_spans if any(f.span[0] <= span[0] < f.span[1] for f in facts)]
                    columns |= {f.column for f in facts for a, b in spans[:1]
                                if f.column and f.span[0] <= a and b <= f.span[1]}
                self._answers.update(columns)
        return self._answers

    def _long_rows_item(self) -> Todo:
        """A spreadsheet's long products as one item: it has no subheadings to add, and shortening one cell rarely
        brings a product with many variant rows under the window. What makes them long is a few columns; only
        a column that holds no golden question's answer is ever named as one to leave out of the bot's copy."""
        titles = [title for title, _ in self.audit.long_sections]
        wanted = set(titles)
        by_column: Counter[str] = Counter()
        for section in self.document.sections:
            if section.title in wanted:
                for fact in section.facts:
                    by_column[fact.column or "?"] += fact.span[1] - fact.span[0]
        total = sum(by_column.values()) or 1
        answers = self._answer_columns()
        heaviest = [f"{column} ({count / total:.0%} of their text)" for column, count in by_column.most_common()
                    if column not in answers][:3]
        kept = [column for column, _ in by_column.most_common() if column in answers][:3]
        names = ", ".join(titles[:5]) + (f" and {len(titles) - 5} more" if len(titles) > 5 else "")
        cut = "have it cut with “Headings in model-sized parts”, which splits a product at its rows"
        keep = (f" Keep {', '.join(kept)}: {'they hold' if len(kept) > 1 else 'it holds'} the answers to your questions."
                if kept else "")
        if heaviest:
            edit = (f"Give the bot a copy without the columns that hold none of your questions' answers, if no customer "
                    f"asks about them: {', '.join(heaviest)}; or {cut}.{keep}")
        else:
            edit = f"{cut[0].upper()}{cut[1:]}: every column that makes them long holds an answer to your questions."
        return Todo(
            "long",
            edit,
            f"{len(titles)} product(s) ({names}) are longer than the {self.audit.window} word pieces (words or parts "
            "of words) the meaning-based search model reads at a time, so it reads each in parts and one row "
            "competes with the whole product.",
            spans=[span for s in self.document.sections if s.title in wanted for span in section_spans(self.document, s)],
        )

    def _unheaded_item(self) -> Todo:
        first = shown(self.audit.unheaded_facts[0], 80) if self.audit.unheaded_facts else ""
        preamble = next((s for s in self.document.sections if not s.heading and s.facts), None)
        return Todo(
            "unheaded", "Add a heading above the text that sits under none.",
            f"{len(self.audit.unheaded_facts)} line(s) sit under no heading" + (f", e.g. “{first}”" if first else "")
            + "; a piece of it cannot say what it is about.",
            self._section_place(preamble) if preamble else "",
            spans=section_spans(self.document, preamble) if preamble else [],
        )

    def _other_item(self, section: Section, result: QuestionResult) -> Todo:
        chunks = self.evaluation.chunks[self.run.strategy]
        top = chunks[result.ranking[0][0]] if result.ranking else None
        from_where = ""
        if top is not None:  # the piece's own section and place, both read at the piece's first offset
            lies_in = self.places.section_at(top.spans[0][0])
            place = self.places.of(top.spans[0])
            from_where = f"{lies_in.title} ({place})" if lies_in is not None and lies_in.heading else place
        return Todo(
            "other", f"Make {possessive(section.title)} line say what the question asks, in the customer's words.",
            f"The bot's top piece came from {from_where or 'elsewhere'}, not from {section.title}.",
            self._section_place(section), spans=section_spans(self.document, section),
        )

    def _refusal(self) -> Todo:
        """What to do about answered questions the file cannot answer depends on how refusing is set now."""
        why = "The bot answered questions your file cannot answer instead of handing them to a person."
        threshold = self.evaluation.settings.threshold
        calibration = self.run.calibration
        if threshold == "auto" and calibration is not None and not calibration.enough:
            edit = (f"Write {calibration.missing} more question{'s' if calibration.missing != 1 else ''} your file "
                    "cannot answer (source left empty), so the workbench can pick when the bot should refuse.")
        elif threshold == "auto":  # fitted, and the best level still lets these through
            edit = "Add the facts these questions ask for, or tell the bot in its instructions what the shop does not offer."
            why += (" The bot's confidence on them is as high as on questions your file answers, so no refusal level "
                    "picked from your questions stops them without turning away real customers.")
        elif not threshold:  # None or 0: never refuses
            edit = "Let the bot refuse: tick “Let the questions pick the threshold” in the Results settings."
            why += " If the file should answer them, add the facts instead."
        else:
            edit = (f"Raise “Refuse below this confidence” above {float(threshold):.3g}, or tick “Let the questions "
                    "pick the threshold” in the Results settings.")
            why += " If the file should answer them, add the facts instead."
        return Todo("refusal", edit, why)

    def _section_place(self, section: Section | None) -> str:
        return section_place(self.document, self.places, section)

    # --- the check-up's findings ------------------------------------------------------------------

    def checkup(self) -> None:
        audit = self.audit
        # Looked up once: the loops below ask for a section by title per long section or product, and a
        # catalog can have thousands. The first section of a title, as a scan would find it.
        by_title: dict[str, Section] = {}
        for section in self.document.sections:
            by_title.setdefault(section.title, section)
        listed = 0  # shared lines no question touches, at most 10
        for shared in audit.shared_lines:
            if shared.questions or (shared.harm == "varies" and listed < 10):
                item = self.add(("shared", shared.line), lambda s=shared: self._shared_item(s))
                self._touch(item, shared.questions)
                listed += 0 if shared.questions else 1
        for shared in audit.placeholders:
            every = (f"Every {self.noun}" if len(shared.sections) == audit.products
                     else f"{len(shared.sections)} of {audit.products} {self.noun}s")
            column = shared.key or "this line"
            item = self.add(("placeholder", shared.line), lambda s=shared, e=every, c=column: Todo(
                "placeholder",
                f"Leave the {c} cells that say {s.value} empty on these rows." if s.beside_real_values
                else f"Fill in the {c} column, or leave the value out where it is unknown.",
                (f"{e} has a {c} {s.value} line beside its real {c} on other rows. A bot may quote {s.value}."
                 if s.beside_real_values
                 else f"{e} has {c} {s.value} — is the {c} column empty? A bot will quote it as a real value."),
                join_places(s.places), spans=list(s.spans)))
            self._touch(item, shared.questions)
        if audit.store_wide:
            more = len(audit.store_wide) - 5
            lines = "; ".join(f"“{shown(s.line, 60)}”" for s in audit.store_wide[:5]) + (f"; and {more} more" if more > 0 else "")
            item = self.add(("store-wide",), lambda: Todo(
                "store-wide", f"Say store-wide facts once, at the top: {lines}.",
                f"{len(audit.store_wide)} line(s) are the same for (nearly) every {self.noun}; repeated under each, they "
                f"add nothing that tells {self.noun}s apart.", self._columns_or_lines(audit.store_wide),
                spans=[span for shared in audit.store_wide for span in shared.spans]))
            for shared in audit.store_wide:
                self._touch(item, shared.questions)
        if audit.unheaded_facts:
            self.add(("unheaded",), self._unheaded_item)
        # Only when the recommended setup reads with the model: word search reads every word of a long section.
        unasked = []
        if self.model_reads and audit.long_sections and self.document.kind == "spreadsheet":
            item = self.add(("long", "rows"), self._long_rows_item)
            for title, _ in audit.long_sections:
                self._touch(item, self._questions_on(by_title.get(title)))
        for title, words in audit.long_sections if self.model_reads and self.document.kind != "spreadsheet" else []:
            section = by_title.get(title)
            asked = self._questions_on(section)
            if not asked and ("long", title) not in self.items:
                unasked.append(title)  # one item for all of them: a catalog can have dozens
                continue
            item = self.add(("long", title), lambda t=title, w=words, s=section: self._long_item(t, w, s))
            self._touch(item, asked)
        if unasked:
            names = ", ".join(unasked[:5]) + (f" and {len(unasked) - 5} more" if len(unasked) > 5 else "")
            self.add(("long", "unasked"), lambda: Todo(
                "long", f"Later: {len(unasked)} other long section(s), {names}.",
                f"Longer than the {self.audit.window} word pieces the meaning-based search model reads at a time; "
                "none of your questions asks about them yet. Split them under subheadings."))
        for name, columns in audit.missing_columns[:20]:
            section = by_title.get(name)
            wanted = {w for column in columns for w in content_words(column.replace("_", " "))}
            asking = [n for n, r in self._all() if name.lower() in r.question.question.lower()
                      and wanted & set(content_words(r.question.question))]
            item = self.add(("missing", name), lambda n=name, c=columns, s=section: Todo(
                "missing", f"Add {', '.join(c)} for {n}.",
                f"Most products have {'these columns' if len(c) > 1 else 'this column'}; {n} has none, so a bot "
                "asked about it answers from another product or not at all.", self._section_place(s),
                spans=section_spans(self.document, s) if s else []))
            self._touch(item, asking)
        for name, count in audit.duplicate_names:
            self.add(("names", name), lambda n=name, c=count: Todo(
                "names", f"Give each of the {c} {self.noun}s called “{n}” its own name.",
                "A question naming it cannot say which one is meant.",
                join_places([self._section_place(s) for s in self.document.sections if s.heading == n]),
                spans=[span for s in self.document.sections if s.heading == n for span in section_spans(self.document, s)]))
        risky = {}
        for finding in audit.risky:
            risky.setdefault(finding.kind, []).append(finding)
        words = {"instruction": "text that gives a bot orders", "script": "code that would run in a web page",
                 "link": "links to other sites",
                 "image": "images from other sites"}
        for kind, findings in risky.items():
            self.add(("risky", kind), lambda k=kind, f=findings: Todo(
                "risky", f"Check the {len(f)} line(s) with {words[k]}: remove any not meant for customers.",
                f"e.g. “{shown(f[0].text)}”. A bot may obey or repeat them.",
                join_places([x.where or f"line {x.line_number}" for x in f]), spans=[x.span for x in f if x.span]))

    def _columns_or_lines(self, shared: list[SharedLine]) -> str:
        """Where store-wide lines sit: their columns in a spreadsheet, their first lines in a Markdown file."""
        columns = list(dict.fromkeys(p.split(", column ", 1)[1] for s in shared for p in s.places if ", column " in p))
        if columns:
            return f"column{'s' if len(columns) > 1 else ''} " + ", ".join(columns[:8]) + (" …" if len(columns) > 8 else "")
        return join_places([s.places[0] for s in shared if s.places])

    def _touch(self, item: Todo, numbers: list[int]) -> None:
        for number in numbers:
            if number not in item.questions:
                item.questions.append(number)
            result = next((r for n, r in self._all() if n == number), None)
            if result is not None and result.grade != "clean" and number not in item.fixes:
                item.fixes.append(number)

    def _all(self) -> list[tuple[int, QuestionResult]]:
        return [(self.number[id(r.question)], r) for r in self.run.per_question]

    def _questions_on(self, section: Section | None) -> list[int]:
        if section is None:
            return []
        return [self.number[id(q.question)] for q in self.evaluation.questions
                if q.section_id == section.id and id(q.question) in self.number]

    def finish(self) -> list[Todo]:
        items = list(self.items.values())
        for item in items:
            item.questions.sort()
            item.fixes.sort()
            if self.baseline is not None and item.kind == "shared" and item.questions:
                clean = sum(1 for n, r in _numbered(self.baseline) if n in item.questions and r.grade == "clean")
                if clean < len(item.questions):  # the windows' harm; when they do as well, it would only confuse
                    windows = lower_first(strategy_name("fixed", self.evaluation.settings.size))
                    if len(item.questions) == 1:
                        said = "the one question it answers does not come out clean"
                    else:
                        how_many = "none" if clean == 0 else f"only {clean}"
                        said = (f"{how_many} of the {len(item.questions)} questions it answers "
                                f"come{'s' if clean == 1 else ''} out clean")
                    item.why += f" With {windows}, {said}."
        items.sort(key=lambda i: (-len(i.fixes), -len(i.questions), KIND_ORDER.index(i.kind)))
        return items


def not_clean(run: Run | None) -> list[int]:
    """The rows of the answerable questions that came out missed or mixed under ``run``: the check-up ranks the
    shared lines that answer them first."""
    if run is None:
        return []
    return [number for number, r in _numbered(run) if r.answerable and r.grade in ("missed", "mixed")]


def _numbered(run: Run) -> list[tuple[int, QuestionResult]]:
    return [(r.question.row or i + 1, r) for i, r in enumerate(run.per_question)]


def todo_list(evaluation: Evaluation, run: Run, audit: Audit, baseline: Run | None = None) -> list[Todo]:
    """The edits for this file, most questions fixed first; ``run`` is the recommended setup.

    ``audit`` should be made with the evaluation's questions, so its shared lines name the ones they answer.
    """
    builder = _Builder(evaluation, run, audit, baseline)
    for result in run.per_question:
        if result.grade != "clean":
            builder.explain(result)
    builder.checkup()
    return builder.finish()


def section_place(document: Document, places: Places, section: Section | None) -> str:
    """A section's place in the user's file: a product's rows, a Markdown section's lines; in a knowledge base the
    file first, then the place in that file's own rows or lines."""
    if section is None:
        return ""
    if document.files:
        part, _ = document.file_at(section.span[0])
        own = part.document.section(section.id.split(".", 1)[1])  # base ids are "f2.s4": the file's own is "s4"
        return f"{part.name} {section_place(part.document, Places(part.document), own)}"
    if section.facts:
        first, last = places.of(section.facts[0].span), places.of(section.facts[-1].span)
        if document.kind == "spreadsheet":
            return row_runs([f.row for f in section.facts if f.row])
        return first if first == last else f"{first}–{last.removeprefix('line ')}".replace("line ", "lines ", 1)
    return places.of(section.span)


def section_spans(document: Document, section: Section) -> list[Span]:
    """Where a section is, as offsets: a Markdown section's heading line (its first fact when it has none); a
    spreadsheet product's first cell on each of its rows."""
    if document.kind == "spreadsheet":
        rows: dict[int | None, Span] = {}
        for fact in section.facts:
            rows.setdefault(fact.row, fact.span)
        return list(rows.values()) or [section.span]
    if section.heading_span[1] > section.heading_span[0]:
        return [section.heading_span]
    return [section.facts[0].span] if section.facts else [section.span]


PLACES_KEPT = 50  # an item about a line on every product of a big catalog names the first 50 places


def place_record(document: Document, span: Span) -> dict:
    """One place as the JSON carries it: the product or heading it lies in, and a spreadsheet's row and column
    (the file's own: header = row 1) or a Markdown file's 1-based line; null where it does not apply."""
    offset = span[0]
    found = document.file_at(offset) if document.files else None
    if found is not None:  # a knowledge base: the file, then the place in its own rows or lines
        part, own = found
        return {"file": part.name} | place_record(part.document, (own, own + span[1] - span[0]))
    index = bisect.bisect_right([s.span[0] for s in document.sections], offset) - 1
    section = document.sections[max(index, 0)] if document.sections else None
    record = {"section": (section.heading or None) if section else None, "row": None, "column": None, "line": None}
    if document.kind == "spreadsheet":
        fact = next((f for f in section.facts if f.span[0] <= offset < f.span[1]), None) if section else None
        if fact is not None:
            record["row"], record["column"] = fact.row, fact.column
        elif section is not None and any(f.row for f in section.facts):  # the product's name: its first row
            record["row"] = min(f.row for f in section.facts if f.row)
    else:
        record["line"] = document.text.count("\n", 0, offset) + 1
    return record


def todo_records(document: Document, items: list[Todo]) -> list[dict]:
    """The to-do list as the command line's JSON carries it: the edit, the questions it touches (their rows in
    the questions file) and its places."""
    out = []
    for item in items:
        places = [place_record(document, span) for span in dict.fromkeys(item.spans)]
        record = {"text": item.edit, "why": item.why, "kind": item.kind, "where": item.where,
                  "questions": list(item.questions), "not_clean": list(item.fixes), "places": places[:PLACES_KEPT]}
        if len(places) > PLACES_KEPT:
            record["more_places"] = len(places) - PLACES_KEPT
        out.append(record)
    return out
