"""Ranking metrics over the ranks (1-based) at which relevant chunks appear."""

from __future__ import annotations

import math


def hit_at(relevant_ranks: list[int], k: int) -> float:
    """hit@k: 1 when some relevant chunk is in the top k, else 0."""
    return 1.0 if any(rank <= k for rank in relevant_ranks) else 0.0


def reciprocal_rank(relevant_ranks: list[int], k: int = 10) -> float:
    """mrr@k for one question: 1 / rank of the first relevant chunk, 0 when none is in the top k."""
    best = min(relevant_ranks, default=None)
    return 1.0 / best if best is not None and best <= k else 0.0


def ndcg(relevant_ranks: list[int], k: int = 10) -> float:
    """ndcg@k with binary relevance.

    DCG = sum over relevant ranks r <= k of 1 / log2(r + 1); the ideal puts all
    R relevant chunks first: IDCG = sum for i = 1..min(R, k) of 1 / log2(i + 1).
    0 when nothing is relevant.
    """
    dcg = sum(1.0 / math.log2(rank + 1) for rank in relevant_ranks if rank <= k)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(relevant_ranks), k) + 1))
    return dcg / ideal if ideal else 0.0


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
