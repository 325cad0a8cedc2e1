"""The night as a whole: its seating, the wall and the results (issue 31, items 7 and 8).

- **Seating**: the organiser gives the players present, the game and the number of rounds
  (`PUT /api/night/seating`); the server proposes every round's tables (serve/seating.py, at the sizes the
  family's rules seat: `allowed_sizes`), and one `POST /api/night/rounds/N` makes all of round N's tables in
  one transaction, with the seating that records them (all or none). The seating is kept in the store (its
  meta `seating`, JSON), so a restart carries on; changing it later replans the rounds not yet made, from
  the meetings of those made.
- **The wall** (`/standings`, `GET /api/night`, `GET /api/night/events`): only what every player may know,
  the public standings of `Club.standings(full=False)` and the seating; never a token, a scorer link or a
  hand. Live over the server's one event-stream machinery (serve/events.py).
- **The results** (`/results`, printable, no script; `GET /api/night.csv`): the standings per game family
  (points are never added across families) and every table's result; the games in play say so.

Nothing here names a family: sizes come from the rule set's `player_counts`, tried with its `configure`.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Depends, Header, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from diamonds.core import with_rule

from .club import EXTRA_TAGS, Club, SetupError, TableSetup, etag_matches, new_recorder
from .events import event_stream
from .links import table_links
from .seating import SeatedRound, SeatingError, seat_night

__all__ = ["router", "allowed_sizes", "seating_of", "plan_seating", "make_round", "wall", "results_csv",
           "results_page", "MAX_PLAYERS", "MAX_ROUNDS", "SEATING"]

SEATING = "seating"  # the store's meta name of the night's seating
#: The seating before the organiser gives one: version 0, no round.
NO_SEATING: dict[str, Any] = {"version": 0, "rules": None, "variants": [], "tags": {}, "players": [], "rounds": 0,
                              "sizes": [], "usual": None, "made": [], "planned": []}
MAX_PLAYERS = 200
MAX_ROUNDS = 30
#: Seconds between the wall stream's looks for a change: the wall reads every table's public state, so it
#: follows the night at a reader's pace rather than at a table's (serve/events.POLL).
WALL_POLL = 1.0


# ---------------------------------------------------------------- seating

def allowed_sizes(rules: str, variants: Sequence[str], options: dict[str, str]) -> tuple[tuple[int, ...], int]:
    """The table sizes the rule set seats with these variants and options (each of its `player_counts`
    tried with its own `configure`), and its usual size; SetupError (naming the tag) where none will do."""
    from diamonds.core import ConfigError, rules_for

    try:
        rule_set = rules_for(rules)
    except ConfigError as error:
        raise SetupError(str(error), error.tag or "Rules", error.rule) from None
    sizes: list[int] = []
    refusal: ConfigError | None = None
    for count in rule_set.player_counts:
        try:
            rule_set.configure([f"P{i + 1}" for i in range(count)], variants=variants, options=options)
        except ConfigError as error:
            refusal = error
        else:
            sizes.append(count)
    if not sizes:
        assert refusal is not None
        raise SetupError(str(refusal), refusal.tag or "Variant", refusal.rule)
    usual = rule_set.default_players if rule_set.default_players in sizes else min(sizes)
    return tuple(sizes), usual


class SeatingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = Field(max_length=40)
    players: list[str] | str = Field(max_length=MAX_PLAYERS * 17)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    variants: list[str] = Field(default_factory=list, max_length=10)
    tags: dict[str, str] = Field(default_factory=dict, max_length=20)
    sizes: list[int] | None = Field(default=None, max_length=10)


def seating_of(club: Club) -> dict[str, Any] | None:
    """The night's seating as stored (None before the organiser gives one)."""
    text = club.store.meta(SEATING)
    return None if text is None else dict(json.loads(text))


def _made(seating: dict[str, Any]) -> list[SeatedRound]:
    return [SeatedRound(made["round"], tuple(tuple(table["players"]) for table in made["tables"]),
                        tuple(made["sitting_out"])) for made in seating["made"]]


