"""The club night's SQLite store: tables, the items log, idempotency keys, the organiser's token hash.

One file, `DIR/club.sqlite`, in WAL mode with `synchronous=FULL`: a committed item survives a crash
of the process or of the machine. An item, the table's new DGN text and version, and the answer
given for its Idempotency-Key are written in ONE transaction, so a resent key finds the answer
exactly when the item is recorded. Only hashes of tokens are stored.

Remembered refusals (the 422 answers given for keys) are bounded per table: the last
`REMEMBERED_REFUSALS` of each table are kept, and the one that falls out is deleted in the transaction
that adds the new one. They are committed by the committer thread like the items (never an fsync on the
caller's thread), so a flood of refusals at one table costs the others no commit of their own.
"""

from __future__ import annotations

import hashlib
import json
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Store", "TableRow", "token_hash", "REMEMBERED_REFUSALS", "SQLITE_FULL"]

REMEMBERED_REFUSALS = 100  # per table: the answers to the last refused keys (a scorer's retries need the last few)
SQLITE_FULL = 13  # sqlite3.Error.sqlite_errorcode of "database or disk is full"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, setup TEXT NOT NULL, scorer_hash TEXT NOT NULL,
    version INTEGER NOT NULL, dgn TEXT NOT NULL, pending TEXT, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    table_id TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
    recorded TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, version));
CREATE TABLE IF NOT EXISTS idempotency (
    table_id TEXT NOT NULL, key TEXT NOT NULL, request TEXT NOT NULL, status INTEGER NOT NULL,
    body TEXT NOT NULL, etag TEXT, at REAL NOT NULL, PRIMARY KEY (table_id, key));
"""


def token_hash(token: str) -> str:
    """SHA-256 of a token: tokens carry ≥128 random bits, so no salt or slow hash is needed."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    seq: int
    setup: dict[str, Any]
    scorer_hash: str
    version: int
    dgn: str
    pending: str | None


