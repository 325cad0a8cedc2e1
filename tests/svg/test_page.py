"""The interactive replay page (`diamonds replay FILE --html PAGE`), read as a file, without a browser.

One self-contained file (nothing fetched from anywhere: it must work from a USB
stick), every game and every stop of the file in it, the narration as the
terminal replay tells it, and with `--as` nothing in the file that the player
may not see. What the page does in a browser is tests/svg/test_browser.py.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from diamonds.cli.inputs import games_in
from diamonds.cli.main import main
from diamonds.cli.replay_cmd import Navigator
from diamonds.replay import replay_record
from diamonds.replay.steps import find_position, steps_of
from diamonds.svg.page import Page, PageGame, PageStop, page_json, render_page, unpack_page
from diamonds.views import view_for

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
LEAGUE = SAMPLES / "1e-3p-league.dgn"  # hwalsh Ines_B Kofi, 1st edition; passes in every round (R6)
REVOKE = SAMPLES / "invalid" / "revoke.dgn"  # mvdberg Anneke jpk; Anneke revokes at 38:11 (R8)


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each <script>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def parsed(text: str) -> Elements:
    elements = Elements()
    elements.feed(text)
    elements.close()
    return elements


@functools.lru_cache(maxsize=8)
def page_data(text: str) -> dict[str, Any]:
    """The data the page's script reads, as the browser would find it, each stop with its picture.
    (Cached: the tests read it and never change it.)"""
    elements = parsed(text)
    ids = [attrs.get("id") for tag, attrs in elements.tags if tag == "script"]
    data: dict[str, Any] = unpack_page(json.loads(elements.scripts[ids.index("diamonds-data")]))
    return data


def write_page(tmp_path: Path, source: Path, *options: str) -> tuple[int, str, str]:
    """Run `diamonds replay SOURCE --html page.html OPTIONS` in this process: (status, page, stderr)."""
    out = tmp_path / f"page-{len(list(tmp_path.iterdir()))}.html"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["replay", str(source), "--html", str(out), *options])
    assert "Traceback" not in err.getvalue()
    return status, out.read_text(encoding="utf-8") if out.exists() else "", err.getvalue()


def joined(tmp_path: Path, *sources: Path) -> Path:
    """One file holding the games of `sources`, one after another."""
    path = tmp_path / "games.dgn"
    path.write_text("\n".join(source.read_text(encoding="utf-8") for source in sources), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game of three players, then another table's game that stops at a revoke (R8)."""
    return joined(tmp_path_factory.mktemp("games"), LEAGUE, REVOKE)


@pytest.fixture(scope="module")
def written(two_games: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str]:
    return write_page(tmp_path_factory.mktemp("page"), two_games)


@pytest.fixture(scope="module")
def page(written: tuple[int, str, str]) -> str:
    return written[1]


@pytest.fixture(scope="module")
def as_kofi(two_games: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str]:
    return write_page(tmp_path_factory.mktemp("kofi"), two_games, "--as", "kofi")


def replayed_games(path: Path) -> list[Any]:
    return [replay_record(record) for record in games_in(str(path))]


# --------------------------------------------------------------------------- one file, nothing outside


def test_the_page_refers_to_nothing_outside_itself(page: str) -> None:
    elements = parsed(page)
    for tag, attrs in elements.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base"), tag
        for name in ("src", "href", "xlink:href", "action", "srcset", "poster", "data"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), (tag, name, value)
    assert [attrs.get("src") for tag, attrs in elements.tags if tag == "script"] == [None, None]
    data = page_data(page)
    for script in (elements.scripts[-1], data["script"]):  # boot.js, and page.js it brings from the pack
        assert not re.search(r"\b(?:fetch|XMLHttpRequest|import\s*\()", script)
    # nor in the CSS or the pictures (held packed in the data)
    pictures = "".join(stop["svg"] for game in data["games"] for stop in game["stops"])
    for text in (page, pictures, data["style"]):
        assert "@import" not in text
        assert not re.search(r"url\(\s*['\"]?(?!#)", text), "a url() that is not a fragment"
        assert not re.search(r"""(?:src|href)\s*=\s*\\?["'](?!#)""", text), "a src or href"
        # the only http(s) text is the SVG namespace: a name, not a place to fetch
        assert set(re.findall(r"https?://[^\s\"'\\<]+", text)) <= {"http://www.w3.org/2000/svg"}