def plan_seating(club: Club, body: SeatingIn, if_match: str | None) -> dict[str, Any]:
    """The organiser's seating, with every round not yet made proposed; the rounds made stay as they were and
    their meetings count. SetupError or SeatingError for a night that cannot be seated (nothing kept)."""
    from diamonds.core.seating import ConfigError, check_players
    from diamonds.notation.tags import UnsafeTagText, check_tags, parse_players

    players = list(parse_players(body.players)) if isinstance(body.players, str) else list(body.players)
    try:
        check_tags([*body.tags.items(), ("Players", " ".join(players)), ("Variant", ",".join(body.variants))])
    except UnsafeTagText as error:
        raise SetupError(str(error), error.tag) from None
    if len(players) > MAX_PLAYERS:
        raise SeatingError(f"{len(players)} players: at most {MAX_PLAYERS} a night", len(players))
    try:
        check_players(players, [len(players)])  # ids, distinct ignoring case
    except ConfigError as error:
        raise SetupError(str(error), "Players") from None
    options = {name: value for name, value in body.tags.items() if name not in EXTRA_TAGS}
    sizes, usual = allowed_sizes(body.rules, body.variants, options)
    if body.sizes:
        wrong = sorted(set(body.sizes) - set(sizes))
        if wrong:
            raise SeatingError(f"tables of {', '.join(map(str, wrong))}: the rules seat "
                               f"{', '.join(map(str, sizes))}", len(players), sizes)
        sizes = tuple(sorted(set(body.sizes)))
        usual = usual if usual in sizes else min(sizes)
    with club.night_lock:
        before = seating_of(club)
        version = before["version"] if before else 0
        if if_match is not None and not etag_matches(if_match, version):
            raise _Stale(version)
        made = before["made"] if before else []
        if body.rounds < len(made):
            raise SeatingError(f"{len(made)} rounds are made already: the night has at least that many",
                               len(players), sizes)
        planned = seat_night(players, sizes, usual, body.rounds, _made(before) if before else ())
        if planned:  # the first table of each size, as the recorder will make it: a set-up refused now, not later
            for size in sorted({len(table) for table in planned[0].tables}):
                table = next(t for t in planned[0].tables if len(t) == size)
                new_recorder(TableSetup(body.rules, table, None, tuple(body.variants),
                                        _tags(body.tags, planned[0].number)))
        seating = {"version": version + 1, "rules": body.rules, "variants": list(body.variants),
                   "tags": dict(body.tags), "players": players, "rounds": body.rounds, "sizes": list(sizes),
                   "usual": usual, "made": made,
                   "planned": [{"round": r.number, "tables": [list(t) for t in r.tables],
                                "sitting_out": list(r.sitting_out), "exact": r.exact} for r in planned]}
        club.store.set_meta(SEATING, json.dumps(seating))
        club.seating_version += 1
    return seating


def _tags(tags: dict[str, str], number: int) -> dict[str, str]:
    return {**tags, "Round": str(number)}


class _Stale(Exception):
    def __init__(self, version: int) -> None:
        super().__init__(f"the seating has changed since: it is at version {version}")
        self.version = version


class RoundRefused(Exception):
    """Round `number` cannot be made now: `code` says why (no-seating, no-round, round-made, round-order)."""

    def __init__(self, message: str, code: str, number: int, status: int) -> None:
        super().__init__(message)
        self.code, self.number, self.status = code, number, status


def make_round(club: Club, number: int) -> tuple[dict[str, Any], list[tuple[Any, str]]]:
    """All the tables of round `number` as the seating proposes them, in one transaction with the seating
    that records them (all or none); the seating and the new tables with their tokens."""
    with club.night_lock:
        seating = seating_of(club)
        if seating is None:
            raise RoundRefused("there is no seating yet: PUT /api/night/seating first", "no-seating", number, 404)
        made = len(seating["made"])
        if number < 1:
            raise RoundRefused(f"there is no round {number}: rounds count from 1", "no-round", number, 404)
        if number <= made:
            raise RoundRefused(f"round {number}'s tables are made already (a new scorer link is made per table)",
                               "round-made", number, 409)
        if number > seating["rounds"]:
            rounds = seating["rounds"]
            raise RoundRefused(f"the night has {rounds} round{'' if rounds == 1 else 's'}", "no-round", number, 404)
        if number != made + 1:
            raise RoundRefused(f"round {made + 1} comes first", "round-order", number, 409)
        proposed = seating["planned"][0]
        setups = [TableSetup(seating["rules"], tuple(players), None, tuple(seating["variants"]),
                             _tags(seating["tags"], number)) for players in proposed["tables"]]
        after = {**seating, "version": seating["version"] + 1, "planned": seating["planned"][1:]}

        def meta(ids: list[str]) -> dict[str, str]:
            after["made"] = [*seating["made"], {
                "round": number, "sitting_out": proposed["sitting_out"],
                "tables": [{"id": table_id, "players": players} for table_id, players in
                           zip(ids, proposed["tables"], strict=True)]}]
            return {SEATING: json.dumps(after)}

        created = club.create_many(setups, meta)
        club.seating_version += 1
    return after, created


