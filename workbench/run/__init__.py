"""The orchestrator: one evaluation over every strategy x retriever x reranker, its time estimate, its stage clock,
and the display names of a setup.
"""
