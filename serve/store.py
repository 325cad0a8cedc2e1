"""The club night's SQLite store: tables, the items log, idempotency keys, the organiser's token hash.

One file, `DIR/club.sqlite`, in WAL mode with `synchronous=FULL`: a committed item survives a crash
of the process or of the machine. An item, the table's new DGN text and version, and the answer
given for its Idempotency-Key are written in ONE transaction, so a resent key finds the answer
exactly when the item is recorded. Only hashes of tokens are stored.
"""

from __future__ import annotations

import hashlib
import json
import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

__all__ = ["Store", "TableRow", "token_hash"]

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
        self.answers: dict[tuple[str, str], tuple[str, int, str, str | None]] = {
            (row[0], row[1]): (row[2], row[3], row[4], row[5]) for row in
            self.db.execute("SELECT table_id, key, request, status, body, etag FROM idempotency")}
        self.waiting: queue.Queue[tuple[tuple[Any, ...], Future[None]] | None] = queue.Queue()
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

    def add_table(self, table_id: str, setup: dict[str, Any], scorer_hash: str, dgn: str) -> int:
        with self.lock, self._transaction():
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM tables").fetchone()[0]
            self.db.execute("INSERT INTO tables (id, seq, setup, scorer_hash, version, dgn, pending, created) "
                            "VALUES (?, ?, ?, ?, 0, ?, NULL, ?)",
                            (table_id, seq, json.dumps(setup), scorer_hash, dgn, time.time()))
        return int(seq)

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
        done: Future[None] = Future()
        self.waiting.put((args, done))
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
            try:
                with self.lock, self._transaction():
                    for args, _ in batch:
                        self._record(*args)
            except BaseException as error:  # nothing of the batch is committed: each caller is told
                for _, done in batch:
                    done.set_exception(error)
            else:
                for args, done in batch:
                    table_id, key, request, status, body, etag = args[0], args[7], args[8], args[9], args[10], args[11]
                    if key is not None:
                        self.answers[(table_id, key)] = (request, status, body, etag)
                    done.set_result(None)

    def _record(self, table_id: str, version: int, kind: str, text: str, recorded: list[str], dgn: str,
                pending: str | None, key: str | None, request: str, status: int, body: str, etag: str) -> None:
        now = time.time()
        self.db.execute("INSERT INTO items (table_id, version, kind, text, recorded, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (table_id, version, kind, text, json.dumps(recorded), now))
        self.db.execute("UPDATE tables SET version = ?, dgn = ?, pending = ? WHERE id = ?",
                        (version, dgn, pending, table_id))
        if key is not None:
            self.db.execute("INSERT INTO idempotency (table_id, key, request, status, body, etag, at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, key, request, status, body, etag, now))

    def remember(self, table_id: str, key: str, request: str, status: int, body: str, etag: str | None) -> None:
        """The answer to a request that recorded nothing (a refusal), kept for its key."""
        with self.lock, self._transaction():
            self.db.execute("INSERT OR IGNORE INTO idempotency (table_id, key, request, status, body, etag, at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, key, request, status, body, etag, time.time()))
        self.answers.setdefault((table_id, key), (request, status, body, etag))

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


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


