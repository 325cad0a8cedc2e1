"""How a replay position looks (`cli.render`): golden screens, and the 80×24 budget.

The goldens under tests/golden/ are plain text (no colour, trailing spaces cut).
After an intended change to the screen, rewrite them with

    DIAMONDS_REGEN=1 python -m pytest -q tests/cli/test_render.py

and read every changed file before keeping it: the numbers on a screen must
agree with the events it shows, and it must stay readable.
"""

from __future__ import annotations

import difflib
import io
import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from diamonds.cli.replay_cmd import FOOTER, HELP
from diamonds.core import Card, simulate
from diamonds.families.fitzgerald.render import Position, StepLog
from diamonds.families.fitzgerald.steps import build_steps
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.steps import Step, find_position

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REGEN = os.environ.get("DIAMONDS_REGEN") == "1"
WIDTH, HEIGHT = 80, 24
CARD = re.compile(r"(?<![\w.])(1[0-5]|[1-9])[DHSC](?!\w)")


@cache
def game_steps(players: int | tuple[str, ...] = 4, variants: tuple[str, ...] = (), seed: int = 11,
               rules: str = "2e") -> list[Step]:
    """The steps of a fixed simulated game, through a record as `diamonds replay` gets them."""
    replayed = replay_record(record_from_game(simulate(players, rules=rules, variants=variants, seed=seed)))
    assert replayed.valid and replayed.complete
    return build_steps(replayed)


def screen(steps: list[Step], position: str, *, as_player: int | None = None, footer: str = "") -> Position:
    index = find_position(steps, position)
    return Position(steps[index], index, len(steps), as_player, footer)


def render(renderable: object, width: int = WIDTH, height: int = HEIGHT) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, color_system=None, force_terminal=False)
    console.print(renderable)
    return out.getvalue()


def tidy(text: str) -> str:
    return "".join(line.rstrip() + "\n" for line in text.rstrip("\n").split("\n"))


# --------------------------------------------------------------------------- goldens

GOLDENS: dict[str, tuple[dict[str, object], str, dict[str, object], int]] = {
    # name: (game, position, screen options, width)
    "4p-start": ({}, "start", {}, WIDTH),
    "4p-R1.0": ({}, "R1.0", {}, WIDTH),
    "4p-R1.1.1": ({}, "R1.1.1", {}, WIDTH),
    "4p-R2.7.2": ({}, "R2.7.2", {}, WIDTH),
    "4p-R2.7": ({}, "R2.7", {}, WIDTH),
    "4p-R1.end": ({}, "R1.end", {}, WIDTH),
    "4p-end": ({}, "end", {}, WIDTH),
    "4p-R1.0-as-Bob": ({}, "R1.0", {"as_player": 1}, WIDTH),
    "4p-R2.7-help": ({}, "R2.7", {"footer": HELP}, WIDTH),
    "4p-R2.7-wide": ({}, "R2.7", {"footer": FOOTER}, 120),
    "2p-R1.3": ({"players": 2}, "R1.3", {}, WIDTH),
    "6p-partnership-R1.0": ({"players": 6, "variants": ("partnership",)}, "R1.0", {"footer": FOOTER}, WIDTH),
    "6p-partnership-R3.4.3": ({"players": 6, "variants": ("partnership",)}, "R3.4.3", {}, WIDTH),
}


def golden_text(name: str) -> str:
    game, position, options, width = GOLDENS[name]
    return tidy(render(screen(game_steps(**game), position, **options), width=width))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_screens(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = golden_text(name)
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"wrote {path.name}: read it before keeping it")
    assert path.exists(), f"no golden {path.name}: run with DIAMONDS_REGEN=1, then read it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now"))
        pytest.fail(f"{name} differs from its golden:\n{diff}")


def test_no_stray_goldens() -> None:
    """A golden nobody compares against would rot unnoticed."""
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(GOLDENS)


# --------------------------------------------------------------------------- facts the goldens show


