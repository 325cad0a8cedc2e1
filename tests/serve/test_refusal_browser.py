"""A refusal shows at what was tapped, on a phone (issue 31, item 3): headless Chromium as a 360 × 740 phone
(device metrics, touch layout) against a real `diamonds serve`.

- A refused tap (422) outlines what was tapped, and a line of words in view (aria-live) says why, with the
  ruling and without a line or column; the card grid stays where it was, in view.
- The refusal's words are set as text: a typed line with markup is shown as typed, never parsed.
- At 360 px every control of the scorer's page is at least 44 × 44 px, in each state that offers other ones.
- At the end of a game of every family nothing overlaps: the game-over line, the players' names and every
  plate's lines, in the picture and on the page.

Every wait is for a condition (tests/chromium.wait_until), bounded only against hangs. Screenshots go to
DIAMONDS_SCREENSHOTS when it is set."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from chromium import phone as phone_browser
from chromium import require, screenshot, wait_until
from servehelp import Scorer, Server, game_items

pytest.importorskip("fastapi")
pytestmark = [pytest.mark.browser, pytest.mark.process]

WIDTH, HEIGHT = 360, 740
SMALLEST_CONTROL = 44  # CSS px, each way (WCAG 2.5.5's target size)
SMALLEST_TEXT = 12  # CSS px, as rendered
LINE_AND_COLUMN = re.compile(r"\d+:\d+|\bline \d+|\bcolumn \d+|\^")

#: The rectangle of an element in the viewport (CSS px), and the viewport's size.
RECT = """const r = arguments[0].getBoundingClientRect();
return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
        vw: window.innerWidth, vh: window.innerHeight};"""


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    require()
    with phone_browser(WIDTH, HEIGHT) as browser:
        yield browser


def _rect(browser: Any, element: Any) -> dict[str, float]:
    return dict(browser.execute_script(RECT, element))


#: The element `css` as it is now (its rectangle, classes, outline and running animations), or None.
STATE = """const e = document.querySelector(arguments[0]); if (!e) return null;
const r = e.getBoundingClientRect(), s = getComputedStyle(e);
return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
        vw: window.innerWidth, vh: window.innerHeight, cls: e.className,
        outline: [s.outlineStyle, parseFloat(s.outlineWidth)], moving: e.getAnimations().length};"""


def _state(browser: Any, css: str) -> dict[str, Any]:
    found = browser.execute_script(STATE, css)
    assert found is not None, css
    return dict(found)


def _click(browser: Any, css: str) -> None:
    """Click `css` once it is there, found afresh (the page redraws its controls after every answer)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def clicked() -> bool:
        try:
            browser.find_element(By.CSS_SELECTOR, css).click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False

    assert wait_until(clicked), css


def _inside_viewport(rect: dict[str, float]) -> bool:
    return rect["width"] > 0 and rect["height"] > 0 and rect["left"] >= -0.5 and rect["top"] >= -0.5 \
        and rect["right"] <= rect["vw"] + 0.5 and rect["bottom"] <= rect["vh"] + 0.5  # (sub-pixel layout)


def _meet(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    """Whether two rectangles overlap by more than `slack` px each way (touching edges do not)."""
    return a["left"] < b["right"] - slack and b["left"] < a["right"] - slack \
        and a["top"] < b["bottom"] - slack and b["top"] < a["bottom"] - slack


def _open(browser: Any, table: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    browser.get(table["scorer_url"])
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, "#grid button"))
    assert browser.execute_script("return [innerWidth, innerHeight]") == [WIDTH, HEIGHT]


def _passes_done(api: Scorer) -> None:
    """Round 1 of a 2e table of Ann, Bob and Cat past its passes (the dealer chose 3, R6): the play is due."""
    for item in ("pass 3", "pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S"):
        assert api.post(item).status_code == 200


def _refusal(browser: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, "refusal").text)


# ---------------------------------------------------------------- a refused tap

