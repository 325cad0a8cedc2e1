"""The interactive replay page: page data in, one self-contained HTML file out.

Pure: no files, no rules, no terminal. Everything the page needs is inside it
(CSS, the script, every stop's picture and narration), so it works from a USB
stick with no network and in a phone's browser. The command
(`diamonds.cli.page_cmd`) replays the games and fills in the data; the script
(`page.js`) only looks things up in it, so where a key goes (next trick,
previous round, `g R2.7`) is decided once, in Python, by the terminal replay's
own navigator.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["Page", "PageGame", "PageStop", "PageScore", "render_page", "page_json", "pack_pictures", "unpack_pictures"]


@dataclass(frozen=True, slots=True)
class PageStop:
    """One stop of the replay: its picture, what happened in words, and where each jump key lands."""

    label: str  # R2.7.3, R2.0, R2.end, start
    kind: str  # "start", "deal", "card", "end"
    svg: str
    narration: tuple[str, ...]
    # Per seat, the narration as that player hears it, or None where it is the same as `narration`
    # (empty on a page written from one perspective: there, `narration` already is that player's).
    narration_as: tuple[tuple[str, ...] | None, ...]
    next_trick: int
    previous_trick: int
    next_round: int
    previous_round: int


@dataclass(frozen=True, slots=True)
class PageScore:
    side: str  # "Ann", or "Ann+Cat" for a team
    score: int
    winner: bool


@dataclass(frozen=True, slots=True)
class PageGame:
    """One game of the file, replayed as far as it is valid."""

    title: str
    about: str  # the rules and the players, in a line
    players: tuple[str, ...]
    stops: tuple[PageStop, ...]  # empty when not even the start could be set up
    positions: tuple[tuple[str, int], ...]  # every name the go-to key accepts (lower case) and its stop
    scores: tuple[PageScore, ...]  # the final standings; empty for a game that does not reach its end
    notes: tuple[str, ...]  # problems (file:line:col, the line, a caret) and notes, shown on the page
    as_player: int | None = None  # written from this seat only: the hidden things are not in the file


@dataclass(frozen=True, slots=True)
class Page:
    title: str
    games: tuple[PageGame, ...]
    start_game: int = 0  # the game shown first (0-based)


def _asset(name: str) -> str:
    return resources.files("diamonds.svg").joinpath(name).read_text(encoding="utf-8")


def _perspective_css(seats: int) -> str:
    """Show each seat's private things and the others' concealed versions, per chosen perspective.

    The pictures carry both versions of every private element (`step_svg(for_page=True)`), so
    changing the perspective is a matter of CSS, not of drawing again. `data-seat` lists the seats
    that may see a thing (a team's seats separated by spaces), hence `~=`."""
    rules = [".concealed { display: none; }"]
    for seat in range(seats):
        rules.append(f'#stage[data-view="{seat}"] .private:not([data-seat~="{seat}"]) {{ display: none; }}')
        rules.append(f'#stage[data-view="{seat}"] .concealed:not([data-seat~="{seat}"]) {{ display: inline; }}')
    return "\n".join(rules)


def pack_pictures(svgs: list[str]) -> str:
    """A game's pictures, gzipped and in base64: some 25 times smaller than the SVG text, which repeats
    itself from stop to stop, so that a whole evening's games stay a file a phone opens. The page
    unpacks them with the browser's own `DecompressionStream`, with no network and no library."""
    packed = gzip.compress(json.dumps(svgs, ensure_ascii=False).encode("utf-8"), compresslevel=9, mtime=0)
    return base64.b64encode(packed).decode("ascii")


def unpack_pictures(text: str) -> list[str]:
    """What the page's script does to `pack_pictures` (for tests and tools)."""
    svgs: list[str] = json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))
    return svgs


def _stop_data(stop: PageStop) -> dict[str, object]:
    data: dict[str, object] = {
        "label": stop.label, "kind": stop.kind, "narration": list(stop.narration),
        "jumps": [stop.next_trick, stop.previous_trick, stop.next_round, stop.previous_round],
    }
    if any(lines is not None for lines in stop.narration_as):
        data["narration_as"] = [list(lines) if lines is not None else None for lines in stop.narration_as]
    return data


def _game_data(game: PageGame) -> dict[str, object]:
    return {
        "title": game.title, "about": game.about, "players": list(game.players),
        "stops": [_stop_data(stop) for stop in game.stops],
        "pictures": pack_pictures([stop.svg for stop in game.stops]),
        "positions": dict(game.positions),
        "scores": [{"side": s.side, "score": s.score, "winner": s.winner} for s in game.scores],
        "notes": list(game.notes), "as_player": game.as_player,
    }


_SCRIPT_END = re.compile(r"<(?=[/!])")  # `</script>` or `<!--` inside the data would end or confuse the script


def page_json(page: Page) -> str:
    """The page's data as the script reads it, safe inside a `<script>` element."""
    text = json.dumps({"start_game": page.start_game, "games": [_game_data(g) for g in page.games]},
                      ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_END.sub(r"\\u003c", text)


def render_page(page: Page) -> str:
    """One HTML file: inline CSS, inline script, the data; no reference to anything outside it."""
    seats = max((len(game.players) for game in page.games), default=0)
    title = html.escape(page.title)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="diamonds replay --html">
<title>{title}</title>
<style>
{_asset("page.css")}
{_perspective_css(seats)}
</style>
</head>
<body>
<header>
  <h1>{title}</h1>
  <div class="choices">
    <label id="game-choice">Game <select id="game"></select></label>
    <label id="view-choice">Perspective <select id="view"></select></label>
    <span id="view-fixed"></span>
  </div>
  <p id="about"></p>
</header>
<main>
  <div id="stage" data-view="all"></div>
  <nav id="controls" aria-label="replay controls">
    <button type="button" data-action="start" title="start (Home)">|◀</button>
    <button type="button" data-action="previous_round" title="previous round (PgUp)">«</button>
    <button type="button" data-action="previous_trick" title="previous trick (↑)">‹‹</button>
    <button type="button" data-action="previous_step" title="back a step (←)">◀</button>
    <button type="button" data-action="next_step" title="next step (→)">▶</button>
    <button type="button" data-action="next_trick" title="next trick (↓)">››</button>
    <button type="button" data-action="next_round" title="next round (PgDn)">»</button>
    <button type="button" data-action="end" title="end (End)">▶|</button>
  </nav>
  <div id="where">
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <output id="label"></output>
  </div>
  <form id="goto" hidden>
    <label>Go to <input id="goto-text" type="text" autocomplete="off" placeholder="R2.7, R2.7.3, R2.end, start, end"></label>
  </form>
  <p id="message" role="status"></p>
  <ol id="narration" aria-live="polite"></ol>
  <section id="scores" hidden>
    <h2>Final scores</h2>
    <table><thead><tr><th>side</th><th>score</th><th></th></tr></thead><tbody></tbody></table>
  </section>
  <p id="unfinished" hidden>The record stops here, before the end of the game: there are no final scores.</p>
  <section id="notes" hidden>
    <h2>Problems in this game</h2>
    <div class="list"></div>
  </section>
  <details id="help"><summary>Keys</summary><dl></dl></details>
</main>
<script type="application/json" id="diamonds-data">{page_json(page)}</script>
<script>
{_asset("page.js")}
</script>
</body>
</html>
"""
