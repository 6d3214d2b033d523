"""Opening the workbench's SQLite files safely when several processes or sessions do so at once."""

from __future__ import annotations

import random
import sqlite3
import stat
import time
from pathlib import Path

from workbench.core.model import WorkbenchError

# How long a store waits for another process's lock before it is skipped with a warning. A writer of ours holds
# it for milliseconds; a minute's wait (the old 30 s, twice) is a program holding it open, not a busy moment.
LOCKED_PATIENCE = 2.0


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


SQLITE_HEADER = b"SQLite format 3\x00"


def tables_of(schema: str) -> set[str]:
    """The tables a schema creates: what a file of ours may hold."""
    return {line.split()[5].split("(")[0] for line in schema.splitlines() if line.startswith("CREATE TABLE IF NOT EXISTS ")}


class NotOurs(WorkbenchError):
    """The path names something that is not a workbench database: it is refused and left as it is."""


def check_ours(path: Path, tables: set[str], what: str) -> None:
    """Refuse ``path`` unless it is missing, empty, or an SQLite file holding only the tables in ``tables``.

    A setting pointing at the user's own file (``my_prices.xlsx``), a folder, a device or another
    program's database must never be opened for writing, renamed or replaced: each gets its own words.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    except OSError as error:
        raise NotOurs(f"{what} {path} cannot be used: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotOurs(f"{what} {path} is a folder, not a file; name a file inside it")
    if not stat.S_ISREG(info.st_mode):
        raise NotOurs(f"{what} {path} is not an ordinary file (a device such as /dev/null, or a pipe); name a file")
    if info.st_size == 0:
        return
    try:
        with open(path, "rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise NotOurs(f"{what} {path} cannot be read: {error.strerror or error}") from None
    if header != SQLITE_HEADER:
        raise NotOurs(
            f"{what} {path} is not a workbench database (it holds something else, perhaps one of your own files); "
            "it was left as it is. Name another file."
        )
    try:
        reader = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            names = {row[0] for row in reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            reader.close()
    except sqlite3.Error:
        return  # ours by its header but damaged or busy: the store's own handling decides (never another's data)
    foreign = {name for name in names if not name.startswith("sqlite_")} - tables
    if foreign:
        raise NotOurs(
            f"{what} {path} is another program's database (it has the table(s) {', '.join(sorted(foreign)[:5])}); "
            "it was left as it is. Name another file."
        )
