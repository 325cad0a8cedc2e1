"""The scorer's and the watchers' pages in headless Chromium (selenium, as tests/svg/test_browser.py),
against a real server: a scorer taps a few cards, undoes one, taps a card already played and sees the
recorder's refusal; a watcher's page follows within a second; the organiser's page lists the table.
Screenshots at 360 px wide go to DIAMONDS_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from servehelp import Scorer, Server

pytest.importorskip("fastapi")
pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} is missing (Debian: apt-get install {package})"
    return None


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='diamonds-chromium-')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_window_size(360, 1400)
    return browser


@pytest.fixture(scope="module")
def browsers() -> Iterator[tuple[Any, Any]]:
    missing = _missing()
    if missing is not None:
        if os.environ.get("DIAMONDS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"DIAMONDS_REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)
    scorer, watcher = _browser(), _browser()
    try:
        yield scorer, watcher
    finally:
        scorer.quit()
        watcher.quit()


def _shot(browser: Any, name: str) -> None:
    folder = os.environ.get("DIAMONDS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(360, min(max(height, 640), 3000))
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))


def _wait(condition: Any, timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def _severe(browser: Any) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
            and "favicon" not in entry["message"] and "status of 422" not in entry["message"]]


def test_a_scorer_taps_undoes_is_refused_and_a_watcher_follows(tmp_path, browsers) -> None:
    from selenium.webdriver.common.by import By

    scorer_page, watch_page = browsers
    server = Server(tmp_path).start()
    try:
        table = server.create("2e", tags={"Event": "<b>Thursday</b> night"})
        api = Scorer(server.base, table)
        for item in ("pass 3", "pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S"):
            assert api.post(item).status_code == 200
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
        assert _wait(lambda: "15S 6S" in watch_page.find_element(By.ID, "trick").text, 1.5)  # within a second
        _shot(scorer_page, "scorer")
        _shot(watch_page, "watch")
        scorer_page.find_element(By.ID, "undo").click()
        assert _wait(lambda: played() == ["15S"]), played()
        assert _wait(lambda: watch_page.find_element(By.ID, "trick").text.endswith("15S"), 1.5)
        tap("15S")  # played already: the recorder refuses it (R8), nothing recorded
        refusal = _wait(lambda: scorer_page.find_element(By.ID, "refusal").text)
        assert "15S was already played" in refusal and "R8" in refusal, refusal
        assert played() == ["15S"]
        _shot(scorer_page, "scorer-refused")
        assert not _severe(scorer_page) and not _severe(watch_page)  # no CSP violation, no script error
        # the organiser's page lists the table, escapes its text, and shows the players
        scorer_page.get(f"{server.base}/organiser#token={server.organiser}")
        assert _wait(lambda: scorer_page.find_elements(By.CSS_SELECTOR, ".table-card"))
        assert _wait(lambda: "Ann" in scorer_page.find_element(By.ID, "players").text)
        scorer_page.find_element(By.NAME, "players").send_keys("Dan Eve Fay")
        scorer_page.find_element(By.CSS_SELECTOR, "#new-table button").click()
        assert _wait(lambda: scorer_page.find_elements(By.CSS_SELECTOR, ".table-card .qr svg"))
        _shot(scorer_page, "organiser")
        assert not _severe(scorer_page)
    finally:
        server.stop()
