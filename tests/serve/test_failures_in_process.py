"""The server's own failures, through the app in this process (httpx's ASGI transport), where a failure can
be injected at one place: the DGN writer out of room (ENOSPC), SQLite's COMMIT failing with SQLITE_FULL, a bug
(500). Each answer has the one error shape and the security headers, and nothing is half-made: a table is
created whole or not at all. And a refusal waits for its commit without holding up the event loop, so a
flood of them at one table leaves another table's requests to be answered (counted in answers, not time).

The same full disk for real, in a process of its own, is tests/serve/test_errors_and_links.py."""

from __future__ import annotations

import asyncio
import errno
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from servehelp import CommitFails

pytest.importorskip("fastapi")

import httpx  # noqa: E402

from diamonds.serve import club as club_module  # noqa: E402
from diamonds.serve.app import create_app  # noqa: E402
from diamonds.serve.club import Club  # noqa: E402

SETUP = {"rules": "2e", "players": ["Ann", "Bob", "Cat"], "dealer": "Ann"}


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    opened = Club.open(str(tmp_path / "club"))
    yield opened
    opened.close()


def _client(club: Club) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(club, "http://club.test:8000")),
                             base_url="http://club.test:8000", timeout=30)


def _auth(token: str, version: int | None = None, key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    if key is not None:
        headers["Idempotency-Key"] = key
    return headers


def _error(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["message"]


def _nothing_made(club: Club, folder: Path, tables: int) -> None:
    """The store, the memory and the folder agree on `tables` tables: no row, file or lock of a failed one."""
    assert len(club.store.tables()) == len(club.tables) == tables
    names = sorted(p.name for p in (folder / "tables").iterdir())
    assert len([n for n in names if n.endswith(".dgn")]) == tables, names
    assert len([n for n in names if n.endswith(".lock")]) == tables, names
    assert len(names) == 2 * tables, names  # nor a temporary file


def test_a_create_whose_file_cannot_be_written_is_507_and_nothing(club: Club, monkeypatch) -> None:
    folder = Path(club.folder)

    def full(path: str, text: str, **_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", path)

    async def body() -> None:
        async with _client(club) as client:
            monkeypatch.setattr(club_module, "write_through", full)
            answer = await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token))
            _error(answer, 507, "disk-full")
            _nothing_made(club, folder, 0)
            monkeypatch.undo()
            made = await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token))
            assert made.status_code == 201 and made.json()["scorer_url"].startswith("http://club.test:8000/score/")
            _nothing_made(club, folder, 1)
            assert club.store.tables()[0].seq == 1  # the failed one took no number either

    asyncio.run(body())


def test_a_commit_that_fails_is_507_rolled_back_and_the_store_carries_on(club: Club) -> None:
    """COMMIT fails: for a create (the file was written inside the transaction: it goes too) and for an item
    (the recorder is put back); the connection is left outside any transaction, so the next ones commit."""
    folder = Path(club.folder)
    real = club.store.db

    async def body() -> None:
        async with _client(club) as client:
            made = (await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token))).json()
            failing = CommitFails(real)
            club.store.db = failing  # type: ignore[assignment]
            _error(await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token)), 507,
                   "disk-full")
            _nothing_made(club, folder, 1)
            item = await client.post(f"/api/tables/{made['id']}/items", json={"text": "pass 3"},
                                     headers=_auth(made["scorer_token"], 0, "k1"))
            _error(item, 507, "disk-full")
            assert failing.failed == 2 and not real.in_transaction
            state = (await client.get(f"/api/tables/{made['id']}", headers=_auth(made["scorer_token"]))).json()
            assert state["version"] == 0 and "pass 3" not in club.tables[made["id"]].recorder.text
            club.store.db = real
            again = await client.post(f"/api/tables/{made['id']}/items", json={"text": "pass 3"},
                                      headers=_auth(made["scorer_token"], 0, "k1"))  # the same key: not used up
            assert again.status_code == 200 and again.headers["etag"] == '"1"'
            assert [row[0] for row in real.execute("SELECT version FROM items")] == [1]

    asyncio.run(body())


def test_a_bug_is_500_in_the_one_shape_and_the_traceback_stays_in_the_log(club: Club, monkeypatch, caplog) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a bug of ours with a secret path /srv/x")

    async def body() -> None:
        async with _client(club) as client:
            made = (await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token))).json()
            monkeypatch.setattr(club, "view", broken)
            answer = await client.get(f"/api/tables/{made['id']}")
            _error(answer, 500, "server-error")
            assert "secret" not in answer.text and "Traceback" not in answer.text

    with caplog.at_level("ERROR", logger="diamonds.serve"):
        asyncio.run(body())
    assert any("a bug of ours" in str(record.exc_info[1]) for record in caplog.records if record.exc_info)


def test_a_refusal_waiting_for_its_commit_does_not_hold_up_another_table(club: Club) -> None:
    """The store is held (as by a slow fsync) while table A's scorer sends a refused item with a key: its
    answer must wait for the refusal to be committed, but the event loop must not. Table B's state is
    answered first; A's refusal is answered once the store is free. Counted in the order of the answers.
    (A refusal committed on the event loop's thread, as before, blocked every table until the store was free.)"""

    async def body() -> list[str]:
        order: list[str] = []
        async with _client(club) as client:
            a = (await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token))).json()
            b = (await client.post("/api/tables", json=SETUP, headers=_auth(club.organiser_token))).json()
            held, b_answered = threading.Event(), threading.Event()

            def hold() -> None:
                with club.store.lock:
                    held.set()
                    b_answered.wait(20)  # a bound, so that the old behaviour fails instead of hanging

            holder = threading.Thread(target=hold)
            holder.start()
            held.wait(10)

            async def refused_at_a() -> None:
                answer = await client.post(f"/api/tables/{a['id']}/items", json={"text": "15S"},
                                           headers=_auth(a["scorer_token"], 0, "flood-1"))
                assert answer.status_code == 422 and answer.json()["error"]["rule"] == "R6"
                order.append("A refused")

            async def state_of_b() -> None:
                await asyncio.sleep(0)  # A's request goes first
                answer = await client.get(f"/api/tables/{b['id']}")
                assert answer.status_code == 200
                order.append("B answered")
                b_answered.set()

            await asyncio.gather(refused_at_a(), state_of_b())
            holder.join()
            assert club.store.answer(a["id"], "flood-1") is not None  # remembered once committed
        return order

    assert asyncio.run(body()) == ["B answered", "A refused"]
