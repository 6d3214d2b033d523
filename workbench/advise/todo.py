"""A to-do list for the file: each edit, where it goes in the user's file, and the questions it would fix.

Every question that is not clean under the recommended setup is explained by what the
file shows (a line shared word for word, a word the customer uses that the product's
text lacks, a section too long, text under no heading), and the check-up's findings join
the same list with the questions each one touches. Items that would fix the most
questions come first.

Here the composing: which items a file needs and the questions each touches, and the list as JSON. What each
kind of item says is in ``todo_items``; the words rule in ``todo_words``; places in ``todo_places``.
"""

from __future__ import annotations

import re

from workbench.advise.audit import Audit
from workbench.advise.shared_lines import SharedLine
from workbench.advise.todo_items import ItemWriter, Todo
from workbench.advise.todo_places import place_record, section_spans
from workbench.advise.todo_words import PAIRED, StemsBySection, content_words, missing_words, words_of
from workbench.core.model import Document, Fact, ResolvedQuestion, Section
from workbench.core.quoting import shown
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.core.wording import lower_first, plural, verb
from workbench.grade.places import join_places
from workbench.read.resolve import fold
from workbench.run.names import strategy_name

# Harm order among items that fix no question: what misleads a bot most comes first.
KIND_ORDER = ("shared", "words", "placeholder", "long", "unheaded", "missing", "refusal", "risky", "names",
              "store-wide", "other")


