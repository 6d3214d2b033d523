"""Advice proven on the file: each to-do item's edits applied to a copy of the document, the copy graded again
with the same questions under the setup the verdict recommends, and the item kept, made optional or not advised
by what that measured. The fixed file is every advised edit at once, graded the same way.

An item is *advised* (``required``) when its edits make at least one question clean (or a question the file
cannot answer refused) and none worse, each counted as the verdict counts it (``grade/refusal.answers_alone``:
where it rests on the answers alone, "when it answers", a refusal counts for nothing, so an item that only changes
refusals measures no gain); *not measured to help* (folded, never counted) when they change nothing
measured, or fix only questions an advised item above them already fixes; *not advised* when they make any question
worse (listed in the report's appendix with the question). Items with no edit to make (write more questions, add a
fact the file lacks, say a line in the customer's words) cannot be measured: folded with those that measured no gain,
except the safety checks (orders to a bot, scripts), which are advised whatever the grades say. Only a result that is
not measured at all (partial, or a knowledge base) lists unmeasured items that touch a question not clean, marked so.
A Ready file keeps at most ``READY_ADVISED`` advised items.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from workbench.advise.edits import Edit, apply
from workbench.advise.measured import Measured
from workbench.advise.todo_items import Todo
from workbench.core.model import Document, Question
from workbench.core.results import Evaluation, Run
from workbench.grade.refusal import answers_alone, counted_clean, counted_right
from workbench.run.names import setup_name
from workbench.search.reads import needs_encoder

MAX_MEASURED = 40  # items graded one by one: the rest of a very long list says "not measured"
READY_ADVISED = 3  # a Ready file's short list


@dataclass
class Fix:
    """Every advised edit at once: the file with the fixes, and what grading it measured."""

    edits: list[Edit]
    document: Document
    measured: Measured
    items: list[Todo] = field(default_factory=list)  # the advised items whose edits it holds


@dataclass
class Proof:
    items: list[Todo]  # advised first (most questions fixed first), then not measured to help, then not advised
    fix: Fix | None = None

    @property
    def advised(self) -> list[Todo]:
        """The to-do proper: the items to do, most questions fixed first."""
        return [item for item in self.items if item.required]

    @property
    def optional(self) -> list[Todo]:
        """Not measured to help (folded, never counted): edits that measured no gain, and items with nothing to try."""
        return [item for item in self.items if not item.required and item.advised]

    @property
    def not_advised(self) -> list[Todo]:
        """Edits that made a question worse when tried on a copy of the file: never advised."""
        return [item for item in self.items if not item.advised]


def _good(run: Run, alone: bool) -> dict[int, bool]:
    """Each counted question's number and whether it came out right, as the verdict counts it (``counted_right``:
    clean, or refused when the file cannot answer it; where the verdict rests on the answers alone, a real question
    by the answer the bot would give, and one the file cannot answer not counted)."""
    right = {(r.question.row or i + 1): counted_right(r, alone) for i, r in enumerate(run.per_question)}
    return {n: ok for n, ok in right.items() if ok is not None}


# Graded copies, per evaluation and setup: the command line's table, its report and its JSON each advise on the
# same evaluation, and the app draws its page again and again; each edit is graded once.
_PROVERS: dict[tuple[int, tuple[str, str, str]], Prover] = {}


def prover_for(evaluation: Evaluation, run: Run, encoder_factory: Callable | None = None) -> Prover:
    key = (id(evaluation), run.key)
    prover = _PROVERS.get(key)
    if prover is None or prover.evaluation is not evaluation:
        prover = _PROVERS[key] = Prover(evaluation, run, encoder_factory)
        weakref.finalize(evaluation, _PROVERS.pop, key, None)
    return prover


class Prover:
    """Grades copies of one evaluation's document under its recommended setup, with its questions."""

    def __init__(self, evaluation: Evaluation, run: Run, encoder_factory: Callable | None = None) -> None:
        self.evaluation = evaluation
        self._graded: dict[tuple[Edit, ...], tuple[Measured, Document]] = {}
        self._words = None  # the file's WordEvidence, made at the first copy graded
        self.document = evaluation.document
        self.settings = replace(evaluation.settings, strategies=[run.strategy], retrievers=[run.retriever],
                                rerankers=[run.reranker])
        self.questions: list[Question] = ([q.question for q in evaluation.questions]
                                          + [b.question for b in evaluation.bad_questions])
        if encoder_factory is None and needs_encoder(self.settings):  # the file's model, not found again per copy
            from workbench.encode.multilingual import encoder_factory_for

            encoder_factory = encoder_factory_for(self.document)
        self.encoder_factory = encoder_factory
        self.setup = setup_name(run, evaluation.settings.size)
        # The file as it is, graded under this setup: the evaluation's own run (a setup's grades do not depend on
        # which others ran beside it, run/staged.py), not graded a second time.
        self.before = run
        # The verdict's own decision on the file (``answers_alone``), kept for every copy: the figures under the
        # verdict are counted by its rule (the Georgian shop's "14 of 14 clean when it answers" sat over an item
        # measured "13 → 14 clean", its wrongly refused question counted not clean).
        self.alone = answers_alone(run.per_question, evaluation.settings.threshold)
        self.good = _good(self.before, self.alone)
        self.clean_before = counted_clean(run.per_question, self.alone)
        self.unanswerable = {(r.question.row or i + 1) for i, r in enumerate(self.before.per_question)
                             if not r.answerable}

    def grade(self, document: Document) -> Run:
        from workbench.grade.confidence import WordEvidence
        from workbench.run.evaluate import evaluate

        if self._words is None:  # the file's word counts, which each copy's are worked out from
            self._words = WordEvidence(self.document, analyzer=self.evaluation.analyzer)
        # The copy is read as the file was (its languages are the file's; found again they cost half the grading).
        # Only which questions come out right is read (``_good``, the clean count): graded for that alone.
        return evaluate(document, self.questions, self.settings, encoder_factory=self.encoder_factory,
                        analyzer=self.evaluation.analyzer, outcome_only=True, words_like=self._words).runs[0]

    def measure(self, edits: list[Edit]) -> tuple[Measured, Document]:
        key = tuple(sorted(edits, key=lambda e: (e.at, e.text)))
        if key not in self._graded:
            self._graded[key] = self._measure(edits)
        return self._graded[key]

    def _measure(self, edits: list[Edit]) -> tuple[Measured, Document]:
        document = apply(self.document, edits)
        after = self.grade(document)
        good = _good(after, self.alone)
        fixed = sorted(n for n, ok in good.items() if ok and not self.good.get(n, True))
        worse = sorted(n for n, ok in self.good.items() if ok and not good.get(n, False))
        handed = [n for n in fixed if n in self.unanswerable]
        return (Measured(self.setup, self.clean_before, counted_clean(after.per_question, self.alone), fixed, worse,
                         handed), document)