def test_the_page_inlines_the_packaged_css_and_script(page: str) -> None:
    from importlib import resources

    from diamonds.svg.page import asset

    data = page_data(page)
    for name, where in (("boot.js", page), ("page.css", data["style"]), ("page.js", data["script"])):
        shipped = resources.files("diamonds.svg").joinpath(name).read_text(encoding="utf-8")
        assert asset(name) in where, name  # without its comment lines and indentation
        assert len(asset(name)) < len(shipped)
    assert asset("page.js") not in page and asset("page.css") not in page  # they travel packed (boot.js opens them)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page  # phones


# --------------------------------------------------------------------------- every game, every stop


def test_every_game_and_every_stop_is_in_the_page(page: str, two_games: Path) -> None:
    data = page_data(page)
    games = replayed_games(two_games)
    assert len(data["games"]) == len(games) == 2
    for shown, replayed in zip(data["games"], games):
        steps = steps_of(replayed)
        assert [stop["label"] for stop in shown["stops"]] == [step.label for step in steps]
        assert [stop["kind"] for stop in shown["stops"]] == [step.kind for step in steps]
        assert shown["players"] == list(replayed.config.players)
        assert all(stop["svg"].startswith("<svg") for stop in shown["stops"])
    assert data["games"][0]["title"] == "First Edition League 2026 · round 4 · 2026.10.08"
    assert data["games"][1]["title"] == "Thursday Club Night · round 1 · table 2 · 2026.11.20"


def test_the_final_scores_are_the_engines_standings(page: str, two_games: Path) -> None:
    finished, stopped = page_data(page)["games"]
    replayed = replayed_games(two_games)[0]
    config = replayed.config
    assert finished["scores"] == [{"side": config.side_name(s.side), "score": s.score, "winner": s.winner}
                                  for s in replayed.game.standings()]
    assert [s["winner"] for s in finished["scores"]] == [False, True, False]  # Ines_B 49
    assert stopped["scores"] == []  # a game that stops at a problem has no final scores


def test_the_narration_is_the_terminal_replays(page: str, two_games: Path) -> None:
    shown = page_data(page)["games"][0]
    replayed = replayed_games(two_games)[0]
    view = view_for(replayed.config.rules)
    steps = steps_of(replayed)
    for stop, step in zip(shown["stops"], steps, strict=True):
        assert stop["narration"] == view.step_lines(step, None)
    # R6: a pass is seen by its giver and receiver only; the third player hears how many cards
    deal = shown["stops"][find_position(steps, "R1.0")]
    assert "Ines_B passes 1D 14D to Kofi" in deal["narration"]
    heard_by_hwalsh = deal["narration_as"][0]
    assert "Ines_B passes 2 cards to Kofi" in heard_by_hwalsh
    assert "Ines_B passes 1D 14D to Kofi" not in heard_by_hwalsh
    assert deal["narration_as"][2] is None or "Ines_B passes 1D 14D to Kofi" in deal["narration_as"][2]