class _Builder(ItemWriter):
    def __init__(self, evaluation: Evaluation, run: Run, audit: Audit, baseline: Run | None,
                 reader: str = "app") -> None:
        super().__init__(evaluation, run, audit, reader)
        self.baseline = baseline
        self.analyzer = evaluation.analyzer  # the document's words, read as its searches read them
        self.items: dict[tuple, Todo] = {}
        self._names: list[tuple[str, str]] | None = None
        self._stems: StemsBySection | None = None  # which sections use each word: made at the first words item
        self._wanted: dict[str, set[str]] | None = None  # which sections questions would add each stem to
        self._asked: dict[str, set] | None = None  # what the questions using each stem ask about
        self._missing_of: dict[int, list[str]] = {}  # each question's missing words, by id(question)
        self.number = {id(r.question): r.question.row or i + 1 for i, r in enumerate(run.per_question)}
        self.results = {id(r.question): r for r in run.per_question}
        self.resolved = {id(q.question): q for q in evaluation.questions}
        self._kept: dict[str, SharedLine] = {}  # shared lines the export keeps as they are: one item for all

    def add(self, key: tuple, make, question: int | None = None, fixes: bool = False) -> Todo:
        item = self.items.get(key)
        if item is None:
            item = self.items[key] = make()
        if question is not None and question not in item.questions:
            item.questions.append(question)
        if fixes and question is not None and question not in item.fixes:
            item.fixes.append(question)
        return item

    def _add_shared(self, shared: SharedLine, question: int | None = None, fixes: bool = False) -> Todo:
        """A shared line's item; every line the export must keep as it is goes into one item (finish() writes it)."""
        if self.kept_column(shared):
            self._kept[shared.line] = shared
            return self.add(("shared", "kept"), lambda: Todo("shared", "", ""), question, fixes)
        return self.add(("shared", shared.line), lambda s=shared: self._shared_item(s), question, fixes)

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
                self._add_shared(shared, number, fixes=True)
                found = True
        words = [w for w in self._missing(result, section) if self._sections_wanting(w) == {section.id}
                 and len(self._asked_of(w)) < 2]
        if words:
            fact = facts[0] if facts else None
            end = resolved.answer_spans[0][1] if resolved.answer_spans else None
            self.add(("words", section.id, tuple(w.lower() for w in words)),
                     lambda: self._words_item(section, words, fact, end), number, True)
            found = True
        size = dict(self.audit.long_sections).get(section.title) if self.model_reads else None
        if size and self.document.form.table:  # one item for the whole sheet: see _long_rows_item
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

    def _missing(self, result: QuestionResult, section: Section) -> list[str]:
        """The question's words its section's text lacks (``todo_words.missing_words``), worked out once a question:
        ``_sections_wanting`` reads every question's before ``explain`` reads its own."""
        key = id(result.question)
        if key not in self._missing_of:
            text = " ".join(self.document.slice(f.span) for f in section.facts)
            if self._stems is None:
                self._stems = StemsBySection(self.document, self.analyzer)
            self._missing_of[key] = missing_words(result.question.question, text, section.heading,
                                                  self._other_names(section), self._stems.elsewhere(section.id),
                                                  self.analyzer)
        return self._missing_of[key]

    def _sections_wanting(self, word: str) -> set[str]:
        """Every section some question that is not clean would have this word added to. A word wanted by two
        sections names neither: written into both, it draws each one's questions to the other (the French FAQ's
        "temps", for how long delivery and a return take, added to both, lost a held-back question on the
        other's page: bench/proof.py --own). Such words are not advised; a word one section wants still is."""
        if self._wanted is None:
            self._wanted = {}
            for other in self.run.per_question:
                resolved = self.resolved.get(id(other.question))
                if other.grade == "clean" or not other.answerable or resolved is None or resolved.section_id is None:
                    continue
                for missing in self._missing(other, self.document.section(resolved.section_id)):
                    self._wanted.setdefault(self.analyzer.stem(missing), set()).add(resolved.section_id)
        return self._wanted.get(self.analyzer.stem(word), set())

    def _asked_of(self, word: str) -> set:
        """What the questions using this word ask about: their sections, an unanswerable question counting as its
        own. A word the question set uses about two different things says how customers ask, not what about
        ("o que eu faço", "como vejo"): written into one section, it draws the other's questions there. Every
        question counts, clean or not, answerable or not (``_sections_wanting`` counts only those to fix)."""
        if self._asked is None:
            self._asked = {}
            for index, other in enumerate(self.run.per_question):
                resolved = self.resolved.get(id(other.question))
                about = resolved.section_id if resolved is not None and resolved.section_id else ("none", index)
                for stem in {self.analyzer.stem(w) for w in content_words(other.question.question, self.analyzer)}:
                    self._asked.setdefault(stem, set()).add(about)
        return self._asked.get(self.analyzer.stem(word), set())

    def _other_names(self, section: Section) -> list[str]:
        """The headings of every other product or section, less the words of this one's own name and path."""
        stem = self.analyzer.stem
        own = {stem(w) for name in (section.heading, *section.path) for w in words_of(fold(name))}
        if self._names is None:
            self._names = [(s.id, s.heading) for s in self.document.sections if s.heading]
        out = []
        for section_id, heading in self._names:
            if section_id != section.id:
                named = [w for w in words_of(fold(heading)) if stem(w) not in own]
                if named:
                    out.append(" ".join(named))
                elif self.analyzer.languages[0] in PAIRED:  # a name of character pairs (``todo_words.missing_runs``)
                    out.append(heading)
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
                item = self._add_shared(shared)
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
        # A spreadsheet's store-wide line in a column its shop's system reads (stock 100, a 0/1 flag) is a value
        # every product happens to share, not a fact to move: no edit is asked of it, and none is possible.
        wide = [s for s in audit.store_wide if not (s.key and s.key in self.types)]
        if wide:
            more = len(wide) - 5
            lines = "; ".join(f"“{shown(s.line, 60)}”" for s in wide[:5]) + (f"; and {more} more" if more > 0 else "")
            edit = (f"Tell the bot these store-wide facts once, in its instructions or a short page beside this file: "
                    f"{lines}. Keep your shop's export as it is." if self.document.form.table
                    else f"Say store-wide facts once, at the top: {lines}.")
            item = self.add(("store-wide",), lambda: Todo(
                "store-wide", edit,
                f"{plural(len(wide), 'line')} {verb(len(wide), 'is', 'are')} the same for (nearly) every {self.noun}; repeated "
                "under each, they "
                f"add nothing that tells {self.noun}s apart.", self._columns_or_lines(wide),
                spans=[span for shared in wide for span in shared.spans]))
            for shared in wide:
                self._touch(item, shared.questions)
        if audit.unheaded_facts:
            self.add(("unheaded",), self._unheaded_item)
        # Only when the recommended setup reads with the model: word search reads every word of a long section.
        unasked = []
        if self.model_reads and audit.long_sections and self.document.form.table:
            item = self.add(("long", "rows"), self._long_rows_item)
            for title, _ in audit.long_sections:
                self._touch(item, self._questions_on(by_title.get(title)))
        for title, words in audit.long_sections if self.model_reads and not self.document.form.table else []:
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
                "long", f"Later: {plural(len(unasked), 'other long section')}, {names}.",
                f"Longer than the {self.audit.window} word pieces the meaning-based search model reads at a time; "
                "none of your questions asks about them yet. Split them under subheadings."))
        for name, columns in audit.missing_columns[:20]:
            section = by_title.get(name)
            wanted = {w for column in columns for w in content_words(column.replace("_", " "), self.analyzer)}
            asking = [n for n, r in self._all() if name.lower() in r.question.question.lower()
                      and wanted & set(content_words(r.question.question, self.analyzer))]
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
                "risky", f"Check the {plural(len(f), 'line')} with {words[k]}: remove any not meant for customers.",
                # The tag or link itself: "e.g. “alert(1) Fan”" hid the <script> the item is about.
                f"e.g. “{shown(f[0].text, marks=k != 'instruction')}”. A bot may obey or repeat them.",
                join_places([x.where or f"line {x.line_number}" for x in f]), spans=[x.span for x in f if x.span],
                always=k in ("instruction", "script")))

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
        kept = self.items.get(("shared", "kept"))
        if kept is not None:  # its words, place and offsets from every line it stands for
            whole = self._kept_lines_item(list(self._kept.values()))
            kept.edit, kept.why, kept.where, kept.spans = whole.edit, whole.why, whole.where, whole.spans
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


