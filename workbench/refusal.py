"""Refusing instead of guessing: a score threshold, and calibrating it on the golden questions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .evaluate import QuestionResult


def refuse_below(results: list[QuestionResult], threshold: float | None) -> None:
    """Grade ``refused`` every question whose best score is below the threshold (in place).

    Each result keeps the grade it would have had if answered, so a threshold can be
    changed or calibrated without searching again.
    """
    for result in results:
        if threshold is not None and result.top_score < threshold:
            result.grade, result.reason = "refused", ""
        else:
            result.grade, result.reason = result.answered_grade, result.answered_reason


@dataclass(frozen=True)
class Calibration:
    threshold: float | None  # None: never refuse
    answered: int  # answerable questions the bot still answers
    refused: int  # unanswerable questions the bot refuses
    answerable: int
    unanswerable: int

    @property
    def sentence(self) -> str:
        if self.threshold is None:
            rule = "Never refusing"
        else:
            rule = f"Refusing below a score of {self.threshold:.3g}"
        return (
            f"{rule} answers {self.answered} of {self.answerable} answerable questions and refuses "
            f"{self.refused} of {self.unanswerable} that the document cannot answer."
        )


def calibrate(results: list[QuestionResult]) -> Calibration:
    """The threshold that maximises answerable questions answered plus unanswerable ones refused.

    The candidates are "never refuse" and each question's best score (refuse below it).
    Ties go to the lower threshold: refuse as little as the questions allow.
    """
    answerable = [r.top_score for r in results if r.answerable]
    unanswerable = [r.top_score for r in results if not r.answerable]

    def outcome(threshold: float | None) -> Calibration:
        answered = sum(1 for s in answerable if threshold is None or s >= threshold)
        refused = sum(1 for s in unanswerable if threshold is not None and s < threshold)
        return Calibration(threshold, answered, refused, len(answerable), len(unanswerable))

    candidates = [outcome(None)] + [outcome(t) for t in sorted({*answerable, *unanswerable})]
    candidates.append(outcome(max([*answerable, *unanswerable], default=0.0) + 1.0))  # refuse everything
    return max(candidates, key=lambda c: (c.answered + c.refused, -(c.threshold or float("-inf"))))
