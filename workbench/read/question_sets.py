"""Importing a questions CSV into the table: added to it or replacing it, every row accounted for."""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.core.model import Question
from workbench.core.wording import plural
from workbench.read.questions import FIRST_ROW, parse_questions

MODES = ("add", "replace")
ALREADY = "the same question is already in the table"


@dataclass
class ImportOutcome:
    questions: list[Question]  # the table after the import
    added: int = 0
    replaced: int = 0  # rows of the old table the import replaced
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (row of the file, reason)
    starters: int = 0  # the app's own questions, all the table held, that an "add" took the place of

    @property
    def all_there(self) -> bool:
        """Nothing added, every row already in the table: the same file imported again (walk46: "Added 0
        questions; 17 rows rejected" over 17 warnings, one a row, each saying the row is already there)."""
        return not self.added and bool(self.rejected) and all(reason.startswith(ALREADY) for _, reason in self.rejected)

    def sentence(self, name: str) -> str:
        if self.all_there:
            return (f"Nothing to add: {'the' if len(self.rejected) == 1 else f'all {len(self.rejected):,}'} "
                    f"question{'s' if len(self.rejected) > 1 else ''} of {name} "
                    f"{'are' if len(self.rejected) > 1 else 'is'} already in the table.")
        if self.starters:
            said = (f"Added {plural(self.added, 'question')} from {name}, in place of the {self.starters:,} the app "
                    "had written to start with (undo the import to have those back)")
        elif self.replaced or not self.added and not self.rejected:
            said = f"Replaced the table's {plural(self.replaced, 'question')} with {self.added:,} from {name}"
        else:
            said = f"Added {plural(self.added, 'question')} from {name}"
        if self.rejected:
            said += f"; {plural(len(self.rejected), 'row')} rejected (listed below)"
        return said + "."


def _same(a: Question, b: Question) -> bool:
    return (a.question.strip().lower(), a.expected_source.strip().lower()) == (
        b.question.strip().lower(), b.expected_source.strip().lower())


def import_questions(table: list[Question], data: bytes, name: str, mode: str) -> ImportOutcome:
    """Read ``data`` and add its rows to ``table`` or replace ``table`` with them.

    A file that cannot be read at all raises ``WorkbenchError`` and changes nothing. Rows with no
    question, and rows that repeat a question already in the table (or earlier in the file), are
    rejected with the reason; the others are taken.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    rejected: list[tuple[int, str]] = []
    incoming = parse_questions(data, name, rejected)
    # A table of the app's own questions only (a new spreadsheet's starters, never edited or accepted) is a start,
    # not a set to add to: kept, they took rows 2-11, so the owner's row 2 was question 12 on every page, and the
    # status could be no better than "Looks ready" on questions the owner had not written.
    starters = len(table) if mode == "add" and table and all(q.generated for q in table) and any(
        not q.generated for q in incoming) else 0
    kept = [] if mode == "replace" or starters else list(table)
    taken: list[Question] = []
    for question in incoming:
        twin = next((i for i, old in enumerate(kept) if _same(old, question)), None)
        if twin is not None:
            rejected.append((question.row, f"{ALREADY} (row {twin + FIRST_ROW})"))
            continue
        earlier = next((q for q in taken if _same(q, question)), None)
        if earlier is not None:
            rejected.append((question.row, f"the same question as row {earlier.row} of {name}"))
            continue
        taken.append(question)
    rejected.sort()
    return ImportOutcome(
        questions=kept + [Question(q.question, q.expected_source, q.expected_answer, q.kind, generated=q.generated)
                              for q in taken],
        added=len(taken),
        replaced=len(table) if mode == "replace" else 0,
        rejected=rejected,
        starters=starters,
    )
