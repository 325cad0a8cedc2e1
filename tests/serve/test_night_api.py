"""Issue 31, items 7 and 8, through the app in this process (httpx's ASGI transport): the night's seating
(proposed rounds, one POST a round making all its tables, all or none), the wall's data and the results
(public facts only, never a token), the standings per game family (points never added across families),
the CSV, and an injected Event tag that stays text on every page."""

from __future__ import annotations

import asyncio
import csv
import errno
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from servehelp import CommitFails, game_items

pytest.importorskip("fastapi")

import httpx  # noqa: E402

from diamonds.serve import club as club_module  # noqa: E402
from diamonds.serve.app import create_app  # noqa: E402
from diamonds.serve.club import Club  # noqa: E402
from diamonds.serve.seating import SeatedRound, meetings  # noqa: E402

BASE = "http://club.test:8000"
TEN = "Ann Bob Cat Dan Eve Fay Gus Hal Ivy Jo"
INJECTED = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    opened = Club.open(str(tmp_path / "club"))
    yield opened
    opened.close()


def _run(club: Club, body: Any) -> Any:
    async def main() -> Any:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(club, BASE)), base_url=BASE,
                                     timeout=60) as client:
            return await body(client)

    return asyncio.run(main())


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _error(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    error = answer.json()["error"]
    assert error["code"] == code and error["message"], error
    return dict(error)


def _lines(expected: str) -> list[str]:
    """A game's items a line at a time (a trick's cards in one item, as a scorer may send them): fewer
    commits than card by card, the same game."""
    items = []
    for line in expected.split("\n\n", 1)[1].splitlines():
        words = line.split()
        if words:
            items.append(" ".join(words[1:]) if words[0][:-1].isdigit() and words[0].endswith(".") else line.strip())
    return items


def _play(club: Club, table_id: str, items: list[str]) -> None:
    """The items at the table, through the same change as the API's (If-Match of the table's version)."""
    table = club.tables[table_id]
    for item in items:
        answer = club.change(table, "item", item, f'"{table.version}"', None)
        assert answer.status == 200, (item, answer.body)


def test_the_seating_proposes_rounds_and_one_post_makes_a_round(club: Club) -> None:
    organiser = _auth(club.organiser_token)

    async def body(client: httpx.AsyncClient) -> None:
        seating = {"rules": "kirk", "players": TEN, "rounds": 3, "tags": {"Event": "Thursday"}}
        _error(await client.put("/api/night/seating", json=seating), 401, "unauthorized")
        empty = await client.get("/api/night/seating")  # before any: version 0, no round
        assert empty.status_code == 200 and empty.headers["etag"] == '"0"'
        assert (empty.json()["made"], empty.json()["planned"]) == ([], [])
        _error(await client.post("/api/night/rounds/1", headers=organiser), 404, "no-seating")
        put = await client.put("/api/night/seating", json=seating, headers={**organiser, "If-Match": '"0"'})
        assert put.status_code == 200 and put.headers["etag"] == '"1"'
        plan = put.json()
        assert plan["sizes"] == [4] and [r["round"] for r in plan["planned"]] == [1, 2, 3]
        for proposed in plan["planned"]:  # Kirk seats four (K1): two tables, two sit out, each once at most
            assert [len(t) for t in proposed["tables"]] == [4, 4] and len(proposed["sitting_out"]) == 2
        outs = [name for r in plan["planned"] for name in r["sitting_out"]]
        assert len(outs) == len(set(outs)) == 6
        made = await client.post("/api/night/rounds/1", headers=organiser)
        assert made.status_code == 201, made.text
        tables = made.json()["tables"]
        assert [t["players"] for t in tables] == plan["planned"][0]["tables"]
        for t in tables:  # each with its scorer's link, as POST /api/tables gives one
            assert t["scorer_url"] == f"{BASE}/score/{t['id']}#token={t['scorer_token']}" and "<svg" in t["qr_svg"]
            assert club.who(t["scorer_token"]) == t["id"]
            assert dict(club.tables[t["id"]].recorder.tags)["Round"] == "1"
            assert dict(club.tables[t["id"]].recorder.tags)["Event"] == "Thursday"
        scorer = tables[0]["scorer_token"]
        _error(await client.post("/api/night/rounds/2", headers=_auth(scorer)), 403, "forbidden")
        _error(await client.post("/api/night/rounds/1", headers=organiser), 409, "round-made")
        _error(await client.post("/api/night/rounds/3", headers=organiser), 409, "round-order")
        _error(await client.post("/api/night/rounds/4", headers=organiser), 404, "no-round")
        for number in (0, -1):  # not "made already": there is no such round (a new user's bug hunt)
            refused = _error(await client.post(f"/api/night/rounds/{number}", headers=organiser), 404, "no-round")
            assert "rounds count from 1" in refused["message"]
        assert len(club.tables) == 2  # the refused ones made nothing
        public = (await client.get("/api/night/seating")).json()
        assert [r["round"] for r in public["made"]] == [1] and [r["round"] for r in public["planned"]] == [2, 3]
        assert [t["seq"] for t in public["made"][0]["tables"]] == [1, 2]
        assert scorer not in str(public) and club.organiser_token not in str(public)
        _error(await client.put("/api/night/seating", json=seating, headers={**organiser, "If-Match": '"1"'}),
               412, "stale")  # the round made moved it on

    _run(club, body)


def test_a_round_is_made_whole_or_not_at_all(club: Club, monkeypatch) -> None:
    """The second table's file finds no room: 507, and neither table, nor the round in the seating, is made;
    once there is room, the same POST makes both."""
    organiser = _auth(club.organiser_token)
    real = club_module.write_through
    written: list[str] = []

    def second_fails(path: str, text: str, **extra: Any) -> None:
        written.append(path)
        if len(written) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", path)
        real(path, text, **extra)

    async def body(client: httpx.AsyncClient) -> None:
        put = await client.put("/api/night/seating", json={"rules": "bidding", "players": "Ann Bob Cat Dan Eve Fay",
                                                           "rounds": 2}, headers=organiser)
        assert put.status_code == 200 and put.json()["sizes"] == [3]
        monkeypatch.setattr(club_module, "write_through", second_fails)
        _error(await client.post("/api/night/rounds/1", headers=organiser), 507, "disk-full")
        assert written and not club.tables and not club.store.tables()
        folder = Path(club.folder) / "tables"
        assert sorted(folder.iterdir()) == []  # no file, no lock, no temporary
        assert (await client.get("/api/night/seating")).json()["made"] == []
        monkeypatch.undo()
        made = await client.post("/api/night/rounds/1", headers=organiser)
        assert made.status_code == 201 and [t["seq"] for t in made.json()["tables"]] == [1, 2]

    _run(club, body)


def test_two_taps_at_once_make_the_round_once(club: Club) -> None:
    """Two POSTs of round 1 together (a double tap, two organiser's phones): one makes it, the other is 409."""
    organiser = _auth(club.organiser_token)

    async def body(client: httpx.AsyncClient) -> None:
        await client.put("/api/night/seating", json={"rules": "kirk", "players": TEN, "rounds": 2}, headers=organiser)
        answers = await asyncio.gather(*(client.post("/api/night/rounds/1", headers=organiser) for _ in range(2)))
        assert sorted(a.status_code for a in answers) == [201, 409]
        assert len(club.tables) == len(club.store.tables()) == 2

    _run(club, body)


def test_a_late_arrival_replans_the_rounds_not_made(club: Club) -> None:
    organiser = _auth(club.organiser_token)

    async def body(client: httpx.AsyncClient) -> None:
        eight = "Ann Bob Cat Dan Eve Fay Gus Hal"
        await client.put("/api/night/seating", json={"rules": "kirk", "players": eight, "rounds": 3}, headers=organiser)
        first = (await client.post("/api/night/rounds/1", headers=organiser)).json()
        again = await client.put("/api/night/seating", json={"rules": "kirk", "players": eight + " Ivy", "rounds": 3},
                                 headers=organiser)
        plan = again.json()
        assert [r["round"] for r in plan["made"]] == [1]
        assert [t["players"] for t in plan["made"][0]["tables"]] == [t["players"] for t in first["tables"]]
        assert [r["round"] for r in plan["planned"]] == [2, 3]
        assert all("Ivy" not in r["sitting_out"] for r in plan["planned"])  # she missed round 1 already
        played = [SeatedRound(1, tuple(tuple(t["players"]) for t in first["tables"]))]
        met = meetings(played)
        # Ivy's table repeats one pair of round 1 at least (three of its four come from two tables), the other
        # two (four from two tables of round 1, less the one sitting out): three in all, the fewest
        assert sum(met[frozenset(pair)] for table in plan["planned"][0]["tables"] for pair in _pairs(table)) == 3
        _error(await client.put("/api/night/seating", json={"rules": "kirk", "players": eight, "rounds": 0},
                                headers=organiser), 400, "bad-request")

    _run(club, body)


def _final(expected: str) -> list[Any]:
    """The final standings of a game's DGN (each side's players, score and whether it won)."""
    import diamonds

    return list(diamonds.Game.from_text(expected).end().standings)


def _pairs(table: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(table) for b in table[i + 1:]]


@pytest.mark.parametrize(("seating", "code", "tag"), [
    ({"rules": "nope", "players": TEN, "rounds": 2}, "setup", "Rules"),
    ({"rules": "kirk", "players": TEN, "rounds": 2, "variants": ["partnership"]}, "setup", "Variant"),
    ({"rules": "kirk", "players": "Ann Bob Cat", "rounds": 2}, "seating", None),
    ({"rules": "2e", "players": "Ann Bob ann Dan", "rounds": 2}, "setup", "Players"),
    ({"rules": "2e", "players": ["Ann", "Bob", "C<at>"], "rounds": 2}, "setup", "Players"),
    ({"rules": "2e", "players": TEN, "rounds": 2, "tags": {"Event": "Thurs\u202eday"}}, "setup", "Event"),
    ({"rules": "2e", "players": TEN, "rounds": 2, "sizes": [7]}, "seating", None),
])
def test_a_night_that_cannot_be_seated_is_refused_and_nothing_kept(club: Club, seating, code, tag) -> None:
    async def body(client: httpx.AsyncClient) -> None:
        error = _error(await client.put("/api/night/seating", json=seating, headers=_auth(club.organiser_token)),
                       400, code)
        if tag is not None:
            assert error["tag"] == tag, error
        assert club.store.meta("seating") is None

    _run(club, body)


def test_standings_are_per_family_and_never_add_points_of_different_games(club: Club) -> None:
    """Ann, Bob and Cat finish a game of Fitzgerald's (2e) and one of the bidding game: each player has one
    row per family, whose points are that family's game's score alone (the organiser's page and the wall)."""
    game_2e, dgn_2e, _ = game_items("2e", 3, seed=4)
    game_bid, dgn_bid, _ = game_items("bidding", 3, seed=2)
    made = {}
    for rules, game in (("2e", game_2e), ("bidding", game_bid)):
        config = game.config
        table, _ = club.create(rules, list(config.players), config.players[config.first_dealer], [], {})
        made[rules] = table.id
    _play(club, made["2e"], _lines(dgn_2e))
    _play(club, made["bidding"], _lines(dgn_bid))
    assert club.tables[made["2e"]].recorder.text == dgn_2e  # the same game, to its end
    for full in (True, False):
        standings = club.standings(full)
        assert [f["family"] for f in standings["families"]] == ["fitzgerald", "bidding"]
        for family, dgn in (("fitzgerald", dgn_2e), ("bidding", dgn_bid)):
            rows = {row["player"]: row for row in standings["players"] if row["family"] == family}
            expected = {name: s.score for s in _final(dgn) for name in s.players}
            assert {name: row["points"] for name, row in rows.items()} == expected
            assert all(row["games"] == 1 for row in rows.values())
            winners = {name for s in _final(dgn) if s.winner for name in s.players}
            assert {name for name, row in rows.items() if row["wins"]} == winners
        assert len(standings["players"]) == 6  # three players, two families: never one row adding both


def test_the_wall_the_results_and_the_csv_hold_public_facts_only(club: Club) -> None:
    organiser = _auth(club.organiser_token)
    _, dgn, _ = game_items("2e", 3, seed=4)

    async def body(client: httpx.AsyncClient) -> None:
        put = await client.put("/api/night/seating", json={
            "rules": "2e", "players": "Ann Bob Cat Dan Eve Fay", "rounds": 2, "tags": {"Event": INJECTED}},
            headers=organiser)
        assert put.json()["planned"][0]["tables"] == [["Ann", "Bob", "Cat"], ["Dan", "Eve", "Fay"]]  # 3 + 3, R1
        tables = (await client.post("/api/night/rounds/1", headers=organiser)).json()["tables"]
        tokens = [club.organiser_token, *(t["scorer_token"] for t in tables)]
        _play(club, tables[0]["id"], _lines(dgn))  # table 1 finishes; table 2 has its passes in (hidden, R6)
        _play(club, tables[1]["id"], ["pass 3", "pass Eve 1H 15H 11C"])
        night = await client.get("/api/night")
        assert night.status_code == 200 and night.json()["event"] == INJECTED  # JSON: text, shown as text
        pages = {path: await client.get(path) for path in ("/api/night", "/standings", "/results", "/api/night.csv",
                                                           "/api/night/seating", "/static/night.js")}
        for path, answer in pages.items():
            assert answer.status_code == 200, path
            assert "default-src 'none'" in answer.headers["content-security-policy"], path
            for secret in (*tokens, "scorer_url", "/score/", "15H"):  # no token or scorer link; no passed card
                assert secret not in answer.text, (path, secret)
        results = pages["/results"].text
        assert "<script>window" not in results and "&lt;script&gt;window.pwned=1&lt;/script&gt;" in results
        assert "<script" not in results and "onerror=\"" not in results  # no script at all on the printable page
        assert _final(dgn)[0].players[0] in results
        rows = list(csv.DictReader(io.StringIO(pages["/api/night.csv"].text)))
        over = [r for r in rows if r["finished"] == "yes"]
        assert {r["player"]: int(r["score"]) for r in over} == {n: s.score for s in _final(dgn) for n in s.players}
        assert {r["player"] for r in over if r["winner"] == "yes"} == {n for s in _final(dgn) if s.winner
                                                                        for n in s.players}
        playing = [r for r in rows if r["finished"] == "no"]
        assert {r["player"] for r in playing} == {"Dan", "Eve", "Fay"} and all(r["round"] == "1" for r in rows)
        hidden = (await client.get(f"/api/tables/{tables[1]['id']}")).json()["standings"]
        assert [r["score"] or None for r in playing] == [s["score"] for s in hidden]  # as public as the table's
        wall = night.json()
        assert wall["round"] == 1 and wall["next"]["round"] == 2 and wall["now"]["round"] == 1
        fitz = wall["families"][0]
        assert all(row["running"] is None for row in fitz["players"])  # running points: the organiser's alone
        whole = await client.get("/api/night.dgn", headers=organiser)  # the night's DGN: the organiser's route
        assert whole.status_code == 200 and whole.text.count("[Rules ") == 2
        _error(await client.get("/api/night.dgn"), 401, "unauthorized")

    _run(club, body)


def test_the_seating_survives_a_restart(tmp_path: Path) -> None:
    """The seating is in the store: a server started again on the folder has the rounds made and proposed,
    and makes the next round from them."""
    folder = str(tmp_path / "club")
    first = Club.open(folder)
    try:
        async def plan(client: httpx.AsyncClient) -> Any:
            organiser = _auth(first.organiser_token)
            await client.put("/api/night/seating", json={"rules": "kirk", "players": TEN, "rounds": 3}, headers=organiser)
            await client.post("/api/night/rounds/1", headers=organiser)
            return (await client.get("/api/night/seating")).json()

        before = _run(first, plan)
    finally:
        first.close()
    again = Club.open(folder)
    try:
        async def carry_on(client: httpx.AsyncClient) -> None:
            assert (await client.get("/api/night/seating")).json() == before
            made = await client.post("/api/night/rounds/2", headers=_auth(again.organiser_token))
            assert made.status_code == 201
            assert [t["players"] for t in made.json()["tables"]] == before["planned"][0]["tables"]
            assert [t["seq"] for t in made.json()["tables"]] == [3, 4]

        _run(again, carry_on)
    finally:
        again.close()


def test_a_round_whose_commit_fails_leaves_no_table_and_the_seating_as_it_was(club: Club) -> None:
    """COMMIT fails as on a full disk (SQLITE_FULL): the round's rows and the seating's new version are
    rolled back together, its files removed; 507, and the same POST makes the round once there is room."""
    real = club.store.db

    async def body(client: httpx.AsyncClient) -> None:
        organiser = _auth(club.organiser_token)
        await client.put("/api/night/seating", json={"rules": "kirk", "players": TEN, "rounds": 2}, headers=organiser)
        before = (await client.get("/api/night/seating")).json()
        failing = CommitFails(real)
        club.store.db = failing  # type: ignore[assignment]
        _error(await client.post("/api/night/rounds/1", headers=organiser), 507, "disk-full")
        club.store.db = real
        assert failing.failed == 1 and not real.in_transaction
        assert not club.tables and not club.store.tables() and not list((Path(club.folder) / "tables").iterdir())
        assert (await client.get("/api/night/seating")).json() == before  # the round is not recorded as made
        assert (await client.post("/api/night/rounds/1", headers=organiser)).status_code == 201

    _run(club, body)


def test_conditional_requests_compare_as_http_says(club: Club) -> None:
    """RFC 9110: If-Match compares strongly (a weak tag, or a tag not quoted, matched before and let a change
    through), If-None-Match weakly (`W/"0"` got the whole state again); and a table's state, public or the
    scorer's by the token, says it varies with Authorization (a new user's bug hunt)."""
    organiser = _auth(club.organiser_token)

    async def body(client: httpx.AsyncClient) -> None:
        made = await client.post("/api/tables", headers=organiser, json={"rules": "2e", "players": ["Ann", "Bob",
                                                                                                     "Cat"]})
        assert made.status_code == 201, made.text
        table, scorer = made.json()["id"], _auth(made.json()["scorer_token"])
        for tag in ('W/"0"', "0", '"1"'):
            _error(await client.post(f"/api/tables/{table}/items", headers={**scorer, "If-Match": tag},
                                     json={"text": "pass 2"}), 412, "stale")
        done = await client.post(f"/api/tables/{table}/items", headers={**scorer, "If-Match": '"0"'},
                                 json={"text": "pass 2"})
        assert done.status_code == 200 and done.headers["etag"] == '"1"', done.text
        for tag in ('"1"', 'W/"1"', '"0", W/"1"', "*"):
            answer = await client.get(f"/api/tables/{table}", headers={"If-None-Match": tag})
            assert answer.status_code == 304 and answer.headers["vary"] == "Authorization", tag
        for tag in ('"0"', "1"):
            answer = await client.get(f"/api/tables/{table}", headers={"If-None-Match": tag})
            assert answer.status_code == 200 and answer.headers["vary"] == "Authorization", tag

    _run(club, body)


def test_the_token_check_says_whether_a_token_was_sent(club: Club) -> None:
    """Without one it said the token was another night's (a new user's bug hunt)."""
    async def body(client: httpx.AsyncClient) -> None:
        missing = _error(await client.get("/api/token"), 401, "unauthorized")
        assert "no token was sent" in missing["message"]
        unknown = _error(await client.get("/api/token", headers=_auth("x" * 43)), 401, "unauthorized")
        assert "not one of this night's" in unknown["message"]
        known = await client.get("/api/token", headers=_auth(club.organiser_token))
        assert known.status_code == 200 and known.json() == {"role": "organiser"}

    _run(club, body)