@pytest.mark.parametrize("played, where", [("15S", "end"), ("1D", "start")])
def test_a_refused_card_is_outlined_and_its_reason_is_in_view(server: Server, phone: Any, played: str,
                                                              where: str) -> None:
    """A card played already (R8) is tapped again: 15S low on the screen (the grid scrolled to its `end`),
    1D high (to its `start`). The card is outlined where it was, the words are in view on the other half of
    the screen (above a card tapped low, below one tapped high), and the grid has not moved."""
    from selenium.webdriver.common.by import By

    table = server.create("2e")
    api = Scorer(server.base, table)
    _passes_done(api)
    for item in ("15S", "6S", "7S", "1D"):  # trick 1 in spades, then Bob leads 1D
        assert api.post(item).status_code == 200
    _open(phone, table)
    card = f'#grid button[data-card="{played}"]'  # found afresh each time: the page redraws the grid at will
    phone.execute_script(f"document.querySelector(arguments[0]).scrollIntoView({{block: '{where}'}})", card)
    before = _state(phone, card)
    assert _inside_viewport(before), before
    scrolled = phone.execute_script("return scrollY")
    version = api.version
    _click(phone, card)
    assert wait_until(lambda: "R8" in _refusal(phone)), _refusal(phone)
    text = _refusal(phone)
    assert played in text and "already played" in text and "(R8)" in text, text
    assert not LINE_AND_COLUMN.search(text), text  # for the terminal, not for a phone
    assert wait_until(lambda: "refused" in _state(phone, card)["cls"]), _state(phone, card)
    line = phone.find_element(By.ID, "refusal")
    assert line.get_attribute("aria-live") == "assertive" and line.is_displayed()
    assert wait_until(lambda: not _state(phone, card)["moving"])  # it shook once; now it stands, outlined
    after, said = _state(phone, card), _rect(phone, line)
    assert after["outline"][0] == "solid" and after["outline"][1] >= 3, after
    assert _inside_viewport(said), said
    assert not _meet(said, after), (said, after)  # the words do not cover the card
    centre = (after["top"] + after["bottom"]) / 2
    assert (said["top"] > centre) == (centre < after["vh"] / 2), (said, after)  # on the other half
    # no jump: the card is where it was (within the sub-pixel rounding of the redrawn grid's scroll anchor)
    assert abs(phone.execute_script("return scrollY") - scrolled) <= 1
    assert abs(after["top"] - before["top"]) <= 1 and abs(after["left"] - before["left"]) <= 1, (before, after)
    grid = _state(phone, "#grid")
    assert grid["top"] < grid["vh"] and grid["bottom"] > 0 and _inside_viewport(after), grid  # the grid in view
    assert phone.execute_script("return [...document.querySelectorAll('.refused')].map((b) => b.dataset.card)") == [played]
    assert httpx.get(f"{server.base}/api/tables/{table['id']}").headers["ETag"] == f'"{version}"'  # nothing recorded
    screenshot(phone, f"refusal-{where}")
    # the next tap clears it: Cat's 2D is taken, and nothing is outlined or said any more
    _click(phone, '#grid button[data-card="2D"]')
    assert wait_until(lambda: not phone.find_elements(By.CSS_SELECTOR, ".refused") and not _refusal(phone))
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, '#grid button.played[data-card="2D"]'))


def test_a_refused_button_and_a_refused_line_are_outlined_and_said_as_text(server: Server, phone: Any) -> None:
    """Undo with nothing to take back is refused at the Undo button; a typed line holding markup is refused at
    the line box, and its words are shown as typed (textContent: no element is made from them)."""
    from selenium.webdriver.common.by import By

    table = server.create("2e")
    _open(phone, table)
    phone.find_element(By.ID, "undo").click()
    assert wait_until(lambda: "nothing to take back" in _refusal(phone)), _refusal(phone)
    assert "refused" in phone.find_element(By.ID, "undo").get_attribute("class")
    assert _inside_viewport(_rect(phone, phone.find_element(By.ID, "refusal")))
    typed = '<img src=x onerror="document.title=1"><b>9D</b>'
    box = phone.find_element(By.ID, "line-text")
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.send_keys(typed)
    phone.find_element(By.CSS_SELECTOR, "#line button").click()
    assert wait_until(lambda: "is not a card" in _refusal(phone)), _refusal(phone)
    assert "<img" in _refusal(phone)  # shown as typed
    assert phone.execute_script("return document.getElementById('refusal').children.length") == 0
    assert phone.execute_script("return document.querySelectorAll('#refused img, #refused b').length") == 0
    assert phone.title != "1"
    assert "refused" in phone.find_element(By.ID, "line-text").get_attribute("class")
    assert "refused" not in phone.find_element(By.ID, "undo").get_attribute("class")  # only the last tap's
    assert not LINE_AND_COLUMN.search(_refusal(phone)), _refusal(phone)
    assert _inside_viewport(_rect(phone, phone.find_element(By.ID, "refusal")))
    # the bar's own button closes it (and is a control of 44 px too)
    close = phone.find_element(By.ID, "refusal-close")
    assert min(_rect(phone, close)["width"], _rect(phone, close)["height"]) >= SMALLEST_CONTROL
    close.click()
    assert wait_until(lambda: not phone.find_element(By.ID, "refused").is_displayed())
    assert not phone.find_elements(By.CSS_SELECTOR, ".refused")


