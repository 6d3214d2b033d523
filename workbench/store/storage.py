"""Opening the workbench's SQLite files safely when several processes or sessions do so at once."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path


def connect(path: Path, schema: str, patience: float = 30.0) -> sqlite3.Connection:
    """Open (and create) a SQLite file in WAL mode with ``schema``, waiting out other writers.

    Switching a new file to WAL and creating its tables need a moment of exclusive access;
    when another connection holds it, SQLite answers "database is locked" at once instead of
    waiting, so this retries until ``patience`` seconds have passed.
    """
    deadline = time.monotonic() + patience
    while True:
        connection = sqlite3.connect(path, timeout=patience, check_same_thread=False)
        try:
            connection.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
            connection.executescript(schema)
            return connection
        except sqlite3.OperationalError as error:
            connection.close()
            if "locked" not in str(error) and "busy" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02 + random.random() * 0.08)
        except BaseException:
            connection.close()
            raise