def _written(item: Todo) -> int:
    """The characters an item's edits write into the file."""
    return sum(len(edit.text) for edit in item.edits)


def _order(item: Todo) -> tuple:
    """The list's order: advised, then optional, then not advised; within each, ``_rank``."""
    return (not item.advised, not item.required, *_rank(item))


def _rank(item: Todo) -> tuple:
    measured = item.measured
    if measured is not None:  # of two that fix as much, the one that writes fewer words into the file first
        return (0, -len(measured.fixed), -(measured.clean_after - measured.clean_before), -len(item.questions),
                _written(item))
    return (1, -len(item.fixes), -len(item.questions), 0)


def _drop_covered(ordered: list[Todo], keep: set[int]) -> list[Todo]:
    """An advised item that fixes only questions an item above it already fixes (each measured alone) is nothing
    more to do once that one is done: it becomes optional and says which item covers it, and its words stay out of
    the fixed file. ``keep``: ids of items advised whatever they cover. Returns the items dropped."""
    fixed: dict[int, int] = {}  # question -> the position (1-based) of the first advised item that fixes it
    position = 0
    dropped = []
    for item in ordered:
        if not item.required or item.measured is None:
            continue
        if id(item) not in keep and item.measured.fixed and all(n in fixed for n in item.measured.fixed):
            item.required = False
            item.covered_by = sorted({fixed[n] for n in item.measured.fixed})
            dropped.append(item)
            continue
        position += 1
        for n in item.measured.fixed:
            fixed.setdefault(n, position)
    ordered.sort(key=_order)
    return dropped


def prove(evaluation: Evaluation, run: Run, items: list[Todo], status: str = "",
          encoder_factory: Callable | None = None, measure: bool = True) -> Proof:
    """Measure each item with edits on a copy of the file, sort the list into advised, optional and not advised,
    and make the fixed file. ``status``: the verdict's (a Ready file keeps at most three advised items).
    ``measure`` False (a partial result, whose setup is not settled): nothing is graded, and the items are sorted
    as unmeasured ones are."""
    measurable = measure and not evaluation.document.files  # a knowledge base's files are graded in the base
    prover = prover_for(evaluation, run, encoder_factory) if measurable and any(i.edits for i in items) else None
    measured = 0
    written: set[str] = set()  # the words measured items write: a word a section needs once is advised once
    for item in items:
        if prover is not None and item.edits and measured < MAX_MEASURED:
            item.measured, _ = prover.measure(item.edits)
            measured += 1
            if item.measured.worse and item.narrower:  # one of its words may help where all of them harm
                measured += _narrow(prover, item)
            elif item.measured.fixed and item.narrower:  # one of its words may do as much alone
                measured += _fewest(prover, item, written)
            if not item.measured.worse:
                written |= {edit.text for edit in item.edits}
            item.advised = not item.measured.worse
            item.required = item.advised and bool(item.measured.fixed)
        else:
            # A measured result's to-do holds only what measured a gain (and the safety checks): an item with no
            # edit to try, or past the first MAX_MEASURED, is folded under "not measured to help", never counted.
            # A partial result, or a knowledge base (nothing is measured one edit at a time), lists what touches a
            # question not clean, marked unmeasured.
            item.required = item.always or (bool(item.fixes) and not measurable)
            if item.always:
                item.unmeasured = "a safety check: no question measures it"
            if item.edits:
                item.unmeasured = ("the run is not finished: changes are tried once every setup is graded"
                                   if not measure else
                                   "a knowledge base's files are graded together, not one edit at a time"
                                   if not measurable else f"only the first {MAX_MEASURED} changes are tried")
    ordered = sorted(items, key=_order)
    advised = {id(item) for item in ordered if item.required}
    dropped = _drop_covered(ordered, set())
    _cap(ordered, status)
    proof = Proof(ordered)
    chosen = [item for item in ordered if item.required and item.measured is not None]
    if prover is not None and chosen:
        proof.fix = _fix(prover, chosen)
        # Edits interact: where the fixed file leaves a question a dropped item fixes alone, that item is advised
        # after all, and the fixed file made again with it.
        short = [item for item in dropped if not set(item.measured.fixed) <= set(proof.fix.measured.fixed)
                 and _adds(prover, proof.fix, item)]
        if short:
            for item in ordered:
                item.required, item.covered_by = id(item) in advised, []
            _drop_covered(ordered, {id(item) for item in short})
            _cap(ordered, status)
            chosen = [item for item in ordered if item.required and item.measured is not None]
            proof.fix = _fix(prover, chosen)
    return proof


