"""The club night: its folder, its tables, and the one recorder session behind each table.

`Club.open(DIR)` makes or resumes a night: the SQLite store (`club.sqlite`), the organiser's token
(`organiser.token`, mode 0600; only its hash in the store), and one `Table` per table created, each
resumed from the store's DGN text by `Recorder.resume` (every item checked again) and holding the
record lock (`diamonds.io.lock.FileLock`) of its DGN file for as long as the server runs, so that
`diamonds record` on the same file is refused while the night goes on.

A `Table` is a thin shell over `diamonds.replay.recorder.Recorder`, the core of `diamonds record`:
the refusals, their messages and their ruling ids are the recorder's own. One change at a time per
table (a lock); a change is kept in memory only once the store has committed it, and the DGN file is
rewritten through the one writer (`write_through`) after each commit. Nothing here speaks HTTP.
"""

from __future__ import annotations

import asyncio
import errno
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from diamonds.io.errors import DiskFull
from diamonds.io.lock import FileLock, lock_path
from diamonds.io.write import write_text
from diamonds.notation.tags import SETUP_TAGS, UnsafeTagText, check_tags
from diamonds.replay.recorder import Outcome, Recorder, Saved, SetupError, leftover_temporaries, write_through

from .store import SQLITE_FULL, Store, TableRow, token_hash

__all__ = ["Club", "Table", "TableSetup", "new_recorder", "EXTRA_TAGS", "Answer", "SetupError", "new_token", "disk_full",
           "MAX_TEXT"]

MAX_TEXT = 2000  # characters in one item's text
TOKEN_BYTES = 24  # 192 bits
REFUSED_COMMANDS = ("?", "help", "quit")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def same_hash(given: str, stored: str) -> bool:
    return hmac.compare_digest(given.encode("ascii"), stored.encode("ascii"))


@dataclass(frozen=True, slots=True)
class _Step:
    """A change checked by the recorder and handed to the store: what `finish` or `abort` needs. A refusal
    with a key is a step too (`saved` None, `status` 422): its answer is remembered before it is sent."""

    saved: Saved | None
    version: int
    body: dict[str, Any]
    committed: Future[None]
    status: int = 200


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a new table is made of: as the organiser's form or a round of the night's seating gives it."""

    rules: str
    players: tuple[str, ...]
    dealer: str | None = None
    variants: tuple[str, ...] = ()
    tags: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "players": list(self.players), "dealer": self.dealer,
                "variants": list(self.variants), "tags": dict(self.tags)}


#: The set-up's tags and the fields of a new table (POST /api/tables) that give them.
_SETUP_FIELDS = {"Rules": "rules", "Players": "players", "Dealer": "dealer", "Variant": "variants"}


def new_recorder(setup: TableSetup) -> Recorder:
    """The new table's recorder; SetupError as `diamonds record` would give it for the same set-up (a tag
    or a name with a control or bidi character too, naming the tag: `check_tags`)."""
    for tag in setup.tags:
        if tag in SETUP_TAGS:  # each has its own field, or is the game's to write
            given = _SETUP_FIELDS.get(tag)
            raise SetupError(f"the {tag} tag is the table's `{given}` field, not one of its tags" if given else
                             f"the game writes its own {tag} tag", tag)
    try:
        check_tags([*setup.tags.items(), ("Players", " ".join(setup.players)), ("Dealer", setup.dealer or ""),
                    ("Variant", ",".join(setup.variants))])
    except UnsafeTagText as error:
        raise SetupError(str(error), error.tag) from None
    options = {k: v for k, v in setup.tags.items() if k not in EXTRA_TAGS}
    extra = [(k, v) for k, v in setup.tags.items() if k in EXTRA_TAGS]
    return Recorder.new(setup.rules, list(setup.players), variants=list(setup.variants), dealer=setup.dealer,
                        options=options, extra_tags=extra)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the HTTP layer sends back: a status, a JSON body, the table's version for the ETag."""

    status: int
    body: dict[str, Any]
    version: int | None = None


@dataclass
class Table:
    """One table of the night: its recorder, its version (the ETag), its DGN file."""

    id: str
    seq: int
    setup: dict[str, Any]
    scorer_hash: str
    recorder: Recorder
    version: int
    path: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    file_lock: FileLock | None = None
    cache: dict[Any, Any] = field(default_factory=dict)
    write_lock: threading.Lock = field(default_factory=threading.Lock)  # one rewrite of the file at a time
    write_due: bool = False
    busy: bool = False
    alock: asyncio.Lock = field(default_factory=asyncio.Lock)
    written_at: float = 0.0

    @property
    def pending_item(self) -> str | None:
        return self.recorder.waiting_item