def test_the_title_names_the_position_and_the_table_state() -> None:
    steps = game_steps()
    text = render(screen(steps, "R2.7"))
    title = text.split("\n")[0]
    for words in ("Round 2/4", "trick 7/10", "Ann deals", "pass 2", "Thief Dan", "Supply 202", "R2.7.4"):
        assert words in title
    assert "Trick 7, led ♣ Clubs: Ann 13C · Bob 13D (off) · Cat 2C · Dan 3C  → Ann wins" in text
    # the step count is shown where it fits on the title line, and is what gives way at 80 columns
    counter = f"({find_position(steps, 'R2.7') + 1}/{len(steps)})"
    assert counter not in text and len(title) <= WIDTH
    assert render(screen(steps, "R2.7"), width=100).split("\n")[0].endswith(f"R2.7.4 {counter}")
    assert render(screen(steps, "R1.0")).split("\n")[0].endswith("R1.0 (2/169)")


def test_the_trick_winner_is_shown_only_once_the_trick_is_complete() -> None:
    steps = game_steps()
    assert "wins" not in render(screen(steps, "R2.7.3")).split("Trick 7")[1].split("\n")[0]
    assert "→ Ann wins" in render(screen(steps, "R2.7.4"))


def test_the_players_table_agrees_with_the_step() -> None:
    steps = game_steps()
    step = steps[find_position(steps, "R2.7")]
    table = step.table
    lines = render(screen(steps, "R2.7")).split("\n")
    for seat, name in enumerate(table.config.players):
        row = next(line for line in lines if re.match(rf"[DT ]{{2,3}}\s*{name}\b", line))
        numbers = row.split(name, 1)[1].split()
        side = table.config.side_of[seat]
        assert numbers[:4] == [str(table.showroom[side]), str(table.vault[side]), str(table.score(side)),
                               str(table.tricks_won[seat])]
        assert numbers[4:8] == [str(n) for n in table.taken[side]]
        assert numbers[8:] == [str(card) for card in table.hands[seat]]


def hidden_cards_shown(text: str, steps: list[Step], position: str, seat: int) -> set[Card]:
    """Cards of other players' hands that appear on the screen of `seat`."""
    step = steps[find_position(steps, position)]
    known = {card for giver, _, cards in step.table.passes if giver == seat for card in cards}  # it gave them
    others = {card for s, hand in enumerate(step.table.hands) if s != seat for card in hand} - known
    shown = {Card.parse(m.group(0)) for m in CARD.finditer(text)}
    return shown & others


@pytest.mark.parametrize("position", ["R1.0", "R1.1.1", "R2.7.2", "R3.5"])
def test_as_a_player_hides_the_other_hands(position: str) -> None:
    steps = game_steps()
    seat = 1
    everything = render(screen(steps, position))
    assert hidden_cards_shown(everything, steps, position, seat)  # so the check below can fail
    text = render(screen(steps, position, as_player=seat))
    assert not hidden_cards_shown(text, steps, position, seat)
    step = steps[find_position(steps, position)]
    for other, hand in enumerate(step.table.hands):
        if other != seat:
            assert f"{len(hand)} cards" in text
    assert set(step.table.hands[seat]) <= {Card.parse(m.group(0)) for m in CARD.finditer(text)}


def test_as_a_player_sees_only_the_passes_it_gives_or_gets() -> None:
    steps = game_steps()
    text = render(screen(steps, "R1.0", as_player=1))
    assert "Ann passes 6H to Bob" in text  # received by Bob
    assert "Bob passes 15C to Cat" in text  # given by Bob
    assert "Cat passes 1 card to Dan" in text and "15D" not in text
    assert "Dan passes 1 card to Ann" in text


def test_crystals_are_drawn_only_when_wide() -> None:
    steps = game_steps()
    narrow, wide = render(screen(steps, "R2.7")), render(screen(steps, "R2.7"), width=120)
    assert "◆" not in narrow and "Show " in narrow
    assert "Showroom" in wide
    assert "◆♦♦♦♦ 9" in wide  # Dan's Vault: 9 points, a 5 and four 1s


def test_the_log_keeps_its_last_lines_when_short_of_room() -> None:
    steps = game_steps()
    step = steps[find_position(steps, "R1.end")]
    log = StepLog(step, limit=3).__rich__().plain.split("\n")
    full = StepLog(step, limit=100).__rich__().plain.split("\n")
    assert len(full) == 5 and full[0].startswith("Round 1 ends")
    assert log == [f"… {len(full) - 2} more above"] + full[-2:]
    assert StepLog(step, limit=1).__rich__().plain.split("\n")[-1] == full[-1]
    assert StepLog(steps[0]).__rich__().plain == "Before the first deal."


