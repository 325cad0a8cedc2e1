"""The HTTP API through a real `diamonds serve` process (uvicorn on a free port), not an in-process client:
tables, items, the refusals (401, 403, 412, 422), an idempotent resend, undo, the DGN of a simulated game
fed item by item, standings, server-sent events, and a restart on the same folder."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading

import httpx
import pytest
from servehelp import HANG, Scorer, Server, game_items, settled_file

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytestmark = pytest.mark.process  # a real `diamonds serve` process per module


def test_the_folder_holds_the_token_and_a_wal_database(server: Server) -> None:
    token_file = server.folder / "organiser.token"
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert len(server.organiser) >= 22  # ≥128 bits, URL-safe
    db = sqlite3.connect(server.folder / "club.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert server.organiser not in (server.folder / "club.sqlite").read_bytes().decode("latin-1")


def test_a_game_fed_item_by_item_is_the_simulated_game(server: Server) -> None:
    _, expected, items = game_items("2e", 3, seed=4)
    scorer = Scorer(server.base, server.create("2e"))
    for item in items:
        answer = scorer.post(item)
        assert answer.status_code == 200, (item, answer.text)
        assert answer.json()["version"] == scorer.version
    assert scorer.dgn() == expected
    assert settled_file(server.folder, scorer.id, expected) == expected  # the file on disk too
    public = httpx.get(f"{server.base}/api/tables/{scorer.id}/dgn")  # public once the game is over
    assert public.status_code == 200 and public.text == expected
    state = httpx.get(f"{server.base}/api/tables/{scorer.id}").json()
    assert state["finished"] and all(s["score"] is not None for s in state["standings"])


def test_refusals_and_their_statuses(server: Server) -> None:
    table = server.create("2e")
    other = server.create("2e")
    scorer = Scorer(server.base, table)
    fed = ("pass 3", "pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S", "15S")
    for item in fed:
        assert scorer.post(item).status_code == 200
    # 422: the recorder's refusal, its message and ruling as `diamonds record` gives them; nothing recorded
    refused = scorer.post("6S 15S")
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert set(error) >= {"message", "rule", "line", "column"} and error["rule"] and error["line"] > 0
    from diamonds.replay.recorder import Recorder

    same = Recorder.new("2e", ["Ann", "Bob", "Cat"], dealer="Ann")
    for item in fed:
        same.enter(item)
    outcome = same.enter("6S 15S").refusal
    assert outcome is not None and (error["message"], error["rule"], error["line"], error["column"]) == \
        (outcome.message, outcome.rule, outcome.line, outcome.column)
    state = httpx.get(f"{server.base}/api/tables/{scorer.id}")
    assert state.headers["ETag"] == f'"{scorer.version}"' and state.json()["version"] == 5
    assert state.json()["trick"] == ["15S"]  # not even the 6S before the refused card
    # 401 without a token or with a wrong one; 403 with another table's
    assert scorer.post("6S", token="nonsense").status_code == 401
    bare = httpx.post(f"{server.base}/api/tables/{scorer.id}/items", json={"text": "9H"},
                      headers={"If-Match": '"2"'})
    assert bare.status_code == 401
    assert scorer.post("6S", token=other["scorer_token"]).status_code == 403
    assert httpx.post(f"{server.base}/api/tables", json={"rules": "2e", "players": ["A", "B", "C"]},
                      headers={"Authorization": f"Bearer {table['scorer_token']}"}).status_code == 403
    assert httpx.post(f"{server.base}/api/tables", json={"rules": "2e", "players": ["A", "B", "C"]}).status_code == 401
    # 412 with the current state when If-Match is stale
    stale = scorer.post("6S", version=1)
    assert stale.status_code == 412 and stale.json()["state"]["version"] == 5 and stale.headers["ETag"] == '"5"'
    assert httpx.get(f"{server.base}/api/tables/{scorer.id}/dgn").status_code == 401  # not over: not public


def test_a_resent_key_gets_the_first_answer_and_is_recorded_once(server: Server) -> None:
    scorer = Scorer(server.base, server.create("2e"))
    first = scorer.post("pass 3", key="the-key", version=0)
    again = scorer.post("pass 3", key="the-key", version=0)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert first.headers["ETag"] == again.headers["ETag"] == '"1"'
    assert scorer.dgn().count("pass 3") == 1
    other = scorer.post("pass 2", key="the-key", version=1)  # the same key for another request
    assert other.status_code == 422


def test_undo_takes_back_the_last_item(server: Server) -> None:
    scorer = Scorer(server.base, server.create("2e"))
    for item in ("pass 3", "pass Bob 1H 15H 11C"):
        scorer.post(item)
    before = scorer.dgn()
    assert scorer.post(None).status_code == 200 and scorer.version == 3
    assert "pass Bob" in before and "pass Bob" not in scorer.dgn()
    assert scorer.post(None).status_code == 200 and scorer.post(None).status_code == 422  # nothing left


def test_questions_are_asked_and_answered(server: Server) -> None:
    """Cards sent bare; the recorder's questions (R14: a Clubs card's own victim, a Clubs trick's winner's,
    the end-of-round award) come back with their choices and the answer is the next item, as in
    `diamonds record`."""
    _, expected, items = game_items("1e", 3, seed=3, deals=True)
    scorer = Scorer(server.base, server.create("1e"))
    asked, trick, skip = 0, [], None
    for index, item in enumerate(items):
        if item == skip:
            skip = None
            continue
        if not item[:1].isdigit():
            assert scorer.post(item).status_code == 200, item
            continue
        trick = (trick if len(trick) < 3 else []) + [item]
        bare, _, victim = item.partition(">")
        answer = scorer.post(bare).json()
        while answer.get("question") is not None:
            question = answer["question"]
            assert question["rule"] == "R14" and question["code"] == "victim-required"
            state = httpx.get(f"{server.base}/api/tables/{scorer.id}", headers=scorer.headers).json()
            assert state["question"]["item"] == question["item"]
            if question["item"].startswith("R"):  # the trick's winning card
                reply = ">" + trick[int(question["item"].rsplit(".", 1)[1]) - 1].partition(">")[2]
            elif question["item"] != "end" and ">" not in question["item"] and victim:
                reply = f">{victim}"
            else:  # the round's Clubs award (R16), asked as the `end` line that follows
                skip = items[index + 1]
                reply = skip.split()[1]
            assert reply in question["choices"]
            asked += 1
            answer = scorer.post(reply).json()
            assert "error" not in answer, answer
    assert asked
    assert scorer.dgn() == expected


def test_standings_and_the_night(server: Server) -> None:
    scorer = Scorer(server.base, server.create("kirk", ("Ann", "Bob", "Cat", "Dan"), tags={"Hands": "1"}))
    _, expected, items = game_items("kirk", 4, seed=2, options={"Hands": "1"})
    for item in items:
        assert scorer.post(item).status_code == 200, item
    standings = httpx.get(f"{server.base}/api/standings").json()
    row = next(t for t in standings["tables"] if t["id"] == scorer.id)
    assert row["finished"] and row["result"] and row["result"] != "*"
    assert f'[Result "{row["result"]}"]' in expected  # the game's result, not the `*` it started with
    names = {p["player"] for p in standings["players"]}
    assert {"Ann", "Bob", "Cat", "Dan"} <= names
    organiser = {"Authorization": f"Bearer {server.organiser}"}
    night = httpx.get(f"{server.base}/api/night.dgn", headers=organiser)
    assert night.status_code == 200 and expected in night.text
    assert httpx.get(f"{server.base}/api/night.dgn").status_code == 401


def test_server_sent_events_deliver_an_update(server: Server) -> None:
    """The change is pushed as it happens, not with the stream's keep-alive comment (every 15 s of idling):
    counted in the stream's own events, so a loaded machine cannot fail it (issue 34)."""
    scorer = Scorer(server.base, server.create("2e"))
    events: list[int | str] = []  # the versions sent, and each keep-alive comment, in order
    ready = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{server.base}/api/tables/{scorer.id}/events", timeout=HANG) as stream:
            for line in stream.iter_lines():
                if line.startswith(":"):
                    events.append("keep-alive")
                elif line.startswith("data: "):
                    events.append(json.loads(line[6:])["version"])
                    ready.set()
                    if 1 in events:
                        return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    assert ready.wait(HANG)
    scorer.post("pass 3")
    thread.join(HANG)
    assert not thread.is_alive(), events
    assert events == [0, 1]  # the update came before any keep-alive: pushed on the change


