"""The archive's index page (`diamonds replay FILES… --html DIR/`): every game, filterable, offline.

Pure: rows in, one HTML file out. A row per game: its page and place in it
(`page.html#g2/end`: the game's end, its result and marks), the date, the event, the players, the rules,
the result. Two
filters, by player and by dates, run in the page's own small script; the
page loads nothing (the same Content-Security-Policy as the replay pages).
Every text from the records is HTML-escaped.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from .page import page_head

__all__ = ["ArchiveRow", "render_index"]


@dataclass(frozen=True, slots=True)
class ArchiveRow:
    href: str  # the page and the game in it: `club.html#g2/end`
    file: str  # the DGN file, as given
    game: int  # 1-based, in its file
    date: str  # the Date tag, as written ("" without one)
    title: str  # the event, round, table (page_cmd's title)
    players: tuple[str, ...]
    result: str  # "Ann 45 (wins), Bob 40", or why there is none
    valid: bool
    rules: str = ""  # "1e, partnership"


_STYLE = """
body { margin: 0 auto; max-width: 1000px; padding: 0.5rem 0.75rem 2rem; color: #1d2327; background: #f6f4ee;
       font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.3rem; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin: 0.5rem 0 1rem; }
label { display: flex; gap: 0.4rem; align-items: center; }
input { font: inherit; padding: 0.2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid #d6dadc; vertical-align: top; }
tr.invalid td { color: #9b2c1c; }
a:focus-visible, input:focus-visible { outline: 3px solid #1f6f50; outline-offset: 2px; }
#shown { color: #5b6770; }
td { overflow-wrap: anywhere; }
@media (max-width: 600px) {
  .file { display: none; }
  th, td { padding: 0.2rem 0.25rem; font-size: 13px; }
  body { font-size: 15px; padding: 0.25rem 0.4rem 1.5rem; }
  table { table-layout: fixed; }
  th:nth-child(1) { width: 17%; } th:nth-child(2) { width: 23%; } th:nth-child(3) { width: 21%; }
  th:nth-child(4) { width: 16%; } th:nth-child(5) { width: 23%; }
  input[type="search"] { width: 12rem; max-width: 100%; }
  label { flex-wrap: wrap; }
}
[hidden] { display: none !important; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var rows = Array.prototype.slice.call(document.querySelectorAll("#games tbody tr"));
  var player = document.getElementById("player"), from = document.getElementById("from");
  var to = document.getElementById("to"), shown = document.getElementById("shown");
  function day(input) { return input.value ? input.value.replace(/-/g, ".") : ""; }
  function filter() {
    var who = player.value.trim().toLowerCase(), first = day(from), last = day(to), count = 0;
    rows.forEach(function (row) {
      var players = row.dataset.players.toLowerCase().split("\\n");
      var date = row.dataset.date;
      var ok = (!who || players.some(function (p) { return p.indexOf(who) >= 0; })) &&
               (!first || (date && date >= first)) && (!last || (date && date.slice(0, 10) <= last));
      row.hidden = !ok;
      if (ok) { count += 1; }
    });
    shown.textContent = count + " of " + rows.length + " games shown";
  }
  [player, from, to].forEach(function (input) { input.addEventListener("input", filter); });
  filter();
}());
"""


def render_index(title: str, rows: list[ArchiveRow]) -> str:
    e = html.escape
    body = []
    for row in rows:
        players = ", ".join(row.players)
        body.append(
            f'<tr class="{"" if row.valid else "invalid"}" data-date="{e(row.date)}" '
            f'data-players="{e(chr(10).join(row.players))}">'
            f'<td>{e(row.date) or "–"}</td><td><a href="{e(row.href)}">{e(row.title)}</a></td>'
            f'<td class="players">{e(players)}</td><td class="rules">{e(row.rules) or "–"}</td>'
            f'<td class="result">{e(row.result)}</td>'
            f'<td class="file">{e(row.file)} #{row.game}</td></tr>')
    return page_head(e(title), "diamonds replay --html DIR/") + f"""<style>{_STYLE}</style>
</head>
<body>
<h1>{e(title)}</h1>
<form id="filters" role="search" aria-label="filter the games">
  <label>Player <input id="player" type="search" autocomplete="off" placeholder="a name or part of it"></label>
  <label>From <input id="from" type="date"></label>
  <label>To <input id="to" type="date"></label>
</form>
<p id="shown" role="status"></p>
<table id="games">
<thead><tr><th>date</th><th>game</th><th>players</th><th>rules</th><th>result</th><th class="file">file</th></tr></thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
<script>{_SCRIPT}</script>
</body>
</html>
"""
