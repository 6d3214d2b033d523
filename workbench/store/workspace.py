"""The user's work kept on this computer: documents (single files and knowledge bases of several), each one's
questions, and the settings.

A SQLite file beside the run history (``workspace.sqlite`` in the same data folder), or
``$WORKBENCH_WORKSPACE_DB``; ``off`` keeps it in memory for the session only. Nothing is sent
anywhere. Questions are keyed by the document's content hash, and found by file name too, so
next week's edited price list gets this week's questions back.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from workbench.core.model import Question, WorkbenchError
from workbench.store.paths import workspace_path as default_path  # noqa: F401  (its callers' name)
from workbench.store.storage import LOCKED_PATIENCE, check_ours, connect, tables_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    key TEXT PRIMARY KEY,           -- sha256 of the file's bytes
    name TEXT NOT NULL,             -- the file name as uploaded
    data BLOB NOT NULL,
    sheet TEXT,
    name_column TEXT,
    used_at TEXT NOT NULL           -- '' for a file only ever opened in a knowledge base: not listed on its own
);
CREATE TABLE IF NOT EXISTS bases (
    key TEXT PRIMARY KEY,           -- base_key: the files' content hashes and names, in order
    name TEXT NOT NULL,             -- "prices.csv + policies.md", as the base Document is named
    files TEXT NOT NULL,            -- JSON list of {key, name}: each file's bytes are a row of documents
    used_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS question_sets (
    document_key TEXT PRIMARY KEY,  -- the content hash the set was last edited for
    name TEXT NOT NULL,             -- that document's file name, to find the set for a new version
    questions TEXT NOT NULL,        -- JSON list of {question, expected_source, expected_answer, kind}
    saved_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS preferences (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL              -- JSON
);
CREATE INDEX IF NOT EXISTS question_sets_by_name ON question_sets(name, saved_at);
"""
KEEP_DOCUMENTS = 20  # recent files (and as many knowledge bases) kept to reopen; older ones are dropped (their questions stay)
BASE_SEPARATOR = " + "  # the base's name: its files' names joined (as read.base_of_files.combine names it)
FIELDS = ("question", "expected_source", "expected_answer", "kind")


def file_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def base_key(files: list[tuple[str, bytes]]) -> str:
    """A knowledge base's key: every file's content hash and name, in order (names are in its questions' sources
    and its pieces' ids, and the order decides ties), so another version of any file is another base."""
    listing = "".join(f"{file_key(data)} {name}\n" for name, data in files)
    return hashlib.sha256(("base\n" + listing).encode("utf-8")).hexdigest()


def _now() -> str:
    # Microseconds, so two saves in the same second still sort in the order they happened.
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class StoredDocument:
    key: str
    name: str
    sheet: str | None
    name_column: str | None
    used_at: str
    size: int
    data: bytes | None = None  # left out of listings


@dataclass(frozen=True)
class StoredBase:
    """A knowledge base kept to reopen: its files in order, each with its bytes and its sheet and name column."""

    key: str
    name: str
    used_at: str
    files: tuple[StoredDocument, ...]  # name: the file's name in the base; data left out of listings

    @property
    def size(self) -> int:
        return sum(file.size for file in self.files)


@dataclass(frozen=True)
class QuestionSet:
    questions: list[Question]
    document_key: str  # the version of the file they were saved for
    name: str
    saved_at: str

    def same_version(self, key: str) -> bool:
        return self.document_key == key


