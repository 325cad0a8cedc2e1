"""The replay page's move list, address, autoplay, score chart, messages, size and the archive of pages.

In the system's headless Chromium, as tests/test_browser.py drives it (its
fixtures and helpers), from files: no server, no network. The size and
picture checks read the file without a browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser import HANG, driver, key, league, open_page, page_url, press, state, steps, two_games  # noqa: F401
from test_page import LEAGUE, SAMPLES, page_data, replayed_games, write_page

from diamonds.cli.main import main
from diamonds.replay.steps import find_position, steps_of
from diamonds.svg import step_svg

CLUB = SAMPLES / "club-night-2026-11-20.dgn"  # three games of one evening


def script(browser: Any, code: str) -> Any:
    return browser.execute_script(code)


def until(browser: Any, condition: Any) -> Any:
    """Wait for `condition(browser)`: the page's events are waited for, not seconds (issue 34)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, HANG).until(condition)


def page_timer(browser: Any, milliseconds: int) -> None:
    """Return once a timer of the page's own has fired `milliseconds` from now: every timer of the page due
    before it (an autoplay tick) has fired first, however loaded the machine."""
    browser.set_script_timeout(HANG)
    browser.execute_async_script("window.setTimeout(arguments[arguments.length - 1], arguments[0]);", milliseconds)


def goto_url(browser: Any, url: str) -> None:
    """Open `url` (with its #place) as a fresh load, and wait for the page to be ready."""
    browser.get("about:blank")
    open_page(browser, url)


# --------------------------------------------------------------------------- without a browser


@pytest.mark.slow  # every sample's page built whole (about 10 s each)
def test_the_pictures_are_the_replays_own_to_the_character(tmp_path: Path) -> None:
    _, page, _ = write_page(tmp_path, CLUB)
    shown = page_data(page)["games"]
    for game, replayed in zip(shown, replayed_games(CLUB), strict=True):
        for stop, step in zip(game["stops"], steps_of(replayed), strict=True):
            assert stop["svg"] == step_svg(step, as_player=None, for_page=True), stop["label"]


@pytest.mark.slow  # every sample's page built whole (about 10 s each)
def test_the_move_list_data_has_annotations_and_comments(tmp_path: Path) -> None:
    _, page, _ = write_page(tmp_path, LEAGUE)
    stops = {stop["label"]: stop for stop in page_data(page)["games"][0]["stops"]}
    assert stops["R1.2.1"]["move"] == "1S!?"  # as written, with its annotation
    assert stops["R1.1.1"]["note"] == "hwalsh leads"  # the comment before the trick's first card
    assert stops["R1.0"]["move"] == "deal" and stops["R1.end"]["move"] == "end"
    club = SAMPLES / "bidding-3p-club.dgn"
    _, page, _ = write_page(tmp_path, club)
    deal = page_data(page)["games"][0]["stops"][1]
    # The first hand's calls (B3, B5), in the order the record writes them (`bid Colin 2`, ..., `final Colin 3`, ...)
    lines = club.read_text(encoding="utf-8").split("\n")
    calls = {kind: [line.split()[2] for line in lines if line.startswith(kind + " ")][:3] for kind in ("bid", "final")}
    assert deal["move"] == f"deal · bid {' '.join(calls['bid'])} · final {' '.join(calls['final'])}"


def test_text_from_the_record_is_escaped_in_the_chart_and_the_index(tmp_path: Path) -> None:
    from diamonds.svg.page import score_chart

    text = LEAGUE.read_text(encoding="utf-8").replace(
        '[Event "First Edition League 2026"]', '[Event "<script>alert(1)</script> & co"]')
    source = tmp_path / "odd.dgn"
    source.write_text(text, encoding="utf-8")
    folder = tmp_path / "archive"
    assert main(["replay", str(source), "--html", f"{folder}/"]) == 0
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in index and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in index
    chart = score_chart(["A<b>", "B&C"], [(0, [0, 0]), (3, [5, 2])], 4)
    assert "<b>" not in chart and "A&lt;b&gt; 5" in chart and "B&amp;C 2" in chart


# --------------------------------------------------------------------------- in the browser


@pytest.mark.browser
def test_the_move_list_follows_and_moves_the_position(driver: Any, page_url: str, steps: list[Any],
                                                      league: Any) -> None:
    open_page(driver, page_url)
    current = "return document.querySelector('#moves [aria-current]')"
    assert script(driver, current + ".dataset.stop") == "0"
    press(driver, key("ARROW_DOWN"), key("ARROW_DOWN"))
    now = state(driver)
    assert script(driver, current + ".dataset.stop") == str(now["stop"])
    target = find_position(steps, "R2.3.2")
    button = driver.find_element("css selector", f'#moves button[data-stop="{target}"]')
    button.click()
    assert state(driver)["stop"] == target and button.get_attribute("aria-current") == "step"
    written = league.record.rounds[1].tricks[2].plays[1]
    assert button.text == str(written.card) + (written.annotation or "")  # the card as written
    annotated = driver.find_element("css selector", f'#moves button[data-stop="{find_position(steps, "R1.2.1")}"]')
    assert annotated.text == "1S!?"
    assert "hwalsh leads" in driver.find_element(
        "css selector", f'#moves button[data-stop="{find_position(steps, "R1.1.1")}"]').get_attribute("title")
    # in view: the list scrolls to the current move
    press(driver, key("END"))
    visible = script(driver, """const box = document.getElementById('moves').getBoundingClientRect();
        const r = document.querySelector('#moves [aria-current]').getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;""")
    assert visible