def _adds(prover: Prover, fix: Fix, item: Todo) -> bool:
    """Whether an item dropped as covered gets back, added to the fixed file, a question it fixes alone that the
    fixed file leaves. One that does not is the same fix twice (the Bangle.js manual's second "charger" in Charging,
    each alone fixing questions 20 and 21; the fixed file 28 clean with it or without it)."""
    measured, _ = prover.measure([*fix.edits, *item.edits])
    return not measured.worse and bool((set(measured.fixed) - set(fix.measured.fixed)) & set(item.measured.fixed))


def _cap(ordered: list[Todo], status: str) -> None:
    """A Ready file keeps a short list; an item past it covers nothing the owner is shown."""
    if status != "Ready":
        return
    for item in [i for i in ordered if i.required][READY_ADVISED:]:
        item.required = False
    ordered.sort(key=_order)
    for item in ordered:
        if any(n > READY_ADVISED for n in item.covered_by):
            item.covered_by = []


def _narrow(prover: Prover, item: Todo) -> int:
    """Try the item's smaller versions; take the one that fixes most and worsens nothing, if any. Returns how
    many were graded."""
    best = None
    for smaller in item.narrower:
        result, _ = prover.measure(smaller.edits)
        if not result.worse and result.fixed and (best is None or len(result.fixed) > len(best[1].fixed)):
            best = (smaller, result)
    if best is not None:
        smaller, item.measured = best
        _take(item, smaller)
    return len(item.narrower)


def _fewest(prover: Prover, item: Todo, written: set[str]) -> int:
    """An item whose words fix questions and worsen none: of its words, the first alone that fixes every question
    they fix and worsens none is the item, longest word first (a language's short words are its common ones, and a
    customer's "vorher", "heute" or "pido" rides along with the word that names the thing: "rausnimmt", "rausgeht",
    "mandais"). Words no question needs are words an owner is asked to write for nothing. A word an item above
    already writes (``written``: the Bangle.js manual's two Charging items both came down to "charger") is not
    taken again. Returns how many were graded."""
    graded = 0
    for smaller in sorted(item.narrower, key=lambda i: -_written(i)):
        if any(edit.text in written for edit in smaller.edits):
            continue
        result, _ = prover.measure(smaller.edits)
        graded += 1
        if not result.worse and set(item.measured.fixed) <= set(result.fixed):
            item.measured = result
            _take(item, smaller)
            break
    return graded


def _take(item: Todo, smaller: Todo) -> None:
    """The item becomes its smaller version: its edit, place and evidence (the one word's "Customers ask with",
    not all the item's words beside an edit asking for one)."""
    item.edit, item.why, item.where, item.spans, item.edits = (smaller.edit, smaller.why, smaller.where, smaller.spans,
                                                               smaller.edits)


def _fix(prover: Prover, chosen: list[Todo]) -> Fix:
    """Every advised edit at once; when together they make a question worse (or fewer clean) than the file as it
    is, the items are added one at a time, most fixed first, each kept only if the whole still worsens nothing."""
    edits = [edit for item in chosen for edit in item.edits]
    measured, document = prover.measure(edits)
    if not measured.worse and measured.clean_after >= measured.clean_before:
        return Fix(edits, document, measured, list(chosen))
    kept: list[Todo] = []
    best: tuple[Measured, Document] | None = None
    for item in chosen:
        trial = [edit for i in [*kept, item] for edit in i.edits]
        result = prover.measure(trial)
        if not result[0].worse and result[0].clean_after >= (best[0].clean_after if best else result[0].clean_before):
            kept.append(item)
            best = result
    if best is None:
        return Fix([], prover.document, Measured(prover.setup, prover.clean_before, prover.clean_before), [])
    return Fix([edit for item in kept for edit in item.edits], best[1], best[0], kept)
