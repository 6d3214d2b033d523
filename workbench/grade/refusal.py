"""Refusing instead of guessing: a confidence threshold, fitted on the golden questions and judged
leave-one-out, so the refusal figures are measured, not fitted (docs/DESIGN.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from workbench.core.results import MIN_UNANSWERABLE, Calibration, QuestionResult

# The score can refuse on a file when some threshold refuses at least half the unanswerable questions while
# wrongly refusing at most 5 % of the answerable ones (judged on all the questions: the best any threshold does).
SEPARABLE_REFUSED = 0.5
SEPARABLE_WRONGLY = 0.05


def refuse_below(results: list[QuestionResult], threshold: float | None | Sequence[float | None]) -> None:
    """Grade ``refused`` every question whose confidence is below its threshold (in place).

    ``threshold`` is one value for every question, or one per question (leave-one-out).
    Each result keeps the grade it would have had if answered, so a threshold can be
    changed or calibrated without searching again. This is the only place a question is refused.
    """
    thresholds = threshold if isinstance(threshold, Sequence) else [threshold] * len(results)
    for result, limit in zip(results, thresholds, strict=True):
        result.refuse_below = limit
        if limit is not None and result.confidence < limit:
            result.grade, result.reason = "refused", ""
        else:
            result.grade, result.reason = result.answered_grade, result.answered_reason


def fit(answerable: Sequence[float], unanswerable: Sequence[float]) -> float | None:
    """The threshold that gets the most questions right: answerable ones answered plus unanswerable
    ones refused. ``None`` means never refuse.

    The candidates are "never refuse", every midpoint between two neighbouring confidences (a
    question is never exactly on the line), and "refuse everything". Among equally good
    candidates the middle one is taken: the line then sits as far as the questions allow from
    those on either side, which is what a question not yet seen needs.
    """
    a = np.sort(np.asarray(answerable, dtype=float))
    u = np.sort(np.asarray(unanswerable, dtype=float))
    values = np.unique(np.concatenate([a, u]))
    if not len(values):
        return None
    middles = (values[:-1] + values[1:]) / 2
    candidates = np.concatenate([[-np.inf], middles, [values[-1] + 1.0]])
    answered = len(a) - np.searchsorted(a, candidates, side="left")  # confidence >= threshold
    refused = np.searchsorted(u, candidates, side="left")  # confidence < threshold
    right = answered + refused
    best = np.flatnonzero(right == right.max())
    chosen = float(candidates[best[(len(best) - 1) // 2]])
    return None if chosen == -np.inf else chosen


def _split(values: Sequence[float], answerable: Sequence[bool]) -> tuple[list[float], list[float]]:
    """The confidences of the answerable questions and of the unanswerable ones."""
    return [v for v, a in zip(values, answerable) if a], [v for v, a in zip(values, answerable) if not a]


def fits_leaving_out(values: Sequence[float], answerable: Sequence[bool], skips: Sequence[int]) -> list[float | None]:
    """``fit`` of the questions less question ``skip``, for each of ``skips`` (``fits``'s second part)."""
    return fits(values, answerable, skips)[1]


def fits(values: Sequence[float], answerable: Sequence[bool],
         skips: Sequence[int]) -> tuple[float | None, list[float | None]]:
    """``fit`` of all the questions, and of the questions less question ``skip`` for each of ``skips``, all at
    once: the first from the same candidates and tallies (the same floats ``fit`` makes), the others what ``fit`` would
    choose, worked out from the candidates of all the questions (one ``fit`` each was 0.4 s of a 4 s sweep).

    Leaving out a question counts it out of the candidates' tallies (an answerable one was answered at every
    candidate up to its confidence, an unanswerable one refused above it); when no other question has its
    confidence, that value leaves the list ``fit`` takes midpoints of: the two midpoints beside it become the one
    between its neighbours, or the end one goes (the highest value's "refuse everything" becomes the next
    value's). Each candidate is the same sum ``fit`` makes, so the same float; the tallies are whole numbers."""
    if not np.all(np.isfinite(values)):  # the arithmetic below needs finite confidences: each left out in turn
        return fit(*_split(values, answerable)), [fit(*_split([v for i, v in enumerate(values) if i != skip],
                                                              [k for i, k in enumerate(answerable) if i != skip]))
                                                  for skip in skips]
    a, u = (np.sort(np.asarray(side, dtype=float)) for side in _split(values, answerable))
    unique, multiplicity = np.unique(np.concatenate([a, u]), return_counts=True)
    m = len(unique)
    candidates = np.concatenate([[-np.inf], (unique[:-1] + unique[1:]) / 2, [unique[-1] + 1.0]])
    whole = len(a) - np.searchsorted(a, candidates, side="left") + np.searchsorted(u, candidates, side="left")
    best = np.flatnonzero(whole == whole.max())
    chosen = float(candidates[best[(len(best) - 1) // 2]])
    threshold = None if chosen == -np.inf else chosen

    def tally(at: np.ndarray, value: np.ndarray, is_answerable: np.ndarray) -> np.ndarray:
        """Questions right at each threshold ``at``, with the question (``value``, ``is_answerable``) left out."""
        answered = len(a) - np.searchsorted(a, at, side="left") - (is_answerable & (value >= at))
        refused = np.searchsorted(u, at, side="left") - (~is_answerable & (value < at))
        return answered + refused

    value = np.asarray([values[i] for i in skips], dtype=float)[:, None]
    is_answerable = np.asarray([answerable[i] for i in skips], dtype=bool)[:, None]
    table = np.repeat(candidates[None, :], len(skips), axis=0)
    right = tally(table, value, is_answerable)
    where = np.searchsorted(unique, value[:, 0])
    alone = multiplicity[where] == 1  # the value leaves the list of values
    rows = np.flatnonzero(alone & (where > 0) & (where < m - 1))
    table[rows, where[rows]] = (unique[where[rows] - 1] + unique[where[rows] + 1]) / 2
    right[rows, where[rows] + 1] = -1
    if m > 1:
        rows = np.flatnonzero(alone & (where == 0))
        right[rows, 1] = -1
        rows = np.flatnonzero(alone & (where == m - 1))
        table[rows, m] = unique[m - 2] + 1.0
        right[rows, m - 1] = -1
    changed = np.flatnonzero(alone)  # their new candidates tallied again
    right[changed] = np.where(right[changed] < 0, -1, tally(table[changed], value[changed], is_answerable[changed]))
    best = right == right.max(axis=1, keepdims=True)
    middle = (best.sum(axis=1) - 1) // 2  # among equally good candidates, the middle one (as ``fit``)
    pick = np.argmax(best & (np.cumsum(best, axis=1) - 1 == middle[:, None]), axis=1)
    chosen = table[np.arange(len(skips)), pick]
    return threshold, [None if (m == 1 and alone[i]) or chosen[i] == -np.inf else float(chosen[i])
                       for i in range(len(skips))]


def calibrate(results: list[QuestionResult]) -> Calibration:
    """Fit a threshold on all the questions, and judge each question by one fitted without it.

    With fewer than three unanswerable questions nothing is fitted (``threshold`` None,
    ``per_question`` all None): a refusal rate from one or two questions is noise.
    """
    values = [r.confidence for r in results]
    answerable = [r.answerable for r in results]
    n_answerable = sum(answerable)
    n_unanswerable = len(results) - n_answerable
    if n_unanswerable < MIN_UNANSWERABLE:
        return Calibration(None, n_answerable, n_unanswerable, 0, 0, 0, 0, [None] * len(results))

    def refused(value: float, threshold: float | None) -> bool:
        return threshold is not None and value < threshold

    # Leaving out either of two questions with the same confidence and kind leaves the same questions: one fit.
    first: dict[tuple[float, bool], int] = {}
    for i, key in enumerate(zip(values, answerable)):
        first.setdefault(key, i)
    threshold, without = fits(values, answerable, list(first.values()))
    fitted_without = dict(zip(first, without))
    per_question = [fitted_without[key] for key in zip(values, answerable)]
    loo = [refused(v, t) for v, t in zip(values, per_question)]
    fitted = [refused(v, threshold) for v in values]
    return Calibration(
        threshold,
        n_answerable,
        n_unanswerable,
        refused=sum(r for r, a in zip(loo, answerable) if not a),
        false_refusals=sum(r for r, a in zip(loo, answerable) if a),
        fitted_refused=sum(r for r, a in zip(fitted, answerable) if not a),
        fitted_false_refusals=sum(r for r, a in zip(fitted, answerable) if a),
        per_question=per_question,
    )


@dataclass(frozen=True)
class TradeOff:
    """What refusing costs on this file: the fewest answerable questions any threshold wrongly refuses while
    refusing ``target`` (half, rounded up) of the unanswerable ones. Judged on all the questions, so it is the
    best any threshold can do here, not a promise for new questions."""

    answerable: int
    unanswerable: int
    target: int
    wrongly: int
    @property
    def separable(self) -> bool:
        """Whether the score can tell these unanswerable questions from real ones (see SEPARABLE_*)."""
        return self.wrongly <= SEPARABLE_WRONGLY * self.answerable

    @property
    def sentence(self) -> str:
        # Said as what a threshold does, not as "the fewest real questions any threshold also refuses while ...
        # is N", which the walk-through could not read.
        half = f"at least half of the {self.unanswerable} ({self.target})"
        if not self.wrongly:
            return (f"On this file, a threshold can refuse {half} without refusing any of the {self.answerable} "
                    "real ones, judged on all the questions.")
        return (f"On this file, any threshold that refuses {half} also refuses at least {self.wrongly} of the "
                f"{self.answerable} real ones, judged on all the questions.")


def trade_off(results: list[QuestionResult]) -> TradeOff | None:
    """The refusal trade-off of one run's results; None with fewer than three unanswerable questions.

    Refusing below a threshold t refuses every confidence under t. To refuse the ``target`` least confident
    unanswerable questions, t must lie just above the ``target``-th smallest of their confidences, v; the
    answerable questions refused along with them are then those with a confidence of at most v.
    """
    answerable = [r.confidence for r in results if r.answerable]
    unanswerable = sorted(r.confidence for r in results if not r.answerable)
    if len(unanswerable) < MIN_UNANSWERABLE:
        return None
    target = math.ceil(SEPARABLE_REFUSED * len(unanswerable))
    line = unanswerable[target - 1]
    return TradeOff(len(answerable), len(unanswerable), target, sum(value <= line for value in answerable))


def refusal_holds(tradeoff: TradeOff | None, threshold: object, refused: int) -> bool:
    """Whether refusing by the search's confidence works on this file, the one answer the status and the refusal line
    take (``advise/verdict.py``): some threshold refuses half of the unanswerable questions at <= 5 % of real ones
    wrongly refused (``TradeOff.separable``), and, when thresholds are fitted ("auto"), the ones fitted without each
    question did refuse that many (``refused``: the unanswerable questions the run refused, each judged by a threshold
    fitted without it). A threshold that hands them over only when fitted on every question at once is none to rely
    on: the bot is to hand over by its instructions, and its answers are what count. The real questions it refused
    wrongly are not clean, so the status counts them already. Judged on the in-sample trade-off alone, a better
    confidence could make a file Not ready where a useless one left it Ready (the real German export: 31 of 32
    clean, separable in-sample, 1 of 6 refused leave-one-out)."""
    if tradeoff is None or not tradeoff.separable:
        return False
    return threshold != "auto" or refused >= tradeoff.target


def answers_alone(results: list[QuestionResult], threshold: object) -> bool:
    """Whether the status rests on the bot's answers alone ("when it answers"): the file has enough questions it
    cannot answer to weigh refusing (``trade_off``), and refusing does not hold on it (``refusal_holds``). The bot
    is then to hand over by its instructions, so a real question is counted by the answer it would have given, and
    whether a question the file cannot answer was refused counts for nothing. The one decision the verdict's count
    and the to-do's measured figures under it both take (``counted_right``)."""
    tradeoff = trade_off(results)
    refused = sum(1 for r in results if not r.answerable and r.grade == "refused")
    return tradeoff is not None and not refusal_holds(tradeoff, threshold, refused)


def counted_right(result: QuestionResult, alone: bool) -> bool | None:
    """Whether a question came out right as the verdict counts it (``alone``: ``answers_alone``): a real question
    clean (had the bot answered, when ``alone``), one the file cannot answer refused, or None, not counted, when
    ``alone``."""
    if result.answerable:
        return (result.answered_grade if alone else result.grade) == "clean"
    return None if alone else result.grade == "refused"


def counted_clean(results: list[QuestionResult], alone: bool) -> int:
    """The real questions clean, counted as the verdict counts them (``counted_right``)."""
    return sum(1 for r in results if r.answerable and counted_right(r, alone))


def let_through(results: list[QuestionResult]) -> str:
    """Why a fitted threshold let through the questions the file cannot answer that the bot answered, as measured: the
    real questions the bot was no surer of, which a level stopping them all would refuse too (said of a file where a
    level stopped the others without refusing one real question, "no refusal level stops them without turning away
    real customers" contradicted the refusal line above it)."""
    answered = [r.confidence for r in results if not r.answerable and r.grade != "refused"]
    if not answered:
        return ""
    answerable = [r.confidence for r in results if r.answerable]
    real = sum(value <= max(answered) for value in answerable)
    if not real:
        return " The refusal level, fitted each time on your other questions, let them through."
    return (f" The bot was as sure of them as of {real} of the {len(answerable)} questions your file answers, so a "
            "refusal level that stops them would turn those customers away too.")
