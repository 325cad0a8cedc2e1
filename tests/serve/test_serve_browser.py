"""The scorer's and the watchers' pages in headless Chromium (selenium, as tests/svg/test_browser.py),
against a real server: a scorer taps a few cards, undoes one, taps a card already played and sees the
recorder's refusal; a watcher's page follows; the organiser's page lists the table. Every wait is for a
condition, bounded only against hangs (servehelp.HANG): no check depends on the machine's speed (issue 34).
Screenshots at 360 px wide go to DIAMONDS_SCREENSHOTS when it is set."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import chromium, require
from chromium import wait_until as _wait
from servehelp import HANG, Scorer, Server, game_items

pytest.importorskip("fastapi")
pytestmark = [pytest.mark.browser, pytest.mark.process]  # Chromium and a real server

@pytest.fixture(scope="module")
def browsers() -> Iterator[tuple[Any, Any]]:
    require()
    with chromium(360, 1400) as scorer, chromium(360, 1400) as watcher:
        yield scorer, watcher


def _shot(browser: Any, name: str) -> None:
    folder = os.environ.get("DIAMONDS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(360, min(max(height, 640), 3000))
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))



def _severe(browser: Any) -> list[str]:
    """Script errors and CSP violations: not a refusal's 422, a live stream cut by a server that stopped, or
    a request made while the test holds the browser offline."""
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
            and "favicon" not in entry["message"] and "status of 422" not in entry["message"]
            and "/events - Failed to load resource" not in entry["message"]
            and "net::ERR_INTERNET_DISCONNECTED" not in entry["message"]]


def test_a_scorer_taps_undoes_is_refused_and_a_watcher_follows(tmp_path, browsers) -> None:
    from selenium.webdriver.common.by import By

    scorer_page, watch_page = browsers
    server = Server(tmp_path).start()
    try:
        table = server.create("2e", tags={"Event": "<b>Thursday</b> night"})
        api = Scorer(server.base, table)
        _passes_done(api)
        watch_page.get(table["watch_url"])
        assert _wait(lambda: "version 4" in watch_page.find_element(By.ID, "updated").text.lower())
        scorer_page.get(table["scorer_url"])
        assert _wait(lambda: scorer_page.find_elements(By.CSS_SELECTOR, "#grid button"))
        assert "#token" not in scorer_page.current_url  # the token leaves the address bar

        def tap(card: str) -> None:
            from selenium.common.exceptions import StaleElementReferenceException

            for _ in range(20):
                try:
                    scorer_page.find_element(By.CSS_SELECTOR, f'#grid button[data-card="{card}"]').click()
                    return
                except StaleElementReferenceException:  # redrawn between finding and clicking
                    time.sleep(0.05)

        def played() -> list[str]:  # read in one go: the grid is redrawn after every answer
            return list(scorer_page.execute_script(
                "return [...document.querySelectorAll('#grid button.played')].map(b => b.dataset.card)"))

        for card, count in (("15S", 1), ("6S", 2)):
            tap(card)
            assert _wait(lambda: len(played()) == count), played()  # noqa: B023  (waited for here)
        assert _wait(lambda: "15S 6S" in watch_page.find_element(By.ID, "trick").text)  # pushed, no reload
        _shot(scorer_page, "scorer")
        _shot(watch_page, "watch")
        scorer_page.find_element(By.ID, "undo").click()
        assert _wait(lambda: played() == ["15S"]), played()
        assert _wait(lambda: watch_page.find_element(By.ID, "trick").text.endswith("15S"))
        tap("15S")  # played already: the recorder refuses it (R8), nothing recorded
        refusal = _wait(lambda: scorer_page.find_element(By.ID, "refusal").text)
        assert "cannot play 15S: it was already played in trick 1 (by " in refusal and "R8" in refusal, refusal
        assert played() == ["15S"]
        _shot(scorer_page, "scorer-refused")
        severe = _severe(scorer_page) + _severe(watch_page)  # read once: reading the log empties it
        assert not severe, severe  # no CSP violation, no script error
        # the organiser's page lists the table, escapes its text, and shows the players
        scorer_page.get(f"{server.base}/organiser#token={server.organiser}")
        assert _wait(lambda: scorer_page.find_elements(By.CSS_SELECTOR, ".table-card"))
        assert _wait(lambda: "Ann" in scorer_page.find_element(By.ID, "players").text)
        scorer_page.find_element(By.NAME, "rules").clear()
        scorer_page.find_element(By.NAME, "rules").send_keys("kirk")
        scorer_page.find_element(By.NAME, "players").send_keys("Dan Eve Fay Gus")
        scorer_page.find_element(By.NAME, "hands").send_keys("2")
        scorer_page.find_element(By.NAME, "round").send_keys("3")
        today = time.strftime("%Y.%m.%d")
        assert scorer_page.find_element(By.NAME, "date").get_attribute("value") == today  # as `diamonds record`
        scorer_page.find_element(By.CSS_SELECTOR, "#new-table button").click()
        assert _wait(lambda: scorer_page.find_elements(By.CSS_SELECTOR, ".table-card .qr svg"))
        import httpx

        night = httpx.get(f"{server.base}/api/night.dgn", headers={"Authorization": f"Bearer {server.organiser}"}).text
        assert f'[Round "3"]\n[Date "{today}"]\n[Rules "kirk"]\n[Players "Dan Eve Fay Gus"]' in night, night
        assert '[Hands "2"]' in night
        _shot(scorer_page, "organiser")
        assert not (severe := _severe(scorer_page)), severe
    finally:
        server.stop()


# ---------------------------------------------------------------- the scorer's corrections, buttons and queue

def _passes_done(api: Scorer) -> None:
    """Round 1 of a 2e table of Ann, Bob and Cat, past its passes (the dealer chose 3): the play is due."""
    for item in ("pass 3", "pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S"):
        assert api.post(item).status_code == 200


def _round_under_way(server: Server, page: Any, *played: str) -> Scorer:
    """A new 2e table past its passes and the cards `played`, its scorer's page open on `page`; the scorer's API client."""
    table = server.create("2e")
    api = Scorer(server.base, table)
    _passes_done(api)
    for item in played:
        assert api.post(item).status_code == 200
    _scorer_page(page, table)
    return api


def _scorer_page(browser: Any, table: dict[str, Any]) -> Any:
    """The scorer's page for `table`, loaded and drawn; the helpers below act on it."""
    from selenium.webdriver.common.by import By

    browser.get(table["scorer_url"])
    browser.get_log("browser")  # what earlier pages logged is theirs
    assert _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#grid button"))
    return browser


