/* The replay page's script: plain JavaScript, no library, no network.
   Everything it shows is in the page's data (#diamonds-data); where a jump key lands was
   decided by the terminal replay's own navigator when the page was written. */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("diamonds-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var stage = $("stage"), slider = $("slider"), label = $("label"), narration = $("narration");
  var gameSelect = $("game"), viewSelect = $("view"), message = $("message");
  var gotoForm = $("goto"), gotoText = $("goto-text");
  var here = { game: 0, stop: 0, view: "all" };
  var pictures = {};  /* game index -> its stops' SVG text, once unpacked */

  /* The pictures travel gzipped (see page.py, pack_pictures); the browser unpacks them itself. */
  function unpack(index) {
    if (pictures[index]) { return Promise.resolve(pictures[index]); }
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot unpack the pictures (it needs DecompressionStream: " +
                                      "Chrome 80, Safari 16.4, Firefox 113 or later); the narration works"));
    }
    var text = atob(data.games[index].pictures);
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i += 1) { bytes[i] = text.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(function (json) {
      pictures[index] = JSON.parse(json);
      return pictures[index];
    });
  }

  function game() { return data.games[here.game]; }
  function stops() { return game().stops; }

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
  var KEYS = [
    [["ArrowRight", "n", " ", "l"], "next_step", "next step"],
    [["ArrowLeft", "p", "h"], "previous_step", "back a step"],
    [["ArrowDown", "]", "j"], "next_trick", "next trick"],
    [["ArrowUp", "[", "k"], "previous_trick", "previous trick"],
    [["PageDown", "r"], "next_round", "next round"],
    [["PageUp", "R"], "previous_round", "previous round"],
    [["Home", "0"], "start", "start"],
    [["End", "$", "G"], "end", "end"],
    [["g"], "goto", "go to a position (R2.7, R2.7.3, R2.end, start, end)"],
    [["?"], "help", "show or hide these keys"],
    [["Escape"], "close", "close the go-to box and the keys"]
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

  function showGame(index) {
    here.game = index;
    here.view = "all";
    var g = game();
    gameSelect.value = String(index);
    $("about").textContent = g.about;
    viewSelect.textContent = "";
    if (g.as_player === null) {
      option(viewSelect, "all", "everyone (all cards)");
      g.players.forEach(function (name, seat) { option(viewSelect, String(seat), "as " + name); });
      $("view-choice").hidden = g.stops.length === 0;
      $("view-fixed").textContent = "";
    } else {
      $("view-choice").hidden = true;
      $("view-fixed").textContent = "Perspective: " + g.players[g.as_player] + " (only what they may see is in this file)";
    }
    var notes = document.querySelector("#notes .list");
    notes.textContent = "";
    g.notes.forEach(function (note) {
      var pre = document.createElement("pre");
      pre.textContent = note;
      notes.appendChild(pre);
    });
    $("notes").hidden = g.notes.length === 0;
    var body = document.querySelector("#scores tbody");
    body.textContent = "";
    g.scores.forEach(function (s) {
      var row = document.createElement("tr");
      row.className = s.winner ? "winner" : "";
      [s.side, String(s.score), s.winner ? "wins" : ""].forEach(function (text, i) {
        var cell = document.createElement("td");
        cell.textContent = text;
        if (i === 1) { cell.className = "score"; }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    slider.max = String(Math.max(g.stops.length - 1, 0));
    slider.disabled = g.stops.length === 0;
    stage.dataset.game = String(index);
    stage.dataset.ready = "no";
    show(0);
    unpack(index).then(function () {
      if (here.game === index) {
        stage.dataset.ready = "yes";
        show(here.stop);
      }
    }, function (error) {
      message.textContent = error.message;
    });
  }

  function show(index) {
    var list = stops();
    if (list.length === 0) {
      stage.textContent = "";
      label.textContent = "nothing to replay";
      narration.textContent = "";
      $("scores").hidden = true;
      $("unfinished").hidden = true;
      return;
    }
    here.stop = Math.max(0, Math.min(index, list.length - 1));
    var stop = list[here.stop];
    var drawn = pictures[here.game];
    if (drawn) {
      stage.innerHTML = drawn[here.stop];
    } else {
      stage.textContent = "unpacking the pictures…";
    }
    stage.dataset.stop = String(here.stop);
    stage.dataset.view = here.view;
    slider.value = String(here.stop);
    label.textContent = stop.label + " · " + (here.stop + 1) + "/" + list.length;
    var lines = stop.narration;
    if (here.view !== "all" && stop.narration_as && stop.narration_as[Number(here.view)]) {
      lines = stop.narration_as[Number(here.view)];
    }
    narration.textContent = "";
    lines.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      narration.appendChild(item);
    });
    var last = here.stop === list.length - 1;
    $("scores").hidden = !(last && game().scores.length > 0);
    $("unfinished").hidden = !(last && game().scores.length === 0);
  }

  function act(name) {
    message.textContent = "";
    if (name === "goto") {
      gotoForm.hidden = false;
      gotoText.value = "";
      gotoText.focus();
    } else if (name === "help") {
      $("help").open = !$("help").open;
    } else if (name === "close") {
      gotoForm.hidden = true;
      $("help").open = false;
    } else if (stops().length > 0) {
      show(ACTIONS[name]());
    }
  }

  function goTo(text) {
    var wanted = text.trim().toLowerCase();
    var index = game().positions[wanted];
    if (index === undefined) {
      message.textContent = '"' + text.trim() + '" is not a position of this game (try R2.7, R2.7.3, R2.0, R2.end, start or end)';
    } else {
      show(index);
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target === gotoText) {
      if (event.key === "Escape") { gotoForm.hidden = true; gotoText.blur(); event.preventDefault(); }
      return;
    }
    if (target && target.tagName === "SELECT" && event.key.indexOf("Arrow") === 0) { return; }
    var name = byKey[event.key];
    if (name === undefined) { return; }
    event.preventDefault();
    act(name);
  });
  gotoForm.addEventListener("submit", function (event) {
    event.preventDefault();
    gotoForm.hidden = true;
    goTo(gotoText.value);
    gotoText.blur();
  });
  document.querySelectorAll("#controls button").forEach(function (button) {
    button.addEventListener("click", function () { act(button.dataset.action); });
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
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  gameSelect.addEventListener("change", function () { showGame(Number(gameSelect.value)); gameSelect.blur(); });
  viewSelect.addEventListener("change", function () {
    here.view = viewSelect.value;
    show(here.stop);
    viewSelect.blur();
  });

  data.games.forEach(function (g, i) { option(gameSelect, String(i), (i + 1) + ". " + g.title); });
  $("game-choice").hidden = data.games.length < 2;
  fillHelp();
  showGame(Math.min(data.start_game, data.games.length - 1));
}());
