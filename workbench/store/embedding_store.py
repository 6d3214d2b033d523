"""Embeddings kept on disk between runs, keyed by model and text, so a re-run embeds nothing; and maxsim's
columns (a question token's best match in a text), keyed by model, question and text, so it multiplies nothing.

One SQLite file (stdlib ``sqlite3``: safe when two processes write at once; one lock
serialises the threads of one process on its connection). Rows are keyed by the model's
key (its id and a fingerprint of its files, so a changed model never reads an old vector)
and the SHA-256 of the text.

The cache only ever saves time; it must never crash a run or change a grade. Whatever goes
wrong with it — a corrupt file (moved aside and rebuilt), a folder in its place, a read-only
folder, a full disk, rows of the wrong size or holding NaN — is said once as a warning, and
the run goes on without the part that failed: a damaged row is computed again, a cache that
cannot be written is only read, one that cannot be opened is not used.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from workbench.store.paths import embedding_cache_path as default_path  # noqa: F401  (its callers' name)
from workbench.store.storage import LOCKED_PATIENCE, NotOurs, check_ours, connect, tables_of

log = logging.getLogger(__name__)
SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    digest BLOB NOT NULL,
    sentence BLOB NOT NULL,
    tokens BLOB NOT NULL,
    dimensions INTEGER NOT NULL,
    PRIMARY KEY (model, digest)
);
CREATE TABLE IF NOT EXISTS matches (
    model TEXT NOT NULL,
    question BLOB NOT NULL,
    digest BLOB NOT NULL,
    best BLOB NOT NULL,
    PRIMARY KEY (model, question, digest)
)
"""
UNIT = 1e-2  # how far a stored sentence vector's length may be from 1 (float32 rounding is far smaller)


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _corrupt(error: sqlite3.Error) -> bool:
    """A damaged file (not a busy, read-only or full one): SQLite's "not a database" / "malformed"."""
    return not isinstance(error, sqlite3.OperationalError) and isinstance(error, sqlite3.DatabaseError)


def _no_such_table(error: sqlite3.Error) -> bool:
    """A cache made before a table existed, opened read-only: the table is missing, and nothing is wrong."""
    return isinstance(error, sqlite3.OperationalError) and "no such table" in str(error)


