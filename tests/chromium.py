"""The system's headless Chromium through selenium, shared by the page and server browser tests.

Debian's `chromium` and `chromium-driver` (installed by .ci/run); where they are missing a test is
skipped, or fails under DIAMONDS_REQUIRE_BROWSER=1 (CI), so that a browser suite never passes unseen.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def missing() -> str | None:
    """Why no browser can run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} is missing (Debian: apt-get install {package})"
    return None


def require() -> None:
    """Skip the test without a browser (fail instead when CI requires one)."""
    why = missing()
    if why is not None:
        if os.environ.get("DIAMONDS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"DIAMONDS_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)


@contextmanager
def chromium(width: int, height: int) -> Iterator[Any]:
    """A headless Chromium of its own profile, with the page's console kept (for the tests' checks)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="diamonds-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_window_size(width, height)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def phone(width: int, height: int) -> Iterator[Any]:
    """`chromium` as a phone: a touch screen's metrics at `width` x `height` CSS px, one device pixel each."""
    with chromium(width, height) as browser:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        yield browser


def screenshot(browser: Any, name: str) -> None:
    """Save what the browser shows as `name`.png in $DIAMONDS_SCREENSHOTS, when set (for a person to look at)."""
    folder = os.environ.get("DIAMONDS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))


HANG = 120.0  # only a guard against a hang: a page that answers at all answers long before


def wait_until(condition: Callable[[], Any], timeout: float = HANG) -> Any:
    """`condition()` once it is true (the page redraws after each answer), or its last value after `timeout`,
    for the test's own assert to report: tests wait for the page's events, never for a number of seconds."""
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except StaleElementReferenceException:  # the page redrew between finding an element and reading it
            if time.monotonic() > deadline:
                raise
            value = None
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)
