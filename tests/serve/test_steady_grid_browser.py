"""The card grid stays put between taps (issue 31: every item a tap, on a phone): headless Chromium as a
360 x 740 phone against a real `diamonds serve` taps whole tricks of a round without deal lines, and after
every tap the grid's top is where it was, on the screen and in the page.

Within a round, what is above the grid changes at every card: the where line grows with the trick so far
(a bga trick of five cards: one line, then two, then three at 360 px), the trick line comes with a trick's
first card and goes with its last, and in the bidding game an ace brings the button that makes it low and
a Joker the question of its suit and sign (B7). A scorer tapping fast taps where the next card was; had the
grid moved, the tap lands on another card. So the page is scrolled once, as a scorer does, and each card,
sign button and answer is tapped where it is drawn, without scrolling; then the grid's top on the screen
and in the page (the screen's top plus the scroll, which a browser's scroll anchoring may adjust, or not)
are compared with the first. Every wait is for the page's answer (its redraws counted), never a time. Screenshots go to
DIAMONDS_SCREENSHOTS when it is set."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from chromium import phone as phone_browser
from chromium import require, screenshot, wait_until
from servehelp import Scorer, Server, game_items

pytest.importorskip("fastapi")
pytestmark = [pytest.mark.browser, pytest.mark.process]

WIDTH, HEIGHT = 360, 740
CARD = re.compile(r"^(Jo|\d+[DHSC]|[2-9TJQKA][DHSC]|10[DHSC])")  # a card word without its marks

#: Counts the page's redraws of the card grid (each answer drawn redraws it).
_COUNT_RENDERS = """window.gridRenders = 0;
new MutationObserver(() => { window.gridRenders += 1; }).observe(document.getElementById("grid"), {childList: true});"""

#: The page once it has drawn an answer after redraw number `arguments[0]` with no tap waiting, else null.
_SETTLED = """const $ = (id) => document.getElementById(id);
if (!(window.gridRenders > arguments[0] && $("queue").hidden)) return null;
return {refusal: $("refusal").textContent, question: !$("question").hidden, trick: $("trick").textContent};"""

#: The grid's top on the screen and in the page (CSS px), and the where line.
_WHERE = """const box = document.getElementById("grid").getBoundingClientRect();
return {top: box.top, page: box.top + scrollY, where: document.getElementById("where").textContent};"""

#: The centre of the element `FIND` returns (CSS px, on the screen), whether it is on the screen and a tap there
#: reaches it (nothing drawn over it), and the grid's redraws so far.
_AIM = """const target = (function () { FIND }).apply(null, arguments);
if (!target) return null;
const r = target.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
const top = document.elementFromPoint(x, y);
return {x, y, shown: r.top >= 0 && r.bottom <= innerHeight, hit: !!top && (top === target || target.contains(top)),
        renders: window.gridRenders};"""


def _tap(phone: Any, find: str, *args: str) -> dict[str, Any]:
    """Tap what `find` returns where it is drawn (on the screen, nothing over it: no scrolling), then wait
    until the page has drawn the answer; what it drew."""
    aim = phone.execute_script(_AIM.replace("FIND", find), *args)
    assert aim and aim["shown"] and aim["hit"], (find, args, aim)
    for kind in ("mousePressed", "mouseReleased"):  # the browser's own input at that point
        phone.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": kind, "x": aim["x"], "y": aim["y"], "button": "left", "clickCount": 1})
    drawn = wait_until(lambda: phone.execute_script(_SETTLED, aim["renders"]))
    assert drawn and not drawn["refusal"], (args, drawn)
    return dict(drawn)


def _tap_item(phone: Any, item: str, rules: str, answered: Any) -> str | None:
    """Tap a card of the round (`AH-`, `JoC+`: its card), then what it brings: an ace's other sign (a sign
    button) or a Joker's suit and sign (the question's choice), B7. `answered(tapped, drawn)` after each tap;
    which of the two it brought, if either."""
    card = CARD.match(item).group(1)  # type: ignore[union-attr]
    answered(card, _tap(phone, 'return document.querySelector(`#grid button[data-card="${arguments[0]}"]`)', card))
    aside = None
    if item[len(card):]:  # a Joker's suit and sign (the question's), or an ace made low (a sign button)
        asked = phone.execute_script("return !document.getElementById('question').hidden")
        aside = "question" if asked else "sign"
        screenshot(phone, f"steady-{rules}-{aside}")
        answer = item[len(card):] if asked else item
        answered(answer, _tap(phone, "return [...document.querySelectorAll(arguments[0])].find((b) => b.dataset.text === "
                                     "arguments[1] || b.dataset.text.endsWith(' ' + arguments[1]))",
                              "#choices button" if asked else "#signs button", answer))
    assert phone.execute_script("return document.getElementById('question').hidden"), item
    return aside


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    require()
    with phone_browser(WIDTH, HEIGHT) as browser:
        yield browser


def _round_lines_then_items(rules: str, count: int, seed: int) -> tuple[Any, list[str], list[str]]:
    """A simulated game without deal lines: its first round's lines before the cards (the dealer's count and
    pass lines, R6; bids, takes and final bids, B3-B5) and that round's cards, as written (`AH-`, `JoC+`)."""
    game, _, items = game_items(rules, count, seed, deals=False)
    first = next(at for at, item in enumerate(items) if " " not in item)
    header = items[0].split()  # `R1 dealer Dan pass 1`: its count is a line of its own (`pass 1`)
    return game, [" ".join(header[3:5])] * (len(header) > 3) + items[1:first], items[first:]