def _click(browser: Any, css: str, timeout: float = HANG) -> None:
    """Click the element `css` once it is there (the page redraws after every answer)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    while True:
        try:
            browser.find_element(By.CSS_SELECTOR, css).click()
            return
        except (StaleElementReferenceException, NoSuchElementException):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _played(browser: Any) -> list[str]:
    return list(browser.execute_script(
        "return [...document.querySelectorAll('#grid button.played')].map(b => b.dataset.card)"))


def _texts(browser: Any, css: str) -> list[str]:
    return list(browser.execute_script(f"return [...document.querySelectorAll({css!r})].map(b => b.dataset.text)"))


def _count_posts(browser: Any) -> None:
    """Count the page's POSTs from now on (each try to send a tap, its retries too): retries are then counted
    events, not seconds waited."""
    browser.execute_script("""
        window.diamondsPosts = 0;
        const send = window.fetch;
        window.fetch = function (path, options) {
          if (options && options.method === "POST") window.diamondsPosts += 1;
          return send.apply(this, arguments);
        };""")


def _posts(browser: Any) -> int:
    return int(browser.execute_script("return window.diamondsPosts"))


def _version(api: Scorer) -> int:
    import httpx

    return int(httpx.get(f"{api.base}/api/tables/{api.id}").headers["ETag"].strip('"'))


def test_two_cards_swapped_in_one_step_from_the_scorer_page(tmp_path, browsers) -> None:
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    try:
        api = _round_under_way(server, page)
        for count, card in enumerate(("15S", "6S", "7S"), 1):
            _click(page, f'#grid button[data-card="{card}"]')
            assert _wait(lambda: len(_played(page)) == count), _played(page)  # noqa: B023
        assert "1. 15S 6S 7S" in api.dgn()
        before = _version(api)
        page.find_element(By.CSS_SELECTOR, "#correct summary").click()
        _click(page, '#items button[data-label="R1.1.2"]')
        _click(page, '#items button[data-label="R1.1.3"]')
        assert _wait(lambda: page.find_element(By.ID, "swap").is_enabled())
        assert "R1.1.2 and R1.1.3" in page.find_element(By.ID, "picked").text
        _shot(page, "scorer-swap")
        page.find_element(By.ID, "swap").click()
        assert _wait(lambda: "1. 15S 7S 6S" in api.dgn()), api.dgn()
        assert _version(api) == before + 1  # one step: the version moved once
        assert _wait(lambda: _texts(page, "#items button") == ["R1.1.1", "R1.1.2", "R1.1.3"])
        assert "7S" in page.find_element(By.CSS_SELECTOR, '#items button[data-label="R1.1.2"]').text
        # one card picked and corrected: `fix`
        _click(page, '#items button[data-label="R1.1.3"]')
        page.find_element(By.CSS_SELECTOR, "#fix input").send_keys("9S")
        page.find_element(By.CSS_SELECTOR, "#fix button").click()
        assert _wait(lambda: "1. 15S 7S 9S" in api.dgn()), api.dgn()
        assert _version(api) == before + 2
        # a line corrected: tapped in the list, it comes to the line box as its `fix`, edited and sent
        _click(page, '#lines button[data-text="fix R1 pass Bob 1H 15H 11C"]')
        field = page.find_element(By.CSS_SELECTOR, "#line input")
        assert field.get_attribute("value") == "fix R1 pass Bob 1H 15H 11C"
        field.send_keys("\b\b\b12C")
        page.find_element(By.CSS_SELECTOR, "#line button").click()
        assert _wait(lambda: "pass Bob 1H 15H 12C" in api.dgn()), api.dgn()
        assert _version(api) == before + 3
        assert not page.find_element(By.ID, "refusal").text
        assert not (severe := _severe(page)), severe
    finally:
        server.stop()


def test_a_round_starts_from_its_pass_count_buttons(tmp_path, browsers) -> None:
    """2e without deal lines: each round starts with its dealer's pass count (R6: 1, 2 or 3), offered as
    buttons and said in the status line; a tap records the round's header. Then each player's pass line
    is a group of cards to choose that many from (issue 31: `choose`, `join`): two taps make one item. A card
    is refused until every pass line is written (the round's deal is inferred from them, R6)."""
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    try:
        table = server.create("2e")
        api = Scorer(server.base, table)
        _scorer_page(page, table)
        assert _wait(lambda: _texts(page, "#calls button") == ["pass 1", "pass 2", "pass 3"])
        # Read through waits: the page may draw twice on load (its first fetch, then the first live update)
        assert _wait(lambda: [b.text for b in page.find_elements(By.CSS_SELECTOR, "#calls button")] == ["1", "2", "3"])
        assert _wait(lambda: page.find_element(By.CSS_SELECTOR, "#calls .group.count p").text == "Ann: pass count")
        assert _wait(lambda: page.find_element(By.ID, "where").text == "round 1 \u00b7 Ann: pass count due")
        _click(page, '#calls button[data-text="pass 2"]')
        assert _wait(lambda: _version(api) == 1)
        assert api.dgn().rstrip().endswith("R1 dealer Ann pass 2")
        titles = "return [...document.querySelectorAll('#calls .group.pass p')].map(p => p.textContent)"
        assert _wait(lambda: page.execute_script(titles) == ["Ann: pass 2", "Bob: pass 2", "Cat: pass 2"])
        _click(page, '#calls .group.pass:first-child button[data-text="12H"]')
        assert _wait(lambda: "chosen" in page.find_element(
            By.CSS_SELECTOR, '#calls .group.pass:first-child button[data-text="12H"]').get_attribute("class"))
        assert _version(api) == 1  # one card of two chosen: nothing sent yet
        _click(page, '#calls .group.pass:first-child button[data-text="9D"]')
        assert _wait(lambda: _version(api) == 2)
        assert api.dgn().rstrip().endswith("pass Ann 9D 12H")  # in the choices' order, not the taps'
        assert _wait(lambda: page.execute_script(titles) == ["Bob: pass 2", "Cat: pass 2"])
        _click(page, '#grid button[data-card="9H"]')  # a card before every pass line is written: refused (R6)
        assert _wait(lambda: "pass lines come before" in page.find_element(By.ID, "refusal").text)
        assert _version(api) == 2
        _click(page, "#refusal-close")  # the words stand in a bar over the page's other edge, until closed
        for version, (player, cards) in enumerate((("Bob", ("1H", "2H")), ("Cat", ("3H", "4H"))), 3):
            group = '#calls .group.pass:first-child button[data-text="{}"]'
            assert _wait(lambda: page.execute_script(titles)[0] == f"{player}: pass 2")  # noqa: B023
            for card in cards:
                _click(page, group.format(card))
            assert _wait(lambda: _version(api) == version)  # noqa: B023
        assert api.dgn().rstrip().endswith("pass Cat 3H 4H")
        _click(page, '#grid button[data-card="9H"]')  # and the round goes on from the card grid
        assert _wait(lambda: _version(api) == 5)
        assert not (severe := _severe(page)), severe
    finally:
        server.stop()


def test_a_bidding_table_bid_with_buttons_only(tmp_path, browsers) -> None:
    """Bids and final bids from the buttons the page offers (only the amounts the rules allow at that point:
    the dealer may not bring the bids to 10, B3; a final bid is the bid or one off, B5); the Joker's suit
    and sign from the question's buttons, an ace made low from the button offered after it (B7)."""
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    try:
        table = server.create("bidding", ("Ann", "Bob", "Cat"))
        api = Scorer(server.base, table)
        _scorer_page(page, table)
        assert _wait(lambda: _texts(page, "#calls button") == [f"bid Bob {n}" for n in range(11)])
        for line in ("bid Bob 4", "bid Cat 0"):
            _click(page, f'#calls button[data-text="{line}"]')
            assert _wait(lambda: line in api.dgn())  # noqa: B023
        allowed = _wait(lambda: _texts(page, "#calls button") if "bid Ann 0" in _texts(page, "#calls button") else [])
        assert allowed == [f"bid Ann {n}" for n in range(11) if n != 6], allowed  # 4 + 0 + 6 = 10 (B3)
        assert "Ann: bid" in page.find_element(By.ID, "calls").text
        assert page.find_element(By.ID, "where").text == "round 1 · Ann: bid due"
        _click(page, '#calls button[data-text="bid Ann 5"]')
        assert _wait(lambda: "bid Ann 5" in api.dgn())
        # a take is a tap too (its kitty card, then the point card asked for, B4); typed here, as it may be
        assert _wait(lambda: [e.text for e in page.find_elements(By.CSS_SELECTOR, "#calls .group.exchange p")]
                     == ["Bob: take"])
        for line in ("take Bob 7H point KS", "take Cat AS point JC", "take Ann QC point QS"):
            field = page.find_element(By.CSS_SELECTOR, "#line input")
            field.send_keys(line)
            page.find_element(By.CSS_SELECTOR, "#line button").click()
            assert _wait(lambda: line in api.dgn()), line  # noqa: B023
        assert _wait(lambda: _texts(page, "#calls button") == ["final Bob 3", "final Bob 4", "final Bob 5"])
        for line, options in (("final Bob 5", None), ("final Cat 1", ["final Cat 0", "final Cat 1"]),
                              ("final Ann 5", ["final Ann 5", "final Ann 6"])):
            if options is not None:
                assert _wait(lambda: _texts(page, "#calls button") == options), _texts(page, "#calls button")  # noqa: B023
            _click(page, f'#calls button[data-text="{line}"]')
            assert _wait(lambda: line in api.dgn()), line  # noqa: B023
        for card in ("10C", "KC", "7C", "AH"):
            _click(page, f'#grid button[data-card="{card}"]')
            assert _wait(lambda: card in api.dgn().split("final Ann 5", 1)[1]), card  # noqa: B023
        _click(page, '#signs button[data-text="fix R1.2.1 AH-"]')  # the ace just played, made low
        assert _wait(lambda: "2. AH-" in api.dgn())
        for card in ("8H", "QH", "KH", "JS", "10H", "JH", "Jo"):
            _click(page, f'#grid button[data-card="{card}"]')
            assert _wait(lambda: card in api.dgn().split("2. AH-", 1)[1] or card == "Jo"), card  # noqa: B023
        assert _wait(lambda: page.find_element(By.ID, "question").is_displayed())
        assert "B7" in page.find_element(By.ID, "question-text").text
        choices = _texts(page, "#choices button")
        assert choices == ["D+", "D-", "H+", "H-", "S+", "S-", "C+", "C-"], choices
        _shot(page, "scorer-joker")
        _click(page, '#choices button[data-text="S+"]')
        assert _wait(lambda: "4. JH JoS+" in api.dgn()), api.dgn()
        assert _wait(lambda: not page.find_element(By.ID, "question").is_displayed())
        assert not (severe := _severe(page)), severe
    finally:
        server.stop()


def _offline(browser: Any, offline: bool) -> None:
    """Chromium's own network emulation (DevTools): the page's requests fail as on a phone without signal."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_taps_made_offline_are_queued_sent_in_order_or_refused_visibly(tmp_path, browsers) -> None:
    """The connection is lost mid-trick: the taps wait in the page (listed, marked in the grid) and go in
    order when it returns, each recorded once; a queued tap the table moved past (another device recorded
    a card meanwhile: 412) or the rules refuse (422) is refused on the page, with the taps behind it named."""
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    try:
        api = _round_under_way(server, page)
        _click(page, '#grid button[data-card="15S"]')
        assert _wait(lambda: _played(page) == ["15S"])
        before = _version(api)

        def queued() -> list[str]:
            return list(page.execute_script(
                "return [...document.querySelectorAll('#grid button.queued')].map(b => b.dataset.card)"))

        _count_posts(page)
        _offline(page, True)
        try:
            for card in ("6S", "7S", "12S"):  # the rest of trick 1, the lead of trick 2 (not 8S: Ann's, passed by Cat)
                _click(page, f'#grid button[data-card="{card}"]')
            assert _wait(lambda: "3 tap(s) waiting" in page.find_element(By.ID, "queue").text)
            assert "6S · 7S · 12S" in page.find_element(By.ID, "queue").text
            assert sorted(queued()) == ["12S", "6S", "7S"] and _played(page) == ["15S"]
            assert _wait(lambda: "offline" in page.find_element(By.ID, "status").text)
            _shot(page, "scorer-offline")
            tries = _posts(page)
            assert _wait(lambda: _posts(page) > tries)  # the page's own retry, made while still offline,
            assert _version(api) == before and "6S" not in api.dgn()  # sends nothing
        finally:
            _offline(page, False)
        assert _wait(lambda: "1. 15S 6S 7S\n2. 12S" in api.dgn()), api.dgn()
        assert _version(api) == before + 3  # in order, each once
        assert _wait(lambda: not page.find_element(By.ID, "queue").is_displayed())
        assert _wait(lambda: sorted(_played(page)) == ["12S", "15S", "6S", "7S"]) and not queued()

        # stale: another device records a card while this page is offline with a tap waiting (412)
        _offline(page, True)
        try:
            _click(page, '#grid button[data-card="9S"]')
            assert _wait(lambda: "1 tap(s) waiting" in page.find_element(By.ID, "queue").text)
            api.version = _version(api)
            assert api.post("10S").status_code == 200
        finally:
            _offline(page, False)
        refusal = _wait(lambda: page.find_element(By.ID, "refusal").text)
        assert "changed elsewhere" in refusal and "9S" in refusal, refusal
        assert "2. 12S 10S" in api.dgn() and "9S" not in api.dgn()
        assert _wait(lambda: "10S" in _played(page)) and "9S" not in _played(page)
        assert _version(api) == before + 4

        # refused: a card played already, queued offline with a tap behind it (422; the later tap not sent)
        _offline(page, True)
        try:
            for card in ("15S", "11S"):
                _click(page, f'#grid button[data-card="{card}"]')
            assert _wait(lambda: "2 tap(s) waiting" in page.find_element(By.ID, "queue").text)
        finally:
            _offline(page, False)
        refusal = _wait(lambda: "R8" in page.find_element(By.ID, "refusal").text
                        and page.find_element(By.ID, "refusal").text)
        assert refusal and "15S not recorded" in refusal and "1 later tap(s) not sent (11S)" in refusal, refusal
        assert _version(api) == before + 4 and "11S" not in api.dgn()
        assert not page.find_element(By.ID, "queue").is_displayed()
    finally:
        server.stop()


def test_taps_wait_for_a_server_killed_and_restarted_on_the_same_folder(tmp_path, browsers) -> None:
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    again = None
    try:
        api = _round_under_way(server, page, "15S")
        assert _wait(lambda: _played(page) == ["15S"])
        server.kill()  # SIGKILL mid-trick
        for card in ("6S", "7S"):
            _click(page, f'#grid button[data-card="{card}"]')
        assert _wait(lambda: "Offline: 2 tap(s) waiting" in page.find_element(By.ID, "queue").text)
        again = Server(tmp_path, port=server.port).start()
        assert _wait(lambda: "1. 15S 6S 7S" in api.dgn())
        assert _version(api) == 7
        assert _wait(lambda: not page.find_element(By.ID, "queue").is_displayed())
    finally:
        (again or server).stop()


def test_two_scorer_phones_tap_two_whole_games_and_a_watcher_follows(tmp_path, browsers) -> None:
    """The issue's club night in small: two phones at two Kirk tables tap a whole game each, card by card,
    in turns; on the way one undoes a card, one taps a card played already (refused), one taps two cards
    the wrong way round and swaps them back in one step, and one loses its connection mid-trick. Both
    DGNs are the games played; a watcher of the first table follows to the end."""
    from selenium.webdriver.common.by import By

    phones = browsers
    closing = contextlib.ExitStack()
    watcher = closing.enter_context(chromium(360, 1400))
    server = Server(tmp_path).start()
    try:
        feeds = []
        for phone, seed in zip(phones, (2, 3), strict=True):
            game, expected, items = game_items("kirk", 4, seed=seed, options={"Hands": "1"})
            table = server.create(game=game, tags={"Hands": "1"})
            _scorer_page(phone, table)
            cards = [item for item in items if not item.startswith("R1 ")]  # the header comes with the first card
            assert len(cards) == 52
            feeds.append((phone, Scorer(server.base, table), expected, cards))
        watcher.get(feeds[0][1].base + f"/watch/{feeds[0][1].id}")

        def label(step: int) -> str:
            return f"R1.{step // 4 + 1}.{step % 4 + 1}"

        def tap(phone: Any, card: str) -> None:
            _click(phone, f'#grid button[data-card="{card}"]')

        def settled(api: Scorer, version: int) -> bool:
            return bool(_wait(lambda: _version(api) == version))

        first, second = feeds[0][0], feeds[1][0]
        versions = [0, 0]
        step = 0
        while step < 52:
            for index, (phone, api, _, cards) in enumerate(feeds):
                if index == 1 and step == 10:  # a card undone and tapped again
                    tap(phone, cards[step])
                    assert settled(api, versions[1] + 1)
                    _click(phone, "#undo")
                    versions[1] += 2
                    assert settled(api, versions[1])
                if index == 1 and step == 20:  # a card played already: refused, nothing recorded
                    tap(phone, cards[0])
                    refusal = _wait(lambda: phone.find_element(By.ID, "refusal").text)  # noqa: B023
                    assert cards[0] in refusal and "already played" in refusal and "(K4)" in refusal, refusal
                    assert _version(api) == versions[1]
                if index == 0 and step == 29:  # two cards the wrong way round, swapped back in one step
                    tap(phone, cards[step + 1])
                    assert settled(api, versions[0] + 1)
                    tap(phone, cards[step])
                    assert settled(api, versions[0] + 2)
                    phone.find_element(By.CSS_SELECTOR, "#correct summary").click()
                    _click(phone, f'#items button[data-label="{label(step)}"]')
                    _click(phone, f'#items button[data-label="{label(step + 1)}"]')
                    _click(phone, "#swap")
                    versions[0] += 3
                    assert settled(api, versions[0])
                    phone.find_element(By.CSS_SELECTOR, "#correct summary").click()
                    continue
                if index == 0 and step == 30:
                    continue  # swapped in above
                if index == 0 and step == 41:  # the connection lost mid-trick (trick 11, cards 2 to 4)
                    _offline(phone, True)
                    try:
                        for card in cards[41:44]:
                            tap(phone, card)
                        assert _wait(lambda: "3 tap(s) waiting" in phone.find_element(By.ID, "queue").text)  # noqa: B023
                        assert _version(api) == versions[0]
                    finally:
                        _offline(phone, False)
                    versions[0] += 3
                    assert settled(api, versions[0])
                    continue
                if index == 0 and step in (42, 43):
                    continue
                tap(phone, cards[step])
                versions[index] += 1
                assert settled(api, versions[index]), (index, step, cards[step])
            step += 1
        for phone, api, expected, _ in feeds:
            assert api.dgn() == expected
            assert _wait(lambda: phone.find_element(By.ID, "where").text.startswith("Game over"))  # noqa: B023
        assert _wait(lambda: "Game over" in watcher.find_element(By.ID, "where").text)
        result = feeds[0][2].split('[Result "', 1)[1].split('"', 1)[0]
        assert watcher.find_element(By.ID, "where").text == f"Game over: {result}"  # not the `*` it started with
        severe = _severe(first) + _severe(second) + _severe(watcher)
        assert not severe, severe
        _shot(first, "scorer-game-over")
        _shot(watcher, "watch-game-over")
    finally:
        server.stop()
        closing.close()


def test_a_clubs_victim_and_the_end_of_round_award_from_buttons(tmp_path, browsers) -> None:
    """1e (R14, R16): the round's last card is a Club whose player names a victim, then the round's award is
    named on its `end` line; both are asked on the page and answered with the players' names as buttons."""
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    try:
        game, expected, items = game_items("1e", 3, seed=4, deals=True)
        end = next(index for index, item in enumerate(items) if item.startswith("end "))
        assert (items[end - 1], items[end]) == ("9C>Cat", "end >Ann")
        table = server.create(game=game)
        api = Scorer(server.base, table)
        for item in items[:end - 1]:
            assert api.post(item).status_code == 200, item
        _scorer_page(page, table)
        _click(page, '#grid button[data-card="9C"]')
        assert _wait(lambda: page.find_element(By.ID, "question").is_displayed())
        assert "R14" in page.find_element(By.ID, "question-text").text
        # the names the recorder takes: Bob played the Club and takes from another's Showroom (R14)
        assert _texts(page, "#choices button") == [">Ann", ">Cat"]
        assert page.find_element(By.CSS_SELECTOR, '#choices button[data-text=">Cat"]').text == "Cat"
        _click(page, '#choices button[data-text=">Cat"]')
        assert _wait(lambda: "End of the round" in page.find_element(By.ID, "question-text").text)
        _shot(page, "scorer-award")
        _click(page, '#choices button[data-text=">Ann"]')
        assert _wait(lambda: "9C>Cat\nend >Ann" in api.dgn()), api.dgn()
        assert expected.split("\n\n", 1)[1].startswith(api.dgn().split("\n\n", 1)[1])  # the game's first round
        assert _wait(lambda: not page.find_element(By.ID, "question").is_displayed())
        assert not (severe := _severe(page)), severe
    finally:
        server.stop()


def test_taps_kept_over_a_reload_keep_the_version_they_were_made_on(tmp_path, browsers) -> None:
    """A tap waits (its request blocked), the page is reloaded, and meanwhile another device moved the table
    on: the kept tap is sent with the version it was made against and refused (412), not recorded after
    the other device's card."""
    from selenium.webdriver.common.by import By

    page, _ = browsers
    server = Server(tmp_path).start()
    try:
        api = _round_under_way(server, page, "15S")
        page.execute_cdp_cmd("Network.enable", {})
        page.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/items"]})
        try:
            _click(page, '#grid button[data-card="6S"]')
            assert _wait(lambda: "1 tap(s) waiting" in page.find_element(By.ID, "queue").text)
            assert api.post("7S").status_code == 200  # another device
            page.refresh()
            assert _wait(lambda: "1 tap(s) waiting" in page.find_element(By.ID, "queue").text)
            assert _wait(lambda: "7S" in page.find_element(By.ID, "trick").text)  # the table as it is now
        finally:
            page.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        refusal = _wait(lambda: page.find_element(By.ID, "refusal").text)
        assert "changed elsewhere" in refusal and "6S" in refusal, refusal
        assert "1. 15S 7S" in api.dgn() and "6S" not in api.dgn()
        assert _wait(lambda: not page.find_element(By.ID, "queue").is_displayed())
        _click(page, '#grid button[data-card="6S"]')  # tapped again, on the table as it is
        assert _wait(lambda: "1. 15S 7S 6S" in api.dgn())
    finally:
        server.stop()