def test_a_restart_on_the_same_folder_carries_on(tmp_path) -> None:
    server = Server(tmp_path).start()
    try:
        token = server.organiser
        scorer = Scorer(server.base, server.create("2e"))
        scorer.post("pass 3")
        scorer.post("pass Bob 1H 15H 11C")
        assert scorer.post("15C").status_code in (200, 422)
        before = scorer.dgn()
    finally:
        server.stop()
    again = Server(tmp_path, port=server.port).start()
    try:
        assert again.organiser == token
        assert scorer.dgn() == before
        scorer.version = int(httpx.get(f"{again.base}/api/tables/{scorer.id}").headers["ETag"].strip('"'))
        assert scorer.post("pass Cat 8S 2C 14C").status_code == 200
    finally:
        again.stop()


def test_a_waiting_question_survives_a_restart(tmp_path) -> None:
    _, _, items = game_items("1e", 3, seed=3, deals=True)
    server = Server(tmp_path).start()
    try:
        scorer = Scorer(server.base, server.create("1e"))
        for item in items:
            bare = item.partition(">")[0]
            answer = scorer.post(bare).json()
            if answer.get("question"):
                break
        question = answer["question"]
        assert question is not None
    finally:
        server.stop()
    again = Server(tmp_path, port=server.port).start()
    try:
        state = httpx.get(f"{again.base}/api/tables/{scorer.id}", headers=scorer.headers).json()
        assert state["question"]["item"] == question["item"] and state["version"] == scorer.version
    finally:
        again.stop()