#: (rules, players, seed, tricks tapped). bga with five: two tricks of five cards, nothing asked. The bidding
#: game (seed 1): `QH AH- 9H`, `JC 9C AC-`, `8C QC JoC+`: two aces made low by the sign button offered
#: after them (B7) and a Joker's suit and sign asked (B7), both offered, answered and gone within the round.
GAMES = [("bga", 5, 11, 2), ("bidding", 3, 1, 3)]


@pytest.mark.parametrize("rules, count, seed, tricks", GAMES, ids=[g[0] for g in GAMES])
def test_the_grid_stays_put_between_taps_within_a_round(server: Server, phone: Any, rules: str, count: int,
                                                        seed: int, tricks: int) -> None:
    from selenium.webdriver.common.by import By

    game, lines, items = _round_lines_then_items(rules, count, seed)
    table = server.create(game=game)
    api = Scorer(server.base, table)
    for line in lines:  # the round's lines (the set-up: the taps measured are the round's cards)
        assert api.post(line).status_code == 200, line
    seen, asides = [], Counter[str]()
    try:
        phone.get(table["scorer_url"])
        assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#grid button"))
        assert phone.execute_script("return [innerWidth, innerHeight]") == [WIDTH, HEIGHT]
        phone.execute_script(_COUNT_RENDERS)
        # scrolled once, as a scorer does: the grid near the screen's top, Undo below it on the screen
        phone.execute_script("scrollTo(0, document.getElementById('grid').getBoundingClientRect().top + scrollY - 100)")
        first = phone.execute_script(_WHERE, None)
        screenshot(phone, f"steady-{rules}")

        def answered(tapped: str, drawn: dict[str, Any]) -> None:
            seen.append(phone.execute_script(_WHERE, None) | {"tap": tapped, "trick": drawn["trick"]})

        for item in items[:tricks * game.config.plays_per_trick]:
            aside = _tap_item(phone, item, rules, answered)
            if aside:
                asides[aside] += 1
    finally:
        phone.get("about:blank")  # the page's live stream ends here, not with the module's server
    assert rules != "bidding" or asides == {"question": 1, "sign": 2}, asides
    assert len(seen) == tricks * game.config.plays_per_trick + sum(asides.values())  # every tap answered
    assert any(s["trick"] for s in seen) and not seen[-1]["trick"]  # the trick line came and went
    moved = [(s["tap"], round(s["top"], 1), round(s["page"], 1)) for s in seen
             if abs(s["top"] - first["top"]) > 0.5 or abs(s["page"] - first["page"]) > 0.5]
    assert not moved, (round(first["top"], 1), round(first["page"], 1), moved)


#: Each element showing the where line's words (class `where`): its box on the screen, its words, its type
#: size, whether its words overflow it (then an ellipsis ends them), and the box in it of the first of
#: `arguments[0]` (the ways of saying the due player's turn) found in its text; and, where it lies over the
#: grid's first card, whether a tap there (the card's centre across, the line's middle down) reaches the card
#: rather than stop at the line (`through`; null where it lies over no card).
_WHERE_LINES = """const first = document.querySelector("#grid button");
return [...document.querySelectorAll(".where")].map((line) => {
  const box = line.getBoundingClientRect(), text = line.textContent;
  const words = arguments[0].find((w) => text.includes(w)) || "", at = words ? text.indexOf(words) : -1;
  let named = null;
  if (at >= 0 && line.firstChild) {
    const range = document.createRange();
    range.setStart(line.firstChild, at); range.setEnd(line.firstChild, at + words.length);
    const r = range.getBoundingClientRect();
    named = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  }
  const card = first.getBoundingClientRect(), x = (card.left + card.right) / 2, y = (box.top + box.bottom) / 2;
  const under = document.elementFromPoint(x, y);
  return {id: line.id, text, top: box.top, bottom: box.bottom, left: box.left, right: box.right, named,
          size: parseFloat(getComputedStyle(line).fontSize), clipped: line.scrollWidth > line.clientWidth,
          through: y >= card.top && y <= card.bottom ? under === first : null};
});"""