def test_the_jumps_and_go_to_land_where_the_terminal_replay_does(page: str, two_games: Path) -> None:
    shown = page_data(page)["games"][0]
    steps = steps_of(replayed_games(two_games)[0])
    moves = (Navigator.next_trick, Navigator.previous_trick, Navigator.next_round, Navigator.previous_round)
    for index in (0, 1, 2, 5, 40, len(steps) // 2, len(steps) - 2, len(steps) - 1):
        landed = []
        for move in moves:
            navigator = Navigator(steps, index)
            move(navigator)
            landed.append(navigator.index)
        assert shown["stops"][index]["jumps"] == landed, steps[index].label
    positions = shown["positions"]
    assert positions["start"] == 0 and positions["end"] == len(steps) - 1
    assert steps[positions["r2.7"]].label == "R2.7.3"  # after trick 7: its last card (3 players)
    assert steps[positions["r2"]].label == "R2.0"
    assert steps[positions["r3.end"]].label == "R3.end"
    assert positions["r2.7.2"] == find_position(steps, "R2.7.2")


# --------------------------------------------------------------------------- perspective


def cards_drawn(svg: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', svg))


def test_the_selector_page_holds_both_versions_of_private_things(page: str) -> None:
    shown = page_data(page)["games"][0]
    during = shown["stops"][2]["svg"]  # round 1, first card: the hands are private
    assert 'class="private"' in during and 'class="concealed"' in during
    last = shown["stops"][-1]["svg"]  # the game is over: nothing is private any more
    assert 'class="private"' not in last and 'class="concealed"' not in last


def test_as_a_player_the_file_holds_no_hidden_card(as_kofi: tuple[int, str, str], page: str,
                                                  two_games: Path) -> None:
    mine = page_data(as_kofi[1])["games"][0]
    everyone = page_data(page)["games"][0]
    replayed = replayed_games(two_games)[0]
    steps = steps_of(replayed)
    kofi = replayed.config.seat_of("Kofi")
    assert mine["as_player"] == kofi
    assert 'class="private"' not in as_kofi[1] and 'class="concealed"' not in as_kofi[1]
    for label in ("R1.0", "R3.0", "R5.0"):  # after the deal and the passes, before any card is played
        index = find_position(steps, label)
        table = steps[index].table
        others = {str(card) for seat, hand in enumerate(table.hands) if seat != kofi for card in hand}
        assert not cards_drawn(mine["stops"][index]["svg"]) & others, label
        assert cards_drawn(everyone["stops"][index]["svg"]) >= others, label  # so the check can fail
    # the passes Kofi neither gave nor received are not told (R6)
    deal = mine["stops"][find_position(steps, "R1.0")]["narration"]
    assert "hwalsh passes 11D 6S to Ines_B" not in deal
    assert "hwalsh passes 2 cards to Ines_B" in deal
    assert all("narration_as" not in stop for stop in mine["stops"])
    # at the end everything is shown again, with the final scores
    assert mine["scores"] == everyone["scores"] and mine["scores"]
    assert mine["stops"][-1]["narration"] == everyone["stops"][-1]["narration"]


def test_as_a_player_of_one_game_the_other_shows_nothing_with_a_note(as_kofi: tuple[int, str, str]) -> None:
    status, text, err = as_kofi
    assert status == 1  # the second game is invalid
    other = page_data(text)["games"][1]
    assert other["stops"] == [] and other["positions"] == {}
    assert any("kofi does not play in game 2" in note for note in other["notes"])
    assert "kofi does not play in game 2" in err
    assert "Anneke" not in "".join(other["notes"]).split("kofi does not play")[-1]


def test_as_someone_who_plays_no_game_is_refused(tmp_path: Path) -> None:
    status, text, err = write_page(tmp_path, REVOKE, "--as", "Nobody")
    assert status == 2 and not text
    assert "--as Nobody: not a player of any game" in err and "(mvdberg Anneke jpk)" in err


# --------------------------------------------------------------------------- problems


def test_an_invalid_game_is_replayed_as_far_as_it_is_valid_with_a_visible_note(
        written: tuple[int, str, str], two_games: Path) -> None:
    status, text, err = written
    assert status == 1
    # revoke.dgn's line 38, after the league's lines and the blank line that `joined` puts between
    line = len(LEAGUE.read_text(encoding="utf-8").splitlines()) + 1 + 38
    assert f"{two_games}:{line}:11: Anneke must follow Hearts (holds 5H 12H) (R8)" in err
    assert "    2. 2H 15H 4S\n              ^^" in err
    stopped = page_data(text)["games"][1]
    assert any("(R8)" in note and "^^" in note for note in stopped["notes"])
    assert stopped["stops"][-1]["label"] == "R2.2.2"  # the last card before Anneke's revoke, 4S (R8)
    assert page_data(text)["games"][0]["notes"] == []


@pytest.fixture()
def revoke_twice(tmp_path: Path) -> Path:
    return joined(tmp_path, REVOKE, REVOKE)


def test_the_game_chosen_with_game_is_shown_first(tmp_path: Path, revoke_twice: Path) -> None:
    status, text, _ = write_page(tmp_path, revoke_twice, "--game", "2")
    assert status == 1 and page_data(text)["start_game"] == 1


def test_a_game_number_beyond_the_file_is_refused(tmp_path: Path, revoke_twice: Path) -> None:
    status, text, err = write_page(tmp_path, revoke_twice, "--game", "3")
    assert status == 2 and not text and "fewer than 3 games" in err


def test_an_unwritable_page_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    status, _, err = write_page(tmp_path, REVOKE, "--html", str(tmp_path / "no" / "such" / "page.html"))
    assert status == 2 and "No such file" in err
    assert [line for line in err.splitlines() if line.startswith("diamonds replay:")] == [err.splitlines()[-1]]


# --------------------------------------------------------------------------- the data cannot break out


def test_text_from_the_record_cannot_end_the_script_or_run_code() -> None:
    hostile = '</script><script>alert(1)</script><!-- & "quotes"'
    stop = PageStop("start", "start", "<svg></svg>", (hostile,), (), 0, 0, 0, 0)
    game = PageGame(hostile, hostile, ("Ann",), (stop,), (("start", 0),), (), (hostile,))
    text = render_page(Page(hostile, (game,)))
    assert [tag for tag, _ in parsed(text).tags].count("script") == 2
    data = page_data(text)
    assert data["games"][0]["title"] == hostile and data["games"][0]["stops"][0]["narration"] == [hostile]
    assert "</script><script>alert" not in page_json(Page(hostile, (game,)))
