"""What the serve tests share: a real `diamonds serve` process on a free port, a small HTTP client
(httpx), and simulated games cut into the items a scorer would send one by one."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from diamonds.core.simulate import simulate
from diamonds.notation.writer import write_game
from diamonds.replay.record import record_from_game
from diamonds.serve.store import SQLITE_FULL

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
#: Seconds a wait may last before it is a failure: a bound against hangs only, never a figure (issue 34).
HANG = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """`diamonds serve DIR --port P` as its own process (started, killed, restarted on the same DIR)."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    options: tuple[str, ...] = ()  # more of the command's options (--public-url URL)
    wrap: tuple[str, ...] = ()  # a command the server runs under (unshare …: a small disk of its own)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def organiser(self) -> str:
        return (self.folder / "organiser.token").read_text().strip()

    def start(self, timeout: float = HANG) -> Server:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen([*self.wrap, sys.executable, "-m", "diamonds.cli.main", "serve",
                                         str(self.folder), "--port", str(self.port), *self.options],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server ended: {self.process.stdout.read().decode()}")  # type: ignore[union-attr]
            try:
                if httpx.get(self.base + "/openapi.json", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("the server did not answer in time")

    def output(self) -> str:
        """What the process printed (stdout and stderr), once it has ended."""
        assert self.process is not None and self.process.poll() is not None and self.process.stdout is not None
        return self.process.stdout.read().decode("utf-8", "replace")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def create(self, rules: str = "2e", players: tuple[str, ...] = NAMES[:3], *, game: Any = None,
               **extra: Any) -> dict[str, Any]:
        """A new table; with `game` (a simulated one), its rules, players, first dealer and option tags."""
        if game is not None:
            config = game.config
            rules, players = config.rules, tuple(config.players)
            extra.setdefault("dealer", config.players[config.first_dealer])
        body = {"rules": rules, "players": list(players), "dealer": players[0], **extra}
        answer = httpx.post(self.base + "/api/tables", json=body,
                            headers={"Authorization": f"Bearer {self.organiser}"}, timeout=30)
        assert answer.status_code == 201, answer.text
        return dict(answer.json())


def state_of(recorder: Any, private: bool, version: int) -> dict[str, Any]:
    """The scorer's (`private`) or the watchers' state of a table holding `recorder` at `version`, in-process."""
    import types

    from diamonds.serve.state import table_state

    return table_state(types.SimpleNamespace(recorder=recorder, cache={}, version=version, id="t", seq=1), private)


def game_items(rules: str = "2e", count: int = 3, seed: int = 1, deals: bool = False,
               options: dict[str, str] | None = None) -> tuple[Any, str, list[str]]:
    """A simulated game, its DGN as `diamonds record` writes it, and its items one by one
    (a trick line's cards each an item, with their victims; every other line whole)."""
    game = simulate(NAMES[:count], rules=rules, seed=seed, options=options or {})
    expected = write_game(record_from_game(game, deals=deals))
    items: list[str] = []
    for line in expected.split("\n\n", 1)[1].splitlines():
        if not line.strip():
            continue
        words = line.split()
        if words[0][:-1].isdigit() and words[0].endswith("."):
            items.extend(words[1:])
        else:
            items.append(line.strip())
    return game, expected, items


class Scorer:
    """A table's scorer over HTTP: If-Match from the last answer, a fresh Idempotency-Key per item."""

    def __init__(self, base: str, table: dict[str, Any], client: httpx.Client | None = None) -> None:
        self.base, self.id, self.token = base, table["id"], table["scorer_token"]
        self.client = client or httpx.Client(timeout=30)
        self.version = 0

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, text: str | None, *, key: str | None = None, version: int | None = None,
             token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token or self.token}",
                   "If-Match": f'"{self.version if version is None else version}"',
                   "Idempotency-Key": key or uuid.uuid4().hex}
        path = f"/api/tables/{self.id}/" + ("undo" if text is None else "items")
        answer = self.client.post(self.base + path, headers=headers, json=None if text is None else {"text": text})
        if answer.status_code == 200:
            self.version = int(answer.headers["ETag"].strip('"'))
        return answer

    def dgn(self) -> str:
        answer = self.client.get(f"{self.base}/api/tables/{self.id}/dgn", headers=self.headers)
        assert answer.status_code == 200, answer.text
        return answer.text


def settled_file(folder: Path, table_id: str, expected: str, timeout: float = HANG) -> str:
    """The table's DGN file once it holds `expected` (it is rewritten just after each answer), or as it is."""
    deadline = time.monotonic() + timeout
    while True:
        path = next(Path(folder, "tables").glob(f"*-{table_id}.dgn"))
        text = path.read_text(encoding="utf-8")
        if text == expected or time.monotonic() > deadline:
            return text
        time.sleep(0.02)


class CommitFails:
    """A connection whose COMMIT fails as SQLite's does on a full disk (SQLITE_FULL); the rest goes through."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.failed = 0

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.failed += 1
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = SQLITE_FULL  # type: ignore[attr-defined]
            raise error
        return self.db.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction
