"""The three pages (organiser, scorer, watcher): static HTML shells, one script, one style sheet.

Nothing is loaded from elsewhere (no CDN, no web fonts) and nothing inline runs: the page's script
and styles come from /static, as the Content-Security-Policy demands. Player text reaches the page
only through the script's `textContent` (never parsed as HTML) or inside the SVG pictures, which
ElementTree and segno escape. The scorer's and organiser's tokens travel in the URL's fragment
(never sent to the server or in a Referer) and are kept in the browser's localStorage.
"""

from __future__ import annotations

import html

__all__ = ["page", "SCRIPT", "STYLE"]

_TITLES = {"home": "diamonds serve", "organiser": "Club night: organiser", "score": "Scorer",
           "watch": "Watching a table"}

_BODIES = {
    "home": """<main><h1>Diamonds club night</h1>
<p>This server records a club night. The organiser's link was printed when the server started
(and is in <code>organiser.token</code>); each table's scorer and watch links come from the organiser's page.</p></main>""",
    "organiser": """<header><h1>Club night</h1><span id="status" class="status"></span></header>
<main>
<section id="login" hidden><p>Open the organiser's link printed by <code>diamonds serve</code>
(it ends in <code>#token=…</code>).</p></section>
<section id="create"><h2>New table</h2>
<form id="new-table">
<label>Rules <input name="rules" list="rule-ids" value="2e" required maxlength="40"></label>
<datalist id="rule-ids"><option value="1e"><option value="2e"><option value="bga"><option value="kirk"><option value="bidding"></datalist>
<label>Players <input name="players" placeholder="Ann Bob Cat" required maxlength="400"></label>
<label>Dealer <input name="dealer" placeholder="(the first player)" maxlength="80"></label>
<label>Variants <input name="variants" placeholder="partnership" maxlength="200"></label>
<label>Hands <input name="hands" inputmode="numeric" placeholder="(kirk: hands to play)" maxlength="6"></label>
<label>Target <input name="target" inputmode="numeric" placeholder="(kirk: points to win)" maxlength="6"></label>
<label>Event <input name="event" placeholder="Thursday club night" maxlength="200"></label>
<label>Round <input name="round" placeholder="1" maxlength="40"></label>
<label>Date <input name="date" placeholder="(today) YYYY.MM.DD" maxlength="10"></label>
<button type="submit">Create the table</button>
</form><p id="create-error" class="refusal" role="alert"></p></section>
<section id="seating"><h2>Seating the night</h2>
<p class="note">The players present, the game and the rounds: the server proposes each round's tables (new
opponents first, sit-outs shared), and one tap makes a round's tables.
<a href="/standings">The wall</a> · <a href="/results">The results</a></p>
<form id="seat-night">
<label>Game <input name="rules" list="rule-ids" value="2e" required maxlength="40"></label>
<label>Players present <input name="players" placeholder="Ann Bob Cat Dan Eve Fay" required maxlength="3400"></label>
<label>Rounds <input name="rounds" inputmode="numeric" value="3" required maxlength="2"></label>
<label>Variants <input name="variants" placeholder="partnership" maxlength="200"></label>
<label>Hands <input name="hands" inputmode="numeric" placeholder="(kirk: hands to play)" maxlength="6"></label>
<label>Target <input name="target" inputmode="numeric" placeholder="(kirk: points to win)" maxlength="6"></label>
<label>Event <input name="event" placeholder="Thursday club night" maxlength="200"></label>
<label>Date <input name="date" placeholder="(today) YYYY.MM.DD" maxlength="10"></label>
<button type="submit">Propose the tables</button>
</form><p id="seating-error" class="refusal" role="alert"></p>
<div id="plan"></div></section>
<section><h2>Tables</h2><div id="tables"></div></section>
<section><h2>Players</h2><p class="note">Per game: points of different games are never added up.</p>
<div id="players"></div></section>
<section><h2>The night</h2><button id="get-dgn" type="button">Download as DGN</button>
<button id="get-parquet" type="button">Download as Parquet</button><p id="download-error" class="refusal"></p></section>
</main>""",
    "score": """<header><h1 id="title">Table</h1><span id="status" class="status"></span></header>
<main>
<div class="where-box"><p id="where" class="where" role="button" tabindex="0" aria-expanded="false"></p></div>
<div id="calls" class="calls"></div>
<p class="picture-bar"><button id="zoom" type="button" aria-pressed="false" aria-controls="picture">Zoom the table</button></p>
<div id="picture" class="picture"></div>
<p id="trick" class="trick"></p>
<ol id="scores" class="scores"></ol>
<p id="where-at-grid" class="where where-at-grid" aria-hidden="true"></p>
<div id="grid" class="grid" aria-label="the game's cards: tap one to record it"></div>
<button id="undo" class="undo" type="button">Undo</button>
<div id="signs" class="calls"></div>
<form id="line" class="line"><label>Line <input id="line-text" name="text" autocomplete="off" autocapitalize="off"
 placeholder="pass Bob 1H 15H 11C · end · bid Ann 3" maxlength="2000"></label><button type="submit">Send</button></form>
<details id="correct" class="fix"><summary>Correct an earlier card</summary>
<p class="note">Tap two cards of this round to swap them in one step, or one card and say what it really was.
Everything after them is checked again.</p>
<div id="items" class="items"></div>
<p class="note">The round's lines: tap one to correct it in the line box above.</p>
<div id="lines" class="items"></div>
<p class="picked"><button id="swap" type="button" disabled>Swap</button> <span id="picked"></span></p>
<form id="fix"><label>The card picked is really <input id="fix-text" name="text" maxlength="40" autocapitalize="characters"></label>
<button type="submit">Correct</button></form></details>
<div id="notices" class="notices"><div id="question" class="question" role="group" aria-labelledby="question-text" hidden>
<p id="question-text" aria-live="polite"></p><div id="choices" class="choices"></div></div><p id="queue" class="queue" aria-live="polite" hidden></p>
<div id="refused" class="refused-bar" hidden><p id="refusal" class="refusal" role="alert" aria-live="assertive"></p>
<button id="refusal-close" class="close" type="button" aria-label="Close the message">&times;</button></div></div>
</main>""",
    "watch": """<header><h1 id="title">Table</h1><span id="status" class="status"></span></header>
<main>
<p id="where" class="where"></p>
<p class="picture-bar"><button id="zoom" type="button" aria-pressed="false" aria-controls="picture">Zoom the table</button></p>
<div id="picture" class="picture"></div>
<p id="trick" class="trick"></p>
<ol id="scores" class="scores"></ol>
<p id="updated" class="note"></p>
</main>""",
}