class EmbeddingStore:
    """Sentence vectors (float32) and token vectors (float16) on disk."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []  # every warning so far, each once
        self._shown = 0  # how many of them take_warnings has handed out
        self._lock = threading.Lock()  # one connection, one thread at a time on it
        self._connection: sqlite3.Connection | None = None  # None: working without the cache
        self.writable = True
        self._open()

    @property
    def usable(self) -> bool:
        """Whether vectors put here can be read back (memory may then let them go)."""
        return self._connection is not None and self.writable

    # --- Warnings, each said once -------------------------------------------------------------

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            log.info(message)  # shown to the user by the CLI (stderr) and the app (take_warnings), once
            self.warnings.append(message)

    def take_warnings(self) -> list[str]:
        """The warnings not handed out before: a caller shows each one once."""
        new = self.warnings[self._shown :]
        self._shown = len(self.warnings)
        return new

    def _without_cache(self, why: object) -> None:
        self._warn(
            f"The embedding cache {self.path} cannot be used ({why}); the workbench runs without it, which is "
            "slower but gives the same grades. Set WORKBENCH_EMBEDDING_CACHE to another file, or to off."
        )
        self._close()

    # --- Opening ------------------------------------------------------------------------------

    def _open(self) -> None:
        try:
            try:  # the user's own file, a folder, a device or another program's database: never opened, never moved
                check_ours(self.path, tables_of(SCHEMA), "The embedding cache")
            except NotOurs as refused:
                self._warn(f"{refused}; the workbench runs without the cache, which is slower but gives the same grades.")
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = self._connect()
        except sqlite3.Error as error:
            if not _corrupt(error):  # busy, read-only, unopenable: not a corrupt file, never moved aside
                if not self._open_read_only(error):
                    self._without_cache(error)
                return
            self._move_aside(error)
        except OSError as error:
            self._without_cache(error.strerror or error)

    def _connect(self) -> sqlite3.Connection:
        connection = connect(self.path, SCHEMA, patience=LOCKED_PATIENCE)  # locked: go on without it at once
        try:
            connection.execute("SELECT count(*) FROM embeddings").fetchone()  # reads a page: a corrupt file fails here
        except BaseException:
            connection.close()
            raise
        return connection

    def _open_read_only(self, error: sqlite3.Error) -> bool:
        """A cache file this user may read but not write still saves time: open it read-only."""
        if not self.path.is_file() or os.access(self.path, os.W_OK) and "readonly" not in str(error):
            return False
        # A WAL file opened read-only needs its -shm beside it; in a read-only folder "immutable" does
        # without (a row another process adds meanwhile is only missed, and computed here instead).
        for options in ("mode=ro", "mode=ro&immutable=1"):
            try:
                uri = f"{self.path.resolve().as_uri()}?{options}"
                connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
                connection.execute("SELECT count(*) FROM embeddings").fetchone()
                break
            except sqlite3.Error:
                continue
        else:
            return False
        self._connection, self.writable = connection, False
        self._warn(
            f"The embedding cache {self.path} cannot be written ({error}); it is only read, and new vectors are "
            "kept in memory for this run. The grades are the same."
        )
        return True

    def _move_aside(self, error: sqlite3.Error) -> None:
        """A corrupt file goes to ``*.broken`` and a fresh cache is started in its place."""
        self._close()
        broken = self.path.with_name(self.path.name + ".broken")
        try:
            os.replace(self.path, broken)
            for suffix in ("-wal", "-shm"):  # the old file's journal must not be replayed into the new one
                Path(str(self.path) + suffix).unlink(missing_ok=True)
            self._connection = self._connect()
        except (OSError, sqlite3.Error) as again:
            self._without_cache(f"{error}; moving it aside failed too: {again}")
            return
        self._warn(
            f"The embedding cache {self.path} could not be read ({error}); it was moved to {broken.name} "
            "and will be rebuilt. Nothing else is lost."
        )

    def _close(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            except sqlite3.Error:
                pass
        self._connection = None

    def _failed(self, error: sqlite3.Error, doing: str) -> None:
        """A read or write failed mid-run: say so once and carry on with less of the cache."""
        if _corrupt(error):
            self._move_aside(error)
        elif isinstance(error, sqlite3.OperationalError) and any(
            word in str(error) for word in ("full", "readonly", "read-only", "disk I/O")
        ):
            self.writable = False
            self._warn(
                f"The embedding cache {self.path} cannot be written ({error}); new vectors are kept in memory "
                "only for this run. The grades are the same."
            )
        else:
            self._warn(f"The embedding cache {self.path} failed while {doing} ({error}); those vectors are computed again.")

    # --- Reading and writing --------------------------------------------------------------------

    def sentences(self, model: str, texts: list[str]) -> dict[str, np.ndarray]:
        """The stored sentence vectors of those texts that are on disk for this model and sound."""
        found, damaged = {}, 0
        for text, blob, dimensions in self._rows(model, texts, "sentence"):
            vector = np.frombuffer(blob, dtype=np.float32) if len(blob) % 4 == 0 else np.zeros(0, np.float32)
            if len(vector) == dimensions > 0 and np.isfinite(vector).all() and abs(np.linalg.norm(vector) - 1) < UNIT:
                found[text] = vector
            else:
                damaged += 1
        self._damaged(damaged)
        return found

    def tokens(self, model: str, texts: list[str]) -> dict[str, np.ndarray]:
        """The stored token vectors (one row a token) of those texts that are on disk for this model and sound."""
        found, damaged = {}, 0
        for text, blob, dimensions in self._rows(model, texts, "tokens"):
            if dimensions > 0 and len(blob) and len(blob) % (2 * dimensions) == 0:
                matrix = np.frombuffer(blob, dtype=np.float16).reshape(-1, dimensions)
                if np.isfinite(matrix).all():
                    found[text] = matrix
                    continue
            damaged += 1
        self._damaged(damaged)
        return found

    def _damaged(self, count: int) -> None:
        if count:
            self._warn(
                f"Some vectors in the embedding cache {self.path} were damaged (wrong size or not numbers); "
                "they were computed again, so the grades are unaffected."
            )

    def _rows(self, model: str, texts: list[str], column: str) -> list[tuple[str, bytes, int]]:
        by_digest = {digest(text): text for text in texts}
        rows = self._select(f"SELECT digest, {column}, dimensions FROM embeddings WHERE model = ? AND digest IN ({{}})",
                            [model], list(by_digest))
        return [(by_digest[bytes(key)], blob, dimensions) for key, blob, dimensions in rows
                if isinstance(blob, bytes) and isinstance(dimensions, int) and bytes(key) in by_digest]

    def _select(self, query: str, fixed: list, keys: list[bytes], quiet=lambda error: False) -> list[tuple]:
        """``query``'s rows for ``keys``, 500 at a time (SQLite's bound on parameters): ``{}`` in it stands for the
        keys' marks, ``fixed`` for the parameters before them. A failed read ends the reading with what was read,
        said once (``_failed``) unless ``quiet`` finds it nothing to say."""
        out: list[tuple] = []
        with self._lock:
            for start in range(0, len(keys), 500):
                if self._connection is None:
                    break
                part = keys[start : start + 500]
                try:
                    out += self._connection.execute(query.format(",".join("?" * len(part))), [*fixed, *part]).fetchall()
                except sqlite3.Error as error:
                    if not quiet(error):
                        self._failed(error, "reading")
                    break
        return out

    def _write(self, statement: str, rows: Iterable[tuple]) -> None:
        """``statement`` for each row, in one transaction; a cache that cannot be written is said once. ``rows`` may
        be made one at a time as they are written (a generator): a batch's blobs are then never all held."""
        with self._lock:
            if self._connection is None or not self.writable:
                return
            try:
                with self._connection:
                    self._connection.executemany(statement, rows)
            except sqlite3.Error as error:
                self._failed(error, "writing")

    def put(self, model: str, items: list[tuple[str, np.ndarray, np.ndarray]]) -> None:
        self._write("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?, ?)", (
            (model, digest(text), sentence.astype(np.float32).tobytes(), tokens.astype(np.float16).tobytes(), sentence.shape[0])
            for text, sentence, tokens in items
        ))

    def matches(self, model: str, question: str, texts: list[str], tokens: int) -> dict[str, np.ndarray]:
        """maxsim's stored columns of ``question`` (``tokens`` values each: its token's best match in the text)
        for those of ``texts`` on disk for this model and sound. A cache made before the table existed, opened
        read-only, has none: nothing is found, nothing said."""
        found, damaged = {}, 0
        by_digest = {digest(text): text for text in texts}
        rows = self._select("SELECT digest, best FROM matches WHERE model = ? AND question = ? AND digest IN ({})",
                            [model, digest(question)], list(by_digest), quiet=_no_such_table)
        for key, blob in rows:
            column = np.frombuffer(blob, dtype=np.float32) if isinstance(blob, bytes) and len(blob) == 4 * tokens else None
            if column is not None and np.isfinite(column).all() and bytes(key) in by_digest:
                found[by_digest[bytes(key)]] = column
            else:
                damaged += 1
        self._damaged(damaged)
        return found

    def matched(self, model: str, questions: list[str]) -> set[str]:
        """Those of ``questions`` with columns kept for this model (for the time estimate: their re-check is
        mostly read back). An estimate is no reason to warn: the run reading them will, if need be."""
        by_digest = {digest(question): question for question in questions}
        rows = self._select("SELECT DISTINCT question FROM matches WHERE model = ? AND question IN ({})", [model],
                            list(by_digest), quiet=lambda error: True)
        return {by_digest[bytes(key)] for (key,) in rows if bytes(key) in by_digest}

    def put_matches(self, model: str, items: list[tuple[str, str, np.ndarray]]) -> None:
        """Keep maxsim's columns, each (question, text, column), for a later run of the same questions."""
        self._write("INSERT OR REPLACE INTO matches VALUES (?, ?, ?, ?)", [
            (model, digest(question), digest(text), column.astype(np.float32).tobytes())
            for question, text, column in items
        ])

    def count(self, model: str | None = None) -> int:
        with self._lock:
            if self._connection is None:
                return 0
            if model is None:
                return self._connection.execute("SELECT count(*) FROM embeddings").fetchone()[0]
            return self._connection.execute("SELECT count(*) FROM embeddings WHERE model = ?", (model,)).fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._close()
