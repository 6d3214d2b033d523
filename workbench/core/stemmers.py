"""The one Snowball stemmer of each language, for the searches' stems (``core.words.Analyzer``) and the confidence's
named forms (``core.named_forms``: Hungarian's).

``snowballstemmer`` is a small, kept library with no model or data files, which stems in C through PyStemmer when
that imports (requirements.txt; the same stems as its own Python, word for word: ``tests/test_stems_in_c.py``), else
in Python. One stemmer per language serves both callers, so a word is stemmed by the same algorithm, and cached
once, wherever it is read.
"""

from __future__ import annotations

import functools


@functools.cache
def snowball(algorithm: str = "english"):
    """The Snowball stemmer of ``algorithm`` ("hungarian", "german"…), made once per process; its ``stemWord``
    stems a lowercase word. English is Porter2: stripping -s/-es missed "returning"/"returned" and
    "batteries"/"battery"; Porter2 finds both."""
    import snowballstemmer  # a few milliseconds, paid by the first text a search reads

    return snowballstemmer.stemmer(algorithm)
