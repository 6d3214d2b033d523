"""Finding the pieces for a question: the retrievers and the re-checks (rerankers), each registered by id.

``retrievers.py`` and ``rerankers.py`` hold the registries and the first of each kind; a retriever or reranker
in a module of its own registers when that module is imported below.
"""

from workbench.search import (
    cross_encoder,  # noqa: F401
    maxsim,  # noqa: F401
    rerankers,  # noqa: F401  (the registry maxsim and cross_encoder add to)
    retrievers,  # noqa: F401  (the registry the modules below add to)
    tfidf,  # noqa: F401
)
