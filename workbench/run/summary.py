"""A run's figures from its questions' results (``summarise``), and the lean grading of a graded copy of a file
(``outcome``, ``outcome_run``): the to-do's trials (``advise/proof.py``) read only which questions came out right
and how many were clean, so a copy's run is graded for that alone, by the same rules (``grade``, ``confidence``,
``refusal``) and to the same figures.
"""

from __future__ import annotations

from collections import Counter
from itertools import accumulate

import numpy as np

from workbench.core.model import Chunk, ResolvedQuestion
from workbench.core.results import QuestionResult, Run
from workbench.grade.confidence import WordEvidence, confidence
from workbench.grade.grading import ChunkMap, top_kind
from workbench.grade.metrics import hit_at, mean, ndcg, reciprocal_rank
from workbench.grade.refusal import calibrate, refuse_below


def _padded(totals: list[int], depth: int) -> list[int]:
    """Running totals of a ranking's sizes made ``depth`` long: a ranking of fewer pieces hands over all of them."""
    return totals + [totals[-1] if totals else 0] * (depth - len(totals))


def summarise(
    strategy: str,
    retriever: str,
    reranker: str,
    chunks: list[Chunk],
    results: list[QuestionResult],
    top_k: int,
    threshold: float | str | None = None,
) -> Run:
    """Counts and metrics of one configuration; ranking metrics are over answerable questions.

    With ``threshold="auto"`` each question is graded by a threshold fitted on the other
    questions (leave-one-out), so every count is measured on a question the fit did not see.
    """
    run = outcome_run(strategy, retriever, reranker, chunks, results, top_k, threshold)
    answerable = [result for result in results if result.answerable]
    unanswerable = [result for result in results if not result.answerable]
    run.answerable, run.unanswerable = len(answerable), len(unanswerable)
    # hit@k for k = 1..10 from each question's best rank: one pass over the ranks, not ten.
    firsts = [min(r.relevant_ranks) for r in answerable if r.relevant_ranks]
    run.hit_curve = [sum(1 for first in firsts if first <= k) / len(answerable) if answerable else 0.0 for k in range(1, 11)]
    run.hit_rate = mean([hit_at(r.relevant_ranks, top_k) for r in answerable])
    run.mrr = mean([reciprocal_rank(r.relevant_ranks, 10) for r in answerable])
    run.ndcg = mean([ndcg(r.relevant_ranks, 10) for r in answerable])
    # What a bot would paste into its prompt: the top k pieces, averaged over the questions. Each
    # ranking's running totals, padded with its last (a ranking shorter than k hands over all of it),
    # make a table whose column k - 1 holds every question's characters for k: one sum per column.
    depth, sizes = max(top_k, 10), [chunk.size for chunk in chunks]
    handed = [_padded(list(accumulate([sizes[i] for i, _ in r.ranking[:depth]])), depth) for r in results]
    per_k = [sum(column) / len(handed) for column in zip(*handed)] if handed else [0.0] * depth
    run.context_chars = per_k[top_k - 1]
    run.context_curve = per_k[:10]
    run.false_refusals = sum(r.grade == "refused" for r in answerable)
    if unanswerable:
        run.refusal_accuracy = sum(r.grade == "refused" for r in unanswerable) / len(unanswerable)
    return run


def outcome_run(
    strategy: str,
    retriever: str,
    reranker: str,
    chunks: list[Chunk],
    results: list[QuestionResult],
    top_k: int,
    threshold: float | str | None = None,
) -> Run:
    """The run's refusals and its counts of each grade: all a graded copy's trial reads, and where ``summarise``
    starts."""
    calibration = calibrate(results) if threshold == "auto" else None
    if calibration is not None:
        refuse_below(results, calibration.per_question)
        threshold = calibration.threshold
    else:
        refuse_below(results, threshold)
    run = Run(strategy, retriever, reranker, len(chunks), results, top_k, threshold=threshold, calibration=calibration)
    run.counts = Counter(result.grade for result in results)
    return run


def outcome(
    question: ResolvedQuestion,
    scores: np.ndarray,
    order: np.ndarray,
    chunks: list[Chunk],
    chunk_map: ChunkMap,
    holders: list[int],
    evidence: WordEvidence,
    sureness: np.ndarray,
) -> QuestionResult:
    """One question's grade had the bot answered and its confidence, as ``run.evaluate`` grades them (``grade``:
    clean or mixed when the top piece holds the answer), without what only a report reads: its ranking, the ranks
    of the pieces holding the answer, why it was missed (a missed question is "missed", with no reason)."""
    top = int(order[0])
    kind = top_kind(question, top, holders, chunk_map)
    sure, parts = confidence(evidence, question.question.question, chunks[top], sureness, order)
    return QuestionResult(question=question.question, grade=kind, reason="", rank=None, top_chunk=chunks[top].id,
                          top_score=float(scores[top]), ranking=[], relevant_ranks=[], answered_grade=kind,
                          confidence=sure, evidence=parts)
