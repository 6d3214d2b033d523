"""Embeddings kept on disk between runs, keyed by model and text, so a re-run embeds nothing.

One SQLite file (stdlib ``sqlite3``: safe when two processes write at once).
Rows are keyed by the model's key (its id and a fingerprint of its files, so
a changed model never reads an old vector) and the SHA-256 of the text. A
corrupt file is moved aside and rebuilt with a warning, never a crash.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from pathlib import Path

import numpy as np

from .storage import connect

log = logging.getLogger(__name__)
SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    digest BLOB NOT NULL,
    sentence BLOB NOT NULL,
    tokens BLOB NOT NULL,
    dimensions INTEGER NOT NULL,
    PRIMARY KEY (model, digest)
)
"""


def default_path() -> Path | None:
    """``$WORKBENCH_EMBEDDING_CACHE`` (``off`` to disable), else the user's cache folder."""
    setting = os.environ.get("WORKBENCH_EMBEDDING_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "chunking-workbench" / "embeddings.sqlite"


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class EmbeddingStore:
    """Sentence vectors (float32) and token vectors (float16) on disk."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []
        self._connection = self._open()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = self._connect()
        except sqlite3.OperationalError:
            raise  # busy or unreadable for another reason: not a corrupt file, never moved aside
        except sqlite3.DatabaseError as error:
            broken = self.path.with_name(self.path.name + ".broken")
            message = (
                f"The embedding cache {self.path} could not be read ({error}); it was moved to {broken.name} "
                "and will be rebuilt. Nothing else is lost."
            )
            log.warning(message)
            self.warnings.append(message)
            os.replace(self.path, broken)
            connection = self._connect()
        return connection

    def _connect(self) -> sqlite3.Connection:
        connection = connect(self.path, SCHEMA)
        connection.execute("SELECT count(*) FROM embeddings").fetchone()  # reads a page: a corrupt file fails here
        return connection

    def sentences(self, model: str, texts: list[str]) -> dict[str, np.ndarray]:
        """The stored sentence vectors of those texts that are on disk for this model."""
        return {text: np.frombuffer(blob, dtype=np.float32) for text, blob, _ in self._rows(model, texts, "sentence")}

    def tokens(self, model: str, texts: list[str]) -> dict[str, np.ndarray]:
        """The stored token vectors (one row a token) of those texts that are on disk for this model."""
        return {
            text: np.frombuffer(blob, dtype=np.float16).reshape(-1, dimensions)
            for text, blob, dimensions in self._rows(model, texts, "tokens")
        }

    def _rows(self, model: str, texts: list[str], column: str):
        by_digest = {digest(text): text for text in texts}
        keys = list(by_digest)
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self._connection.execute(
                f"SELECT digest, {column}, dimensions FROM embeddings WHERE model = ? AND digest IN ({marks})",
                [model, *part],
            ).fetchall()
            for key, blob, dimensions in rows:
                yield by_digest[bytes(key)], blob, dimensions

    def put(self, model: str, items: list[tuple[str, np.ndarray, np.ndarray]]) -> None:
        rows = [
            (model, digest(text), sentence.astype(np.float32).tobytes(), tokens.astype(np.float16).tobytes(), sentence.shape[0])
            for text, sentence, tokens in items
        ]
        with self._connection:
            self._connection.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?, ?)", rows)

    def count(self, model: str | None = None) -> int:
        if model is None:
            return self._connection.execute("SELECT count(*) FROM embeddings").fetchone()[0]
        return self._connection.execute("SELECT count(*) FROM embeddings WHERE model = ?", (model,)).fetchone()[0]

    def close(self) -> None:
        self._connection.close()
