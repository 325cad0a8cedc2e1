/* The replay page's script: plain JavaScript, no library, no network.
   Everything it shows is in the page's data (#diamonds-data); where a jump key lands was
   decided by the terminal replay's own navigator when the page was written. The stops and
   pictures travel packed (page.py: `pack`, `pack_pictures`), with this script and the style:
   boot.js opens the pack and starts this script, which puts the pictures together once. */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("diamonds-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var stage = $("stage"), slider = $("slider"), label = $("label"), narration = $("narration");
  var gameSelect = $("game"), viewSelect = $("view"), message = $("message"), moves = $("moves");
  var gotoForm = $("goto"), gotoText = $("goto-text"), playButton = $("play"), speed = $("speed");
  var here = { game: 0, stop: 0, view: "all" };
  var unpacked = null;  /* {games: [{stops, positions}], pieces: per global stop its chunk ids, chunks} */
  var offsets = [];  /* each game's first stop in the global list of pictures */
  var timer = null;

  /* The packed stops (page.py's _stop_rows): [label, narration, seat + 1, move, note, narration_as], the
     empty tail left out (a card's move: where the narration's first line ends with it); a card's label 0: the next card of the trick, 1: the first of the next trick. */
  function expand(rows) {
    var stops = [];
    rows.forEach(function (row) {
      var label = row[0];
      if (typeof label === "number") {
        var parts = stops[stops.length - 1].label.split(".");
        label = label === 0 ? parts[0] + "." + parts[1] + "." + (Number(parts[2]) + 1)
                            : parts[0] + "." + (Number(parts[1]) + 1) + ".1";
      }
      var part = label.split(".")[1];
      var kind = label === "start" ? "start" : part === "0" ? "deal" : part === "end" ? "end" : "card";
      var move = row[3] || "";
      if (kind === "card" && !move && row[1].length) { move = row[1][0].split(" ").pop(); }  /* `Ann plays 7H` */
      stops.push({ label: label, narration: row[1], move: move, note: row[4] || "",
                   narration_as: row[5] || null, seat: row[2] ? row[2] - 1 : null, kind: kind });
    });
    return stops;
  }

  function unpack() {
    return Promise.resolve(window.diamondsPacked).then(function (inner) {  /* opened by boot.js */
      var pieces = [], before = [], fresh = 0;
      inner.pictures.edits.forEach(function (ops) {
        var after = [], at = 0;
        ops.forEach(function (op) {
          if (Array.isArray(op)) {
            op.forEach(function (value) {
              if (value === -1) { value = fresh; fresh += 1; }
              after.push(value);
            });
          } else if (op > 0) {
            for (var k = 0; k < op; k += 1) { after.push(before[at + k]); }
            at += op;
          } else {
            at -= op;
          }
        });
        pieces.push(after);
        before = after;
      });
      var start = 0;
      inner.games.forEach(function (g) {
        g.stops = expand(g.stops);
        offsets.push(start);
        start += g.stops.length;
        g.positions = positionsOf(g.stops);
        g.marks = (g.marks || []).map(function (m) {  /* page.py's _MARK_FIELDS */
          return { stop: m[0], seat: m[1], glyph: m[2], played: m[3], best: m[4], loss: m[5], low: m[6], high: m[7],
                   method: m[8] };
        });
        g.summary = g.summary || [];
        jumpsOf(g.stops).forEach(function (jumps, i) { g.stops[i].jumps = jumps; });
      });
      unpacked = { games: inner.games, pieces: pieces, chunks: inner.pictures.chunks };
    });
  }

  function picture(stopIndex) {
    var chunks = unpacked.chunks;
    return unpacked.pieces[offsets[here.game] + stopIndex].map(function (id) { return chunks[id]; }).join("");
  }

  /* Every name the go-to box accepts and its stop, as the terminal replay's find_position resolves it
     (page.py's positions_of says the same): each label; R2: the round's deal; R2.7: the last card of
     trick 7; start; end. */
  function positionsOf(list) {
    if (list.length === 0) { return {}; }
    var found = { start: 0, end: list.length - 1 }, deals = {};
    list.forEach(function (stop, index) {
      if (stop.kind === "start") { return; }
      var label = stop.label.toLowerCase(), parts = label.split(".");
      found[label] = index;
      if (stop.kind === "deal" && !deals[parts[0]]) {
        deals[parts[0]] = true;
        found[parts[0]] = index;
      } else if (!(parts[0] in found)) {
        found[parts[0]] = index;
      }
      if (stop.kind === "card") { found[parts[0] + "." + parts[1]] = index; }
    });
    return found;
  }
  window.diamondsPositions = function (gameIndex) { return unpacked && unpacked.games[gameIndex].positions; };

  function game() { return data.games[here.game]; }
  function stops() { return unpacked ? unpacked.games[here.game].stops : []; }
  function positions() { return unpacked.games[here.game].positions; }

  /* Moves: every one sets a stop index (the same keys as the terminal replay). */
  var JUMP = { next_trick: 0, previous_trick: 1, next_round: 2, previous_round: 3 };
  var ACTIONS = {
    next_step: function () { return Math.min(here.stop + 1, stops().length - 1); },
    previous_step: function () { return Math.max(here.stop - 1, 0); },
    start: function () { return 0; },
    end: function () { return stops().length - 1; }
  };
  Object.keys(JUMP).forEach(function (name) {
    ACTIONS[name] = function () { return stops()[here.stop].jumps[JUMP[name]]; };
  });

  /* Where each jump key lands from each stop: the terminal replay's Navigator (cli/replay_cmd.py),
     step for step (page.py's jumps_of says the same; the tests hold both to the Navigator). */
  function jumpsOf(list) {
    var keys = list.map(function (stop) {
      var parts = stop.label.split(".");
      var round = stop.kind === "start" ? 1 : Number(parts[0].slice(1));
      var trick = stop.kind === "card" ? Number(parts[1]) : 0;
      return { round: round, trick: trick, kind: stop.kind, key: round + "." + trick + "." + stop.kind };
    });
    var last = list.length - 1;
    var deals = [];
    keys.forEach(function (k, i) { if (k.kind === "deal") { deals.push(i); } });
    return keys.map(function (here, index) {
      var i = index;
      while (i + 1 <= last && keys[i + 1].key === here.key) { i += 1; }
      if (i > index && here.kind === "card") {
        // first to the end of the trick under way
      } else if (i + 1 <= last) {
        i += 1;
        var target = keys[i].key;
        while (i + 1 <= last && keys[i + 1].key === target && keys[i].kind === "card") { i += 1; }
      }
      var nextTrick = i;
      i = index;
      while (i > 0 && keys[i].key === here.key) { i -= 1; }
      var previousTrick = i;
      var later = deals.filter(function (d) {
        return d > index && (keys[d].round > here.round || here.kind === "start");
      });
      var nextRound = later.length ? later[0] : last;
      var before = deals.filter(function (d) { return d < index; });
      var previousRound = 0;
      if (before.length && keys[before[before.length - 1]].round === here.round && before.length > 1) {
        previousRound = before[before.length - 2];
      } else if (before.length && keys[before[before.length - 1]].round < here.round) {
        previousRound = before[before.length - 1];
      }
      return [nextTrick, previousTrick, nextRound, previousRound];
    });
  }
  window.diamondsJumps = function (gameIndex) {
    return unpacked && unpacked.games[gameIndex].stops.map(function (stop) { return stop.jumps; });
  };
  var KEYS = [
    [["ArrowRight", "n", " ", "l"], "next_step", "next step"],
    [["ArrowLeft", "p", "h"], "previous_step", "back a step"],
    [["ArrowDown", "]", "j"], "next_trick", "next trick"],
    [["ArrowUp", "[", "k"], "previous_trick", "previous trick"],
    [["PageDown", "r"], "next_round", "next round"],
    [["PageUp", "R"], "previous_round", "previous round"],
    [["Home", "0"], "start", "start"],
    [["End", "$", "G"], "end", "end"],
    [["a"], "play", "play or pause"],
    [["g"], "goto", "go to a position (R2.7, R2.7.3, R2.end, start, end)"],
    [["?"], "help", "show or hide these keys"],
    [["Escape"], "close", "leave the go-to box, close the keys"]
  ];
  var SHOWN = { "ArrowRight": "→", "ArrowLeft": "←", "ArrowDown": "↓", "ArrowUp": "↑", " ": "space",
                "PageDown": "PgDn", "PageUp": "PgUp" };
  var byKey = {};
  KEYS.forEach(function (row) { row[0].forEach(function (key) { byKey[key] = row[1]; }); });

  function fillHelp() {
    var list = document.querySelector("#help dl");
    KEYS.forEach(function (row) {
      var term = document.createElement("dt");
      term.textContent = row[0].map(function (k) { return SHOWN[k] || k; }).join(" ");
      var what = document.createElement("dd");
      what.textContent = row[2];
      list.appendChild(term);
      list.appendChild(what);
    });
  }

  function option(select, value, text) {
    var item = document.createElement("option");
    item.value = value;
    item.textContent = text;
    select.appendChild(item);
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text !== undefined) { made.textContent = text; }
    return made;
  }

  var GLYPH_CLASS = { "?!": "m1", "?": "m2", "??": "m3" };

  /* What a mark says, in words: `R1.5.2 Kofi 3D?!: loses 1.8 [1.6, 2.0]; best 5S`. */
  function markText(mark) {
    var g = game(), interval = mark.method === "est" ? " [" + mark.low.toFixed(1) + ", " + mark.high.toFixed(1) + "]"
                                                    : " (" + mark.method + ")";
    return stops()[mark.stop].label + " " + g.players[mark.seat] + " " + mark.played + mark.glyph + ": loses " +
           mark.loss.toFixed(1) + interval + "; best " + mark.best;
  }

  function marksAt() {
    var found = {};
    unpacked.games[here.game].marks.forEach(function (mark) { (found[mark.stop] = found[mark.stop] || []).push(mark); });
    return found;
  }

  function moveButton(stop, index, text, className) {
    var button = element("button", "move" + (className ? " " + className : ""), text);
    button.type = "button";
    button.dataset.stop = String(index);
    button.tabIndex = -1;
    return button;
  }

  /* The move list, as lichess's beside the board: a column per player, a row per trick (each card under its
     player, the lead underlined), a row per round's deal and end; the analysis's marks in their colours. */
  function fillMoves() {
    moves.textContent = "";
    var players = game().players, at = marksAt();
    moves.style.setProperty("--seats", String(Math.max(players.length, 1)));
    var head = element("div", "line names");
    head.appendChild(element("span", "no", ""));
    players.forEach(function (name) { head.appendChild(element("span", "name", name)); });
    moves.appendChild(head);
    var line = null, trick = null, cells = [];
    stops().forEach(function (stop, index) {
      var parts = stop.label.split(".");
      var key = stop.kind === "card" ? parts[0] + "." + parts[1] : stop.label;
      var first = key !== trick;
      if (first) {
        trick = key;
        line = element("div", "line " + stop.kind);
        var number = stop.kind === "card" ? parts[1] + "." : (stop.kind === "deal" ? parts[0] : "");
        if (stop.kind === "card" && parts[1] === "1") { number = parts[0] + " " + number; }
        line.appendChild(element("span", "no", number));
        cells = [];
        if (stop.kind === "card") {
          players.forEach(function () { cells.push(line.appendChild(element("span", "cell"))); });
        } else {
          cells = [line.appendChild(element("span", "cell wide"))];
        }
        moves.appendChild(line);
      }
      var mine = at[index] || [], glyph = "";
      mine.forEach(function (mark) {
        if (stop.kind === "card" && stop.seat === mark.seat && stop.move.indexOf(mark.played) === 0) { glyph = mark.glyph; }
      });
      var button = moveButton(stop, index, stop.move || stop.label, glyph ? GLYPH_CLASS[glyph] : "");
      var title = stop.label + ": " + stop.narration.join("; ");
      if (stop.note) { title += " {" + stop.note + "}"; button.classList.add("noted"); }
      mine.forEach(function (mark) { title += "\n" + mark.glyph + " " + markText(mark); });
      if (stop.kind === "card" && stop.narration.length > 1) { button.classList.add("acted"); }  /* won, scored */
      if (stop.kind === "card" && first) { button.classList.add("lead"); }
      button.title = title;
      button.setAttribute("aria-label", stop.label + " " + (stop.move || "") + (glyph ? " " + glyph : ""));
      var cell = stop.kind === "card" && stop.seat !== null && cells[stop.seat] ? cells[stop.seat] : cells[0];
      cell.appendChild(button);
      /* a mark on another decision of this stop (a pass, a bid, a victim, an award): a button of its own */
      mine.forEach(function (mark) {
        if (stop.kind === "card" && stop.seat === mark.seat && stop.move.indexOf(mark.played) === 0) { return; }
        var other = moveButton(stop, index, players[mark.seat] + " " + mark.played + mark.glyph,
                               "decision " + GLYPH_CLASS[mark.glyph]);
        other.title = markText(mark);
        (stop.kind === "card" && cells[mark.seat] ? cells[mark.seat] : cells[0]).appendChild(other);
      });
    });
  }

  /* The analysis's summary (from the annotated record's comments): a row per player, and every mark as a link
     to its position. */
  function fillAnalysis(index) {
    var g = unpacked.games[index], body = document.querySelector("#analysis tbody");
    var list = document.querySelector("#analysis .marks");
    body.textContent = "";
    list.textContent = "";
    $("analysis").hidden = g.marks.length === 0 && g.summary.length === 0;
    g.summary.forEach(function (row) {  /* page.py's _PLAYER_FIELDS */
      var tr = element("tr");
      [row[0], String(row[1]), String(row[2]), String(row[3]), String(row[4]), row[5].toFixed(2),
       row[6].toFixed(1) + "%"].forEach(function (text, i) { tr.appendChild(element(i ? "td" : "th", "", text)); });
      body.appendChild(tr);
    });
    data.games[index].players.forEach(function (name, seat) {
      var own = g.marks.filter(function (mark) { return mark.seat === seat; });
      if (own.length === 0) { return; }
      var para = element("p", "player-marks");
      para.appendChild(element("span", "who", name + ":"));
      own.forEach(function (mark) {
        var link = element("a", GLYPH_CLASS[mark.glyph], g.stops[mark.stop].label + " " + mark.played + mark.glyph);
        link.href = "#g" + (index + 1) + "/" + g.stops[mark.stop].label;
        link.title = markText(mark);
        para.appendChild(link);
      });
      list.appendChild(para);
    });
  }

  function showGame(index, stopIndex, quiet) {
    stopPlaying();
    here.game = index;
    here.view = "all";
    var g = game();
    gameSelect.value = String(index);
    $("about").textContent = g.about;
    viewSelect.textContent = "";
    if (g.as_player === null) {
      option(viewSelect, "all", "everyone (all cards)");
      g.players.forEach(function (name, seat) { option(viewSelect, String(seat), "as " + name); });
      $("view-choice").hidden = g.count === 0;
      $("view-fixed").textContent = "";
    } else {
      $("view-choice").hidden = true;
      $("view-fixed").textContent = "Perspective: " + g.players[g.as_player] + " (only what they may see is in this file)";
    }
    var notes = document.querySelector("#notes .list");
    notes.textContent = "";
    g.notes.forEach(function (note) { notes.appendChild(element("pre", "", note)); });
    $("notes").hidden = g.notes.length === 0;
    var body = document.querySelector("#scores tbody");
    body.textContent = "";
    g.scores.forEach(function (s) {
      var row = element("tr", s.winner ? "winner" : "");
      [s.side, String(s.score), s.winner ? "wins" : ""].forEach(function (text, i) {
        row.appendChild(element("td", i === 1 ? "score" : "", text));
      });
      body.appendChild(row);
    });
    var chart = unpacked.games[index].chart, losses = unpacked.games[index].loss || "";
    $("chart").innerHTML = chart;  /* drawn (and escaped) by page.py */
    $("chart-box").hidden = !chart;
    $("loss").innerHTML = losses;  /* drawn (and escaped) by page.py */
    $("loss-box").hidden = !losses;
    fillAnalysis(index);
    slider.max = String(Math.max(g.count - 1, 0));
    slider.disabled = g.count === 0;
    stage.dataset.game = String(index);
    fillMoves();
    show(stopIndex || 0, quiet ? "none" : "replace");
  }

  /* Show a stop; `history` says what the address does: "push" (a move of the reader's: back returns),
     "replace" (autoplay, the slider), "none" (arriving from the address itself). */
  function show(index, history) {
    var list = stops();
    if (list.length === 0) {
      stage.textContent = "";
      label.textContent = unpacked ? "nothing to replay" : "unpacking…";
      narration.textContent = "";
      $("scores").hidden = true;
      $("unfinished").hidden = true;
      return;
    }
    here.stop = Math.max(0, Math.min(index, list.length - 1));
    var stop = list[here.stop];
    stage.innerHTML = picture(here.stop);
    var shown = stage.querySelector("svg");  /* its name: where it is (the picture does not say it: page.py) */
    if (shown) { shown.setAttribute("aria-label", game().title + ": " + stop.label); }
    stage.dataset.stop = String(here.stop);
    stage.dataset.view = here.view;
    slider.value = String(here.stop);
    label.textContent = stop.label + " · " + (here.stop + 1) + "/" + list.length;
    var lines = stop.narration;
    if (here.view !== "all" && stop.narration_as && stop.narration_as[Number(here.view)]) {
      lines = stop.narration_as[Number(here.view)];
    }
    narration.textContent = "";
    lines.forEach(function (line) { narration.appendChild(element("li", "", line)); });
    var last = here.stop === list.length - 1;
    $("scores").hidden = !(last && game().scores.length > 0);
    $("unfinished").hidden = !(last && game().scores.length === 0);
    var current = moves.querySelector("[aria-current]");
    if (current) { current.removeAttribute("aria-current"); current.tabIndex = -1; }
    var mine = moves.querySelector('[data-stop="' + here.stop + '"]');
    if (mine) {
      mine.setAttribute("aria-current", "step");
      mine.tabIndex = 0;
      var box = moves.getBoundingClientRect(), at = mine.getBoundingClientRect();
      if (at.top < box.top || at.bottom > box.bottom) { moves.scrollTop += at.top - box.top - box.height / 2; }
    }
    document.querySelectorAll(".plot .marker").forEach(function (marker) {
      var svg = marker.ownerSVGElement;
      var x0 = Number(svg.dataset.x0), x1 = Number(svg.dataset.x1);
      var x = x0 + (x1 - x0) * here.stop / Math.max(list.length - 1, 1);
      marker.setAttribute("x1", String(x));
      marker.setAttribute("x2", String(x));
    });
    address(history || "push");
  }

  function hashOf() { return "#g" + (here.game + 1) + "/" + stops()[here.stop].label; }

  function address(how) {
    if (how === "none" || !unpacked || stops().length === 0) { return; }
    var wanted = hashOf();
    if (location.hash === wanted) { return; }
    if (how === "push") {
      location.hash = wanted;
    } else {
      window.history.replaceState(null, "", wanted);
    }
  }

  /* Why a position is not in this game, in the terminal replay's words. */
  function whyNot(text) {
    var match = /^r(\d+)(?:\.(end|\d+)(?:\.(\d+))?)?$/i.exec(text);
    if (!match) {
      return '"' + text + '" is not a position (try R2.7, R2.7.3, R2.0, R2.end, start or end)';
    }
    if (match[3] && (match[2].toLowerCase() === "end" || match[2] === "0")) {
      return '"' + text + '" is not a position: a card is counted within a trick, as in R' + match[1] + ".1." +
        match[3] + " (card " + match[3] + " of trick 1)";
    }
    var labels = stops().map(function (s) { return s.label.toLowerCase(); });
    var round = "r" + match[1];
    var inRound = labels.filter(function (l) { return l.split(".")[0] === round; });
    if (inRound.length === 0) { return "round " + match[1] + " is not in this game"; }
    if (match[2] && match[2].toLowerCase() === "end") {
      return "round " + match[1] + " does not reach its end in this record";
    }
    var inTrick = inRound.filter(function (l) { return l.split(".")[1] === match[2] && l.split(".").length === 3; });
    if (inTrick.length === 0) { return "trick " + match[2] + " of round " + match[1] + " is not in this game"; }
    var trick = "R" + match[1] + "." + Number(match[2]) + ".";
    return "trick " + match[2] + " of round " + match[1] + " has " + inTrick.length +
      (inTrick.length === 1 ? " card, " : " cards, ") + trick + "1 to " + trick + inTrick.length +
      ": there is no card " + match[3];
  }

  function goTo(text, history) {
    var wanted = text.trim().toLowerCase();
    var index = positions()[wanted];
    if (index === undefined) {
      message.textContent = whyNot(text.trim());
      return false;
    }
    message.textContent = "";
    show(index, history);
    return true;
  }

  /* `#g2/R3.5`: the game (from 1) and a position; unknown ones are said, not ignored. */
  function fromAddress() {
    var hash = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (!hash || !unpacked) { return false; }
    var match = /^g(\d+)(?:\/(.*))?$/i.exec(hash);
    if (!match) { message.textContent = '"#' + hash + '" is not a place on this page (try #g1/R2.7)'; return false; }
    var number = Number(match[1]);
    if (number < 1 || number > data.games.length) {
      message.textContent = "game " + number + " is not on this page (it has " + data.games.length + ")";
      return false;
    }
    if (number - 1 !== here.game) { showGame(number - 1, 0, true); }
    if (match[2]) {
      goTo(match[2], "none");
    } else {
      show(0, "none");
    }
    return true;
  }

  function startPlaying() {
    if (stops().length === 0) { return; }
    if (here.stop === stops().length - 1) { show(0, "replace"); }
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-pressed", "true");
    timer = window.setInterval(function () {
      if (here.stop >= stops().length - 1) { stopPlaying(); return; }
      show(here.stop + 1, "replace");
    }, Number(speed.value));
  }

  function stopPlaying() {
    if (timer !== null) { window.clearInterval(timer); timer = null; }
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
  }

  function act(name) {
    message.textContent = "";
    if (name === "goto") {
      gotoText.value = "";
      gotoText.focus();
    } else if (name === "help") {
      $("help").open = !$("help").open;
    } else if (name === "close") {
      gotoText.blur();
      $("help").open = false;
    } else if (name === "play") {
      if (timer === null) { startPlaying(); } else { stopPlaying(); }
    } else if (stops().length > 0) {
      stopPlaying();
      show(ACTIONS[name](), "push");
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target === gotoText) {
      if (event.key === "Escape") { gotoText.blur(); event.preventDefault(); }
      return;
    }
    if (target && target.tagName === "SELECT" && event.key.indexOf("Arrow") === 0) { return; }
    if (target && target.tagName === "BUTTON" && (event.key === " " || event.key === "Enter")) { return; }
    if (target && target.tagName === "INPUT" && target.type === "range" && event.key.indexOf("Arrow") === 0) {
      return;
    }
    var name = byKey[event.key];
    if (name === undefined) { return; }
    event.preventDefault();
    act(name);
  });
  gotoForm.addEventListener("submit", function (event) {
    event.preventDefault();
    stopPlaying();
    goTo(gotoText.value, "push");
    gotoText.blur();  /* the keys move the game again; a problem stays in #message (an alert) */
  });
  document.querySelectorAll("#controls button").forEach(function (button) {
    button.addEventListener("click", function () { act(button.dataset.action); });
  });
  playButton.addEventListener("click", function () { act("play"); });
  speed.addEventListener("change", function () { if (timer !== null) { stopPlaying(); startPlaying(); } });
  moves.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-stop]");
    if (!button) { return; }
    stopPlaying();
    message.textContent = "";
    show(Number(button.dataset.stop), "push");
  });
  /* On a phone: swipe the picture left for the next step, right for the one before. */
  var touchStart = null;
  stage.addEventListener("touchstart", function (event) {
    touchStart = event.changedTouches.length === 1 ? event.changedTouches[0] : null;
  }, { passive: true });
  stage.addEventListener("touchend", function (event) {
    if (touchStart === null || event.changedTouches.length !== 1) { return; }
    var dx = event.changedTouches[0].clientX - touchStart.clientX;
    var dy = event.changedTouches[0].clientY - touchStart.clientY;
    touchStart = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) { act(dx < 0 ? "next_step" : "previous_step"); }
  });
  slider.addEventListener("input", function () { stopPlaying(); show(Number(slider.value), "replace"); });
  gameSelect.addEventListener("change", function () {
    showGame(Number(gameSelect.value), 0, true);
    address("push");
    gameSelect.blur();
  });
  viewSelect.addEventListener("change", function () {
    here.view = viewSelect.value;
    show(here.stop, "none");
    viewSelect.blur();
  });
  window.addEventListener("hashchange", function () {
    if (unpacked && stops().length && location.hash === hashOf()) { return; }
    stopPlaying();
    fromAddress();
  });

  data.games.forEach(function (g, i) { option(gameSelect, String(i), (i + 1) + ". " + g.title); });
  $("game-choice").hidden = data.games.length < 2;
  fillHelp();
  stage.dataset.ready = "no";
  here.game = Math.min(data.start_game, data.games.length - 1);
  stage.textContent = "unpacking the game…";
  unpack().then(function () {
    stage.textContent = "";
    showGame(here.game, 0, true);
    if (!fromAddress()) { address("replace"); }
    stage.dataset.ready = "yes";
  }, function (error) {
    message.textContent = error.message;
  });
}());