def page(kind: str, table_id: str = "") -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer">'
            f'<title>{html.escape(_TITLES[kind])}</title>'
            f'<link rel="stylesheet" href="/static/app.css"><script src="/static/app.js" defer></script></head>'
            f'<body data-page="{html.escape(kind)}" data-table="{html.escape(table_id)}">\n'
            f'{_BODIES[kind]}\n</body></html>\n')


STYLE = """
*{box-sizing:border-box}
body{margin:0;font:16px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f1ea;color:#1d1d1d}
header{display:flex;justify-content:space-between;align-items:center;padding:.4rem .6rem;background:#1f5130;color:#fff}
header h1{font-size:1.1rem;margin:0}
main{max-width:720px;margin:0 auto;padding:.5rem}
.status{font-size:.8rem}
.status.offline{color:#ffd27a;font-weight:bold}
.where{font-weight:600;margin:.3rem 0}
.where-box{position:relative;height:2.8em;margin:.3rem 0}
.where-box .where{position:absolute;top:0;left:0;right:0;min-height:100%;margin:0;cursor:pointer;overflow:hidden;
 display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;line-clamp:2}
.where-box .where.open{display:block;overflow:visible;z-index:5;background:#fffbe8;box-shadow:0 2px 8px rgba(0,0,0,.3);border-radius:0 0 6px 6px}
.where-at-grid{position:sticky;top:0;z-index:4;height:2rem;line-height:2rem;margin:.3rem 0 0;padding:0 .3rem;font-size:14px;
 white-space:nowrap;overflow:hidden;text-overflow:ellipsis;background:#fff8d6;border-bottom:1px solid #c9b76a;pointer-events:none}
html:has(.where-at-grid){scroll-padding-top:2.5rem}
.picture svg{width:100%;height:auto;display:block}
.picture.zoomed{overflow:auto;max-height:65vh;border:1px solid #bbb;border-radius:6px;overscroll-behavior:contain}
.picture.zoomed svg{max-width:none}
.picture-bar{margin:.2rem 0;text-align:right}
.trick{margin:.3rem 0;min-height:1.35em;white-space:nowrap;overflow-x:auto}
.scores{margin:.3rem 0;padding-left:1.4rem}
.refusal{color:#a40000;font-weight:600;min-height:1.2em;margin:.3rem 0}
.notices{position:fixed;left:0;right:0;bottom:0;z-index:10;padding:0 .5rem env(safe-area-inset-bottom);pointer-events:none}
.notices.top{top:0;bottom:auto}
.notices>*{pointer-events:auto;max-width:704px;margin:.4rem auto;box-shadow:0 2px 10px rgba(0,0,0,.35)}
.refused-bar{display:flex;align-items:center;gap:.4rem;background:#fff0f0;border:2px solid #a40000;border-radius:8px;padding:.2rem .2rem .2rem .6rem}
.refused-bar[hidden]{display:none}
.refused-bar .refusal{flex:1;margin:0;min-height:0;overflow-wrap:anywhere}
.refused-bar .close{min-width:44px;min-height:44px;font-size:1.4rem;line-height:1;background:#fff;border:1px solid #a40000;border-radius:6px;color:#a40000}
.refused{outline:4px solid #d00000 !important;outline-offset:1px;position:relative;z-index:1}
.shake{animation:shake .45s ease-in-out}
@keyframes shake{0%,100%{transform:translateX(0)}20%,60%{transform:translateX(-5px)}40%,80%{transform:translateX(5px)}}
@media (prefers-reduced-motion:reduce){.shake{animation:none}}
.question{background:#fff4cc;border:2px solid #c99a00;border-radius:8px;padding:.4rem;margin:.4rem auto}
.choices{display:flex;flex-wrap:wrap;gap:.4rem}
.choices button{min-width:3.2rem;min-height:2.8rem;font-size:1rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(52px,1fr));gap:4px;margin:.5rem 0}
.grid button{min-height:44px;font-size:1rem;font-weight:700;border:1px solid #888;border-radius:6px;background:#fff}
.grid button.red{color:#b00020}.grid button.black{color:#111}.grid button.green{color:#0a6b2a}
.grid button.played{background:#ccc;color:#777;text-decoration:line-through}
.grid button.legal{border:3px solid #1f7a3a;background:#eaffea}
.grid button.queued{background:#fff1b8;color:#5a4500;border-style:dashed}
.queue{background:#fff1b8;border:1px dashed #8a6d00;border-radius:6px;padding:.3rem;margin:.3rem 0}
.calls .group{margin:.3rem 0}.calls .group p{margin:.1rem 0;font-weight:600}
.calls button{min-width:2.8rem;min-height:2.8rem;font-size:1rem;margin:0 .25rem .25rem 0}
.items{display:flex;flex-wrap:wrap;gap:4px}
.items button{font-size:.85rem;min-height:44px;border:1px solid #888;border-radius:6px;background:#fff}
.items button.picked,.calls button.chosen{border:3px solid #1f5130;background:#dff2e4}
.undo{width:100%;min-height:3.2rem;font-size:1.3rem;font-weight:700;background:#7a1f1f;color:#fff;border:0;border-radius:8px;margin:.4rem 0}
.line,.fix form{display:flex;flex-wrap:wrap;gap:.3rem;align-items:end;margin:.4rem 0}
.line input{width:100%}
label{display:block;margin:.2rem 0}
input,select,button{font-size:1rem;padding:.35rem;min-height:44px}
button{min-width:44px}
summary{padding:12px .2rem;cursor:pointer}
form#new-table label,form#seat-night label{display:flex;justify-content:space-between;gap:.5rem}
.table-card{background:#fff;border:1px solid #ccc;border-radius:8px;padding:.5rem;margin:.5rem 0}
.table-card .qr svg{width:160px;height:160px}
.round-card ol{margin:.2rem 0;padding-left:1.3rem}.round-card button{min-height:44px;width:100%;font-weight:700}
.note{font-size:.85rem;color:#555}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ccc;padding:.2rem;text-align:left}
a{word-break:break-all}
"""

SCRIPT = r"""
"use strict";
(function () {
  const body = document.body, page = body.dataset.page, tableId = body.dataset.table;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; };
  function tokenFor(name) {
    const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
    if (m) { localStorage.setItem(name, m[1]); history.replaceState(null, "", location.pathname); }
    return localStorage.getItem(name);
  }
  async function call(method, path, opts) {
    opts = opts || {};
    const headers = {};
    if (opts.token) headers["Authorization"] = "Bearer " + opts.token;
    if (opts.ifMatch != null) headers["If-Match"] = '"' + opts.ifMatch + '"';
    if (opts.key) headers["Idempotency-Key"] = opts.key;
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    const r = await fetch(path, {method, headers, body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined, cache: "no-store"});
    let data = null;
    const type = r.headers.get("Content-Type") || "";
    if (type.startsWith("application/json")) data = await r.json();
    return {status: r.status, data, response: r};
  }
  function setStatus(text, offline) { const s = $("status"); if (s) { s.textContent = text; s.classList.toggle("offline", !!offline); } }
  function suitClass(card) { const s = card.slice(-1); return s === "D" || s === "H" ? "red" : s === "C" ? "green" : "black"; }
  function showSvg(target, svgText) {
    const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = doc.documentElement;
    target.replaceChildren(document.importNode(svg, true));
  }
  function showScores(list, standings) {
    list.replaceChildren();
    for (const s of standings) {
      const score = s.score == null ? "hidden" : String(s.score);
      list.appendChild(el("li", s.players.join(" & ") + ": " + score + (s.winner ? " (winner)" : "")));
    }
  }
  // A family's picture is drawn in 600 units, scaled to the page: on a phone its text is 6 to 9 px. So on a
  // page under 600 px wide the picture is the phone's (`diamonds.svg.phone`: the trick and the sides, 344 units
  // for 344 px, no text under 12 px), and the button shows the family's whole table instead, drawn wide enough
  // that its smallest text is 12 px, in a frame that scrolls (it opens on the trick). On a wider page the whole
  // table is fitted to the page, and the button zooms it so.
  const narrow = window.matchMedia("(max-width: 600px)");
  let zoomed = false, pictured = null;
  function showPicture(state) {
    pictured = state || pictured;
    if (!pictured) return;
    const frame = $("picture"), left = frame.scrollLeft, top = frame.scrollTop;
    const phone = narrow.matches && !zoomed && !!pictured.phone_svg;
    showSvg(frame, phone ? pictured.phone_svg : pictured.svg);
    frame.classList.toggle("phone", phone);
    fitPicture();
    frame.scrollLeft = left; frame.scrollTop = top;  // a zoomed picture stays where it was looked at
  }
  function fitPicture() {
    const frame = $("picture"), svg = frame.querySelector("svg");
    frame.classList.toggle("zoomed", zoomed);
    const button = $("zoom");
    if (button) {
      button.textContent = narrow.matches ? (zoomed ? "Show the trick" : "Show the whole table") : (zoomed ? "Fit the table" : "Zoom the table");
      button.setAttribute("aria-pressed", String(zoomed));
    }
    if (!svg) return;
    const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size"))).filter((n) => n > 0);
    const units = (svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) || 600;
    svg.style.width = zoomed ? Math.ceil(units * 12 / Math.min(12, ...sizes)) + "px" : "";
  }
  function zoom() {
    zoomed = !zoomed;
    showPicture();
    const frame = $("picture");
    if (zoomed) { frame.scrollLeft = (frame.scrollWidth - frame.clientWidth) / 2; frame.scrollTop = (frame.scrollHeight - frame.clientHeight) / 2; }
  }
  if ($("zoom")) $("zoom").addEventListener("click", zoom);
  narrow.addEventListener("change", () => showPicture());
  // Issue 31: on the scorer's page the card grid must not move between taps, so the lines above it keep their
  // height: the where line is two lines at most (ellipsis), its whole text in its title and shown over the
  // picture, in a box of the same place, while it is tapped open; the trick line is there even when empty.
  // The scorer's page repeats the same words in one line right above the card grid (`where-at-grid`): the
  // where line is off the screen once the grid is scrolled into view, and a scorer tapping cards must see who
  // is to play. That line is of a fixed height and sticks to the screen's top while the grid is scrolled past
  // it (taps go through it); its type shrinks to 12 px before the words end in an ellipsis.
  function showWhere(text) {
    const where = $("where"); where.textContent = text; where.title = text;
    const near = $("where-at-grid");
    if (near) { near.textContent = text; fitLine(near, 12); }
  }
  function fitLine(line, smallest) {
    line.style.fontSize = "";
    let size = parseFloat(getComputedStyle(line).fontSize);
    while (line.scrollWidth > line.clientWidth && size > smallest) { size -= 1; line.style.fontSize = size + "px"; }
  }
  const whereLine = $("where");
  if (whereLine && whereLine.hasAttribute("aria-expanded")) {
    const flip = () => {
      const open = whereLine.getAttribute("aria-expanded") !== "true";
      whereLine.setAttribute("aria-expanded", String(open)); whereLine.classList.toggle("open", open);
    };
    whereLine.addEventListener("click", flip);
    whereLine.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); flip(); } });
  }
  // Who is due, where the recorder's words do not name them (the bidding game's tricks: its leader follows from
  // B7's suits, which the recorder does not work out): "· Bob leads" at a trick's first card, else "to play".
  function dueWords(state) {
    const name = state.to_move;
    if (!name) return "";
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp("(^|[^\\p{L}\\p{N}])" + escaped + "(?![\\p{L}\\p{N}])", "u").test(state.where)) return "";
    return " · " + name + (/\bcard 1\b/.test(state.where) ? " leads" : " to play");
  }
  function showCommon(state) {
    $("title").textContent = "Table " + state.seq + " · " + state.rules + " · " + state.players.join(", ");
    showWhere(state.finished ? "Game over: " + (state.result || "") : state.where + dueWords(state));
    showPicture(state);
    $("trick").textContent = state.trick.length ? "This trick: " + state.trick.join(" ") : "";
    showScores($("scores"), state.standings);
  }

  // ------------------------------------------------------------ the scorer
  const SUITS = {D: "\u2666", H: "\u2665", S: "\u2660", C: "\u2663"};
  function choiceLabel(choice) {
    if (choice.startsWith(">")) return choice.slice(1);
    const sign = choice.endsWith("+") ? " high" : choice.endsWith("-") ? " low" : "";
    const suit = SUITS[choice.replace(/[+-]$/, "")];
    return (suit ? suit + " " + choice.replace(/[+-]$/, "") : "") + sign || choice;
  }
  function scorer() {
    const token = tokenFor("diamonds-scorer-" + tableId);
    const queueName = "diamonds-queue-" + tableId;
    let version = null, sending = false, retry = null, picked = [], labels = [], asking = false;
    // What was tapped, said as what finds its controls again after a redraw (`at`): {ids: […]}, or {box, group,
    // texts}, the buttons of the box (of its group, found by its title: the groups before it may be gone) whose
    // data-text is one of `texts`.
    let lastAt = null, refused = null;
    // the taps waiting, and the version the first of them was made against: kept across a reload, so that
    // taps made before the table moved on elsewhere get 412 rather than land on a table they were not meant for
    const kept = JSON.parse(localStorage.getItem(queueName) || "[]");
    const queue = Array.isArray(kept) ? kept : kept.ops || [];
    if (!Array.isArray(kept) && queue.length) version = kept.version;
    const save = () => localStorage.setItem(queueName, JSON.stringify({version, ops: queue}));
    const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
    function tapped(at) {
      if (!at) return [];
      const found = (at.ids || []).map((id) => $(id)).filter(Boolean);
      let scope = at.box ? $(at.box) : null;
      if (scope && at.group != null) scope = [...scope.children].find((g) => g.dataset.group === at.group) || null;
      if (scope) found.push(...[...scope.querySelectorAll("button")].filter((b) => at.texts.includes(b.dataset.text)));
      return found;
    }
    // Issue 31: a refusal shows at what was tapped. The controls are outlined (and shake once, `shake`) until
    // the next tap, and the words stand in a bar fixed to the edge of the screen away from them, so they are
    // in view wherever the page is scrolled and nothing moves; the words are set as text, never as HTML.
    function markRefused(shake) {
      for (const b of document.querySelectorAll(".refused")) b.classList.remove("refused", "shake");
      for (const b of tapped(refused)) {
        b.classList.add("refused");
        if (shake) { void b.offsetWidth; b.classList.add("shake"); }  // (the reflow restarts the animation)
      }
    }
    function place() {
      const marks = tapped(refused || lastAt);
      const r = marks.length ? marks[0].getBoundingClientRect() : null;
      $("notices").classList.toggle("top", !!r && (r.top + r.bottom) / 2 > innerHeight / 2);
    }
    function say(text, at) {
      $("refusal").textContent = text || "";
      $("refused").hidden = !text;
      refused = text ? at || null : null;
      markRefused(!!text);
      place();
    }
    $("refusal-close").addEventListener("click", () => say(""));
    if (!token) { say("This page needs the scorer's link (it ends in #token=…)."); return; }
    const opText = (op) => op.kind === "undo" ? "Undo" : op.text;
    function showQueue(offline) {
      const box = $("queue");
      box.hidden = !queue.length;
      box.textContent = queue.length ? (offline ? "Offline: " : "Sending: ") + queue.length + " tap(s) waiting, in order: " +
        queue.map(opText).join(" \u00b7 ") : "";
      const waiting = new Set(queue.filter((op) => op.kind === "item").map((op) => op.text));
      for (const b of document.querySelectorAll("#grid button")) b.classList.toggle("queued", waiting.has(b.dataset.card));
      if (queue.length) setStatus(offline ? "offline: " + queue.length + " tap(s) waiting" : "sending " + queue.length + " tap(s)", offline);
      place();
    }
    async function refresh() {
      try {
        const r = await call("GET", "/api/tables/" + tableId, {token});
        if (r.status !== 200) { say((r.data && r.data.error && r.data.error.message) || ("error " + r.status)); return; }
        render(r.data);
        if (!queue.length) setStatus("online");
      } catch (e) { setStatus("offline: taps are kept and sent on reconnect", true); }
    }
    function button(text, label, onClick) {
      const b = el("button", label); b.type = "button"; b.dataset.text = text;
      b.addEventListener("click", onClick); return b;
    }
    function render(state) {
      if (!queue.length || version == null) version = state.version;  // waiting taps keep the version they were made on
      showCommon(state);
      const q = state.question;
      $("question").hidden = !q;
      asking = !!q;  // the next item answers the question: no correction until then
      if (q) {
        const what = q.end ? "End of the round: who gets the award?" : q.item + ": " + q.message;
        $("question-text").textContent = what + (q.rule ? " (" + q.rule + ")" : "");
        const box = $("choices"); box.replaceChildren();
        for (const choice of q.choices) box.appendChild(button(choice, choiceLabel(choice), () => enqueue("item", choice, {box: "choices", texts: [choice]})));
      }
      const due = (state.buttons || []).find((g) => g.kind === "call" || g.kind === "count");
      if (due) showWhere(((state.where.match(/^round \d+/) || [""])[0] + " \u00b7 " + due.title + " due").trim());
      // What is due before a round's cards (a count, pass lines, bids, takes) stands above the grid; what comes
      // with a card (an ace's other sign, B7) stands below Undo, and a question (a Joker's suit, a Clubs victim,
      // an award) in the bar of notices: nothing that comes and goes within a round moves the grid or Undo.
      $("calls").replaceChildren(); $("signs").replaceChildren();
      for (const group of state.buttons || []) {
        const box = group.kind === "sign" ? "signs" : "calls";
        const g = el("div", null, "group " + group.kind); g.appendChild(el("p", group.title)); g.dataset.group = group.title;
        const choose = group.choose || 1, chosen = new Set();
        for (const c of group.choices) {
          const b = button(c.text, c.label, () => {
            if (!group.join) { enqueue("item", c.text, {box, group: group.title, texts: [c.text]}); return; }
            if (chosen.has(c.text)) chosen.delete(c.text); else chosen.add(c.text);
            b.classList.toggle("chosen", chosen.has(c.text));
            if (chosen.size < choose) return;
            // the line: the group's template with the chosen texts in the choices' order (R6's `pass Ann 9D 12H`)
            const texts = group.choices.map((x) => x.text).filter((t) => chosen.has(t));
            let at = 0;
            enqueue("item", group.join.replace(/\{\}/g, () => texts[at++]), {box, group: group.title, texts});
          });
          g.appendChild(b);
        }
        $(box).appendChild(g);
      }
      const grid = $("grid"); grid.replaceChildren();
      for (const c of state.cards) {
        const b = el("button", c.card, suitClass(c.card)); b.type = "button"; b.dataset.card = c.card; b.dataset.text = c.card;
        if (c.played) b.classList.add("played");
        if (c.legal) b.classList.add("legal");
        b.addEventListener("click", () => enqueue("item", c.card, {box: "grid", texts: [c.card]})); grid.appendChild(b);
      }
      labels = state.items.map((item) => item.label);
      picked = picked.filter((label) => labels.includes(label));
      const items = $("items"); items.replaceChildren();
      for (const item of state.items) {
        const b = button(item.label, item.label.replace(/^R\d+\./, "") + " " + item.text, () => pick(item.label));
        b.dataset.label = item.label; items.appendChild(b);
      }
      const lines = $("lines"); lines.replaceChildren();
      for (const line of state.lines || []) {
        lines.appendChild(button(line.fix, line.text, () => {
          const input = $("line").elements.text; input.value = line.fix; input.focus();
        }));
      }
      showPicked();
      showQueue(false);
      markRefused(false);  // the redrawn controls keep the outline
    }
    function pick(label) {
      const at = picked.indexOf(label);
      if (at >= 0) picked.splice(at, 1); else { picked.push(label); if (picked.length > 2) picked.shift(); }
      showPicked();
    }
    function showPicked() {
      for (const b of document.querySelectorAll("#items button")) b.classList.toggle("picked", picked.includes(b.dataset.label));
      $("swap").disabled = picked.length !== 2 || asking;
      $("picked").textContent = asking && picked.length ? "answer the question first (or Undo)" :
        picked.length === 2 ? "swap " + picked.join(" and ") :
        picked.length === 1 ? picked[0] + " picked: pick another to swap, or correct it below" : "";
    }
    function enqueue(kind, text, at) {
      lastAt = at || null;
      say("");
      queue.push({kind, text, key: newKey(), at: lastAt}); save(); showQueue(!navigator.onLine); pump();
    }
    function later() {
      if (retry) clearTimeout(retry);
      retry = setTimeout(() => { retry = null; pump(); }, 2000);
    }
    async function pump() {
      if (sending) return;
      sending = true;
      let said = null;  // a refusal, said once the table is drawn afresh: the words and the outline come together
      try {
        while (queue.length) {
          const op = queue[0];
          if (version == null) { await refresh(); if (version == null) throw new Error("offline"); }
          const path = "/api/tables/" + tableId + (op.kind === "undo" ? "/undo" : "/items");
          showQueue(false);
          const r = await call("POST", path, {token, ifMatch: version, key: op.key, body: op.kind === "undo" ? undefined : {text: op.text}});
          if (r.status === 200) { queue.shift(); version = r.data.version; save(); continue; }
          if (r.status >= 500 || r.data == null) throw new Error("server " + r.status);  // not an answer: try again
          const err = (r.data && r.data.error) || {message: "error " + r.status};
          const dropped = queue.length - 1;
          const notSent = queue.map(opText);
          queue.length = 0; save();
          // the message and its ruling; never a line and column (those are for `diamonds record` in a terminal)
          let text = opText(op) + " not recorded: " + err.message +
            (err.rule && !err.message.includes("(" + err.rule + ")") ? " (" + err.rule + ")" : "");
          if (r.status === 412) text = "The table changed elsewhere (now version " + ((r.data.state && r.data.state.version) ?? "?") +
            "): " + notSent.length + " tap(s) not sent (" + notSent.join(" ") + "); the table is shown afresh, tap again.";
          else if (dropped) text += "; " + dropped + " later tap(s) not sent (" + notSent.slice(1).join(" ") + ")";
          said = {text, at: op.at || null};
          break;
        }
        await refresh();
        if (said) say(said.text, said.at);
      } catch (e) {
        if (said) say(said.text, said.at);
        showQueue(true);
        sending = false;
        later();
        return;
      }
      sending = false;
      if (queue.length) pump();  // taps made while the last answer was awaited
    }
    $("undo").addEventListener("click", () => enqueue("undo", "undo", {ids: ["undo"]}));
    $("line").addEventListener("submit", (ev) => { ev.preventDefault(); const input = ev.target.elements.text; if (input.value.trim()) enqueue("item", input.value.trim(), {ids: ["line-text"]}); input.value = ""; });
    $("swap").addEventListener("click", () => { if (picked.length === 2) { enqueue("item", "swap " + picked[0] + " " + picked[1], {ids: ["swap"], box: "items", texts: [...picked]}); picked = []; showPicked(); } });
    $("fix").addEventListener("submit", (ev) => {
      ev.preventDefault(); const input = ev.target.elements.text;
      if (asking) { say("Answer the question first (or Undo), then correct.", {ids: ["fix-text"]}); return; }
      if (picked.length !== 1) { say("Pick the one card to correct first.", {ids: ["fix-text"]}); return; }
      if (input.value.trim()) { enqueue("item", "fix " + picked[0] + " " + input.value.trim(), {ids: ["fix-text"], box: "items", texts: [picked[0]]}); picked = []; showPicked(); }
      input.value = "";
    });
    window.addEventListener("online", () => { if (retry) { clearTimeout(retry); retry = null; } pump(); });
    // another phone (or a script) may change the table: follow it while nothing of ours waits
    const source = new EventSource("/api/tables/" + tableId + "/events");
    source.addEventListener("state", (ev) => {
      const seen = JSON.parse(ev.data).version;
      if (!queue.length && !sending && seen !== version) refresh();
    });
    refresh().then(pump);
  }

  // ------------------------------------------------------------ the watchers
  function watcher() {
    const source = new EventSource("/api/tables/" + tableId + "/events");
    source.addEventListener("state", (ev) => {
      const state = JSON.parse(ev.data);
      showCommon(state);
      $("updated").textContent = "Version " + state.version + ", updated " + new Date().toLocaleTimeString();
      setStatus("live");
    });
    source.onerror = () => setStatus("reconnecting…", true);
  }

  // ------------------------------------------------------------ the organiser
  function organiser() {
    const token = tokenFor("diamonds-organiser");
    if (!token) { $("login").hidden = false; return; }
    const links = JSON.parse(localStorage.getItem("diamonds-links") || "{}");
    const words = (s) => s.split(/[\s,]+/).filter(Boolean);
    const today = new Date(), two = (n) => String(n).padStart(2, "0");
    $("new-table").elements.date.value = today.getFullYear() + "." + two(today.getMonth() + 1) + "." + two(today.getDate());  // as `diamonds record` dates a game
    $("new-table").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      const tags = {};
      for (const [name, tag] of [["hands", "Hands"], ["target", "Target"], ["event", "Event"], ["round", "Round"], ["date", "Date"]])
        if (f[name].value.trim()) tags[tag] = f[name].value.trim();
      const body = {rules: f.rules.value.trim(), players: words(f.players.value), dealer: f.dealer.value.trim() || null,
                    variants: words(f.variants.value), tags};
      try {
        const r = await call("POST", "/api/tables", {token, body});
        if (r.status !== 201) { $("create-error").textContent = (r.data && r.data.error ? r.data.error.message : "error " + r.status); return; }
        $("create-error").textContent = "";
        links[r.data.id] = r.data; localStorage.setItem("diamonds-links", JSON.stringify(links));
        standings();
      } catch (e) { $("create-error").textContent = "offline: the table was not created"; }
    });
    async function renew(id) {
      const r = await call("POST", "/api/tables/" + id + "/scorer-token", {token});
      if (r.status === 201) { links[id] = r.data; localStorage.setItem("diamonds-links", JSON.stringify(links)); standings(); }
    }
    async function standings() {
      let r;
      try { r = await call("GET", "/api/standings", {token}); } catch (e) { setStatus("offline", true); return; }
      setStatus("online");
      const box = $("tables"); box.replaceChildren();
      for (const t of r.data.tables) {
        const card = el("div", null, "table-card"); card.dataset.table = t.id;
        card.appendChild(el("h3", "Table " + t.seq + " · " + t.rules + " · " + t.players.join(", ")));
        card.appendChild(el("p", t.finished ? "Over: " + (t.result || "") : t.where));
        const list = el("ol", null, "scores"); showScores(list, t.standings); card.appendChild(list);
        const link = links[t.id];
        if (link) {
          const a = el("a", "Scorer's link"); a.href = link.scorer_url; a.className = "scorer-link"; card.appendChild(el("p")).appendChild(a);
          const qr = el("div", null, "qr"); showSvg(qr, link.qr_svg); card.appendChild(qr);
        }
        const w = el("a", "Watch link"); w.href = "/watch/" + t.id; card.appendChild(el("p")).appendChild(w);
        const b = el("button", link ? "New scorer link (the old one stops working)" : "Make a scorer link"); b.type = "button";
        b.addEventListener("click", () => renew(t.id)); card.appendChild(b);
        box.appendChild(card);
      }
      const league = $("players"); league.replaceChildren();
      for (const family of r.data.families) {  // a table per game: points of different games are never added
        league.appendChild(el("h3", family.title));
        const table = el("table"), head = el("tr");
        for (const h of ["Player", "Games", "Wins", "Points", "Playing now"]) head.appendChild(el("th", h));
        table.appendChild(el("thead")).appendChild(head);
        const rows = table.appendChild(el("tbody"));
        for (const p of family.players) {
          const tr = el("tr");
          for (const v of [p.player, p.games, p.wins, p.points, p.playing ? p.playing + " (" + p.running + ")" : ""]) tr.appendChild(el("td", String(v)));
          rows.appendChild(tr);
        }
        league.appendChild(table);
      }
    }
    async function download(path, name) {
      $("download-error").textContent = "";
      const r = await fetch(path, {headers: {"Authorization": "Bearer " + token}});
      if (!r.ok) { const d = await r.json().catch(() => null); $("download-error").textContent = d && d.error ? d.error.message : "error " + r.status; return; }
      const url = URL.createObjectURL(await r.blob());
      const a = el("a"); a.href = url; a.download = name; document.body.appendChild(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }
    // ---- seating the night: the proposal, and one tap for the next round's tables
    const seatForm = $("seat-night");
    seatForm.elements.date.value = $("new-table").elements.date.value;
    function showPlan(plan) {
      const box = $("plan"); box.replaceChildren();
      if (!plan) return;
      const rounds = [...plan.made.map((r) => ({...r, made: true})), ...plan.planned];
      for (const r of rounds) {
        const card = el("div", null, "table-card round-card"); card.dataset.round = r.round;
        card.appendChild(el("h3", "Round " + r.round + (r.made ? " (made)" : "")));
        const list = el("ol");
        r.tables.forEach((t, i) => list.appendChild(el("li", (r.made ? "Table " + (t.seq ?? i + 1) : "Table " + (i + 1)) + ": " + (r.made ? t.players : t).join(", "))));
        card.appendChild(list);
        if (r.sitting_out.length) card.appendChild(el("p", "Sitting out: " + r.sitting_out.join(", "), "note"));
        if (!r.made && r.round === plan.made.length + 1) {
          const b = el("button", "Make round " + r.round + "'s tables", "make-round"); b.type = "button";
          b.addEventListener("click", () => makeRound(r.round, b)); card.appendChild(b);
        }
        box.appendChild(card);
      }
    }
    async function loadPlan() {
      try { const r = await call("GET", "/api/night/seating"); showPlan(r.status === 200 && r.data.rounds ? r.data : null); } catch (e) { /* offline: kept as shown */ }
    }
    async function makeRound(number, button) {
      button.disabled = true;
      try {
        const r = await call("POST", "/api/night/rounds/" + number, {token});
        if (r.status !== 201) { $("seating-error").textContent = (r.data && r.data.error ? r.data.error.message : "error " + r.status); button.disabled = false; return; }
        $("seating-error").textContent = "";
        for (const t of r.data.tables) links[t.id] = t;
        localStorage.setItem("diamonds-links", JSON.stringify(links));
        loadPlan(); standings();
      } catch (e) { $("seating-error").textContent = "offline: the round was not made"; button.disabled = false; }
    }
    seatForm.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = ev.target.elements, tags = {};
      for (const [name, tag] of [["hands", "Hands"], ["target", "Target"], ["event", "Event"], ["date", "Date"]])
        if (f[name].value.trim()) tags[tag] = f[name].value.trim();
      const body = {rules: f.rules.value.trim(), players: words(f.players.value), rounds: Number(f.rounds.value) || 0,
                    variants: words(f.variants.value), tags};
      try {
        const r = await call("PUT", "/api/night/seating", {token, body});
        if (r.status !== 200) { $("seating-error").textContent = (r.data && r.data.error ? r.data.error.message : "error " + r.status); return; }
        $("seating-error").textContent = ""; showPlan(r.data);
      } catch (e) { $("seating-error").textContent = "offline: no seating proposed"; }
    });
    loadPlan();
    $("get-dgn").addEventListener("click", () => download("/api/night.dgn", "night.dgn"));
    $("get-parquet").addEventListener("click", () => download("/api/night.parquet.zip", "night-parquet.zip"));
    // The token is checked at once (GET /api/token): a wrong link is said now, not at the first Create.
    (async () => {
      let r;
      try { r = await call("GET", "/api/token", {token}); } catch (e) { r = null; }
      if (r && (r.status === 401 || (r.status === 200 && r.data.role !== "organiser"))) {
        localStorage.removeItem("diamonds-organiser");
        setStatus(r.status === 401 ? "wrong link" : "a scorer's link", true);
        $("login").hidden = false;
        $("login").prepend(el("p", r.status === 401 ? "This organiser's token is not this night's: " + r.data.error.message
                                                    : "This is a table's scorer link, not the organiser's.", "token-error"));
        $("create").hidden = true; $("seating").hidden = true;
        return;
      }
      standings(); setInterval(standings, 3000);
    })();
  }

  if (page === "score") scorer();
  else if (page === "watch") watcher();
  else if (page === "organiser") organiser();
})();
"""
