"""Finding the pieces for a question: the retrievers and the re-checks (rerankers), each registered by id.
"""
