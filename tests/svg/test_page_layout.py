"""The page beside lichess's (issue 32 item 5), checked by geometry in the system's headless Chromium: at
1280 x 800 the move list beside the table in player columns, the loss chart under the table, the summary's
links to the marks; at 390 x 844 nothing wider than the screen, the go-to box's placeholder whole, the
archive index's columns inside the screen; and the trick's centre label never under a card."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from analysed import analysed
from chromium import chromium, require
from test_browser import open_page
from test_page import SAMPLES, page_data, write_page

from diamonds.cli.main import main

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def annotated_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("analysed")
    path, _, _ = analysed(folder)
    status, text, err = write_page(folder, path)
    assert status == 0, err
    (page,) = folder.glob("*.html")
    return page.as_uri(), page_data(text)["games"][0]


@pytest.fixture(scope="module")
def wide() -> Iterator[Any]:
    require()
    with chromium(1280, 800) as browser:
        yield browser


@pytest.fixture(scope="module")
def narrow() -> Iterator[Any]:
    require()
    with chromium(390, 844) as browser:
        yield browser


RECT = "const r = (s) => { const e = typeof s === 'string' ? document.querySelector(s) : s; " \
       "const b = e.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; };"


def overflow(browser: Any) -> dict[str, float]:
    """How wide the page is against the window: no element may make it scroll sideways."""
    found: dict[str, float] = browser.execute_script(
        "const d = document.documentElement; return {scroll: d.scrollWidth, client: d.clientWidth};")
    return found


def test_at_1280_the_move_list_is_beside_the_table_in_player_columns(wide: Any, annotated_page: tuple[str, Any]
                                                                     ) -> None:
    url, game = annotated_page
    open_page(wide, url + "#g1/R2.3.2")
    box = wide.execute_script(RECT + "return {stage: r('#stage svg'), moves: r('#moves-box'), view: innerHeight,"
                              "names: Array.from(document.querySelectorAll('#moves .names .name'), (e) => "
                              "[e.textContent, r(e)])};")
    assert box["moves"]["left"] >= box["stage"]["right"]  # beside the table, not under it
    assert box["moves"]["top"] < box["stage"]["bottom"] and box["moves"]["top"] < box["view"]  # and in view
    assert box["stage"]["bottom"] <= box["view"]  # the whole table in view
    assert [name for name, _ in box["names"]] == game["players"]
    # each card under its player's name: its button within that name's column
    cards = wide.execute_script(RECT + """
        return Array.from(document.querySelectorAll('#moves .line.card .move[data-stop]:not(.decision)'), (b) =>
          [Number(b.dataset.stop), r(b)]);""")
    seats = [stop.get("seat") for stop in game["stops"]]
    columns = [rect for _, rect in box["names"]]
    checked = 0
    for stop, rect in cards:
        if seats[stop] is None:
            continue
        middle = (rect["left"] + rect["right"]) / 2
        column = columns[seats[stop]]
        assert column["left"] - 1 <= middle <= column["right"] + columns[0]["right"] - columns[0]["left"], stop
        assert [c for c in columns if c["left"] - 1 <= middle <= c["right"] + 1][:1] == [column], stop
        checked += 1
    assert checked == sum(1 for seat in seats if seat is not None)
    assert overflow(wide)["scroll"] <= overflow(wide)["client"]


def test_at_1280_the_loss_chart_is_under_the_table_and_every_mark_links_to_its_position(
        wide: Any, annotated_page: tuple[str, Any]) -> None:
    url, game = annotated_page
    open_page(wide, url + "#g1/start")
    box = wide.execute_script(RECT + "return {stage: r('#stage'), loss: r('#loss svg'), "
                              "lanes: document.querySelectorAll('#loss text.name').length,"
                              "rows: Array.from(document.querySelectorAll('#analysis tbody tr'), (tr) => "
                              "Array.from(tr.cells, (c) => c.textContent)),"
                              "links: Array.from(document.querySelectorAll('#analysis .marks a'), (a) => "
                              "a.getAttribute('href'))};")
    assert box["loss"]["top"] >= box["stage"]["bottom"] and box["loss"]["bottom"] > box["loss"]["top"]
    assert box["lanes"] == len(game["players"])
    assert [row[0] for row in box["rows"]] == [row["player"] for row in game["summary"]]
    assert [row[6] for row in box["rows"]] == [f"{row['accuracy']:.1f}%" for row in game["summary"]]
    labels = [stop["label"] for stop in game["stops"]]
    marks_in_seat_order = sorted(game["marks"], key=lambda m: (m["seat"], m["stop"]))
    assert box["links"] == [f"#g1/{labels[m['stop']]}" for m in marks_in_seat_order]
    for mark in (marks_in_seat_order[0], marks_in_seat_order[-1]):  # a link goes to the mark's position
        link = wide.find_element("css selector", f'#analysis .marks a[href="#g1/{labels[mark["stop"]]}"]')
        wide.execute_script("arguments[0].scrollIntoView(); arguments[0].click();", link)
        assert wide.execute_script("return Number(document.getElementById('stage').dataset.stop)") == mark["stop"]
    # the chart's bars are links too
    bar = wide.find_element("css selector", "#loss a.mark")
    wide.execute_script("arguments[0].scrollIntoView();", bar)
    bar.click()
    target = wide.execute_script("return arguments[0].getAttribute('href')", bar).split("#g1/")[1]
    assert labels[wide.execute_script("return Number(document.getElementById('stage').dataset.stop)")] == target
    # a marked card shows its mark's colour in the move list
    glyphs = {"?!": "m1", "?": "m2", "??": "m3"}
    for mark in game["marks"]:
        classes = wide.execute_script(f"return Array.from(document.querySelectorAll('#moves [data-stop=\"{mark['stop']}\"]'),"
                                      " (b) => b.className);")
        assert any(glyphs[mark["glyph"]] in c.split() for c in classes), mark


def test_at_390_nothing_is_wider_than_the_screen_and_the_placeholder_shows_whole(
        narrow: Any, annotated_page: tuple[str, Any]) -> None:
    url, _ = annotated_page
    open_page(narrow, url + "#g1/R2.3.2")
    size = overflow(narrow)
    assert size["scroll"] <= size["client"]
    wider = narrow.execute_script("""
        const limit = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('body *')).filter((e) => e.getClientRects().length &&
          !e.closest('#moves') && e.getBoundingClientRect().right > limit + 0.5).map((e) => e.id || e.tagName);""")
    assert wider == []
    fits = narrow.execute_script("""
        const input = document.getElementById('goto-text'), style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d');
        context.font = style.font;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [context.measureText(input.placeholder).width, room];""")
    assert fits[0] <= fits[1], fits
    table = narrow.execute_script(RECT + "return [r('#analysis table'), document.documentElement.clientWidth];")
    assert table[0]["right"] <= table[1]


def test_at_390_the_archive_index_columns_fit(narrow: Any, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    files = [str(SAMPLES / name) for name in ("club-night-2026-11-20.dgn", "2e-6p-partnership.dgn",
                                              "bga-4p-partnership-perfect.dgn")]
    assert main(["replay", *files, "--html", f"{folder}/"]) == 0
    narrow.get((folder / "index.html").as_uri())
    found = narrow.execute_script("""
        const limit = document.documentElement.clientWidth;
        const cells = Array.from(document.querySelectorAll('#games th, #games td')).filter((c) => c.getClientRects().length);
        return {limit: limit, scroll: document.documentElement.scrollWidth,
                right: document.getElementById('games').getBoundingClientRect().right,
                spilled: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
                headings: Array.from(document.querySelectorAll('#games th'), (th) => th.textContent)};""")
    assert found["scroll"] <= found["limit"] and found["right"] <= found["limit"]
    assert found["spilled"] == []
    assert found["headings"][:5] == ["date", "game", "players", "rules", "result"]


@pytest.mark.parametrize("sample", ["1e-4p-partnership.dgn", "2e-6p-partnership.dgn", "bga-5p-online.dgn",
                                    "bidding-3p-kitchen-table.dgn", "kirk-4p-hands.dgn"])
def test_the_centre_label_is_never_under_a_card(wide: Any, sample: str, tmp_path: Path) -> None:
    """Every stop of the game's first two rounds: no line of the label meets a card on the table or its name."""
    _, _, _ = write_page(tmp_path, SAMPLES / sample)
    (page,) = tmp_path.glob("*.html")
    open_page(wide, page.as_uri())
    # The stops are walked a few at a time: each call's work stays small whatever the game's length, so no
    # call nears the driver's script timeout on a loaded machine (a whole game in one call once did).
    checked, met, start = 0, [], 0
    while start is not None:
        found = wide.execute_script("""
            const [start, count] = arguments;
            const slider = document.getElementById('slider'), stage = document.getElementById('stage');
            const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 &&
                                   b.top < a.bottom - 0.5;
            let checked = 0, met = [];
            const last = Number(slider.max);
            for (let i = start; i < start + count; i += 1) {
              if (i > last) { return {checked: checked, met: met, next: null}; }
              slider.value = String(i);
              slider.dispatchEvent(new Event('input'));
              const label = document.getElementById('label').textContent;
              if (/^R([3-9]|[1-9][0-9])\\./.test(label)) { return {checked: checked, met: met, next: null}; }
              if (!/^R[12]\\./.test(label)) { continue; }
              const lines = Array.from(stage.querySelectorAll('.trick text.caption, .trick text.result'));
              const cards = Array.from(stage.querySelectorAll('.trick g.card')).filter((g) => g.getClientRects().length);
              if (cards.length === 0) { continue; }
              checked += 1;
              for (const line of lines) {
                for (const card of cards) {
                  if (meet(line.getBoundingClientRect(), card.getBoundingClientRect())) {
                    met.push(label + ': ' + line.textContent + ' / ' + card.dataset.card);
                  }
                }
              }
            }
            return {checked: checked, met: met, next: start + count};""", start, 25)
        checked, met, start = checked + found["checked"], met + found["met"], found["next"]
    assert checked > 20 and met == []
