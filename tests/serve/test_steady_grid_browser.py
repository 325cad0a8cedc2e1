"""The card grid stays put between taps (issue 31: every item a tap, on a phone): headless Chromium as a
360 x 740 phone against a real `diamonds serve` taps two whole tricks of a five-player bga game without
deal lines, and after every tap the grid's top is where it was, on the page and on the screen.

The lines above the grid change at every card: the `where` line grows with the trick so far (R8's trick of
five cards: one line, then two, then three at 360 px) and the trick line comes with the first card of a
trick and goes with its last. A scorer tapping fast taps where the next card was; had the grid moved, the
tap lands on another card. So the page is scrolled once, as a scorer does, and each card is tapped where it
is drawn, without scrolling; then both the grid's top on the screen and its top in the page (the screen's
top plus the scroll, which a browser's scroll anchoring may adjust and Safari's does not) are compared
with the first. Every wait is for the page's answer (its redraws counted), none for a number of seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from chromium import chromium, require, wait_until
from servehelp import Scorer, Server, game_items

pytest.importorskip("fastapi")
pytestmark = [pytest.mark.browser, pytest.mark.process]

WIDTH, HEIGHT = 360, 740
TRICKS = 2  # two whole tricks: each trick's first card brings the trick line, its last takes it away

#: Counts the page's redraws of the card grid (each answer drawn redraws it).
_COUNT_RENDERS = """window.gridRenders = 0;
new MutationObserver(() => { window.gridRenders += 1; }).observe(document.getElementById("grid"), {childList: true});"""

#: The page once it has drawn an answer after redraw number `arguments[0]` with no tap waiting, else null.
_SETTLED = """const $ = (id) => document.getElementById(id);
if (!(window.gridRenders > arguments[0] && $("queue").hidden)) return null;
return {refusal: $("refusal").textContent, question: !$("question").hidden, trick: $("trick").textContent};"""

#: The grid's top on the screen and in the page, the scroll, and the card `arguments[0]`'s centre on the
#: screen with whether a tap there reaches it (nothing drawn over it), all in CSS px.
_WHERE = """
const grid = document.getElementById("grid"), box = grid.getBoundingClientRect();
const card = arguments[0] ? grid.querySelector(`button[data-card="${arguments[0]}"]`) : null;
const found = {top: box.top, page: box.top + scrollY, scroll: scrollY, renders: window.gridRenders,
               where: document.getElementById("where").textContent};
if (card) {
  const r = card.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  Object.assign(found, {x, y, shown: r.top >= 0 && r.bottom <= innerHeight, hit: top === card || card.contains(top)});
}
return found;
"""


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    require()
    with chromium(WIDTH, HEIGHT) as browser:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
        yield browser


def _round_lines_then_cards(rules: str, count: int, seed: int) -> tuple[Any, list[str], list[str]]:
    """A simulated game without deal lines: its first round's lines before the cards (the dealer's count and
    the pass lines, R6) and that round's cards (with their victims' marks dropped: none is asked in these)."""
    game, _, items = game_items(rules, count, seed, deals=False)
    first = next(at for at, item in enumerate(items) if " " not in item)
    lines = []
    for item in items[:first]:
        words = item.split()
        lines.append(" ".join(words[3:5]) if words[0] == "R1" else item)  # `R1 dealer Dan pass 1`: `pass 1`
    return game, [line for line in lines if line], [item.split(">")[0] for item in items[first:]]


def test_the_grid_stays_put_between_taps_within_a_round(server: Server, phone: Any) -> None:
    from selenium.webdriver.common.by import By

    game, lines, cards = _round_lines_then_cards("bga", 5, 11)
    per_trick = game.config.plays_per_trick
    assert per_trick == 5
    table = server.create(game=game)
    api = Scorer(server.base, table)
    for line in lines:  # the round's count and pass lines (the set-up: the taps measured are the cards)
        assert api.post(line).status_code == 200, line
    try:
        phone.get(table["scorer_url"])
        assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#grid button"))
        assert phone.execute_script("return [innerWidth, innerHeight]") == [WIDTH, HEIGHT]
        phone.execute_script(_COUNT_RENDERS)
        # scrolled once, as a scorer does, so that the whole grid is on the screen
        phone.execute_script("const g = document.getElementById('grid');"
                             "scrollTo(0, g.getBoundingClientRect().bottom + scrollY - innerHeight + 8)")
        first = phone.execute_script(_WHERE, None)
        seen = [first]
        for card in cards[:TRICKS * per_trick]:
            aim = phone.execute_script(_WHERE, card)
            assert aim["shown"] and aim["hit"], (card, aim)  # tapped where it is drawn: no scrolling
            for kind in ("mousePressed", "mouseReleased"):  # the browser's own input at that point
                phone.execute_cdp_cmd("Input.dispatchMouseEvent", {
                    "type": kind, "x": aim["x"], "y": aim["y"], "button": "left", "clickCount": 1})
            drawn = wait_until(lambda: phone.execute_script(_SETTLED, aim["renders"]))  # noqa: B023
            assert drawn and not drawn["refusal"] and not drawn["question"], (card, drawn)
            seen.append(phone.execute_script(_WHERE, None) | {"card": card, "trick": drawn["trick"]})
        assert phone.execute_script("return document.querySelectorAll('#grid button.played').length") \
            == TRICKS * per_trick  # every tap was taken, as the card tapped
    finally:
        phone.get("about:blank")  # the page's live stream ends here, not with the module's server
    assert any(s.get("trick") for s in seen) and not seen[-1]["trick"]  # the trick line came and went
    assert len({s["where"] for s in seen}) == len(seen)  # the where line changed at every tap
    moved = [(s.get("card"), round(s["top"], 1), round(s["page"], 1)) for s in seen
             if abs(s["top"] - first["top"]) > 0.5 or abs(s["page"] - first["page"]) > 0.5]
    assert not moved, (round(first["top"], 1), round(first["page"], 1), moved)
