"""What the workbench says about a result, composed once: the status, its caveats and the to-do list.

The command line's table and JSON, the HTML report and the Results page all take them from ``advise``, so
none of them can say a caveat the others leave out or list the to-do in another order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from workbench.advise.audit import Audit, audit
from workbench.advise.crossfile import cross_todo
from workbench.advise.findings import chance_sentence
from workbench.advise.proof import Fix, Proof, prove
from workbench.advise.readers import READERS
from workbench.advise.todo import Todo, not_clean, todo_list
from workbench.advise.verdict import Verdict, assess
from workbench.core.model import Document, Question
from workbench.core.results import Evaluation
from workbench.core.wording import lower_first, plural


@dataclass
class Advice:
    verdict: Verdict
    caveats: list[str]  # the verdict's, then the chance warning when a control ties under another search
    todo: list[Todo] = field(default_factory=list)  # empty when no setup could be recommended
    checkup: Audit | None = None  # what the to-do list was built from
    fix: Fix | None = None  # every advised edit at once, graded (advise/proof.py); None when none was measured
    measured: bool = False  # the items with edits were tried on a copy (a complete result's, of one file)
    across: list[Todo] = field(default_factory=list)  # a knowledge base's to-do across its files (``cross_todo``)

    @property
    def advised(self) -> list[Todo]:
        """The to-do proper: the items to do, most questions fixed first (``Proof``'s sorting of them)."""
        return Proof(self.todo).advised

    @property
    def optional(self) -> list[Todo]:
        return Proof(self.todo).optional

    @property
    def not_advised(self) -> list[Todo]:
        return Proof(self.todo).not_advised


# Said under the report's to-do: how its figures were made, and what they do not prove. The held-back figure is
# bench/proof.py's (BENCHMARKS.md, "Advice proven on the file").
METHOD_NOTE = ("How the to-do was measured: each change was made on a copy of your file, and the copy graded again with "
               "the same questions under the recommended setup; a change that made any question worse is not advised. "
               "A change written from a question's own words fixes that question by construction, so it was also "
               "checked on questions it was not written from: on the real files we test with, the questions held back "
               "lost nothing with the fixes.")

def todo_heading(advice: Advice) -> str:
    """The line above the to-do list: how many items, and that each was tried on a copy of the file; or, when
    nothing is required, that plainly. When a knowledge base's files together still need changes (listed after
    it), "nothing is required" is said of the files one by one: the report and the command line said "your file
    is ready as it is" above the change the files needed together, where the Results page did not."""
    count = len(advice.advised)
    tried = sum(1 for item in advice.advised if item.measured is not None)
    if not count and advice.across:
        return "Nothing is required in each file on its own; the files together need the changes below."
    if not count:
        if advice.verdict.status == "Ready":
            return "Nothing is required: your file is ready as it is."
        if not advice.measured:
            return ("Nothing is required from word search's verdict alone; the changes are tried on a copy of your "
                    "file once the run is finished.")
        # "Nothing is required" under "Needs work" read as the file being fine: it is the list that is empty.
        return ("No change to list: none tried on a copy of your file answered more of your questions cleanly, and the "
                "rest could not be tried there.")
    if count == 1:  # "1 item, each tried …, most questions fixed first" said an order and an "each" of one
        return f"To do (1 item{', tried on a copy of your file and graded again' if tried else ''}):"
    said = (f"{'each' if tried == count else f'{tried} of them'} tried on a copy of your file and graded again, "
            if tried else "")
    return f"To do ({count} items, {said}most questions fixed first):"


def folded_heading(advice: Advice) -> str:
    """The fold under the to-do: what measured no gain on a copy of the file, or had no change to try there. Never
    counted in the to-do, and named for what it is: "Optional tidying" read as worth doing."""
    count = len(advice.optional)
    if not count:
        return ""
    return f"Not measured to help: {plural(count, 'item')}, not counted (no gain on a copy of your file, or nothing to try there)"


def fix_sentence(advice: Advice, reader: str) -> str:
    """The file with every advised edit, graded: clean before → after, and where to get it."""
    fix = advice.fix
    if fix is None or not fix.edits:
        return ""
    m = fix.measured
    return (f"Your file with {'this fix' if len(fix.items) == 1 else f'these {len(fix.items)} fixes'}: "
            f"{m.clean_before} → {m.clean_after} clean with {lower_first(m.setup)} ({READERS[reader].fixed_file}).")


def checkup_for(evaluation: Evaluation, verdict: Verdict) -> Audit:
    """The check-up the to-do list reads: shared lines (those of questions not clean under the recommended setup
    first), long sections and unheaded text."""
    return todo_checkup(evaluation.document, [q.question for q in evaluation.questions], not_clean(verdict.recommended))


def todo_checkup(document: Document, questions: list[Question], failed: Collection[int]) -> Audit:
    """``checkup_for`` from its parts. ``strategies=()``: the to-do never reads the check-up's counts of unnamed
    pieces, so no extra cut is made for them."""
    return audit(document, strategies=(), questions=questions, not_clean=failed)


def caveats(verdict: Verdict, evaluation: Evaluation) -> list[str]:
    """The verdict's caveats, plus the chance warning for the searches the verdict does not look at: the verdict
    warns of a control only under the recommended search, so the sentence over every search is added when it
    did not."""
    found = list(verdict.caveats)
    sentence = chance_sentence(evaluation.runs, evaluation.settings.size)
    if sentence and not verdict.warned_of_chance:
        found.append(sentence)
    return found


def advise(evaluation: Evaluation, checkup: Callable[[Verdict], Audit] | None = None, reader: str = "app",
           measure: bool = True, encoder_factory: Callable | None = None) -> Advice:
    """The verdict, its caveats and the to-do list for ``evaluation``. ``checkup`` gives ``checkup_for``'s
    check-up for the verdict another way (the app keeps one per file and questions, so a page opened again
    does not check the file again). ``reader``: "app" (the default), "cli" or "report" (read without the app), whom
    the verdict and the to-do list address. ``measure``: grade each item's edits on a copy of the file under the
    recommended setup (``proof.prove``; a partial result is never measured: its setup is not settled)."""
    verdict = assess(evaluation, reader)
    advice = Advice(verdict, caveats(verdict, evaluation))
    if verdict.recommended is not None:
        advice.checkup = checkup(verdict) if checkup is not None else checkup_for(evaluation, verdict)
        advice.todo = todo_list(evaluation, verdict.recommended, advice.checkup, verdict.baseline, reader)
        proof = prove(evaluation, verdict.recommended, advice.todo, verdict.status, encoder_factory,
                      measure=measure and evaluation.complete)
        advice.todo, advice.fix = proof.items, proof.fix
        if evaluation.document.files:
            advice.across = cross_todo(evaluation, verdict.recommended)
        advice.measured = measure and evaluation.complete and not evaluation.document.files
    return advice


def warm_up() -> None:
    """What grading and advising any file sets up on first use, done now: a sweep does before it forks its processes,
    so each starts with it rather than making its own (about 0.08 s a process, BENCHMARKS.md, "Stop 44"). The
    language identifier and its letter classes, the English stemmer, the check-up's look-alike table, the verdict's
    random draws and quantiles (numpy.random, numpy.ma). Not the model's modules: a word search never reads them, and
    a sweep with the model runs in one process."""
    import numpy as np
    import numpy.ma  # noqa: F401  (np.quantile's, for the verdict's figures)

    from workbench.advise.injection import confusables
    from workbench.core.stemmers import snowball
    from workbench.read.language import load_identifier

    load_identifier()
    snowball()
    confusables()
    np.random.default_rng(0)