#: Scroll the page so that the grid's top is `arguments[0]` CSS px below the screen's top; the grid's top then,
#: and the height of its first row.
_GRID_AT = """const grid = document.getElementById("grid");
scrollTo(0, grid.getBoundingClientRect().top + scrollY - arguments[0]);
return {top: grid.getBoundingClientRect().top, row: grid.querySelector("button").getBoundingClientRect().height};"""


def _card_players(game: Any) -> list[tuple[str, bool]]:
    """Who played each card of the simulated game, in order, and whether it led its trick: from the game's own
    events (the family's marks), not from the page or the server's words."""
    from diamonds.core import family_of

    marks = family_of(game.config.rules).part("marks")
    plays = [mark for events in game.events for event in events if (mark := marks.card_played(event))]
    return [(game.config.players[seat], leads) for _, leads, seat in plays]


@pytest.mark.parametrize("rules, count, seed, tricks", GAMES, ids=[g[0] for g in GAMES])
def test_the_due_player_is_named_in_view_of_the_grid(server: Server, phone: Any, rules: str, count: int,
                                                     seed: int, tricks: int) -> None:
    """Issue 31: a scorer tapping cards sees whose card is due. At 360 x 740, with the grid's first row scrolled
    into view anywhere from the screen's top to its bottom, an element showing the where line's words (all of
    them the same words) is wholly on the screen and names the player who plays the next card (`Eve to play`,
    and a trick's leader `Dan leads`: the recorder's words, or the page's where the recorder cannot tell), in
    type of 12 px or more and before any ellipsis. The player is the simulated game's own,
    checked before the first card and after each card tapped, so across the change of leader from one trick
    to the next (bga: Dan leads trick 1, Bob trick 2; the bidding game: Bob leads three tricks, then Ann).
    Where that line covers the grid's first row (the grid's top at the screen's top), a tap there reaches
    the card. The where line above the picture alone fails this: it is off the screen."""
    from selenium.webdriver.common.by import By

    game, lines, items = _round_lines_then_items(rules, count, seed)
    played = _card_players(game)
    cards = tricks * game.config.plays_per_trick
    leaders = [name for name, leads in played[:cards + 1] if leads]
    assert len(set(leaders)) > 1, leaders  # the test crosses a change of the trick's leader
    table = server.create(game=game)
    api = Scorer(server.base, table)
    for line in lines:
        assert api.post(line).status_code == 200, line
    checked: list[list[str]] = []
    try:
        phone.get(table["scorer_url"])
        assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#grid button"))
        phone.execute_script(_COUNT_RENDERS)

        def check(done: int) -> None:
            """The player of card `done + 1` is named in view, wherever the grid's first row is on the screen."""
            name, leads = played[done]
            words = [f"{name} leads"] if leads else [f"{name} to play"]
            for correcting, at in ((False, 0), (False, 100), (False, HEIGHT), (True, 0)):
                # the page as it is, scrolled as far up as it goes, as a scorer holds it, with the first row at
                # the screen's bottom; and with `Correct an earlier card` open, whose length lets the grid's top
                # reach the screen's top, where the line stands over the first row
                phone.execute_script("document.getElementById('correct').open = arguments[0]", correcting)
                row = phone.execute_script(_GRID_AT, 0)["row"]
                grid = phone.execute_script(_GRID_AT, min(at, HEIGHT - row))
                assert -1 < grid["top"] and grid["top"] + row < HEIGHT + 1, (at, grid)  # the first row in view
                assert not correcting or abs(grid["top"]) < 1, grid
                shown = phone.execute_script(_WHERE_LINES, words)
                assert len({line["text"] for line in shown}) == 1, shown  # one set of words, repeated
                named = [line for line in shown if line["named"] and line["top"] >= 0 and line["bottom"] <= HEIGHT
                         and 0 <= line["named"]["left"] and line["named"]["right"] <= WIDTH
                         and line["named"]["right"] <= line["right"] - (line["size"] if line["clipped"] else 0)
                         and line["size"] >= 12]
                assert named, (done, words, shown[0]["text"], correcting, at, grid, shown)
                for line in named:  # over no card, or letting a tap through to the card beneath
                    assert line["bottom"] <= grid["top"] + 0.5 or line["through"], (correcting, at, grid, line)
                if at != HEIGHT:
                    screenshot(phone, f"where-at-grid-{rules}-{done}-{'correcting' if correcting else at}")
            phone.execute_script("document.getElementById('correct').open = false")
            checked.append(words)

        check(0)
        phone.execute_script(_GRID_AT, 100)
        for done, item in enumerate(items[:cards], start=1):
            _tap_item(phone, item, rules, lambda tapped, drawn: None)
            check(done)
            phone.execute_script(_GRID_AT, 100)
    finally:
        phone.get("about:blank")
    assert len(checked) == cards + 1 and len({words[0] for words in checked}) > 1, checked
