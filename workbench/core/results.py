"""The result records of an evaluation: one question under one setup, one setup's run, and all of them.

They sit apart from the orchestrator (``evaluate.py``) so that everything that reads results (the verdict, the
to-do list, the outputs, the history) depends on records, not on the code that computes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from workbench.core.model import BadQuestion, Chunk, Document, Question, ResolvedQuestion, Settings
from workbench.core.words import ENGLISH, Analyzer

MIN_UNANSWERABLE = 3  # fewer cannot estimate a refusal rate: one question is a third of it


@dataclass
class QuestionResult:
    question: Question
    grade: str
    reason: str
    rank: int | None
    top_chunk: str | None
    top_score: float  # the final ranking's score of the top piece (the reranker's when it re-scored)
    ranking: list[tuple[int, float]]  # (chunk index, score) of the top KEEP chunks
    relevant_ranks: list[int]
    answered_grade: str = ""  # the grade had the bot answered (no threshold)
    answered_reason: str = ""
    confidence: float = 0.0  # 0-1: how sure the search is that the document answers it (confidence.py)
    evidence: dict[str, float] = field(default_factory=dict)  # the confidence's parts
    refuse_below: float | None = None  # the threshold this question was judged by (leave-one-out under "auto")

    @property
    def answerable(self) -> bool:
        return self.question.answerable


@dataclass
class Run:
    strategy: str
    retriever: str
    reranker: str
    chunks: int
    per_question: list[QuestionResult]
    top_k: int
    counts: Counter = field(default_factory=Counter)
    hit_rate: float = 0.0
    hit_curve: list[float] = field(default_factory=list)  # hit@1 .. hit@10
    mrr: float = 0.0
    ndcg: float = 0.0
    context_chars: float = 0.0
    answerable: int = 0
    unanswerable: int = 0
    refusal_accuracy: float | None = None  # unanswerable questions refused (leave-one-out under "auto")
    false_refusals: int = 0  # answerable questions refused
    threshold: float | None = None  # the threshold to use from now on (under "auto": fitted on all the questions)
    calibration: Calibration | None = None  # set when the threshold was calibrated ("auto")
    context_curve: list[float] = field(default_factory=list)  # characters handed to the model at k = 1..10

    @property
    def key(self) -> tuple[str, str, str]:
        return self.strategy, self.retriever, self.reranker


@dataclass
class Evaluation:
    document: Document
    settings: Settings
    questions: list[ResolvedQuestion]
    bad_questions: list[BadQuestion]
    chunks: dict[str, list[Chunk]]
    runs: list[Run]
    seconds: float = 0.0  # wall time the evaluation took, shown again when a page reuses it
    # Stages of the grid not computed yet (``run/staged.py``): empty for a complete result. A result with
    # pending stages is partial: its verdict is provisional, and it is never remembered or saved as complete.
    pending: tuple[str, ...] = ()
    # How the document's words were read (its languages' stop words and stems, ``core.words``): the to-do reads
    # the customers' words as the searches did.
    analyzer: Analyzer = ENGLISH

    @property
    def complete(self) -> bool:
        return not self.pending

    def runs_under(self, retriever: str, reranker: str | None = None) -> list[Run]:
        """The runs of one search (and one re-check, when named), in their order: what one chart shows."""
        return [run for run in self.runs
                if run.retriever == retriever and (reranker is None or run.reranker == reranker)]

    def run(self, strategy: str, retriever: str, reranker: str) -> Run:
        for run in self.runs:
            if run.key == (strategy, retriever, reranker):
                return run
        raise KeyError((strategy, retriever, reranker))


@dataclass(frozen=True)
class Calibration:
    """A fitted threshold and what it does, judged leave-one-out and (labelled) in-sample."""

    threshold: float | None  # fitted on all the questions: the one to use from now on
    answerable: int
    unanswerable: int
    refused: int  # unanswerable questions refused, each judged by a threshold fitted without it
    false_refusals: int  # answerable questions refused, judged the same way
    fitted_refused: int  # the same counts with the threshold fitted on all (in-sample: optimistic)
    fitted_false_refusals: int
    per_question: list[float | None] = field(default_factory=list)  # each question's leave-one-out threshold

    @property
    def enough(self) -> bool:
        return self.unanswerable >= MIN_UNANSWERABLE

    @property
    def missing(self) -> int:
        """How many more unanswerable questions to write before a rate can be estimated."""
        return max(0, MIN_UNANSWERABLE - self.unanswerable)

    @property
    def sentence(self) -> str:
        if not self.enough:
            return cannot_estimate(self.unanswerable)
        rule = "never refuse" if self.threshold is None else f"refuse below a confidence of {self.threshold:.3f}"
        # In the words the verdict uses ("each refusal judged by a threshold fitted on the other questions"): the
        # report and Compare said "Leave-one-out" and "(fitted, in-sample: …)" to a shop owner.
        return (
            f"Each question judged by a threshold fitted on the other questions: the bot refuses "
            f"{self.refused} of {self.unanswerable} questions the document cannot answer and wrongly refuses "
            f"{self.false_refusals} of {self.answerable} it can. The threshold fitted on all "
            f"{self.answerable + self.unanswerable} questions, to use from now on: {rule}; judged on the very "
            f"questions it was fitted on, which flatters it, it refuses {self.fitted_refused} of {self.unanswerable} "
            f"and wrongly {self.fitted_false_refusals} of {self.answerable}."
        )

    def as_dict(self) -> dict:
        return {
            "threshold_fitted_on_all": self.threshold,
            "enough_unanswerable": self.enough,
            "leave_one_out": {
                "unanswerable_refused": self.refused,
                "answerable_refused": self.false_refusals,
            },
            "fitted_in_sample": {
                "unanswerable_refused": self.fitted_refused,
                "answerable_refused": self.fitted_false_refusals,
            },
            "answerable": self.answerable,
            "unanswerable": self.unanswerable,
            "sentence": self.sentence,
        }


def cannot_estimate(unanswerable: int) -> str:
    more = MIN_UNANSWERABLE - unanswerable
    return (
        f"The refusal rate cannot be estimated from {unanswerable} question{'s' if unanswerable != 1 else ''} the "
        f"document cannot answer: write at least {more} more (another country, a product or a service the shop "
        f"does not offer), with the source left empty, so no threshold was fitted."
    )
