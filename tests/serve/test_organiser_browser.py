"""The organiser's page in headless Chromium at 360 px: a wrong organiser's link is said at once (the page
asks GET /api/token at load), not after a Create that fails; a scorer's link opened as the organiser's is
said too; the right link shows the page online."""

from __future__ import annotations

import pytest
from chromium import chromium, require
from chromium import wait_until as _wait
from servehelp import Server

pytest.importorskip("fastapi")
pytestmark = pytest.mark.browser



def test_a_wrong_organiser_link_is_said_at_once(server: Server) -> None:
    from selenium.webdriver.common.by import By

    require()
    table = server.create("2e")
    with chromium(360, 740) as page:
        status = lambda: page.find_element(By.ID, "status").text  # noqa: E731
        page.get(f"{server.base}/organiser#token={'x' * 32}")
        assert _wait(lambda: status() == "wrong link"), status()
        assert "not this night's" in page.find_element(By.ID, "login").text
        assert not page.find_element(By.ID, "create").is_displayed()  # no form to fail later
        assert page.execute_script("return localStorage.getItem('diamonds-organiser')") is None
        page.get("about:blank")  # else a new fragment alone is no new page
        page.get(f"{server.base}/organiser#token={table['scorer_token']}")
        assert _wait(lambda: status() == "a scorer's link"), status()
        page.get("about:blank")
        page.get(f"{server.base}/organiser#token={server.organiser}")
        assert _wait(lambda: status() == "online"), status()
        assert page.find_element(By.ID, "create").is_displayed()
        assert _wait(lambda: page.find_elements(By.CSS_SELECTOR, ".table-card"))