class Store:
    """Thread-safe (one connection, one lock); every write is one transaction.

    The items of several tables arriving together are committed by one committer thread in one
    transaction (group commit: one fsync for all of them); each caller waits until its own item is
    committed, so an answer is never sent for an item that is not on disk."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        # The answers given for the keys, kept in memory too (a night holds a few thousand): looking a key up
        # never waits for a commit in flight. The store's table is the truth; it is read back at start.
        self.answers: dict[tuple[str, str], tuple[str, int, str, str | None]] = {}
        # per table, the keys of its remembered refusals, oldest first (at most REMEMBERED_REFUSALS)
        self.refused: dict[str, deque[str]] = {}
        for row in self.db.execute("SELECT table_id, key, request, status, body, etag FROM idempotency "
                                   "ORDER BY rowid"):
            self.answers[(row[0], row[1])] = (row[2], row[3], row[4], row[5])
            if row[3] != 200:
                self.refused.setdefault(row[0], deque()).append(row[1])
        self.waiting: queue.Queue[tuple[Callable[..., None], tuple[Any, ...], Future[None]] | None] = queue.Queue()
        self.committer = threading.Thread(target=self._commit_loop, name="diamonds-serve-commit", daemon=True)
        self.committer.start()

    def close(self) -> None:
        self.waiting.put(None)
        self.committer.join(10)
        with self.lock:
            self.db.close()

    # ---------------------------------------------------------------- meta

    def meta(self, name: str) -> str | None:
        with self.lock:
            row = self.db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    def set_meta(self, name: str, value: str) -> None:
        with self.lock, self._transaction():
            self.db.execute("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", (name, value))

    # ---------------------------------------------------------------- tables

    def add_table(self, table_id: str, setup: dict[str, Any], scorer_hash: str, dgn: str,
                  prepare: Callable[[int], Any] = lambda seq: None) -> Any:
        """A new table, whole or not at all: `prepare(seq)` (the table's file) runs inside the transaction
        that adds its row, which commits only if it returns; if it raises, or the commit fails (a full
        disk), the row is rolled back. Returns what `prepare` returned."""
        return self.add_tables([(table_id, setup, scorer_hash, dgn)], lambda seqs: prepare(seqs[0]))

    def add_tables(self, rows: list[tuple[str, dict[str, Any], str, str]], prepare: Callable[[list[int]], Any],
                   meta: dict[str, str] | None = None) -> Any:
        """New tables (id, setup, scorer hash, DGN), all or none, with `meta` names set in the same
        transaction (the night's seating, which records the round they make): `prepare(seqs)` runs inside
        it, as for `add_table`. Returns what `prepare` returned."""
        with self.lock, self._transaction():
            first = int(self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM tables").fetchone()[0])
            seqs = list(range(first, first + len(rows)))
            for seq, (table_id, setup, scorer_hash, dgn) in zip(seqs, rows, strict=True):
                self.db.execute("INSERT INTO tables (id, seq, setup, scorer_hash, version, dgn, pending, created) "
                                "VALUES (?, ?, ?, ?, 0, ?, NULL, ?)",
                                (table_id, seq, json.dumps(setup), scorer_hash, dgn, time.time()))
            for name, value in (meta or {}).items():
                self.db.execute("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", (name, value))
            return prepare(seqs)

    def set_scorer_hash(self, table_id: str, scorer_hash: str) -> None:
        with self.lock, self._transaction():
            self.db.execute("UPDATE tables SET scorer_hash = ? WHERE id = ?", (scorer_hash, table_id))

    def tables(self) -> list[TableRow]:
        with self.lock:
            rows = self.db.execute("SELECT id, seq, setup, scorer_hash, version, dgn, pending FROM tables "
                                   "ORDER BY seq").fetchall()
        return [TableRow(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    def record(self, table_id: str, version: int, kind: str, text: str, recorded: list[str], dgn: str,
               pending: str | None, key: str | None, request: str, status: int, body: str, etag: str) -> None:
        """One accepted change: the log line, the table's new state and the key's answer, together;
        returns once committed (the committer thread's group commit)."""
        self.submit(table_id, version, kind, text, recorded, dgn, pending, key, request, status, body, etag).result()

    def submit(self, *args: Any) -> Future[None]:
        """`record`'s arguments, for the committer thread: the future is done once they are committed."""
        return self._queue(self._record, args)

    def remember(self, table_id: str, key: str, request: str, status: int, body: str, etag: str | None) -> Future[None]:
        """The answer to a request that recorded nothing (a refusal), kept for its key: for the committer
        thread, like an item; the future is done once it is committed. The table's oldest remembered
        refusal beyond REMEMBERED_REFUSALS is deleted in the same transaction."""
        return self._queue(self._remember, (table_id, key, request, status, body, etag))

    def _queue(self, write: Callable[..., None], args: tuple[Any, ...]) -> Future[None]:
        done: Future[None] = Future()
        self.waiting.put((write, args, done))
        return done

    def _commit_loop(self) -> None:
        while True:
            first = self.waiting.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    more = self.waiting.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self.waiting.put(None)
                    break
                batch.append(more)
            staged = _Batch()
            try:
                with self.lock, self._transaction():
                    for write, args, _ in batch:
                        write(*args, batch=staged)
            except BaseException as error:  # nothing of the batch is committed: each caller is told
                for _, _, done in batch:
                    done.set_exception(error)
            else:
                for change in staged.after:
                    change()
                for _, _, done in batch:
                    done.set_result(None)

    def _record(self, table_id: str, version: int, kind: str, text: str, recorded: list[str], dgn: str,
                pending: str | None, key: str | None, request: str, status: int, body: str, etag: str,
                *, batch: _Batch) -> None:
        now = time.time()
        self.db.execute("INSERT INTO items (table_id, version, kind, text, recorded, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (table_id, version, kind, text, json.dumps(recorded), now))
        self.db.execute("UPDATE tables SET version = ?, dgn = ?, pending = ? WHERE id = ?",
                        (version, dgn, pending, table_id))
        if key is not None:
            self.db.execute("INSERT INTO idempotency (table_id, key, request, status, body, etag, at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, key, request, status, body, etag, now))
            batch.after.append(lambda: self.answers.__setitem__((table_id, key), (request, status, body, etag)))

    def _remember(self, table_id: str, key: str, request: str, status: int, body: str, etag: str | None, *,
                  batch: _Batch) -> None:
        if (table_id, key) in self.answers:
            return
        cursor = self.db.execute("INSERT OR IGNORE INTO idempotency (table_id, key, request, status, body, etag, at) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (table_id, key, request, status, body, etag, time.time()))
        if cursor.rowcount != 1:  # the same key twice in one batch: the first answer stands
            return
        keys = batch.refused.setdefault(table_id, deque(self.refused.get(table_id, ())))
        keys.append(key)
        dropped = []
        while len(keys) > REMEMBERED_REFUSALS:  # the oldest beyond the bound, in this same transaction
            dropped.append(keys.popleft())
            self.db.execute("DELETE FROM idempotency WHERE table_id = ? AND key = ?", (table_id, dropped[-1]))

        def remembered() -> None:
            for old in dropped:
                self.answers.pop((table_id, old), None)
            self.answers[(table_id, key)] = (request, status, body, etag)
            self.refused[table_id] = keys

        batch.after.append(remembered)

    def answer(self, table_id: str, key: str) -> tuple[str, int, str, str | None] | None:
        return self.answers.get((table_id, key))

    def items(self, table_id: str) -> list[tuple[int, str, str, list[str]]]:
        with self.lock:
            rows = self.db.execute("SELECT version, kind, text, recorded FROM items WHERE table_id = ? "
                                   "ORDER BY version", (table_id,)).fetchall()
        return [(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def integrity(self) -> str:
        with self.lock:
            return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])

    # ---------------------------------------------------------------- the machinery

    def _transaction(self) -> _Tx:
        return _Tx(self.db)


@dataclass(slots=True)
class _Batch:
    """What one group commit changes in memory once it is committed (`after`), and the refusals' keys per
    table as the batch leaves them (several refusals of one table may share a batch)."""

    after: list[Callable[[], None]] = field(default_factory=list)
    refused: dict[str, deque[str]] = field(default_factory=dict)


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        """Commit, or roll back; a failed COMMIT (a full disk) is rolled back too, so that the connection is
        never left inside a transaction (SQLite may have rolled back already: then there is nothing to do)."""
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")