def test_a_short_terminal_cuts_the_log_not_the_table() -> None:
    steps = game_steps()
    text = render(screen(steps, "R1.end", footer=FOOTER), height=16)
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 16
    assert lines[-1] == FOOTER
    assert "more above" in text and "Dan" in lines[-2] + lines[-3]


# --------------------------------------------------------------------------- 80×24


LONG_NAMES = ("Alexandra_Smith1", "Bartholomew-Jone", "Christophe_Dupon", "Dorothea_Mueller",
              "Evangeline_Brown", "Fitzgerald_Mike1")

GAMES = {
    "2p": {"players": 2},
    "3p-1e": {"players": 3, "rules": "1e"},
    "4p": {"players": 4},
    "4p-partnership": {"players": 4, "variants": ("partnership",)},
    "5p-perfect": {"players": 5, "variants": ("perfect",)},
    "6p": {"players": 6},
    "6p-partnership": {"players": 6, "variants": ("partnership",)},
    "6p-partnership-long-names": {"players": LONG_NAMES, "variants": ("partnership",), "seed": 2},
}


def sampled(steps: list[Step]) -> Iterable[int]:
    """Every deal and end (the fullest hands, the longest logs), and a spread of cards."""
    for index, step in enumerate(steps):
        if step.kind != "card" or index % 11 == 0 or step.card_no == 1 and step.trick_no == 1:
            yield index


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_screen_fits_80_by_24(game: str) -> None:
    steps = game_steps(**GAMES[game])  # type: ignore[arg-type]
    typing = "go to (R2.7, R2.7.3, R2.end, start, end): R2.▏"
    for index in sampled(steps):
        for footer in (HELP, typing) if index % 2 else (HELP,):
            text = render(Position(steps[index], index, len(steps), None, footer))
            lines = text.rstrip("\n").split("\n")
            where = f"{game} {steps[index].label}"
            assert len(lines) <= HEIGHT - 1, f"{where}: {len(lines)} lines\n{text}"  # a line spare for the prompt
            assert max(cell_len(line) for line in lines) <= WIDTH, f"{where}: too wide\n{text}"
            assert steps[index].label in " ".join(lines[:2]), where  # the title always shows where we are
            assert footer.endswith(lines[-1].strip()), f"{where}: the status line is cut off\n{text}"


@pytest.mark.parametrize("game", ["6p", "6p-partnership-long-names"])
def test_hands_stay_whole_at_80_columns(game: str) -> None:
    """Hands may wrap, but every card of every hand is on the screen, unbroken."""
    steps = game_steps(**GAMES[game])  # type: ignore[arg-type]
    for position in ("R1.0", "R3.0", "R6.1.1"):
        index = find_position(steps, position)
        text = render(Position(steps[index], index, len(steps), None, HELP))
        shown = {Card.parse(m.group(0)) for m in CARD.finditer(text)}
        for hand in steps[index].table.hands:
            assert set(hand) <= shown, position


def test_long_names_are_cut_in_the_table_but_not_in_the_log() -> None:
    steps = game_steps(**GAMES["6p-partnership-long-names"])  # type: ignore[arg-type]
    text = render(screen(steps, "R1.1.2"))
    assert "Alexandra…" in text
    assert "Bartholomew-Jone 8S" in text  # the trick line keeps the whole id
    wide = render(screen(steps, "R1.1.2"), width=160)
    assert "Alexandra_Smith1" in wide.split("\n")[3]


def test_partnership_shows_teams_by_number_and_ditto_marks() -> None:
    steps = game_steps(players=6, variants=("partnership",))
    lines = render(screen(steps, "R1.0")).split("\n")
    assert "Team" in lines[1]
    rows = {re.match(r"[DT ]{2,3}\s*(\w+)\s+(\d)\b", line).groups() for line in lines  # type: ignore[union-attr]
            if re.match(r"[DT ]{2,3}\s*(Ann|Bob|Cat|Dan|Eve|Fay)\s+\d\b", line)}
    assert rows == {("Ann", "1"), ("Bob", "2"), ("Cat", "3"), ("Dan", "1"), ("Eve", "2"), ("Fay", "3")}
    assert sum("〃" in line for line in lines) == 3  # a team's points are shown once