def test_the_command_without_the_extra_and_the_others_without_its_cost(tmp_path) -> None:
    import subprocess
    import sys

    missing = subprocess.run([sys.executable, "-c", "import sys; sys.modules['fastapi'] = None\n"
                              "from diamonds.cli.main import main; sys.exit(main(['serve', sys.argv[1]]))",
                              str(tmp_path / "club")], capture_output=True, text=True, timeout=60)
    assert missing.returncode != 0 and missing.stderr.count("\n") == 1 and "serve extra" in missing.stderr
    quiet = subprocess.run([sys.executable, "-c", "import sys\nfrom diamonds.cli.main import main\n"
                            "main(['simulate', '--players', '3', '--seed', '1', '-o', sys.argv[1]])\n"
                            "print(sorted(m for m in ('fastapi', 'uvicorn', 'segno', 'starlette') if m in sys.modules))",
                            str(tmp_path / "g.dgn")], capture_output=True, text=True, timeout=60)
    assert quiet.stdout.strip() == "[]", quiet.stderr


def test_a_comment_before_the_first_round_is_the_games_and_is_kept(server: Server) -> None:
    """DGN's place for a comment on the whole game, before its first round, is the server's too."""
    scorer = Scorer(server.base, server.create("2e"))
    answer = scorer.post("{League night, table 3}")
    assert answer.status_code == 200, answer.text
    assert scorer.post("R1 dealer Ann pass 2").status_code == 200
    movetext = scorer.dgn().split("\n\n", 1)[1]
    assert movetext.startswith("{League night, table 3}\nR1 dealer Ann pass 2\n"), movetext
    assert scorer.post(None).status_code == 200 and scorer.post(None).status_code == 200  # undo, undo
    assert "League night" not in scorer.dgn()
