"""Plain words for the screen: what each term means. (The verdict itself is in verdict.py.)"""

from __future__ import annotations

GLOSSARY = {
    "chunk": "A chunk (piece) is a slice of your document. For each question, a chat bot does not read the whole file: it "
    "searches for the few pieces that look most relevant and answers from those alone.",
    "retrieval": "Retrieval is that search: given a customer's question, find the pieces most likely to hold "
    "the answer.",
    "rerank": "A re-check (reranking) takes the search's shortlist and compares each piece with the question more "
    "closely, to put the best piece first.",
    "grades": "Clean: the top piece holds the right fact and nothing about other products. Mixed: the right "
    "fact is there, buried among other products' facts, so the bot may mix them up. Missed: the right fact is "
    "not in the top piece at all.",
    "hit rate": "Hit rate at k: how often the right fact is somewhere in the first k pieces handed to the bot.",
}
