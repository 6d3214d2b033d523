"""The to-do's items: the ``Todo`` record, and what each kind of item says (``ItemWriter``): a line shared word
for word, words the text lacks, a long section or long products, text under no heading, another piece on top,
answered questions the file cannot answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from workbench.advise.audit import Audit
from workbench.advise.edits import Edit, append_to_line, as_read, before_stop, line_after, line_before, split_section
from workbench.advise.measured import Measured
from workbench.advise.readers import READERS, SECTION_WINDOW
from workbench.advise.rewrite import DASH, title_from_name
from workbench.advise.shared_lines import SharedLine
from workbench.advise.todo_places import section_place, section_spans
from workbench.advise.todo_words import appended_sentence, bracketed, search_words_text, words_label
from workbench.core.model import Fact, Section, Span
from workbench.core.quoting import STOPS, line_label, shown
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.core.wording import owned, part_word, plural, verb
from workbench.cut import STRATEGIES
from workbench.cut.structure import blocks
from workbench.grade.places import Places, join_places
from workbench.grade.refusal import let_through
from workbench.read.data_columns import as_text, data_columns, is_html, text_column
from workbench.read.language import document_languages
from workbench.read.questions import column_label
from workbench.search.reads import uses_model


@dataclass
class Todo:
    kind: str
    edit: str  # what to change, in the imperative
    why: str  # the evidence
    where: str = ""  # in the user's file: rows and columns, or lines
    questions: list[int] = field(default_factory=list)  # golden questions it touches (rows of the questions file)
    fixes: list[int] = field(default_factory=list)  # of those, not clean under the recommended setup
    spans: list[Span] = field(default_factory=list)  # the places of ``where`` as offsets (see todo_records)
    edits: list[Edit] = field(default_factory=list)  # the item made concrete: words inserted (advise/edits.py)
    required: bool = True  # advised; False: not measured to help (folded), or not advised (made worse)
    measured: Measured | None = None  # what grading the file with its edits found (advise/proof.py)
    advised: bool = True  # False when its edit made some question worse: listed in the report's appendix only
    always: bool = False  # advised whatever the grades say: orders to a bot, scripts (never measured)
    unmeasured: str = "no edit to try on a copy of the file"  # why it was not measured, when it was not
    # Smaller versions of the item (one of its words each), tried when the whole makes a question worse.
    narrower: list[Todo] = field(default_factory=list)
    covered_by: list[int] = field(default_factory=list)  # advised items (1-based) that fix every question it fixes

    @property
    def column(self) -> str | None:
        """The header its edits write into, on a spreadsheet (the first one, when several)."""
        return next((edit.column for edit in self.edits if edit.column), None)

    @property
    def rows(self) -> list[int]:
        """The file's rows its edits write into, on a spreadsheet."""
        return sorted({edit.row for edit in self.edits if edit.row is not None})

    @property
    def affects(self) -> str:
        if not self.questions:
            return "affects none of your questions yet"
        numbers = ", ".join(str(n) for n in self.questions[:12]) + (" …" if len(self.questions) > 12 else "")
        text = f"affects question{'s' if len(self.questions) > 1 else ''} {numbers}"
        if self.fixes:
            text += f" ({len(self.fixes)} not clean now)"
        return text

    @property
    def effect(self) -> str:
        """What trying it on a copy of the file measured, or that it could not be tried."""
        if self.measured is not None:
            if self.covered_by:
                items = " and ".join(str(n) for n in self.covered_by)
                return (f"{self.measured.sentence()}, as item{'s' if len(self.covered_by) > 1 else ''} {items} of the "
                        f"to-do already {'do' if len(self.covered_by) > 1 else 'does'}: nothing more once "
                        f"{'they are' if len(self.covered_by) > 1 else 'it is'} done; {self.affects}")
            if self.questions and sorted(self.questions) == sorted(self.measured.fixed):
                # "fixes question 3; affects question 3 (1 not clean now)" said the same question twice
                return self.measured.sentence()
            return f"{self.measured.sentence()}; {self.affects}"
        return f"not measured ({self.unmeasured}); {self.affects}"