def _offline(browser: Any, offline: bool) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_the_choices_of_a_line_that_was_not_taken_are_outlined(server: Server, phone: Any) -> None:
    """A choose-3 group (Bob's pass line, R6): its three choices tapped while the phone is offline, and Cat's pass
    line recorded elsewhere meanwhile. The line is not taken (412: the table moved on) and the three choices
    stay outlined in Bob's group, to be tapped again, with the words in view.

    (A 422 at a group is rarer: every line a group offers is one the recorder takes at that version, so only a
    line queued behind another of the same group can be refused, and that group is gone by then.)"""
    from selenium.webdriver.common.by import By

    table = server.create("2e")
    api = Scorer(server.base, table)
    assert api.post("pass 3").status_code == 200
    _open(phone, table)
    bob = '#calls .group[data-group="Bob: pass 3"]'
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, bob + " button"))
    phone.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", bob)
    _offline(phone, True)
    try:
        for card in ("1D", "4D", "5D"):
            _click(phone, f'{bob} button[data-text="{card}"]')
        assert wait_until(lambda: "1 tap(s) waiting" in phone.find_element(By.ID, "queue").text)
        assert api.post("pass Cat 8S 2C 14C").status_code == 200
    finally:
        _offline(phone, False)
    assert wait_until(lambda: "changed elsewhere" in _refusal(phone)), _refusal(phone)
    assert "pass Bob 1D 4D 5D" in _refusal(phone) and not LINE_AND_COLUMN.search(_refusal(phone))
    marked = wait_until(lambda: phone.execute_script(
        "return [...document.querySelectorAll('.refused')].map((b) => [b.closest('.group').dataset.group, b.dataset.text])"))
    assert marked == [["Bob: pass 3", "1D"], ["Bob: pass 3", "4D"], ["Bob: pass 3", "5D"]], marked
    said = _rect(phone, phone.find_element(By.ID, "refusal"))
    assert _inside_viewport(said), said
    for choice in phone.find_elements(By.CSS_SELECTOR, ".refused"):  # (Cat's cards left the groups above Bob's:
        assert not _meet(said, _rect(phone, choice))                    # they are a row shorter, as they should be)
    assert "pass Bob" not in api.dgn()
    screenshot(phone, "refusal-group")


# ---------------------------------------------------------------- sizes at 360 px

#: Every control of the page that is shown: its text and its size in CSS px.
CONTROLS = """return [...document.querySelectorAll('button, a[href], summary, input, select, [role=button]')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => { const r = e.getBoundingClientRect();
                return [e.id || e.dataset.text || e.textContent.trim().slice(0, 24), r.width, r.height]; });"""


def _small_controls(browser: Any) -> list[Any]:
    browser.execute_script("document.getElementById('correct').open = true")  # the corrections' controls too
    controls = browser.execute_script(CONTROLS)
    assert len(controls) > 10, controls
    return [c for c in controls if c[1] < SMALLEST_CONTROL or c[2] < SMALLEST_CONTROL]


def test_every_control_of_the_scorer_page_is_44_px_at_360(server: Server, phone: Any) -> None:
    """In each state that shows other controls: the pass count (R6), the pass lines (choose 3 of the deck),
    the play (the card grid, the corrections with the round's items and lines) and a Clubs victim's question
    (R14, in the sample game 1e seed 3 with its deal lines: the first card asking one)."""
    from selenium.webdriver.common.by import By

    table = server.create("2e")
    api = Scorer(server.base, table)
    _open(phone, table)
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#calls .count button"))
    assert not (small := _small_controls(phone)), small
    assert api.post("pass 3").status_code == 200
    _open(phone, table)
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#calls .pass button"))
    assert not (small := _small_controls(phone)), small
    for item in ("pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S", "15S", "6S"):
        assert api.post(item).status_code == 200
    _open(phone, table)
    assert wait_until(lambda: len(phone.find_elements(By.CSS_SELECTOR, "#items button")) == 2)
    assert not (small := _small_controls(phone)), small
    # a question with its choices: the game's items without their victims, up to the first card that asks for
    # one (the card completing a trick that a Clubs card won, R14)
    game, _, items = game_items("1e", 3, seed=3, deals=True)
    asking = server.create(game=game)
    scorer = Scorer(server.base, asking)
    for item in items:
        assert scorer.post(item.split(">")[0]).status_code == 200, item
        if httpx.get(f"{server.base}/api/tables/{asking['id']}", headers=scorer.headers).json()["question"]:
            break
    _open(phone, asking)
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#choices button"))
    assert not (small := _small_controls(phone)), small


