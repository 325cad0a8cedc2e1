"""Make the screenshots in docs/images/ with the system's headless Chromium (Debian: chromium, chromium-driver).

    python docs/images/make_screenshots.py

- `position.png`: the picture of the table (`diamonds replay … --at R2.7 --svg`), as a browser shows it;
- `replay-page.png`: the interactive replay page (`diamonds replay … --html`) at the same position,
  seen as one player (the perspective selector), on a desktop-sized window;
- `replay-page-phone.png`: the same page on a phone-sized window (390 px wide).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SAMPLE = ROOT / "samples" / "club-night-2026-11-20.dgn"
POSITION = "R2.7"
AS_PLAYER = "Anneke"  # the page's screenshot chooses her perspective in the selector
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def diamonds(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "diamonds.cli.main", *args], check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to write the PNGs (default: docs/images)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.support.ui import Select, WebDriverWait
    except ImportError:
        print("make_screenshots: selenium is missing: pip install '.[test]'", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as work:
        svg, page = Path(work) / "position.svg", Path(work) / "page.html"
        diamonds("replay", str(SAMPLE), "--at", POSITION, "--svg", str(svg))
        diamonds("replay", str(SAMPLE), "--html", str(page))
        options = webdriver.ChromeOptions()
        options.binary_location = args.chromium
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={Path(work) / 'profile'}")
        browser = webdriver.Chrome(service=Service(args.chromedriver), options=options)
        try:
            browser.set_window_size(800, 800)
            browser.get(svg.as_uri())
            shot = browser.find_element("tag name", "svg").screenshot_as_png
            (args.out / "position.png").write_bytes(shot)
            for name, (width, height) in (("replay-page.png", (1000, 1400)), ("replay-page-phone.png", (390, 1100))):
                browser.set_window_size(width, height)
                browser.get(page.as_uri())
                WebDriverWait(browser, 20).until(
                    lambda b: b.execute_script("return document.getElementById('stage').dataset.ready") == "yes")
                Select(browser.find_element("id", "view")).select_by_visible_text(f"as {AS_PLAYER}")
                body = browser.find_element("tag name", "body")
                body.send_keys("g")
                browser.switch_to.active_element.send_keys(POSITION + "\n")
                browser.save_screenshot(str(args.out / name))
        finally:
            browser.quit()
    for name in ("position.png", "replay-page.png", "replay-page-phone.png"):
        print(f"wrote {args.out / name} ({(args.out / name).stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
