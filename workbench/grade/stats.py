"""Honest statistics for a few dozen questions: is one configuration really better than another?

Both configurations answer the same questions, so the comparison is paired:
a paired bootstrap interval for the difference, and McNemar's exact test on
the questions where the two disagree. The standard library does both tails
(``math.comb`` for the binomial, ``statistics.NormalDist`` for the normal
quantile), so a comparison loads no scipy (its import alone took 1.5 s).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from workbench.core.results import Run
from workbench.grade.metrics import hit_at


@dataclass(frozen=True)
class Comparison:
    a: str  # names of the two configurations
    b: str
    metric: str  # "clean" or "hit"
    questions: int
    a_count: int
    b_count: int
    only_a: int  # questions only A got right
    only_b: int
    low: float  # 95 % paired-bootstrap interval for (B - A), in questions
    high: float
    p_value: float  # McNemar's exact test, two-sided
    needed: int | None  # questions needed to detect this difference (80 % power, 5 % level); None if no difference

    @property
    def difference(self) -> int:
        return self.b_count - self.a_count

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05 and (self.low > 0 or self.high < 0)

    def sentence(self) -> str:
        what = "clean answers" if self.metric == "clean" else "questions with the answer in the top pieces"
        if self.significant:
            winner, loser = (self.b, self.a) if self.difference > 0 else (self.a, self.b)
            low, high = sorted((abs(self.low), abs(self.high)))
            p = "p < 0.001" if self.p_value < 0.001 else f"p = {self.p_value:.3f}"
            return (
                f"{winner} beats {loser}: {abs(self.difference)} more {what} "
                f"(95 % interval {low:.0f} to {high:.0f}), {p}."
            )
        measure = "clean answers" if self.metric == "clean" else "finding the answer in the top pieces"
        text = f"On {measure}, {self.a} and {self.b} are not distinguishable on these {self.questions} questions"
        if self.needed:
            text += (f"; about {self.needed} questions would be needed to detect a difference this size, if new "
                     f"ones split them as these do ({self.only_a + self.only_b} of {self.questions} right under only "
                     "one of them): with that many, a real difference this size shows 4 times in 5, and luck passes "
                     "for one at most 1 time in 20")
        elif self.difference == 0 and self.only_a == 0:
            text += " (they got exactly the same questions right)"
        return text + "."


def outcomes(run: Run, metric: str) -> np.ndarray:
    """1 where the configuration got the answerable question right, else 0."""
    rows = [r for r in run.per_question if r.answerable]
    if metric == "clean":
        return np.array([r.grade == "clean" for r in rows], dtype=int)
    return np.array([hit_at(r.relevant_ranks, run.top_k) for r in rows], dtype=int)


def questions_needed(discordant: float, difference: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """Connor's (1987) sample size for McNemar's test: n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2."""
    if difference == 0 or discordant <= difference**2:
        return None
    z_alpha, z_beta = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    n = (z_alpha * math.sqrt(discordant) + z_beta * math.sqrt(discordant - difference**2)) ** 2 / difference**2
    return math.ceil(n)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: twice the smaller binomial tail at p = 1/2, capped at 1.

    With p = 1/2 the binomial is symmetric, so this equals scipy's ``binomtest(k, n, 0.5).pvalue``.
    """
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2**n)


def compare(a: Run, b: Run, metric: str = "clean", resamples: int = 10_000, seed: int = 0,
            names: tuple[str, str] | None = None) -> Comparison:
    """Compare configuration B against A on the same answerable questions.

    ``names`` are what the sentence calls A and B (the app passes display names); ids by default.
    """
    if metric not in ("clean", "hit"):
        raise ValueError(f"metric must be 'clean' or 'hit', not {metric!r}")
    x, y = outcomes(a, metric), outcomes(b, metric)
    if len(x) != len(y):
        raise ValueError(f"the two runs graded different questions ({len(x)} and {len(y)})")
    n = len(x)
    only_a = int(np.sum((x == 1) & (y == 0)))
    only_b = int(np.sum((x == 0) & (y == 1)))
    differences = y - x
    if n:
        totals = differences[_draws(n, resamples, seed)].sum(axis=1)
        low, high = np.percentile(totals, [2.5, 97.5])
    else:
        low = high = 0.0
    discordant = only_a + only_b
    p_value = mcnemar_exact(only_a, only_b)
    needed = questions_needed(discordant / n, (only_b - only_a) / n) if n else None
    return Comparison(
        a=names[0] if names else name(a), b=names[1] if names else name(b), metric=metric, questions=n,
        a_count=int(x.sum()), b_count=int(y.sum()),
        only_a=only_a, only_b=only_b, low=float(low), high=float(high), p_value=float(p_value), needed=needed,
    )


@functools.lru_cache(maxsize=2)
def _draws(n: int, resamples: int, seed: int) -> np.ndarray:
    """The questions drawn into each resample (a row each): they depend on ``n`` and the seed alone, so a verdict's
    comparisons of one file's questions (against 300-character windows, and the runner-up) draw them once; drawing
    was half of a comparison's time. Kept as small integers: 0.8 MB for 10,000 resamples of 40 questions."""
    picks = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    picks = picks.astype(np.int16 if n < 2**15 else np.int64)
    picks.flags.writeable = False
    return picks


def name(run: Run) -> str:
    """A configuration in words: the strategy, plus the search and rerank when they are not the defaults."""
    parts = [run.strategy]
    if run.retriever != "keyword":
        parts.append(run.retriever)
    if run.reranker != "none":
        parts.append(f"reranked by {run.reranker}")
    return " ".join(parts)