def _request_id(kind: str, text: str) -> str:
    return hashlib.sha256(f"{kind}\n{text}".encode()).hexdigest()


def etag_matches(header: str | None, version: int, *, weak: bool = False) -> bool:
    """Whether an `If-Match` (`weak=False`) or `If-None-Match` (`weak=True`) header names the version's entity
    tag, `"N"`, by RFC 9110's comparisons: If-Match's strong one, where a weak tag (`W/"N"`) never matches,
    If-None-Match's weak one, where it does; `*` names any current version. A tag not quoted names nothing."""
    if header is None:
        return False
    wanted = f'"{version}"'
    for part in header.split(","):
        part = part.strip()
        if part == "*":
            return True
        is_weak = part.startswith("W/")
        if (part[2:] if is_weak else part) == wanted and (weak or not is_weak):
            return True
    return False


class Club:
    """The night in DIR: the store, the organiser's token hash, the tables."""

    def __init__(self, folder: str, store: Store, organiser_token: str, club_lock: FileLock) -> None:
        self.folder = folder
        self.store = store
        self.organiser_token = organiser_token
        self.organiser_hash = token_hash(organiser_token)
        self.club_lock = club_lock
        self.tables: dict[str, Table] = {}
        self.by_hash: dict[str, str] = {}
        self.create_lock = threading.Lock()
        self.night_lock = threading.Lock()  # one change of the night's seating at a time (serve/night.py)
        self.seating_version = 0  # changes with the seating, for the wall's event stream
        self.write_signal = threading.Event()
        self.stopping = False
        self.writer = threading.Thread(target=self._writer_loop, name="diamonds-serve-write", daemon=True)
        self.writer.start()

    # ---------------------------------------------------------------- opening and closing

    @classmethod
    def open(cls, folder: str) -> Club:
        folder = os.path.abspath(folder)
        os.makedirs(os.path.join(folder, "tables"), exist_ok=True)
        database = os.path.join(folder, "club.sqlite")
        club_lock = FileLock(database, what="served").acquire()  # one server per folder
        try:
            store = Store(database)
            token = _organiser_token(folder, store)
            club = cls(folder, store, token, club_lock)
            for row in store.tables():
                club._load(row)
        except BaseException:
            club_lock.release()
            raise
        return club

    def close(self) -> None:
        self.stopping = True
        self.write_signal.set()
        self.writer.join(30)
        for table in self.tables.values():  # every file holds its table's last change
            self._write_due(table)
        for table in self.tables.values():
            if table.file_lock is not None:
                table.file_lock.release()
        self.store.close()
        self.club_lock.release()

    def _load(self, row: TableRow) -> Table:
        table = self._open(row)
        self.tables[row.id] = table
        self.by_hash[row.scorer_hash] = row.id
        return table

    def _path(self, seq: int, table_id: str) -> str:
        return os.path.join(self.folder, "tables", f"table-{seq:03d}-{table_id}.dgn")

    def _open(self, row: TableRow) -> Table:
        """The table of a stored row, its file locked and written (not yet one of the night's tables)."""
        recorder = Recorder.resume(row.dgn)
        if row.pending:
            recorder.enter(row.pending)  # the question it was waiting on, asked again
        table = Table(row.id, row.seq, row.setup, row.scorer_hash, recorder, row.version, self._path(row.seq, row.id))
        table.file_lock = FileLock(table.path, what="served").acquire()
        for leftover in leftover_temporaries(table.path):
            try:
                os.unlink(leftover)
            except OSError:
                pass
        try:
            self._write(table)  # the store is the truth: a kill between its commit and this write is mended
        except BaseException:
            table.file_lock.release()
            raise
        return table

    # ---------------------------------------------------------------- who is asking

    def who(self, token: str | None) -> str | None:
        """"organiser", a table's id, or None; compared in constant time on the hashes."""
        if not token:
            return None
        given = token_hash(token)
        if same_hash(given, self.organiser_hash):
            return "organiser"
        found = self.by_hash.get(given)
        if found is not None and same_hash(given, self.tables[found].scorer_hash):
            return found
        return None

    # ---------------------------------------------------------------- tables

    def create(self, rules: str, players: list[str], dealer: str | None, variants: list[str],
               tags: dict[str, str]) -> tuple[Table, str]:
        """A new table; raises SetupError as `diamonds record` would for the same set-up (a tag or a name
        with a control or bidi character too, naming the tag: `check_tags`)."""
        return self.create_many([TableSetup(rules, tuple(players), dealer, tuple(variants), dict(tags))])[0]

    def create_many(self, setups: list[TableSetup], meta: Callable[[list[str]], dict[str, str]] | None = None
                    ) -> list[tuple[Table, str]]:
        """New tables, all or none (a round of the night's seating: one transaction, with the store's meta
        names `meta(ids)` set in it); SetupError for the first set-up the recorder refuses, before anything
        is made."""
        recorders = [new_recorder(setup) for setup in setups]
        made: list[Table] = []
        paths: list[str] = []
        fresh = [(secrets.token_hex(4), new_token()) for _ in setups]
        rows = [(table_id, setup.as_dict(), token_hash(token), recorder.text)
                for (table_id, token), setup, recorder in zip(fresh, setups, recorders, strict=True)]

        def make_files(seqs: list[int]) -> None:  # inside the store's transaction: no row without its file
            for seq, (table_id, setup, scorer_hash, text) in zip(seqs, rows, strict=True):
                paths.append(self._path(seq, table_id))
                made.append(self._open(TableRow(table_id, seq, setup, scorer_hash, 0, text, None)))

        with self.create_lock:
            try:
                self.store.add_tables(rows, make_files, meta([row[0] for row in rows]) if meta else None)
            except BaseException:  # the rows are rolled back: nor are there files or locks (a full disk, say)
                for table in made:
                    if table.file_lock is not None:
                        table.file_lock.release()
                for path in paths:  # the ids are new: these can only be this attempt's
                    _remove_quietly(path)
                    _remove_quietly(lock_path(path))
                raise
            for table in made:
                self.tables[table.id] = table
                self.by_hash[table.scorer_hash] = table.id
        return [(table, token) for table, (_, token) in zip(made, fresh, strict=True)]

    def table(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    # ---------------------------------------------------------------- changes

    def change(self, table: Table, kind: str, text: str, if_match: str | None, key: str | None) -> Answer:
        """An item (`kind` "item", `text` as `diamonds record` takes a line) or an undo, checked by the
        recorder; recorded (store, then DGN file) only if accepted. The key's first answer wins.
        One change at a time per table: the app's `change_async` holds the table's asyncio lock."""
        step = self.begin(table, kind, text, if_match, key)
        if isinstance(step, Answer):
            return step
        try:
            step.committed.result()
        except BaseException:
            self.abort(table, step)
            raise
        return self.finish(table, step)

    async def change_async(self, table: Table, kind: str, text: str, if_match: str | None,
                           key: str | None) -> Answer:
        """`change` on the event loop: the recorder's check runs there (about a millisecond), the commit in
        the store's committer thread, awaited; no worker thread per request."""
        async with table.alock:
            step = self.begin(table, kind, text, if_match, key)
            if isinstance(step, Answer):
                return step
            try:
                await asyncio.wrap_future(step.committed)
            except BaseException:
                self.abort(table, step)
                raise
            return self.finish(table, step)

    def begin(self, table: Table, kind: str, text: str, if_match: str | None, key: str | None) -> Answer | _Step:
        """The check: an answer at once (a key's first answer, 412, 428, 422, nothing changed), or the
        accepted change handed to the store's committer (`_Step.committed`)."""
        request = _request_id(kind, text)
        with table.lock:
            if key is not None:
                earlier = self.store.answer(table.id, key)
                if earlier is not None:
                    if earlier[0] != request:
                        return Answer(422, _error("this Idempotency-Key was used for another request", "key-reused"),
                                      table.version)
                    return Answer(earlier[1], json.loads(earlier[2]), _version_of(earlier[3]))
            if not etag_matches(if_match, table.version):
                why = "If-Match is missing" if if_match is None else "the table has changed since"
                return Answer(428 if if_match is None else 412,
                              {"error": {"message": f"{why}: the table is at version {table.version}",
                                         "rule": None, "line": 0, "column": 0, "code": "stale"},
                               "state": self.brief(table)}, table.version)
            recorder = table.recorder
            saved = recorder.save()
            before = (recorder.text, table.pending_item)
            try:
                outcome = recorder.undo() if kind == "undo" else recorder.enter(text)
            except Exception:
                recorder.restore(saved)
                raise
            refusal = outcome.refusal
            if refusal is None and kind == "undo" and (recorder.text, table.pending_item) == before:
                refusal_body = _error("nothing to take back", "nothing-to-undo")
            elif refusal is not None:
                refusal_body = {"error": {"message": refusal.message, "rule": refusal.rule, "line": refusal.line,
                                          "column": refusal.column, "code": refusal.code, "item": refusal.item,
                                          "at": refusal.at or None}}
            else:
                refusal_body = None
            if refusal_body is not None:  # nothing recorded, not even the items before the refused one
                recorder.restore(saved)
                refusal_body["version"] = table.version
                if key is None:
                    return Answer(422, refusal_body, table.version)
                remembered = self.store.remember(table.id, key, request, 422, json.dumps(refusal_body),
                                                 str(table.version))
                return _Step(None, table.version, refusal_body, remembered, 422)
            changed = (recorder.text, table.pending_item) != before
            version = table.version + 1 if changed else table.version
            body = _outcome_body(outcome, recorder, version)
            if not changed:
                return Answer(200, body, version)
            committed = self.store.submit(table.id, version, kind, text, list(outcome.accepted), recorder.text,
                                          table.pending_item, key, request, 200, json.dumps(body), str(version))
            table.busy = True  # checked but not yet committed: the pages wait for it (see `view`)
            return _Step(saved, version, body, committed)

    def abort(self, table: Table, step: _Step) -> None:
        if step.saved is None:  # a refusal: nothing was changed
            return
        with table.lock:
            table.recorder.restore(step.saved)
            table.busy = False

    def finish(self, table: Table, step: _Step) -> Answer:
        if step.saved is None:
            return Answer(step.status, step.body, step.version)
        with table.lock:
            table.version = step.version
            table.write_due = True
            table.busy = False
        self.write_signal.set()
        return Answer(200, step.body, step.version)

    def _write(self, table: Table) -> None:
        write_through(table.path, table.recorder.text)

    def _writer_loop(self) -> None:
        """Rewrite the DGN file of every table with a change due, just after the answer: the store holds the
        change already (committed before the answer), and a restart mends a file a kill left behind. A
        table's file is rewritten at most every WRITE_GAP seconds: at a scorer's pace that is after every
        item; under a burst (the load test) the items of the gap share one rewrite, so that the disk's
        fsyncs go to the store's commits, which the answers wait for."""
        while not self.stopping:
            self.write_signal.wait(WRITE_GAP / 4)
            self.write_signal.clear()
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.write_due and now - table.written_at >= WRITE_GAP:
                    self._write_due(table)

    def _write_due(self, table: Table) -> None:
        """Rewrite the table's DGN file with its latest text (never an older text last)."""
        with table.write_lock:
            with table.lock:
                if not table.write_due:
                    return
                table.write_due = False
                text = table.recorder.text
            table.written_at = time.monotonic()
            try:
                write_through(table.path, text)
            except Exception as error:  # a full disk: the store still holds everything; say so
                print(f"diamonds serve: {table.path}: not rewritten ({error}); the store holds the game",
                      file=sys.stderr)

    # ---------------------------------------------------------------- what is shown

    def state(self, table: Table, private: bool = False) -> dict[str, Any]:
        """The table's state (the caller holds its lock)."""
        from .state import table_state

        return table_state(table, private)

    def brief(self, table: Table) -> dict[str, Any]:
        """The state in short, cheap to make (no replay, no picture): what a 412 sends back; GET has the rest."""
        recorder = table.recorder
        question = recorder.question
        return {"id": table.id, "version": table.version, "where": recorder.where(), "finished": recorder.finished,
                "question": None if question is None else {"item": question.item, "message": question.message,
                                                           "code": question.code, "rule": question.rule,
                                                           "choices": list(question.choices)}}

    def view(self, table: Table, private: bool = False, probes: bool = True) -> dict[str, Any]:
        """The state (from a worker thread): never of a change checked but not yet committed. The recorder
        is read under the table's lock; the replay and the picture are made outside it. `probes=False`: the
        scorer's state without the buttons tried on the recorder (the standings need only the scores)."""
        from .state import render, snapshot

        for _ in range(200):
            with table.lock:
                if not table.busy:
                    break
            time.sleep(0.005)
        with table.lock:
            snap = snapshot(table, private, probes)
        return render(snap)

    def new_scorer_token(self, table: Table) -> str:
        token = new_token()
        with table.lock:
            self.store.set_scorer_hash(table.id, token_hash(token))
            self.by_hash.pop(table.scorer_hash, None)
            table.scorer_hash = token_hash(token)
            self.by_hash[table.scorer_hash] = table.id
        return token

    def standings(self, full: bool) -> dict[str, Any]:
        """Per table its standings (public ones, or every score for the organiser); per player and game
        family the totals of the finished games (games, wins, points) and the games being played, with, for
        the organiser, their running points. Points are never added across families: a crystal of one game
        is no trick or point of another (`families` groups the players' rows, each family ranked apart)."""
        from diamonds.core import family_of

        tables: list[dict[str, Any]] = []
        players: dict[tuple[str, str], dict[str, Any]] = {}
        titles: dict[str, str] = {}
        for table in sorted(self.tables.values(), key=lambda t: t.seq):
            state = self.view(table, False)
            if full and not state["finished"]:
                state["standings"] = self.view(table, True, probes=False)["standings"]
            family = family_of(state["rules"])
            titles[family.name] = family.title
            row = {key: state[key] for key in ("id", "seq", "rules", "players", "where", "finished", "result",
                                               "standings", "version")}
            row["family"] = family.name
            row["round"] = table.setup.get("tags", {}).get("Round")
            tables.append(row)
            for standing in state["standings"]:
                for name in standing["players"]:
                    entry = players.setdefault((family.name, name), {
                        "player": name, "family": family.name, "games": 0, "wins": 0, "points": 0, "playing": 0,
                        "running": 0 if full else None})
                    if state["finished"]:
                        entry["games"] += 1
                        entry["wins"] += 1 if standing["winner"] else 0
                        entry["points"] += standing["score"] or 0
                    else:
                        entry["playing"] += 1
                        if full:
                            entry["running"] += standing["score"] or 0
        order = list(titles)  # the families in the order their first table was made
        ranked = sorted(players.values(), key=lambda e: (order.index(e["family"]), -e["wins"], -e["points"],
                                                         e["player"].lower()))
        families = [{"family": name, "title": titles[name], "players": [e for e in ranked if e["family"] == name]}
                    for name in order]
        return {"tables": tables, "players": ranked, "families": families}

    def night_dgn(self) -> str:
        return "\n".join(table.recorder.text for table in sorted(self.tables.values(), key=lambda t: t.seq))


EXTRA_TAGS = ("Event", "Site", "Date", "Round")
WRITE_GAP = 0.5  # seconds: a table's DGN file is rewritten at most this often (see _writer_loop)


def disk_full(error: BaseException) -> bool:
    """Whether `error` (or what caused it) says the disk has no room: the writer's `DiskFull`, an OSError
    ENOSPC / EDQUOT / EFBIG, or SQLite's SQLITE_FULL. The HTTP layer answers 507 for these."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, DiskFull):
            return True
        if isinstance(seen, OSError) and seen.errno in _NO_ROOM:
            return True
        if isinstance(seen, sqlite3.Error) and getattr(seen, "sqlite_errorcode", None) == SQLITE_FULL:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


_NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _version_of(etag: str | None) -> int | None:
    return int(etag) if etag and etag.isdigit() else None


def _error(message: str, code: str) -> dict[str, Any]:
    return {"error": {"message": message, "rule": None, "line": 0, "column": 0, "code": code}}


def _outcome_body(outcome: Outcome, recorder: Recorder, version: int) -> dict[str, Any]:
    question = outcome.question
    return {
        "version": version,
        "recorded": list(outcome.accepted),
        "question": None if question is None else {
            "item": question.item, "message": question.message, "code": question.code, "rule": question.rule,
            "choices": _answers(recorder, question)},
        "info": list(outcome.info),
        "where": recorder.where(),
        "finished": recorder.finished,
    }


def _answers(recorder: Recorder, question: Any) -> list[str]:
    """The answers the recorder takes to the question it now waits on (tried one by one, nothing recorded)."""
    from .state import answers

    found = answers(recorder) if recorder.question is not None and recorder.question == question else None
    return found if found is not None else list(question.choices)


def _organiser_token(folder: str, store: Store) -> str:
    """The organiser's token: the one in DIR/organiser.token if its hash is the store's, else a new one."""
    path = os.path.join(folder, "organiser.token")
    stored = store.meta("organiser_hash")
    try:
        with open(path, encoding="ascii") as handle:
            token = handle.read().strip()
    except (OSError, UnicodeDecodeError):
        token = ""
    if token and stored and same_hash(token_hash(token), stored):
        os.chmod(path, 0o600)
        return token
    token = new_token()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)  # the one writer keeps this mode
    os.close(descriptor)
    os.chmod(path, 0o600)
    write_text(path, token + "\n")
    store.set_meta("organiser_hash", token_hash(token))
    return token
