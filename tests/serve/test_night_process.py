"""The wall's live stream (GET /api/night/events) from a real `diamonds serve` process: the night's data at
once, then pushed on a change of the seating, on a round made and on an item recorded at one of its tables,
each before any keep-alive comment (in the stream's own order, never timed: issue 34). No event
carries a token or a scorer link."""

from __future__ import annotations

import json
import queue
import threading

import httpx
import pytest
from servehelp import HANG, Scorer, Server

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytestmark = pytest.mark.process  # a real `diamonds serve` process per module


def _until(events: queue.Queue, condition) -> dict:
    """The first event the condition holds of; none before it may be a keep-alive (the change was pushed)."""
    while True:
        event = events.get(timeout=HANG)
        assert event != "keep-alive", "the change waited for the keep-alive"
        if condition(event):
            return event


def test_the_wall_is_pushed_each_change_of_the_night(server: Server) -> None:
    organiser = {"Authorization": f"Bearer {server.organiser}"}
    events: queue.Queue[dict | str] = queue.Queue()
    stop = threading.Event()

    def listen() -> None:
        try:
            with httpx.stream("GET", f"{server.base}/api/night/events", timeout=HANG) as stream:
                events.put(dict(stream.headers))
                for line in stream.iter_lines():
                    if line.startswith(":"):
                        events.put("keep-alive")
                    elif line.startswith("data: "):
                        events.put(json.loads(line[6:]))
                    if stop.is_set():
                        return
        except httpx.HTTPError:  # the server stopped at the module's end, the stream still open
            if not stop.is_set():
                raise

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    headers = events.get(timeout=HANG)
    assert isinstance(headers, dict) and headers["content-type"].startswith("text/event-stream")
    assert "default-src 'none'" in headers["content-security-policy"]
    first = events.get(timeout=HANG)
    assert isinstance(first, dict) and first["next"] is None
    put = httpx.put(f"{server.base}/api/night/seating", headers=organiser,
                    json={"rules": "2e", "players": "Ann Bob Cat Dan Eve Fay", "rounds": 2, "tags": {"Event": "Club"}})
    assert put.status_code == 200, put.text
    planned = _until(events, lambda night: night["next"] is not None)
    assert planned["next"]["round"] == 1 and planned["event"] == "Club"
    made = httpx.post(f"{server.base}/api/night/rounds/1", headers=organiser)
    assert made.status_code == 201, made.text
    tables = made.json()["tables"]
    seated = _until(events, lambda night: night["now"] is not None and len(night["tables"]) == 2)
    assert seated["now"]["round"] == 1 and seated["next"]["round"] == 2
    assert [t["seq"] for t in seated["now"]["tables"]] == [1, 2]
    scorer = Scorer(server.base, tables[0])
    assert scorer.post("pass 3").status_code == 200
    moved = _until(events, lambda night: night["tables"][0]["version"] == 1)
    assert moved["tables"][0]["id"] == tables[0]["id"]
    stop.set()
    text = json.dumps([first, planned, seated, moved])
    for secret in (server.organiser, *(t["scorer_token"] for t in tables), "scorer_url", "/score/"):
        assert secret not in text
