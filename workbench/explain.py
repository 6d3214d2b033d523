"""Plain words for the screen: what each term means, and the verdict of a run in one sentence."""

from __future__ import annotations

from .evaluate import Evaluation
from .strategies import STRATEGIES

GLOSSARY = {
    "chunk": "A chunk (piece) is a slice of your document. A chat bot never reads the whole file: it searches "
    "for the few pieces that look most relevant and answers from those alone.",
    "retrieval": "Retrieval is that search: given a customer's question, find the pieces most likely to hold "
    "the answer.",
    "rerank": "A re-check (reranking) takes the search's shortlist and compares each piece with the question more "
    "closely, to put the best piece first.",
    "grades": "Clean: the top piece holds the right fact and nothing about other products. Mixed: the right "
    "fact is there, buried among other products' facts, so the bot may mix them up. Missed: the right fact is "
    "not in the top piece at all.",
    "hit rate": "Hit rate at k: how often the right fact is somewhere in the first k pieces handed to the bot.",
}


def strategy_label(id: str) -> str:
    return STRATEGIES.get(id).label or id


def verdict(evaluation: Evaluation, retriever: str, reranker: str) -> str:
    """One sentence comparing the best and the worst strategy on clean answers."""
    runs = [run for run in evaluation.runs if run.retriever == retriever and run.reranker == reranker]
    if not runs:
        return "No results for these settings yet."
    answerable = runs[0].answerable
    if not answerable:
        return "None of the questions can be graded: add questions with a product and an answer."
    top = max(run.counts["clean"] for run in runs)
    best = [run for run in runs if run.counts["clean"] == top]
    worst = min(runs, key=lambda run: (run.counts["clean"], run.hit_rate))
    if len(best) == len(runs) and len(runs) > 1:
        return f"Every strategy tried answered {top} of {answerable} questions cleanly."
    # Among ties, name the one that also ranks the answer highest and sends the bot the least text.
    lead = min(best, key=lambda run: (-run.hit_rate, -run.mrr, run.context_chars))
    sentence = f"{strategy_label(lead.strategy)} answered {top} of {answerable} questions cleanly"
    if len(best) > 1:
        sentence += f" (as did {len(best) - 1} other strateg{'y' if len(best) == 2 else 'ies'})"
    if worst.counts["clean"] < top:
        sentence += f"; {strategy_label(worst.strategy).lower()} answered {worst.counts['clean']}"
    return sentence + "."