@pytest.mark.browser
def test_the_address_names_the_position_and_back_works(driver: Any, page_url: str, steps: list[Any]) -> None:
    goto_url(driver, page_url + "#g1/R2.7")
    assert state(driver)["stop"] == find_position(steps, "R2.7")
    press(driver, key("ARROW_RIGHT"))
    after = steps[find_position(steps, "R2.7") + 1].label
    assert driver.current_url.endswith(f"#g1/{after}")
    press(driver, key("ARROW_RIGHT"))
    driver.back()
    assert until(driver, lambda b: state(b)["label"].startswith(after + " "))
    driver.back()
    assert until(driver, lambda b: state(b)["label"].startswith("R2.7.3 "))
    driver.forward()
    assert until(driver, lambda b: state(b)["label"].startswith(after + " "))
    goto_url(driver, page_url + "#g2/R1.1.2")
    now = state(driver)
    assert now["game"] == 1 and now["label"].startswith("R1.1.2 ")
    assert script(driver, "return document.getElementById('game').value") == "1"


@pytest.mark.browser
def test_the_script_resolves_every_go_to_name_as_the_terminal_does(driver: Any, tmp_path: Path) -> None:
    from diamonds.cli.page_cmd import positions

    _, _, _ = write_page(tmp_path, CLUB)
    (page,) = tmp_path.glob("*.html")
    open_page(driver, page.as_uri())
    for number, replayed in enumerate(replayed_games(CLUB)):
        expected = dict(positions(steps_of(replayed)))
        assert script(driver, f"return window.diamondsPositions({number})") == expected


@pytest.mark.browser
def test_the_script_jumps_as_the_terminal_replays_navigator(driver: Any, tmp_path: Path) -> None:
    from diamonds.cli.page_cmd import jump
    from diamonds.cli.replay_cmd import Navigator

    source = tmp_path / "mixed.dgn"
    source.write_text("\n".join(p.read_text(encoding="utf-8") for p in (
        CLUB, SAMPLES / "kirk-4p-hands.dgn", SAMPLES / "bidding-3p-club.dgn")), encoding="utf-8")
    write_page(tmp_path, source)
    (page,) = tmp_path.glob("*.html")
    open_page(driver, page.as_uri())
    moves = (Navigator.next_trick, Navigator.previous_trick, Navigator.next_round, Navigator.previous_round)
    for number, replayed in enumerate(replayed_games(source)):
        found = steps_of(replayed)
        expected = [[jump(found, i, move) for move in moves] for i in range(len(found))]
        assert script(driver, f"return window.diamondsJumps({number})") == expected, number


@pytest.mark.browser
def test_a_wrong_place_is_said(driver: Any, page_url: str) -> None:
    goto_url(driver, page_url + "#g1/R9.9")
    assert driver.find_element("id", "message").text == "round 9 is not in this game"
    assert state(driver)["stop"] == 0
    goto_url(driver, page_url + "#g5/start")
    assert driver.find_element("id", "message").text == "game 5 is not on this page (it has 2)"


@pytest.mark.browser
def test_autoplay_plays_and_pauses_without_filling_the_history(driver: Any, page_url: str) -> None:
    open_page(driver, page_url)
    length = script(driver, "return history.length")
    script(driver, "document.getElementById('speed').value = '400'")
    play = driver.find_element("id", "play")
    play.click()
    assert play.get_attribute("aria-pressed") == "true" and play.text == "Pause"
    assert until(driver, lambda b: state(b)["stop"] >= 2)  # two ticks played, however long they took
    play.click()
    stopped = state(driver)["stop"]
    assert stopped >= 2 and play.get_attribute("aria-pressed") == "false"
    page_timer(driver, 3 * 400)  # three ticks would have come first
    assert state(driver)["stop"] == stopped  # paused
    assert script(driver, "return history.length") == length  # autoplay replaces the address, never pushes
    press(driver, "a")
    assert until(driver, lambda b: state(b)["stop"] > stopped)  # the key plays too
    press(driver, "a")
    moved = state(driver)["stop"]
    page_timer(driver, 3 * 400)
    assert state(driver)["stop"] == moved  # and pauses