#: Each text of the picture: its words and its font size as rendered (its size times the picture's scale).
PICTURE_TEXTS = """return [...document.querySelectorAll('#picture svg text')].map((t) =>
  [t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a]);"""


def _small_texts(browser: Any, least: int = 10) -> list[float]:
    texts = browser.execute_script(PICTURE_TEXTS)
    assert len(texts) >= least, texts
    return sorted({round(size, 1) for _, size in texts if size < SMALLEST_TEXT - 0.05})


def _whole_table(browser: Any) -> bool:
    """Whether the picture shown is the family's whole table (else the phone's, `diamonds.svg.phone`)."""
    return bool(browser.execute_script("return !!document.querySelector('#picture svg ellipse.felt')"))


def test_the_picture_s_text_is_12_px_at_360(server: Server, phone: Any) -> None:
    """At 360 px the page shows the phone's picture (the trick and the sides, 344 units for 344 px): no text
    in it under 12 px, at the play's start and with cards on the table."""
    from selenium.webdriver.common.by import By

    table = server.create("2e")
    api = Scorer(server.base, table)
    _passes_done(api)
    _open(phone, table)
    assert not _whole_table(phone) and "phone" in phone.find_element(By.ID, "picture").get_attribute("class")
    assert not (small := _small_texts(phone, least=7)), small  # the caption and each side's name and score
    assert api.post("15S").status_code == 200 and api.post("6S").status_code == 200
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, '#picture svg g.card[data-card="6S"]'))
    assert not (small := _small_texts(phone)), small
    names = phone.execute_script("return [...document.querySelectorAll('#picture svg text.player')].map((t) => t.textContent)")
    players = ["Ann", "Bob", "Cat"]  # each card under its player, who play in seat order
    assert len(names) == 2 and names[1] == players[(players.index(names[0]) + 1) % 3], names


def test_the_zoomed_picture_s_text_is_12_px_at_360(server: Server, phone: Any) -> None:
    """On a phone the button shows the family's whole table, drawn wide enough that its smallest text is 12 px,
    in a frame of the page's width that scrolls (opened on the trick); the page itself does not scroll
    sideways. Pressed again, the phone's picture comes back."""
    from selenium.webdriver.common.by import By

    table = server.create("2e")
    api = Scorer(server.base, table)
    _passes_done(api)
    _open(phone, table)
    frame = phone.find_element(By.ID, "picture")
    assert not _whole_table(phone) and not _small_texts(phone, least=7)
    assert phone.find_element(By.ID, "zoom").text == "Show the whole table"
    phone.find_element(By.ID, "zoom").click()
    assert wait_until(lambda: "zoomed" in frame.get_attribute("class"))
    assert _whole_table(phone) and not (small := _small_texts(phone)), small
    assert phone.find_element(By.ID, "zoom").get_attribute("aria-pressed") == "true"
    assert phone.find_element(By.ID, "zoom").text == "Show the trick"
    sizes = phone.execute_script("const f = arguments[0]; return [f.scrollWidth, f.clientWidth, f.scrollLeft, "
                                 "document.documentElement.scrollWidth, innerWidth]", frame)
    assert sizes[0] > sizes[1] and sizes[2] > 0, sizes  # it scrolls, and opened away from the left edge
    assert sizes[3] <= sizes[4], sizes  # the page does not
    assert _rect(phone, frame)["right"] <= WIDTH
    # it stays zoomed (and where it was) when the table moves on
    left = frame.get_property("scrollLeft")
    assert api.post("15S").status_code == 200
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, '#grid button.played[data-card="15S"]'))
    assert frame.get_property("scrollLeft") == left and _whole_table(phone) and not _small_texts(phone)
    screenshot(phone, "picture-zoomed")
    phone.find_element(By.ID, "zoom").click()
    assert wait_until(lambda: "zoomed" not in frame.get_attribute("class"))
    assert not _whole_table(phone) and "phone" in frame.get_attribute("class") and not _small_texts(phone, least=7)


# ---------------------------------------------------------------- the end of a game