def _public_seating(club: Club, seating: dict[str, Any] | None) -> dict[str, Any] | None:
    """The seating as anyone may see it (names and tables: who sits where is no secret), with table numbers."""
    if seating is None:
        return None
    seqs = {table.id: table.seq for table in club.tables.values()}
    made = [{**r, "tables": [{**t, "seq": seqs.get(t["id"])} for t in r["tables"]]} for r in seating["made"]]
    return {**seating, "made": made}


# ---------------------------------------------------------------- the wall and the results

def wall(club: Club) -> dict[str, Any]:
    """What the wall shows: the public standings per family, each table's public state, the seating."""
    standings = club.standings(False)
    seating = _public_seating(club, seating_of(club))
    event = (seating or {}).get("tags", {}).get("Event") or next(
        (t.setup.get("tags", {}).get("Event") for t in sorted(club.tables.values(), key=lambda t: t.seq)
         if t.setup.get("tags", {}).get("Event")), None)
    return {"event": event, "tables": standings["tables"], "families": standings["families"],
            "round": len(seating["made"]) if seating else None, "rounds": seating["rounds"] if seating else None,
            "now": seating["made"][-1] if seating and seating["made"] else None,
            "next": seating["planned"][0] if seating and seating["planned"] else None}


def _key(club: Club) -> tuple[int, int, int]:
    return len(club.tables), sum(table.version for table in club.tables.values()), club.seating_version


CSV_COLUMNS = ["round", "table", "id", "family", "rules", "finished", "side", "player", "score", "winner"]