@pytest.mark.browser
def test_the_score_chart_marks_the_position(driver: Any, page_url: str, league: Any) -> None:
    open_page(driver, page_url)
    lines = script(driver, "return document.querySelectorAll('#chart polyline').length")
    assert lines == len(league.config.players)
    names = script(driver, "return Array.from(document.querySelectorAll('#chart text.name'), t => t.textContent)")
    assert [n.split()[0] for n in names] == list(league.config.players)
    assert [int(n.split()[1]) for n in names] == [s.score for s in league.game.standings()]
    marker = "return Number(document.querySelector('#chart .marker').getAttribute('x1'))"
    start = script(driver, marker)
    press(driver, key("PAGE_DOWN"))
    middle = script(driver, marker)
    press(driver, key("END"))
    end = script(driver, marker)
    assert start < middle < end
    assert end == script(driver, "return Number(document.querySelector('#chart svg').dataset.x1)")


@pytest.mark.browser
def test_every_control_is_named_and_reachable_by_keyboard(driver: Any, page_url: str) -> None:
    open_page(driver, page_url)
    unnamed = script(driver, """return Array.from(document.querySelectorAll('button, select, input'))
        .filter(el => el.getClientRects().length > 0)
        .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim() || (el.labels && el.labels.length)))
        .map(el => el.outerHTML);""")
    assert unnamed == []
    from selenium.webdriver.common.action_chains import ActionChains

    reached = set()
    script(driver, "document.activeElement.blur(); window.scrollTo(0, 0)")
    for _ in range(40):
        ActionChains(driver).send_keys(key("TAB")).perform()
        reached.add(script(driver, "const el = document.activeElement; return el.id || el.dataset.action || "
                                   "(el.dataset.stop !== undefined ? 'move' : el.tagName)"))
    assert {"start", "next_step", "end", "slider", "play", "speed", "goto-text", "move"} <= reached
    # Enter on the focused current move keeps the position; the arrow keys still move the game
    assert state(driver)["stop"] == 0


@pytest.mark.browser
def test_the_new_controls_fit_a_phone(driver: Any, page_url: str) -> None:
    driver.set_window_size(390, 844)
    try:
        open_page(driver, page_url)
        width = script(driver, "return document.documentElement.clientWidth")
        assert script(driver, "return document.documentElement.scrollWidth") <= width
        for part in ("moves", "play", "goto", "chart"):
            box = script(driver, f"return document.getElementById('{part}').getBoundingClientRect().right")
            assert 0 < box <= width, part
    finally:
        driver.set_window_size(900, 1100)


@pytest.mark.browser
def test_an_archive_of_pages_with_an_index(driver: Any, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    files = [str(LEAGUE), str(CLUB), str(SAMPLES / "kirk-4p-hands.dgn")]
    assert main(["replay", *files, "--html", f"{folder}/"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["1e-3p-league.html", "club-night-2026-11-20.html",
                                                         "index.html", "kirk-4p-hands.html"]
    for page in folder.iterdir():
        text = page.read_text(encoding="utf-8")
        assert 'http-equiv="Content-Security-Policy"' in text and "default-src 'none'" in text
    driver.get_log("browser")
    driver.get((folder / "index.html").as_uri())
    rows = "return Array.from(document.querySelectorAll('#games tbody tr')).filter(r => !r.hidden).length"
    assert script(driver, rows) == 5
    dates = script(driver, "return Array.from(document.querySelectorAll('#games tbody tr'), r => r.dataset.date)")
    assert dates == sorted(dates)
    field = driver.find_element("id", "player")
    field.send_keys("hwal")
    assert script(driver, rows) == 1 and "1 of 5" in driver.find_element("id", "shown").text
    field.clear()
    field.send_keys("x")
    script(driver, "const f = document.getElementById('player'); f.value = '';"
                   "f.dispatchEvent(new Event('input'));"
                   "const d = document.getElementById('from'); d.value = '2026-11-01';"
                   "d.dispatchEvent(new Event('input'));")
    assert script(driver, rows) == 3  # the club night's three games
    # each game's rules and result, and a link to its end (the result, and the marks of an analysed game)
    row = driver.find_element("css selector", 'tr:has(a[href="club-night-2026-11-20.html#g2/end"])')
    assert row.find_element("css selector", ".rules").text == "2e"
    assert "(wins)" in row.find_element("css selector", ".result").text
    link = driver.find_element("css selector", 'a[href="club-night-2026-11-20.html#g2/end"]')
    link.click()
    open_page(driver, driver.current_url)
    assert state(driver)["game"] == 1
    assert script(driver, "return document.getElementById('slider').value") == script(
        driver, "return document.getElementById('slider').max")  # at the end
    assert driver.find_element("css selector", ".back a").get_attribute("href").endswith("/index.html")
    assert [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


def test_several_files_need_an_archive_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(LEAGUE), str(CLUB), "--at", "R1.1"]) == 2
    assert "several only with --html DIR/" in capsys.readouterr().err
