"""The replay page and the pictures in a real browser: the system's headless Chromium, driven by selenium.

A person opens the page from a file (no server, no network), presses keys,
drags the slider, taps the buttons, chooses a perspective and a game; the
pictures of every family are opened and screenshotted. Skipped, with the
reason, where Chromium or its driver is not installed, unless
DIAMONDS_REQUIRE_BROWSER=1 (CI, which installs them): then that is a failure.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import chromium, require  # noqa: E402  (tests/chromium.py)
from test_page import LEAGUE, REVOKE, SAMPLES, joined, write_page

from diamonds.cli.inputs import games_in
from diamonds.cli.replay_cmd import Navigator
from diamonds.replay import replay_record
from diamonds.replay.steps import find_position, steps_of
from diamonds.svg import step_svg
from diamonds.views import view_for

pytestmark = pytest.mark.browser
#: Seconds a wait for the page may last before it is a failure: a bound against hangs only (issue 34).
HANG = 120

@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    require()
    with chromium(900, 1100) as browser:
        yield browser


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 1st-edition league game (hwalsh Ines_B Kofi, finished), then a game that stops at a revoke (R8)."""
    return joined(tmp_path_factory.mktemp("games"), LEAGUE, REVOKE)


@pytest.fixture(scope="module")
def page_url(two_games: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("page")
    status, _, err = write_page(folder, two_games)
    assert status == 1, err  # the second game is invalid
    (page,) = folder.glob("*.html")
    return page.as_uri()


@pytest.fixture(scope="module")
def league() -> Any:
    (replayed,) = [replay_record(record) for record in games_in(str(LEAGUE))]
    return replayed


@pytest.fixture(scope="module")
def steps(league: Any) -> list[Any]:
    return steps_of(league)


def console_problems(browser: Any) -> list[dict[str, Any]]:
    return [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]


def open_page(browser: Any, url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(url)
    WebDriverWait(browser, HANG).until(lambda b: b.execute_script("return document.getElementById('stage')"
                                                                ".dataset.ready") == "yes")


def state(browser: Any) -> dict[str, Any]:
    """What the page shows now, as a person would read it."""
    result: dict[str, Any] = browser.execute_script("""
        const stage = document.getElementById('stage');
        const shown = (el) => el.getClientRects().length > 0;
        return {
          game: Number(stage.dataset.game), stop: Number(stage.dataset.stop), view: stage.dataset.view,
          label: document.getElementById('label').textContent,
          slider: Number(document.getElementById('slider').value),
          narration: Array.from(document.querySelectorAll('#narration li'), (li) => li.textContent),
          scores: shown(document.getElementById('scores')) ?
            Array.from(document.querySelectorAll('#scores tbody tr'),
                       (tr) => Array.from(tr.cells, (td) => td.textContent)) : null,
          unfinished: shown(document.getElementById('unfinished')),
          notes: shown(document.getElementById('notes')) ? document.querySelector('#notes .list').innerText : null,
          cards: Array.from(stage.querySelectorAll('[data-card]')).filter(shown).map((el) => el.dataset.card),
          vaults: Array.from(stage.querySelectorAll('text.vault')).filter(shown).map((el) => el.textContent),
          svg: stage.querySelectorAll('svg').length,
        };""")
    return result


def press(browser: Any, *keys: str) -> dict[str, Any]:
    from selenium.webdriver.common.action_chains import ActionChains

    actions = ActionChains(browser)
    for key in keys:
        actions.send_keys(key)
    actions.perform()
    return state(browser)


def key(name: str) -> str:
    from selenium.webdriver.common.keys import Keys

    return str(getattr(Keys, name))


def landed(steps: list[Any], index: int, move: Any) -> int:
    navigator = Navigator(steps, index)
    move(navigator)
    return navigator.index


# --------------------------------------------------------------------------- the page


def test_the_page_loads_from_a_file_with_no_console_errors(driver: Any, page_url: str) -> None:
    driver.get_log("browser")  # drop anything from before
    open_page(driver, page_url)
    assert page_url.startswith("file://")
    assert console_problems(driver) == []
    now = state(driver)
    assert now["game"] == 0 and now["stop"] == 0 and now["svg"] == 1 and now["label"].startswith("start")
    assert driver.title == "Diamonds replay: games.dgn"


TERMINAL_KEYS = {"right": "ARROW_RIGHT", "left": "ARROW_LEFT", "down": "ARROW_DOWN", "up": "ARROW_UP",
                 "pgdn": "PAGE_DOWN", "pgup": "PAGE_UP", "home": "HOME", "end": "END", "space": "SPACE"}


def test_the_keys_move_through_the_game_as_in_the_terminal(driver: Any, page_url: str, steps: list[Any]) -> None:
    open_page(driver, page_url)
    last = len(steps) - 1
    assert press(driver, key("ARROW_RIGHT"), key("ARROW_RIGHT"))["stop"] == 2
    assert press(driver, key("ARROW_LEFT"))["stop"] == 1
    assert press(driver, key("END"))["stop"] == last
    assert press(driver, key("ARROW_RIGHT"))["stop"] == last  # nothing after the end
    assert press(driver, key("HOME"))["stop"] == 0
    assert press(driver, key("ARROW_LEFT"))["stop"] == 0  # nothing before the start
    # every key of the terminal replay that moves (cli/replay_cmd.py's Navigator) moves the page the same way
    moving = [name for name in Navigator(steps)._keys if name not in ("g", "?", "q", "escape")]
    assert {"right", "left", "down", "up", "pgdn", "pgup", "home", "end", "n", "p", "]", "[", "r", "R"} <= set(moving)
    navigator, visited = Navigator(steps, 0), set()
    for name in ["right", "pgdn", "down"] + moving + ["pgdn", "pgdn", "down", "down", "up", "pgup", "left"]:
        navigator.press(name)
        now = press(driver, key(TERMINAL_KEYS[name]) if name in TERMINAL_KEYS else name)
        assert now["stop"] == navigator.index, (name, steps[navigator.index].label, now["label"])
        assert now["label"] == f"{steps[navigator.index].label} · {navigator.index + 1}/{len(steps)}"
        assert now["slider"] == now["stop"]
        visited.add(now["stop"])
    assert len(visited) >= 10


def test_go_to_a_position_by_name(driver: Any, page_url: str, steps: list[Any]) -> None:
    open_page(driver, page_url)
    now = press(driver, "g", "R2.7", key("ENTER"))
    assert now["stop"] == find_position(steps, "R2.7") and now["label"].startswith("R2.7.3 ")
    now = press(driver, "g", "r4.end", key("ENTER"))
    assert now["label"].startswith("R4.end ")
    now = press(driver, "g", "R9.1", key("ENTER"))
    assert now["label"].startswith("R4.end ")  # unchanged, and the page says why
    assert driver.find_element("id", "message").text == "round 9 is not in this game"
    now = press(driver, "g", "R2.11", key("ENTER"))
    assert driver.find_element("id", "message").text == "trick 11 of round 2 is not in this game"
    now = press(driver, "g", "R2.3.7", key("ENTER"))
    assert driver.find_element("id", "message").text == "trick 3 of round 2 has 3 cards, R2.3.1 to R2.3.3: there is no card 7"
    now = press(driver, "g", "R2.end.1", key("ENTER"))
    assert driver.find_element("id", "message").text.startswith('"R2.end.1" is not a position: a card is counted')
    now = press(driver, "g", "xyz", key("ENTER"))
    assert "is not a position" in driver.find_element("id", "message").text
    assert now["label"].startswith("R4.end ")
    help_open = "return document.getElementById('help').open"
    press(driver, "?")
    assert driver.execute_script(help_open) and "go to a position" in driver.find_element("id", "help").text
    press(driver, key("ESCAPE"))
    assert not driver.execute_script(help_open)


def test_the_narration_follows_the_steps(driver: Any, page_url: str, league: Any, steps: list[Any]) -> None:
    view = view_for(league.config.rules)
    open_page(driver, page_url)
    seen = []
    for index in range(1, 6):
        now = press(driver, key("ARROW_RIGHT"))
        assert now["narration"] == view.step_lines(steps[index], None)
        seen.append(tuple(now["narration"]))
    assert len(set(seen)) == len(seen)  # each step tells something else


def test_the_slider_and_the_buttons(driver: Any, page_url: str, steps: list[Any]) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    open_page(driver, page_url)
    slider = driver.find_element("id", "slider")
    ActionChains(driver).move_to_element(slider).click().perform()  # the middle of the slider
    now = state(driver)
    assert now["stop"] == now["slider"]
    assert 0.35 * len(steps) < now["stop"] < 0.65 * len(steps)
    assert now["label"].startswith(steps[now["stop"]].label + " ")
    here = now["stop"]
    driver.find_element("css selector", "button[data-action=next_step]").click()
    assert state(driver)["stop"] == here + 1
    driver.find_element("css selector", "button[data-action=next_round]").click()
    assert state(driver)["stop"] == landed(steps, here + 1, Navigator.next_round)
    driver.find_element("css selector", "button[data-action=start]").click()
    assert state(driver)["stop"] == 0 and state(driver)["slider"] == 0


def test_the_final_scores_shown_are_the_engines(driver: Any, page_url: str, league: Any) -> None:
    open_page(driver, page_url)
    assert state(driver)["scores"] is None  # not before the end
    now = press(driver, key("END"))
    expected = [[league.config.side_name(s.side), str(s.score), "wins" if s.winner else ""]
                for s in league.game.standings()]
    assert now["scores"] == expected
    assert ["Ines_B", "49", "wins"] in now["scores"]
    assert not now["unfinished"]


def select(browser: Any, element_id: str, text: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", element_id)).select_by_visible_text(text)


def test_the_perspective_selector_hides_other_hands_and_vaults(driver: Any, page_url: str, league: Any,
                                                               steps: list[Any]) -> None:
    open_page(driver, page_url)
    mid = find_position(steps, "R2.3.1")
    press(driver, "g", "R2.3.1", key("ENTER"))
    table = steps[mid].table
    hwalsh = league.config.seat_of("hwalsh")
    others = {str(card) for seat, hand in enumerate(table.hands) if seat != hwalsh for card in hand}
    mine = {str(card) for card in table.hands[hwalsh]}
    everyone = state(driver)
    assert others <= set(everyone["cards"]) and mine <= set(everyone["cards"])
    assert all("?" not in vault for vault in everyone["vaults"])

    select(driver, "view", "as hwalsh")
    now = state(driver)
    assert now["view"] == str(hwalsh) and now["stop"] == mid
    assert not set(now["cards"]) & others  # the others' hands are backs
    assert mine <= set(now["cards"])
    assert sorted(now["vaults"]).count("Vault ?") == 2  # R3: the others' Vaults are secret
    assert sum("?" not in vault for vault in now["vaults"]) == 1

    press(driver, "g", "R1.0", key("ENTER"))  # R6: passes between the others are not told
    assert "Ines_B passes 2 cards to Kofi" in state(driver)["narration"]

    end = press(driver, key("END"))  # the game is over: everything is shown again
    assert "Vault ?" not in end["vaults"] and len(end["vaults"]) == 3
    select(driver, "view", "everyone (all cards)")
    assert state(driver)["vaults"] == end["vaults"]
    assert console_problems(driver) == []


def test_a_page_written_as_one_player_has_no_selector(driver: Any, tmp_path: Path) -> None:
    status, _, _ = write_page(tmp_path, REVOKE, "--as", "Anneke")
    assert status == 1  # the game stops at Anneke's revoke (R8)
    (page,) = tmp_path.glob("*.html")
    open_page(driver, page.as_uri())
    assert not driver.find_element("id", "view-choice").is_displayed()
    assert "Perspective: Anneke" in driver.find_element("id", "view-fixed").text
    (replayed,) = [replay_record(record) for record in games_in(str(REVOKE))]
    steps = steps_of(replayed)
    now = press(driver, "g", "R1.0", key("ENTER"))
    anneke = replayed.config.seat_of("Anneke")
    table = steps[now["stop"]].table
    assert {str(card) for card in table.hands[anneke]} <= set(now["cards"])
    assert not set(now["cards"]) & {str(card) for seat, hand in enumerate(table.hands) if seat != anneke
                                    for card in hand}
    assert sorted(now["vaults"]).count("Vault ?") == 2


def test_a_page_of_an_unreadable_game_shows_the_problem(driver: Any, tmp_path: Path) -> None:
    source = tmp_path / "notes.dgn"
    source.write_text("hello world\n", encoding="utf-8")
    status, _, err = write_page(tmp_path, source)
    assert status == 1 and f"{source}:1:1: expected a round header" in err
    (page,) = tmp_path.glob("*.html")
    driver.get_log("browser")
    open_page(driver, page.as_uri())
    now = press(driver, key("ARROW_RIGHT"), key("END"))
    assert now["svg"] == 0 and now["label"] == "nothing to replay"
    assert now["notes"] is not None and "    hello world\n    ^^^^^" in now["notes"]
    assert console_problems(driver) == []


def test_the_game_selector_shows_every_game_with_its_problems(driver: Any, page_url: str) -> None:
    open_page(driver, page_url)
    options = [option.text for option in driver.find_elements("css selector", "#game option")]
    assert options == ["1. First Edition League 2026 · round 4 · 2026.10.08",
                       "2. Thursday Club Night · round 1 · table 2 · 2026.11.20"]
    select(driver, "game", options[1])
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, HANG).until(lambda b: state(b)["game"] == 1 and b.execute_script(
        "return document.getElementById('stage').dataset.ready") == "yes")
    now = state(driver)
    assert now["stop"] == 0 and now["svg"] == 1
    assert "Anneke must follow Hearts (holds 5H 12H) (R8)" in now["notes"] and "^^" in now["notes"]
    end = press(driver, key("END"))
    assert end["label"].startswith("R2.2.2 ") and end["unfinished"] and end["scores"] is None
    assert [o.text for o in driver.find_elements("css selector", "#view option")][1:] == \
        ["as mvdberg", "as Anneke", "as jpk"]


def swipe(browser: Any, x: float, y: float, dx: float) -> None:
    """A finger on the screen, moved sideways and lifted (Chrome's DevTools protocol: real touch events)."""
    for kind, at in (("touchStart", x), ("touchMove", x + dx / 2), ("touchEnd", x + dx)):
        points = [] if kind == "touchEnd" else [{"x": at, "y": y}]
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_the_page_fits_a_phone(driver: Any, page_url: str) -> None:
    driver.set_window_size(390, 844)
    try:
        open_page(driver, page_url)
        width = driver.execute_script("return document.documentElement.clientWidth")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width  # no sideways scroll
        picture = driver.execute_script("return document.querySelector('#stage svg').getBoundingClientRect().width")
        assert 0.8 * width <= picture <= width
        assert press(driver, key("ARROW_RIGHT"))["stop"] == 1
        box = driver.execute_script("const r = document.getElementById('stage').getBoundingClientRect();"
                                    "return [r.left + r.width / 2, r.top + r.height / 2];")
        for dx, expected in ((-120, 2), (-120, 3), (120, 2)):  # swipe left: next; right: back
            swipe(driver, box[0], box[1], dx)
            assert state(driver)["stop"] == expected
    finally:
        driver.set_window_size(900, 1100)


# --------------------------------------------------------------------------- the other families' pages


def first_round(source: Path, *, hands: str | None = None) -> str:
    """A sample cut after its first round, without its Result; `hands` sets Kirk's Hands tag (K1)."""
    text = source.read_text(encoding="utf-8").split("\nR2 ")[0]
    text = re.sub(r'\[Result "[^"]*"\]\n', "", text)
    if hands is not None:
        text = re.sub(r'\[Hands "[^"]*"\]', f'[Hands "{hands}"]', text)
    return text.rstrip("\n") + "\n"


@pytest.fixture(scope="module")
def other_families(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Any]]:
    """A page of two short games: Kirk's game of one hand (finished), the bidding game's first hand (not)."""
    folder = tmp_path_factory.mktemp("families")
    source = folder / "short.dgn"
    source.write_text(first_round(SAMPLES / "kirk-4p-hands.dgn", hands="1") + "\n"
                      + first_round(SAMPLES / "bidding-3p-kitchen-table.dgn"), encoding="utf-8")
    status, _, err = write_page(folder, source)
    assert status == 0, err
    (page,) = folder.glob("*.html")
    return page.as_uri(), [replay_record(record) for record in games_in(str(source))]


def test_kirks_and_the_bidding_games_pages(driver: Any, other_families: tuple[str, list[Any]]) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    url, (kirk, bidding) = other_families
    assert kirk.complete and not bidding.complete
    driver.get_log("browser")
    open_page(driver, url)
    for number, replayed in enumerate((kirk, bidding)):
        if number:
            select(driver, "game", driver.find_elements("css selector", "#game option")[number].text)
            WebDriverWait(driver, HANG).until(lambda b: state(b)["game"] == number and b.execute_script(  # noqa: B023
                "return document.getElementById('stage').dataset.ready") == "yes")
        steps = steps_of(replayed)
        config = replayed.config
        mid = find_position(steps, "R1.3.1")
        press(driver, "g", "R1.3.1", key("ENTER"))
        table = steps[mid].table
        me = 1
        others = {str(card) for seat, hand in enumerate(table.hands) if seat != me for card in hand}
        assert others and others <= set(state(driver)["cards"]), config.rules
        select(driver, "view", f"as {config.players[me]}")
        now = state(driver)
        assert now["stop"] == mid and not set(now["cards"]) & others, config.rules
        assert {str(card) for card in table.hands[me]} <= set(now["cards"])
        end = press(driver, key("END"))
        if replayed.complete:
            assert end["scores"] == [[config.side_name(s.side), str(s.score), "wins" if s.winner else ""]
                                     for s in replayed.game.standings()]
        else:
            assert end["scores"] is None and end["unfinished"]
    assert console_problems(driver) == []


# --------------------------------------------------------------------------- the pictures


PICTURES = [  # (sample, game, position, perspective, names that must be in it)
    ("1e-3p-league.dgn", 1, "R1.0", None, ("hwalsh", "Ines_B", "Kofi", "Supply")),
    ("1e-3p-league.dgn", 1, "R2.7", "Kofi", ("hwalsh", "Kofi", "Vault ?")),
    ("bga-4p-partnership-perfect.dgn", 1, "end", None, ("Vault",)),
    ("kirk-4p-hands.dgn", 1, "R1.5", None, ("Moira", "Ewan", "Fiona_K", "Tam")),
    ("kirk-4p-hands.dgn", 1, "R4.end", None, ("Tam",)),
    ("bidding-3p-club.dgn", 1, "R1.0", "Andrea", ("Colin", "Andrea", "mags_b")),
    ("bidding-3p-club.dgn", 2, "R1.3", None, ("Colin", "Andrea", "mags_b")),
]


@pytest.mark.parametrize("sample, number, position, as_name, expected", PICTURES,
                         ids=[f"{p[0].split('.')[0]}-{p[2]}{'-as-' + p[3] if p[3] else ''}" for p in PICTURES])
def test_each_familys_picture_in_the_browser(driver: Any, tmp_path: Path, sample: str, number: int, position: str,
                                             as_name: str | None, expected: tuple[str, ...]) -> None:
    from PIL import Image

    record = next(r for r in games_in(str(SAMPLES / sample)) if r.index == number)
    replayed = replay_record(record)
    steps = steps_of(replayed)
    seat = replayed.config.seat_of(as_name) if as_name else None
    svg = step_svg(steps[find_position(steps, position)], as_player=seat)
    path = tmp_path / "position.svg"
    path.write_text(svg, encoding="utf-8")
    driver.get_log("browser")
    driver.get(path.as_uri())
    assert console_problems(driver) == []
    text = driver.execute_script("return document.documentElement.textContent")
    for word in expected:
        assert word in text, word
    assert driver.execute_script("return document.querySelector('title').textContent")
    shot = driver.find_element("tag name", "svg").screenshot_as_png
    (tmp_path / "position.png").write_bytes(shot)
    image = Image.open(io.BytesIO(shot))
    assert image.format == "PNG" and image.width >= 500 and image.height >= 300
    colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50, "a blank or nearly blank picture"
    assert len(shot) > 20_000