def results_csv(club: Club) -> str:
    """One row per player of every table: the public score (empty while hidden) and whether the side won."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for table in club.standings(False)["tables"]:
        for standing in table["standings"]:
            for name in standing["players"]:
                winner = "" if standing["winner"] is None else "yes" if standing["winner"] else "no"
                writer.writerow([table["round"] or "", table["seq"], table["id"], table["family"], table["rules"],
                                 "yes" if table["finished"] else "no", "+".join(standing["players"]), name,
                                 "" if standing["score"] is None else standing["score"], winner])
    return out.getvalue()


def _ranks(players: list[dict[str, Any]]) -> list[str]:
    """Places, shared where wins and points are equal (`3=`)."""
    keys = [(p["wins"], p["points"]) for p in players]
    return [f"{keys.index(key) + 1}=" if keys.count(key) > 1 else str(keys.index(key) + 1) for key in keys]


def results_page(club: Club) -> str:
    """The results as one printable page: every text escaped (html.escape), no script."""
    data = wall(club)
    e = html.escape
    title = f"Results: {data['event']}" if data["event"] else "Results of the night"
    parts = [f'<header><h1>{e(title)}</h1></header><main class="results">',
             '<p class="note">Per game: points of different games are never added up. Finished games count; '
             'games still in play are listed as such. <a href="/api/night.csv" download="night.csv">night.csv</a></p>']
    for family in data["families"]:
        finished = [p for p in family["players"] if p["games"]]
        parts.append(f'<section class="family"><h2>{e(family["title"])}</h2>')
        if not finished:
            parts.append('<p class="note">No game of this family is over yet.</p></section>')
            continue
        parts.append('<table class="standings"><thead><tr><th>Place</th><th>Player</th><th>Games</th>'
                     '<th>Wins</th><th>Points</th></tr></thead><tbody>')
        for place, p in zip(_ranks(finished), finished, strict=True):
            parts.append(f'<tr><td>{e(place)}</td><td>{e(p["player"])}</td><td>{p["games"]}</td>'
                         f'<td>{p["wins"]}</td><td>{p["points"]}</td></tr>')
        parts.append("</tbody></table></section>")
    parts.append('<section><h2>Tables</h2><table class="tables"><thead><tr><th>Round</th><th>Table</th>'
                 '<th>Game</th><th>Result</th></tr></thead><tbody>')
    for table in data["tables"]:
        result = table["result"] if table["finished"] else f"{', '.join(table['players'])}: in play ({table['where']})"
        parts.append(f'<tr><td>{e(str(table["round"] or ""))}</td><td>{table["seq"]}</td>'
                     f'<td>{e(table["rules"])}</td><td>{e(str(result or ""))}</td></tr>')
    parts.append("</tbody></table></section></main>")
    return _html("results", title, "".join(parts))


_WALL = """<header><h1 id="title">The night</h1><span id="status" class="status"></span></header>
<main class="wall">
<section id="now-section" hidden><h2 id="now-title">Tables</h2><div id="now" class="cards"></div></section>
<section id="next-section" hidden><h2 id="next-title">Next round</h2><div id="next" class="cards"></div>
<p id="sitting-out" class="note"></p></section>
<section><h2>Standings</h2><p class="note">Per game: points of different games are never added up.
Finished games count.</p><div id="families"></div></section>
</main>"""


def _html(kind: str, title: str, body: str) -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer"><title>{html.escape(title)}</title>'
            f'<link rel="stylesheet" href="/static/app.css"><link rel="stylesheet" href="/static/night.css">'
            + ('<script src="/static/night.js" defer></script>' if kind == "standings" else "")
            + f'</head><body data-page="{kind}">\n{body}\n</body></html>\n')


STYLE = """
header{flex-wrap:wrap;gap:.2rem .6rem}header h1{overflow-wrap:anywhere;min-width:0}
.wall h2{font-size:1.2rem;margin:.6rem 0 .3rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.5rem}
.card{background:#fff;border:1px solid #bbb;border-radius:8px;padding:.5rem}
.card h3{margin:0 0 .2rem;font-size:1.05rem}
.card p{margin:.1rem 0}
.card ol{margin:.2rem 0;padding-left:1.3rem}
.family h3,.family h2{margin:.6rem 0 .2rem}
.results table.standings td:nth-child(n+3),.results table.standings th:nth-child(n+3){text-align:right}
#families td:nth-child(n+2),#families th:nth-child(n+2){text-align:right}
.results table{margin:.3rem 0 1rem}.results h2{font-size:1.2rem;margin:.8rem 0 .2rem}
@media (min-width:900px){body[data-page=standings]{font-size:22px}.wall{max-width:none}}
@media print{header{background:none;color:#000;border-bottom:2px solid #000}body{background:#fff}
a{color:#000;text-decoration:none}.note a{display:none}section{break-inside:avoid}}
"""

SCRIPT = r"""
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; };
  function card(title, lines, scores) {
    const c = el("div", null, "card"); c.appendChild(el("h3", title));
    for (const line of lines) c.appendChild(el("p", line));
    if (scores && scores.length) {
      const list = el("ol");
      for (const s of scores) list.appendChild(el("li", s.players.join(" & ") + ": " + (s.score == null ? "hidden" : String(s.score)) + (s.winner ? " (winner)" : "")));
      c.appendChild(list);
    }
    return c;
  }
  function render(night) {
    const title = night.event || "The night";
    $("title").textContent = title; document.title = title + ": standings";
    const inRound = night.now ? new Set(night.now.tables.map((t) => t.id)) : null;
    const tables = night.tables.filter((t) => inRound ? inRound.has(t.id) : !t.finished);
    $("now-section").hidden = !tables.length;
    $("now-title").textContent = night.now ? "Round " + night.now.round + (night.rounds ? " of " + night.rounds : "") : "Tables in play";
    $("now").replaceChildren(...tables.map((t) => card("Table " + t.seq + " \u00b7 " + t.rules,
      [t.players.join(", "), t.finished ? "Over: " + (t.result || "") : t.where], t.standings)));
    const next = night.next;
    $("next-section").hidden = !next;
    if (next) {
      $("next-title").textContent = "Round " + next.round + ": where to sit";
      $("next").replaceChildren(...next.tables.map((players, i) => card("Table " + (i + 1), [players.join(", ")])));
      $("sitting-out").textContent = next.sitting_out.length ? "Sitting out: " + next.sitting_out.join(", ") : "";
    }
    const box = $("families"); box.replaceChildren();
    for (const family of night.families) {
      const section = el("section", null, "family"); section.appendChild(el("h3", family.title));
      const table = el("table", null, "standings"), head = el("tr");
      for (const h of ["Player", "Games", "Wins", "Points", "Playing"]) head.appendChild(el("th", h));
      table.appendChild(el("thead")).appendChild(head);
      const body = table.appendChild(el("tbody"));
      for (const p of family.players) {
        const row = el("tr");
        for (const v of [p.player, p.games, p.wins, p.points, p.playing ? "yes" : ""]) row.appendChild(el("td", String(v)));
        body.appendChild(row);
      }
      section.appendChild(table); box.appendChild(section);
    }
  }
  const status = (text, off) => { const s = $("status"); s.textContent = text; s.classList.toggle("offline", !!off); };
  const source = new EventSource("/api/night/events");
  source.addEventListener("night", (ev) => { render(JSON.parse(ev.data)); status("live"); });
  source.onerror = () => status("reconnecting\u2026", true);
})();
"""


# ---------------------------------------------------------------- the routes

def _refused(status: int, message: str, code: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "rule": None, "line": 0, "column": 0, "code": code, **more}},
                        status_code=status)


def router(club_of: Callable[..., Any], organiser: Callable[..., Any]) -> APIRouter:
    """The night's routes, with the app's dependencies (the club; the organiser's token checked as for every
    route of the app): given, not imported, so that this module does not depend on the app that includes it."""
    router = APIRouter()

    @router.get("/api/night/seating", tags=["api"])
    async def get_seating(club: Club = Depends(club_of)) -> Response:
        """The night's seating (anyone: who sits where is no secret): the rounds made, with their tables, and the
        rounds proposed; `ETag` its version (0, with no round, before the organiser gives one)."""
        seating = _public_seating(club, await run_in_threadpool(seating_of, club)) or NO_SEATING
        return JSONResponse(seating, headers={"ETag": f'"{seating["version"]}"'})

    @router.put("/api/night/seating", tags=["api"], responses={400: {}, 401: {}, 403: {}, 412: {}})
    async def put_seating(body: SeatingIn, _: str = Depends(organiser), club: Club = Depends(club_of),
                          if_match: str | None = Header(default=None)) -> Response:
        """The players present, the game and the number of rounds (the organiser): every round not yet made is
        proposed (serve/seating.py). `If-Match` is optional here (one organiser): where given, 412 if stale."""
        try:
            seating = await run_in_threadpool(plan_seating, club, body, if_match)
        except SetupError as error:
            return _refused(400, with_rule(str(error), error.rule), "setup", rule=error.rule, tag=error.tag)
        except SeatingError as error:
            return _refused(400, str(error), "seating", players=error.players, sizes=list(error.sizes))
        except _Stale as error:
            return _refused(412, str(error), "stale", version=error.version)
        return JSONResponse(_public_seating(club, seating), headers={"ETag": f'"{seating["version"]}"'})

    @router.post("/api/night/rounds/{number}", tags=["api"], status_code=201,
                 responses={400: {}, 401: {}, 403: {}, 404: {}, 409: {}})
    async def post_round(number: int, request: Request, _: str = Depends(organiser),
                         club: Club = Depends(club_of)) -> Response:
        """Every table of round `number` at once, as the seating proposes them (the organiser): one transaction,
        all or none; each with its scorer's token, links and QR code. A round is made once (409 after)."""
        try:
            seating, created = await run_in_threadpool(make_round, club, number)
        except RoundRefused as error:
            return _refused(error.status, str(error), error.code, round=error.number)
        except SetupError as error:
            return _refused(400, with_rule(str(error), error.rule), "setup", rule=error.rule, tag=error.tag)
        base: str = request.app.state.public_url
        tables = [{**table_links(base, table.id, token), "seq": table.seq, "players": list(table.setup["players"])}
                  for table, token in created]
        return JSONResponse({"round": number, "version": seating["version"], "tables": tables}, status_code=201)

    @router.get("/api/night", tags=["api"])
    async def get_night(club: Club = Depends(club_of)) -> Response:
        """What the wall shows (anyone): the public standings per game family, the tables, the seating."""
        return JSONResponse(await run_in_threadpool(wall, club))

    @router.get("/api/night/events", tags=["api"])
    async def night_events(request: Request, club: Club = Depends(club_of)) -> Response:
        """Server-sent events: `night` with the wall's data at once and after every change of a table or the seating."""

        async def data() -> tuple[str, dict[str, Any]]:
            key = _key(club)
            return "-".join(map(str, key)), await run_in_threadpool(wall, club)

        return event_stream(request, "night", lambda: "-".join(map(str, _key(club))), data, poll=WALL_POLL)

    @router.get("/api/night.csv", tags=["api"])
    async def night_csv(club: Club = Depends(club_of)) -> Response:
        """The results as CSV (anyone: public facts only), one row per player of every table."""
        text = await run_in_threadpool(results_csv, club)
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="night.csv"'})

    @router.get("/standings", include_in_schema=False)
    async def standings_page() -> HTMLResponse:
        return HTMLResponse(_html("standings", "Standings", _WALL), headers={"Cache-Control": "no-store"})

    @router.get("/results", include_in_schema=False)
    async def results(club: Club = Depends(club_of)) -> HTMLResponse:
        return HTMLResponse(await run_in_threadpool(results_page, club), headers={"Cache-Control": "no-store"})

    @router.get("/static/night.js", include_in_schema=False)
    async def script() -> Response:
        return Response(SCRIPT, media_type="text/javascript; charset=utf-8")

    @router.get("/static/night.css", include_in_schema=False)
    async def style() -> Response:
        return Response(STYLE, media_type="text/css; charset=utf-8")

    return router
