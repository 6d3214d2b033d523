"""The setups a new run grades unless asked otherwise: the ones that won on real files (docs/DESIGN.md).

The app's Results page starts from these, and ``bench/default_setup.py`` times them. ``fixed`` (300-character
windows) is always among the cuts: every verdict compares the recommended setup with it.
"""

from __future__ import annotations

DEFAULT_STRATEGIES = ["fixed", "heading", "breadcrumb", "small-to-big"]
DEFAULT_RETRIEVERS = ["bm25", "dense", "hybrid"]
DEFAULT_RERANKERS = ["none", "maxsim"]
