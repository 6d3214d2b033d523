"""Where the workbench keeps its files on this computer: the run history, the embedding cache, the app's saved work.

Apart from the stores themselves, so a command that only needs to know the paths (every command checks that its
output replaces none of them) does not import SQLite, hashing and logging with the stores (BENCHMARKS.md, "Stop 46").
"""

from __future__ import annotations

import os
from pathlib import Path


def history_path() -> Path:
    """``$WORKBENCH_HISTORY_DB``, else the user's data folder."""
    if os.environ.get("WORKBENCH_HISTORY_DB"):
        return Path(os.environ["WORKBENCH_HISTORY_DB"])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "chunking-workbench" / "history.sqlite"


def embedding_cache_path() -> Path | None:
    """``$WORKBENCH_EMBEDDING_CACHE`` (``off`` to disable), else the user's cache folder."""
    setting = os.environ.get("WORKBENCH_EMBEDDING_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "chunking-workbench" / "embeddings.sqlite"


def workspace_path() -> Path | None:
    """``$WORKBENCH_WORKSPACE_DB`` (``off``: in memory only), else beside the run history."""
    setting = os.environ.get("WORKBENCH_WORKSPACE_DB")
    if setting:
        return None if setting.strip().lower() == "off" else Path(setting)
    return history_path().parent / "workspace.sqlite"