def todo_list(evaluation: Evaluation, run: Run, audit: Audit, baseline: Run | None = None,
              reader: str = "app") -> list[Todo]:
    """The edits for this file, most questions fixed first; ``run`` is the recommended setup; ``reader`` "app",
    "cli" or "report" (where an item sends the reader for the bot-ready copy, a cut or refusing).

    ``audit`` should be made with the evaluation's questions, so its shared lines name the ones they answer.
    """
    builder = _Builder(evaluation, run, audit, baseline, reader)
    for result in run.per_question:
        if result.grade != "clean":
            builder.explain(result)
    builder.checkup()
    return builder.finish()


PLACES_KEPT = 50  # an item about a line on every product of a big catalog names the first 50 places


def todo_records(document: Document, items: list[Todo]) -> list[dict]:
    """The to-do list as the command line's JSON carries it: the edit, the questions it touches (their rows in
    the questions file) and its places."""
    out = []
    for item in items:
        spans = list(dict.fromkeys(item.spans))  # only the kept places are made: a shared line can have 66,667
        places = [place_record(document, span) for span in spans[:PLACES_KEPT]]
        record = {"text": item.edit, "why": item.why, "kind": item.kind, "where": item.where,
                  "questions": list(item.questions), "not_clean": list(item.fixes), "places": places,
                  "required": item.required, "advised": item.advised,
                  "measured": item.measured.as_dict() if item.measured is not None else None,
                  "column": item.column, "rows": item.rows}
        if len(spans) > PLACES_KEPT:
            record["more_places"] = len(spans) - PLACES_KEPT
        if item.covered_by:  # optional: the advised items at these places in the list fix its questions already
            record["covered_by"] = list(item.covered_by)
        out.append(record)
    return out