#: In the picture: the game-over line(s) (the trick layer's caption and result), the players' names, every
#: other text and every card, as rectangles; and each plate's rectangle with its texts.
PICTURE_PARTS = """
const svg = document.querySelector('#picture svg'), box = (e) => { const r = e.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent}; };
const cards = [...svg.querySelectorAll('g.card')];
const inCard = (t) => cards.some((c) => c.contains(t));
return {
  over: [...svg.querySelectorAll('g.trick text.caption, g.trick text.result')].map(box),
  names: [...svg.querySelectorAll('g.seat text.name, g.card text.player')].map(box),
  texts: [...svg.querySelectorAll('text')].filter((t) => !inCard(t)).map(box),
  cards: cards.map((c) => box(c.querySelector('rect'))),
  plates: [...svg.querySelectorAll('g.seat')].map((g) => ({plate: box(g.querySelector('rect')),
    texts: [...g.querySelectorAll('text')].map(box)})),
};"""

#: In the phone's picture: its caption, every text, and each side's row with its texts.
PHONE_PARTS = """
const svg = document.querySelector('#picture svg'), box = (e) => { const r = e.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent}; };
return {
  caption: [...svg.querySelectorAll('g.trick text.caption')].map(box),
  texts: [...svg.querySelectorAll('text')].filter((t) => !t.closest('g.card')).map(box),
  rows: [...svg.querySelectorAll('g.side')].map((g) => ({row: box(g.querySelector('rect')),
    texts: [...g.querySelectorAll('text')].map(box)})),
};"""

#: The page's parts around the picture, which must not overlap either.
PAGE_PARTS = ("title", "status", "where", "picture", "trick", "scores", "where-at-grid", "grid")

GAMES = [("2e", 3, 4, None), ("1e", 3, 3, None), ("bga", 5, 1, None), ("kirk", 4, 2, {"Hands": "1"}),
         ("bidding", 3, 2, None)]


@pytest.mark.parametrize("rules, count, seed, options", GAMES, ids=[g[0] for g in GAMES])
def test_nothing_overlaps_at_the_end_of_a_game(server: Server, phone: Any, rules: str, count: int, seed: int,
                                               options: dict[str, str] | None) -> None:
    from selenium.webdriver.common.by import By

    game, _, items = game_items(rules, count, seed=seed, options=options)
    table = server.create(game=game, **({"tags": options} if options else {}))
    api = Scorer(server.base, table)
    for item in items:
        assert api.post(item).status_code == 200, item
    _open(phone, table)
    assert wait_until(lambda: phone.find_element(By.ID, "where").text.startswith("Game over"))
    # The phone's picture, the page's own at 360 px: its game-over line and the sides' rows, none over another.
    shown = phone.execute_script(PHONE_PARTS)
    assert shown["caption"] and shown["caption"][0]["text"].startswith("Game over: "), shown["caption"]
    assert any("\u2605 winner" in line["text"] for row in shown["rows"] for line in row["texts"])
    for index, one in enumerate(shown["texts"]):
        for other in shown["texts"][index + 1:]:
            assert not _meet(one, other), (one, other)
    for row in shown["rows"]:
        edge = row["row"]
        for line in row["texts"]:
            assert edge["left"] - 0.5 <= line["left"] and line["right"] <= edge["right"] + 0.5, (line, edge)
            assert edge["top"] - 0.5 <= line["top"] and line["bottom"] <= edge["bottom"] + 0.5, (line, edge)
    page = {part: _rect(phone, phone.find_element(By.ID, part)) for part in PAGE_PARTS}
    for index, one in enumerate(PAGE_PARTS):
        for other in PAGE_PARTS[index + 1:]:
            assert not _meet(page[one], page[other]), (one, other, page[one], page[other])
    screenshot(phone, f"end-{rules}")
    # The family's whole table, one tap away.
    phone.find_element(By.ID, "zoom").click()
    assert wait_until(lambda: _whole_table(phone))
    parts = phone.execute_script(PICTURE_PARTS)
    assert parts["over"] and any(t["text"].startswith("Game over") for t in parts["over"]), parts["over"]
    assert len(parts["names"]) >= count
    for over in parts["over"]:
        for other in parts["texts"] + parts["cards"]:
            if other["text"] != over["text"]:
                assert not _meet(over, other), (over, other)
    for name in parts["names"]:
        for other in parts["texts"]:
            if other["text"] != name["text"]:
                assert not _meet(name, other), (name, other)
    for plate in parts["plates"]:  # every line of a plate stays on it (none runs out over the table)
        edge = plate["plate"]
        for line in plate["texts"]:
            assert edge["left"] - 0.5 <= line["left"] and line["right"] <= edge["right"] + 0.5, (line, edge)
            assert edge["top"] - 0.5 <= line["top"] and line["bottom"] <= edge["bottom"] + 0.5, (line, edge)
    screenshot(phone, f"end-{rules}-whole")