class Workspace:
    """One connection per session; a lock because Streamlit may call in from more than one thread."""

    def __init__(self, path: str | Path | None = None, *, memory: bool = False) -> None:
        self.path = None if memory else Path(path) if path else default_path()
        self._lock = threading.Lock()
        try:
            if self.path is None:
                self._connection = sqlite3.connect(":memory:", check_same_thread=False)
                self._connection.executescript(SCHEMA)
            else:
                check_ours(self.path, tables_of(SCHEMA), "the saved work")  # a user's own file is refused, never replaced
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._connection = connect(self.path, SCHEMA, patience=LOCKED_PATIENCE)
        except (OSError, sqlite3.Error) as error:
            raise WorkbenchError(f"the saved work in {self.path} cannot be opened: {error}") from None

    def _write(self, sql: str, args: tuple) -> None:
        try:
            with self._lock, self._connection:
                self._connection.execute(sql, args)
        except sqlite3.Error as error:
            raise WorkbenchError(f"your work could not be saved in {self.path}: {error}") from None

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            with self._lock:
                return self._connection.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise WorkbenchError(f"the saved work in {self.path} cannot be read: {error}") from None

    # --- documents ---------------------------------------------------------------------------

    def open_document(self, name: str, data: bytes, sheet: str | None = None, name_column: str | None = None) -> str:
        """Keep this file and make it the current document; returns its key (content hash)."""
        key = file_key(data)
        self._write(
            "INSERT INTO documents (key, name, data, sheet, name_column, used_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET name = excluded.name, used_at = excluded.used_at",
            (key, name, data, sheet, name_column, _now()),
        )
        self.set_preference("current_document", key)
        self._prune()
        return key

    def open_base(self, files: list[tuple[str, bytes]]) -> str:
        """Keep these files as one knowledge base and make it the current document; returns its key (``base_key``).

        A file new to this computer is kept unlisted (``used_at`` ''): the recent list shows the base, not each
        of its files; one opened on its own before stays listed."""
        key = base_key(files)
        for name, data in files:
            self._write(
                "INSERT INTO documents (key, name, data, sheet, name_column, used_at) VALUES (?, ?, ?, NULL, NULL, '') "
                "ON CONFLICT(key) DO NOTHING",
                (file_key(data), name, data),
            )
        listing = json.dumps([{"key": file_key(data), "name": name} for name, data in files], ensure_ascii=False)
        self._write(
            "INSERT INTO bases (key, name, files, used_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET used_at = excluded.used_at",
            (key, BASE_SEPARATOR.join(name for name, _ in files), listing, _now()),
        )
        self.set_preference("current_document", key)
        self._prune()
        return key

    def _prune(self) -> None:
        """Keep the most recent files and bases; a file is kept as long as a kept base holds it."""
        self._write(
            "DELETE FROM bases WHERE key NOT IN (SELECT key FROM bases ORDER BY used_at DESC LIMIT ?)", (KEEP_DOCUMENTS,)
        )
        held = {file["key"] for (listing,) in self._read("SELECT files FROM bases") for file in _members(listing)}
        listed = {key for (key,) in self._read(
            "SELECT key FROM documents WHERE used_at != '' ORDER BY used_at DESC LIMIT ?", (KEEP_DOCUMENTS,))}
        for (key,) in self._read("SELECT key FROM documents"):
            if key not in held and key not in listed:
                self._write("DELETE FROM documents WHERE key = ?", (key,))

    def remember_reading(self, key: str, sheet: str | None, name_column: str | None) -> None:
        """The sheet and name column chosen for this file, so it reopens the same way (alone or in a base)."""
        self._write("UPDATE documents SET sheet = ?, name_column = ? WHERE key = ?", (sheet, name_column, key))

    def document(self, key: str, data: bool = True) -> StoredDocument | None:
        rows = self._read(
            f"SELECT key, name, sheet, name_column, used_at, length(data){', data' if data else ''} FROM documents "
            "WHERE key = ?", (key,)
        )
        return StoredDocument(*rows[0]) if rows else None

    def base(self, key: str, data: bool = True) -> StoredBase | None:
        """A kept knowledge base with its files (with their bytes unless ``data`` is False); None when it is not
        kept or one of its files was forgotten."""
        rows = self._read("SELECT key, name, used_at, files FROM bases WHERE key = ?", (key,))
        if not rows:
            return None
        key, name, used_at, listing = rows[0]
        files = []
        for member in _members(listing):
            stored = self.document(member["key"], data)
            if stored is None:
                return None
            files.append(StoredDocument(stored.key, str(member.get("name") or stored.name), stored.sheet,
                                        stored.name_column, stored.used_at, stored.size, stored.data))
        return StoredBase(key, name, used_at, tuple(files))

    def current(self) -> StoredDocument | StoredBase | None:
        """The document (a file, or a knowledge base) last opened, with its bytes; None on a first visit."""
        key = self.preference("current_document")
        if not key:
            return None
        return self.document(key) or self.base(key)

    def recent(self, limit: int = 8) -> list[StoredDocument | StoredBase]:
        """The files and knowledge bases opened lately, newest first (without their bytes), one a name: the version
        opened last. Each version is kept (its questions are found by name), but two entries reading
        "prices.csv — 1 KB" were the same file twice to its owner (the walk-through's re-upload)."""
        rows = self._read(
            "SELECT key, name, sheet, name_column, used_at, length(data) FROM documents WHERE used_at != '' "
            "ORDER BY used_at DESC"
        )
        found: list[StoredDocument | StoredBase] = [StoredDocument(*row) for row in rows]
        for (key,) in self._read("SELECT key FROM bases ORDER BY used_at DESC"):
            base = self.base(key, data=False)
            if base is not None:
                found.append(base)
        latest: dict[str, StoredDocument | StoredBase] = {}
        for item in sorted(found, key=lambda item: item.used_at, reverse=True):
            latest.setdefault(item.name.lower(), item)
        return list(latest.values())[:limit]

    def versions(self, key: str) -> list[str]:
        """The keys of every listed version of the file or knowledge base ``key`` (its name), ``key`` first."""
        rows = (self._read("SELECT name FROM documents WHERE key = ?", (key,))
                or self._read("SELECT name FROM bases WHERE key = ?", (key,)))
        if not rows:
            return [key]
        named = self._read("SELECT key FROM documents WHERE lower(name) = lower(?) AND used_at != '' UNION "
                           "SELECT key FROM bases WHERE lower(name) = lower(?)", (rows[0][0], rows[0][0]))
        return [key] + [other for (other,) in named if other != key]

    def forget(self, key: str) -> None:
        """Drop a file or a knowledge base and its questions from this computer. A forgotten file takes every
        base holding it with it; a forgotten base takes the files only it held (never one opened on its own)."""
        rows = self._read("SELECT files FROM bases WHERE key = ?", (key,))
        if rows:
            self._write("DELETE FROM bases WHERE key = ?", (key,))
            self._write("DELETE FROM question_sets WHERE document_key = ?", (key,))
            held = {m["key"] for (listing,) in self._read("SELECT files FROM bases") for m in _members(listing)}
            for member in _members(rows[0][0]):
                if member["key"] not in held:
                    self._write("DELETE FROM documents WHERE key = ? AND used_at = ''", (member["key"],))
            return
        self._write("DELETE FROM documents WHERE key = ?", (key,))
        self._write("DELETE FROM question_sets WHERE document_key = ?", (key,))
        for base_key_, listing in self._read("SELECT key, files FROM bases"):
            if any(member["key"] == key for member in _members(listing)):
                self.forget(base_key_)

    # --- questions ---------------------------------------------------------------------------

    def save_questions(self, key: str, name: str, questions: list[Question]) -> None:
        payload = json.dumps([{field: getattr(q, field) for field in FIELDS} | ({"generated": True} if q.generated else {})
                              for q in questions], ensure_ascii=False)
        self._write(
            "INSERT INTO question_sets (document_key, name, questions, saved_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(document_key) DO UPDATE SET name = excluded.name, questions = excluded.questions, "
            "saved_at = excluded.saved_at",
            (key, name, payload, _now()),
        )

    def questions_for(self, key: str, name: str) -> QuestionSet | None:
        """This version's questions; else the latest saved for a file of the same name; else None."""
        rows = self._read("SELECT questions, document_key, name, saved_at FROM question_sets WHERE document_key = ?", (key,))
        if not rows:
            rows = self._read(
                "SELECT questions, document_key, name, saved_at FROM question_sets WHERE name = ? "
                "ORDER BY saved_at DESC LIMIT 1",
                (name,),
            )
        if not rows:
            return None
        payload, document_key, saved_name, saved_at = rows[0]
        try:
            records = json.loads(payload)
            questions = [Question(**{field: str(record.get(field, "")) for field in FIELDS},
                                  generated=record.get("generated") is True) for record in records]
        except (ValueError, TypeError, AttributeError):
            return None  # a damaged set is ignored rather than crashing the page; the default set is used
        return QuestionSet(questions, document_key, saved_name, saved_at)

    # --- preferences (settings, the current document) ----------------------------------------

    def set_preference(self, key: str, value) -> None:
        self._write(
            "INSERT INTO preferences (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def preference(self, key: str, default=None):
        rows = self._read("SELECT value FROM preferences WHERE key = ?", (key,))
        if not rows:
            return default
        try:
            return json.loads(rows[0][0])
        except ValueError:
            return default

    def close(self) -> None:
        self._connection.close()


def _members(listing: str) -> list[dict]:
    """A base's files as kept ({key, name} each); a damaged listing holds none."""
    try:
        members = json.loads(listing)
    except ValueError:
        return []
    return [m for m in members if isinstance(m, dict) and isinstance(m.get("key"), str)] if isinstance(members, list) else []
