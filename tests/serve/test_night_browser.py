"""The night in headless Chromium at 360 px against a real server: the organiser proposes the seating and
makes round 1's tables with one tap; the wall (/standings) shows the round, the next round's seats and the
standings per game, follows a change live, and holds no scorer link; the printable results (/results) list
the finished game. An Event tag carrying markup is shown as text on both, and nothing of it runs. Every wait
is for a condition, bounded only against hangs (servehelp.HANG). Screenshots go to DIAMONDS_SCREENSHOTS."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from chromium import chromium, require
from chromium import wait_until as _wait
from servehelp import Scorer, Server, game_items

pytest.importorskip("fastapi")
pytestmark = [pytest.mark.browser, pytest.mark.process]  # Chromium and a real server

EVENT = '<img src=x onerror="window.pwned=1">Thursday'



def _shot(browser: Any, name: str) -> None:
    folder = os.environ.get("DIAMONDS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(360, min(max(height + 160, 640), 3000))  # the window's own bars besides
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))
        browser.set_window_size(360, 740)


def _texts(browser: Any, selector: str) -> list[str]:
    """The text of every element the selector finds, read at one instant (the wall redraws on each event,
    so elements found earlier may be gone)."""
    return list(browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText)", selector))


def _severe(browser: Any) -> list[str]:
    """Script errors, CSP violations and failed requests."""
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
            and "favicon" not in entry["message"]]


def _too_wide(browser: Any) -> list[str]:
    """What is wider than the 360 px screen (it would scroll sideways): tag, class and width."""
    return list(browser.execute_script(
        "return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > "
        "window.innerWidth + 0.5).map((e) => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"))


def test_the_organiser_seats_the_night_and_the_wall_and_results_show_it(server: Server) -> None:
    from selenium.webdriver.common.by import By

    require()
    _, _, items = game_items("2e", 3, seed=4)
    with chromium(360, 740) as page:
        page.get(f"{server.base}/organiser#token={server.organiser}")
        assert _wait(lambda: page.find_element(By.ID, "status").text == "online")
        form = page.find_element(By.ID, "seat-night")
        for name, value in (("players", "Ann Bob Cat Dan Eve Fay"), ("rounds", "2"), ("event", EVENT)):
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(value)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        make = _wait(lambda: page.find_elements(By.CSS_SELECTOR, "#plan button.make-round"))
        assert make and make[0].text == "Make round 1's tables"
        assert make[0].size["height"] >= 44  # a tap's size at 360 px
        make[0].click()  # one tap: both tables of round 1
        assert _wait(lambda: "Round 1 (made)" in page.find_element(By.ID, "plan").text)
        assert _wait(lambda: len(page.find_elements(By.CSS_SELECTOR, "#tables .table-card .scorer-link")) == 2)
        links = page.execute_script("return JSON.parse(localStorage.getItem('diamonds-links'))")
        tables = sorted(links.values(), key=lambda t: t["seq"])
        assert [t["players"] for t in tables] == [["Ann", "Bob", "Cat"], ["Dan", "Eve", "Fay"]]
        assert "Make round 2's tables" in page.find_element(By.ID, "plan").text  # the next tap is there
        assert _wait(lambda: page.find_elements(By.CSS_SELECTOR, "#players h3"))  # a table per game family
        assert _texts(page, "#players h3") == [  # redrawn every 3 s: read at one instant
            "Mike Fitzgerald's Diamonds (Stronghold Games, Board Game Arena)"]
        assert not [w for w in _too_wide(page) if "TABLE" in w or "TD" in w or "TH" in w], _too_wide(page)
        _shot(page, "night-organiser")
        assert not _severe(page)

    first, second = Scorer(server.base, tables[0]), Scorer(server.base, tables[1])
    for item in items:  # table 1 plays its game to the end
        assert first.post(item).status_code == 200, item
    renamed = [" ".join({"Ann": "Dan", "Bob": "Eve", "Cat": "Fay"}.get(w, w) for w in item.replace(">", "> ").split())
               .replace("> ", ">") for item in items]  # the same game at table 2
    assert second.post(renamed[0]).status_code == 200

    with chromium(360, 740) as page:
        page.get(f"{server.base}/standings")
        assert _wait(lambda: page.find_element(By.ID, "status").text == "live")
        assert page.find_element(By.ID, "title").text == EVENT  # the markup as text
        assert page.execute_script("return window.pwned") is None
        assert page.find_element(By.ID, "now-title").text == "Round 1 of 2"
        cards = _texts(page, "#now .card")
        assert len(cards) == 2 and "Over:" in cards[0] and "Dan, Eve, Fay" in cards[1]
        assert page.find_element(By.ID, "next-title").text == "Round 2: where to sit"
        names = {row.split("\t")[0] for row in _texts(page, "#families tbody tr")}
        assert names == {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"}
        for item in renamed[1:5]:  # the passes (hidden, R6) and the first card: the card of table 2 follows
            assert second.post(item).status_code == 200
        assert _wait(lambda: _texts(page, "#now .card")[1] != cards[1])
        source = page.page_source
        passed = renamed[1].split()[2:]  # the first pass line's cards: nobody else's to know
        for secret in (server.organiser, *(t["scorer_token"] for t in tables), "/score/", " ".join(passed)):
            assert secret not in source
        _shot(page, "night-wall")
        assert not _too_wide(page), _too_wide(page)
        assert not _severe(page)

        page.get(f"{server.base}/results")
        assert page.find_element(By.TAG_NAME, "h1").text == "Results: " + EVENT
        assert page.execute_script("return window.pwned") is None
        places = page.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
        assert len(places) == 3  # the finished game's three players; Dan, Eve and Fay are still playing
        assert page.find_element(By.CSS_SELECTOR, "section.family h2").text.startswith("Mike Fitzgerald")
        results = page.find_elements(By.CSS_SELECTOR, "table.tables tbody tr")
        assert len(results) == 2 and "in play" in results[1].text
        assert not page.find_elements(By.TAG_NAME, "script")  # printable: no script at all
        _shot(page, "night-results")
        assert not _too_wide(page), _too_wide(page)
        assert not _severe(page)