class ItemWriter:
    """Writes each kind of to-do item: the edit, the evidence, where it goes and its offsets. ``todo._Builder``
    decides which items a file needs and which questions each touches. A column is named in the sentences by its
    display name (``column_label``: "voltage" for custom_field.custom.voltage); the place names its header as the file
    has it, to find it by."""

    def __init__(self, evaluation: Evaluation, run: Run, audit: Audit, reader: str = "app") -> None:
        """``reader``: "app", "cli" or "report", who reads the list (``readers.READERS``)."""
        self.evaluation = evaluation
        self.reader = READERS[reader]
        self.document = evaluation.document
        self.run = run
        self.audit = audit
        self.places = Places(self.document)
        self._answers: Counter[str] | None = None
        self.types = data_columns(self.document)  # columns the shop's system reads: never typed into
        self.label = words_label(evaluation.analyzer, self.document.text)  # "Search words:" as the shop writes it
        self.noun = part_word(self.document.kind)  # a manual's parts are sections, a sheet's products
        languages = document_languages(self.document)
        self.english = not languages or languages[0] == "en"  # how a heading is owned in a sentence (``owned``)
        # Whether the recommended setup reads with the language model (and so has its window).
        self.model_reads = uses_model(replace(evaluation.settings, retrievers=[run.retriever], rerankers=[run.reranker]))

    def kept_column(self, shared: SharedLine) -> str | None:
        """What the column of a shared spreadsheet line holds that the shop's system reads ("set values" for a short
        value repeated word for word: an option, a facet), so the line is never edited in the export; else None."""
        if not self.document.form.table or not shared.key:
            return None
        typed = self.types.get(shared.key)
        if not typed and len(shared.value) <= 60:
            typed = "set values"
        return typed

    def _shared_why(self, shared: SharedLine) -> str:
        names = ", ".join(shared.sections[:6]) + (f" and {len(shared.sections) - 6} more" if len(shared.sections) > 6 else "")
        noun = self.noun
        why = (
            f"“{shown(shared.line)}” is word for word the same under {len(shared.sections)} {noun}s ({names}); a piece "
            f"holding this line but not the {noun}'s name lets a bot quote it for the wrong {noun}."
        )
        if shared.harm == "varies":
            why += f" Other {noun}s have a different “{column_label(shared.key or 'the line')}” line, so a mix-up gives a wrong answer."
        return why

    def _keep_export_edit(self, shared: SharedLine) -> str:
        # Never text typed into a cell the shop's system reads: the bot-ready copy names the product instead. The
        # copy is graded beside the file (Results, rewrite): on some files it does worse, so the advice is to
        # check, never to hand it over blindly. Said as a condition, not "try the copy": the to-do is written before
        # the copy is graded, and the Korean and Hebrew exports' Results said "try the bot-ready copy" above a
        # panel saying "Tried on your file and not offered" (walk42).
        bot_ready = f"“{shared.sections[0]}{DASH}{shown(shared.line, 60)}”"
        return (f"Keep your shop's export as it is. A bot-ready copy of it ({self.reader.bot_ready_copy}) puts the "
                f"product's name on each such line, e.g. {bot_ready}; hand that copy to the bot only if it answers more "
                "of your questions cleanly than your export does.")

    def _shared_item(self, shared: SharedLine) -> Todo:
        why = self._shared_why(shared)
        typed = self.kept_column(shared)
        if typed:
            edit = self._keep_export_edit(shared)
            why += (f" The “{column_label(shared.key)}” column holds {typed} that your shop's system reads: text typed "
                    "into it would break the export or the import.")
        else:
            said = shared.value if self.document.form.table and shared.key else shared.line  # as written
            example = f"“{shown(said, 60)}{self._naming(shared.sections[0])}”"
            edit = f"Name the {self.noun} on the line, e.g. {example}."  # "section" in a document
        return Todo("shared", edit, why, join_places(shared.places), list(shared.questions),
                    spans=list(shared.spans), edits=[] if typed else self._name_edits(shared))

    @staticmethod
    def _naming(title: str) -> str:
        return f" ({title})"

    def _name_edits(self, shared: SharedLine) -> list[Edit]:
        """The product's or section's name at the end of each of its copies of the line."""
        edits = []
        for span in shared.spans:
            fact = self.places.fact_at(span[0])
            section = self.places.section_at(span[0])
            if fact is not None and section is not None and section.heading:
                edits.append(append_to_line(self.document, fact, self._naming(section.heading)))
        return edits

    def _kept_lines_item(self, lines: list[SharedLine]) -> Todo:
        """One item for every shared line the export must keep as it is: the same edit for each (try the
        bot-ready copy), so one item, not one a line (the Spree export listed sixteen of them, word for word)."""
        if len(lines) == 1:
            return self._shared_item(lines[0])
        lines = sorted(lines, key=lambda shared: (-len(shared.questions), -len(shared.sections)))
        noun = self.noun
        shown_lines = "; ".join(f"“{shown(s.line, 60)}” under {len(s.sections)} {noun}s" for s in lines[:4])
        more = f"; and {len(lines) - 4} more" if len(lines) > 4 else ""
        why = (f"{len(lines)} lines are word for word the same under several {noun}s: {shown_lines}{more}. A piece "
               f"holding such a line but not the {noun}'s name lets a bot quote it for the wrong {noun}.")
        if any(s.harm == "varies" for s in lines):
            why += f" Other {noun}s have a different line of the same kind, so a mix-up gives a wrong answer."
        columns = list(dict.fromkeys(column_label(s.key) for s in lines))
        named = ", ".join(f"“{c}”" for c in columns[:5]) + (f" and {len(columns) - 5} more" if len(columns) > 5 else "")
        why += (f" Their columns ({named}) hold values your shop's system reads: text typed into them would break the "
                "export or the import.")
        return Todo("shared", self._keep_export_edit(lines[0]), why,
                    join_places([p for s in lines for p in s.places]),
                    sorted({n for s in lines for n in s.questions}), spans=[span for s in lines for span in s.spans])

    def _words_item(self, section: Section, words: list[str], fact: Fact | None, answer_end: int | None = None) -> Todo:
        """``fact``: the line (or cell) holding the answer; ``answer_end``: where the answer ends in it."""
        quoted = ", ".join(f"“{w}”" for w in words)
        many = len(words) > 1
        after, owner = "the line that holds the answer", section.title
        if fact is not None:
            label = column_label(fact.column) if fact.column else line_label(self.document.slice(fact.span))
            owner = (owned(section.title, f"“{label}” line", self.english) if label else
                     owned(section.title, "line", self.english, " that holds the answer"))
            after = f"its “{label}” line" if label else after
        edit = f"Add the word{'s' if many else ''} {quoted} to {owner}, or a synonym line."
        where = self.places.of_fact(fact) if fact is not None else self._section_place(section)
        spans = [fact.span] if fact is not None else section_spans(self.document, section)
        edits = []
        if self.document.form.table:
            # Words go into the product's own text (its first row: a variant's advice goes to its parent, once),
            # never into a cell the shop's system reads.
            cell = text_column(self.document, section, self.types)
            typed = self.types.get(fact.column) if fact is not None and fact.column else None
            keep = (f"; leave the “{column_label(fact.column)}” cell as it is: the column holds {typed} your shop's "
                    "system reads" if typed and (cell is None or cell.column != fact.column) else "")
            if cell is not None:
                added = self._words_text(self.document.slice(cell.span), words)
                edits = [append_to_line(self.document, cell, added)]
                edit = (f"Add the word{'s' if many else ''} {quoted} to "
                        f"{owned(section.title, f'“{column_label(cell.column)}” text', self.english)}, e.g. “… {shown(as_text(added).strip().lstrip('.,;|').strip().rstrip('.'), 80)}”{keep}.")
                where, spans = f"row {cell.row}, column {cell.column}", [cell.span]
            else:
                edit = (f"Add a “description” column to your file and write {quoted} in "
                        f"{owned(section.title, 'cell', self.english)} (it has no text column the words can go in), or tell the bot in its instructions what "
                        f"{'they mean' if many else 'it means'}{keep}.")
        elif fact is not None:
            edits = [self._words_line(section, fact, words, fact.span[1] if answer_end is None else answer_end)]
            if edits[0].text.startswith("\n"):
                edit = (f"Add the word{'s' if many else ''} {quoted} to {section.title}: a line “{edits[0].text.strip()}” "
                        f"after {after}.")
            else:
                shown_in = as_read(self.document, edits[0])
                edit = (f"Add the word{'s' if many else ''} {quoted} to {section.title}, in the sentence that holds the "
                        f"answer: “{shown_in}”{'' if shown_in[-1:] in STOPS else '.'}")
        narrower = [self._words_item(section, [word], fact, answer_end) for word in words] if len(words) > 1 else []
        return Todo(
            "words",
            edit,
            f"Customers ask with {quoted}, but {owned(section.title, 'text', self.english)} never says {'them' if many else 'it'}, "
            + ("so the meaning-based search has only the rest of the question to go on, and a word search "
               "misses the answer outright (as “colours” misses a column called “colors”)."
               if self.model_reads else
               "so a search for the question's words misses the answer (as “colours” misses a column called “colors”)."),
            where,
            spans=spans,
            edits=edits,
            narrower=narrower,
        )

    def _words_text(self, cell: str, words: list[str]) -> str:
        """What is appended to a cell: a sentence, or in an HTML cell a paragraph (the page stays HTML)."""
        if is_html(cell):
            return f"<p>{self._search_words(words)}</p>"
        return appended_sentence(self.evaluation.analyzer, cell, words, self.label)

    def _search_words(self, words: list[str]) -> str:
        """"Search words: jumper, pullover." in the file's language ("Mots-clés : pull."): it is the shop's text."""
        return search_words_text(self.evaluation.analyzer, words, self.label)

    def _words_line(self, section: Section, fact: Fact, words: list[str], answer_end: int) -> Edit:
        """The customer's words in brackets inside the sentence that holds the answer, before its full stop
        (``edits.before_stop``: “… 2 years (Search words: guarantee).”), within the answer's paragraph or list item;
        a line after the section's last line when the answer sits in a table row (a line inside a table would end
        it, and a cell is the table's own)."""
        text = self._search_words(words)
        if self.document.slice(fact.span).lstrip().startswith("|"):
            last = section.facts[-1]
            return line_after(self.document, last, ("\n" if self.document.slice(last.span).lstrip().startswith("|") else "")
                              + text)
        block = next((b for b in blocks(self.document, section) if b[0] <= fact.span[0] < b[1]), fact.span)
        return before_stop(self.document, answer_end, block[1], bracketed(self.evaluation.analyzer, text))

    def _long_item(self, title: str, pieces: int, section: Section | None = None) -> Todo:
        why = (f"It is {pieces} word pieces (words or parts of words) long; the meaning-based search model reads "
               f"{self.audit.window} at a time, so it reads the section in parts, and one line in it competes with "
               "the whole section.")
        return Todo("long", f"Split {title} under subheadings.", why, self._section_place(section) if section else "",
                    spans=section_spans(self.document, section) if section else [],
                    edits=split_section(self.document, section) if section else [])

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
        # A cut the user did not run is suggested with where to add it, so the advice can be followed and checked;
        # one that ran and answered fewer questions cleanly than the recommended setup is never suggested.
        label = STRATEGIES.get(SECTION_WINDOW).label
        add = "" if SECTION_WINDOW in self.evaluation.settings.strategies else self.reader.add_section_window
        cut = f"have it cut with “{label}”{add}, which splits a product at its rows"
        tried = next((run for run in self.evaluation.runs_under(self.run.retriever, self.run.reranker)
                      if run.strategy == SECTION_WINDOW), None)
        worse = tried is not None and tried.counts["clean"] < self.run.counts["clean"]
        keep = (f" Keep {', '.join(kept)}: {'they hold' if len(kept) > 1 else 'it holds'} the answers to your questions."
                if kept else "")
        if worse:
            measured = (f"Cutting them at their rows (“{label}”) answered {tried.counts['clean']} of your questions "
                        f"cleanly, fewer than the recommended setup's {self.run.counts['clean']}, so it is not the fix")
            edit = (f"Give the bot a copy without the columns that hold none of your questions' answers, if no customer "
                    f"asks about them: {', '.join(heaviest)}.{keep} {measured}." if heaviest else
                    f"{measured}; every column that makes them long holds an answer to your questions, so keep them.")
        elif heaviest:
            edit = (f"Give the bot a copy without the columns that hold none of your questions' answers, if no customer "
                    f"asks about them: {', '.join(heaviest)}; or {cut}.{keep}")
        else:
            edit = f"{cut[0].upper()}{cut[1:]}: every column that makes them long holds an answer to your questions."
        return Todo(
            "long",
            edit,
            f"{plural(len(titles), 'product')} ({names}) {verb(len(titles), 'is', 'are')} longer than the "
            f"{self.audit.window} word pieces (words or parts "
            "of words) the meaning-based search model reads at a time, so it reads each in parts and one row "
            "competes with the whole product.",
            spans=[span for s in self.document.sections if s.title in wanted for span in section_spans(self.document, s)],
        )

    def _unheaded_item(self) -> Todo:
        first = shown(self.audit.unheaded_facts[0], 80) if self.audit.unheaded_facts else ""
        preamble = next((s for s in self.document.sections if not s.heading and s.facts), None)
        return Todo(
            "unheaded", "Add a heading above the text that sits under none.",
            f"{plural(len(self.audit.unheaded_facts), 'line')} {verb(len(self.audit.unheaded_facts), 'sits', 'sit')} under no "
            "heading" + (f", e.g. “{first}”" if first else "")
            + "; a piece of it cannot say what it is about.",
            self._section_place(preamble) if preamble else "",
            spans=section_spans(self.document, preamble) if preamble else [],
            edits=self._heading_edits(preamble),
        )

    def _heading_edits(self, preamble: Section | None) -> list[Edit]:
        """A heading named after the file above the text under none (the bot-ready copy's own)."""
        if preamble is None or not preamble.facts or self.document.form.table:
            return []
        top = min((s.level for s in self.document.sections if s.heading), default=1)
        return [line_before(self.document, preamble.facts[0].span[0], "#" * top + " " + title_from_name(self.document.name))]

    def _other_item(self, section: Section, result: QuestionResult) -> Todo:
        top = self.evaluation.chunks[self.run.strategy][result.ranking[0][0]] if result.ranking else None
        from_where = ""
        if top is not None:  # the piece's own section and place, both read at the piece's first offset
            lies_in = self.places.section_at(top.spans[0][0])
            place = self.places.of(top.spans[0])
            from_where = f"{lies_in.title} ({place})" if lies_in is not None and lies_in.heading else place
        edit = f"Make {owned(section.title, 'line', self.english)} say what the question asks, in the customer's words."
        where, spans = self._section_place(section), section_spans(self.document, section)
        if self.document.form.table:  # a product's rows hold its price, SKU, options: name the one cell for words
            cell = text_column(self.document, section, self.types)
            text = owned(section.title, f"“{column_label(cell.column)}” text", self.english) if cell else ""
            edit = (f"Say what the question asks in {text}, in the customer's words; leave the other cells as they are."
                    if cell else f"Tell the bot in its instructions what the question asks of {section.title} (it has no "
                    "text column to say it in); leave its cells as they are.")
            where, spans = (f"row {cell.row}, column {cell.column}", [cell.span]) if cell else (where, spans)
        return Todo("other", edit, f"The bot's top piece came from {from_where or 'elsewhere'}, not from {section.title}.",
                    where, spans=spans)

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
            why += let_through(self.run.per_question)
        else:  # None or 0: never refuses; else a threshold set by hand
            edit = (f"Let the bot refuse: {self.reader.pick_threshold}." if not threshold
                    else self.reader.raise_threshold.format(threshold=f"{float(threshold):.3g}"))
            why += " If the file should answer them, add the facts instead."
        return Todo("refusal", edit, why)

    def _section_place(self, section: Section | None) -> str:
        return section_place(self.document, self.places, section)
