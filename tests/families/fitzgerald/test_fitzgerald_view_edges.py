"""Fitzgerald's terminal view as a new user reads it (issue 23): whose turn it is, what the crystals
stand for, and the cards taken kept in line when a count has two digits."""

from __future__ import annotations

import io
from dataclasses import replace

from rich.console import Console

from diamonds.core import simulate
from diamonds.families.fitzgerald.render import LEGEND, PlayersPanel, Position, TrickLine
from diamonds.families.fitzgerald.steps import build_steps
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.steps import find_position


def steps():
    replayed = replay_record(record_from_game(simulate(4, rules="2e", variants=(), seed=11)))
    return build_steps(replayed)


def render(renderable: object, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, height=24, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def at(all_steps, position: str):
    return all_steps[find_position(all_steps, position)]


def test_the_view_says_whose_turn_it_is() -> None:
    all_steps = steps()
    # After the deal and passes: the dealer's left neighbour leads trick 1 (R7); Dan deals round 1.
    assert render(TrickLine(at(all_steps, "R1.0").table)).strip() == "No cards on the table. Ann leads."
    # In the middle of a trick: the next seat (R8).
    assert render(TrickLine(at(all_steps, "R2.7.2").table), 120).rstrip().endswith("Bob 13D (off) · Cat to play")
    # A trick won: its winner (who leads the next, R10), and no one "to play".
    assert render(TrickLine(at(all_steps, "R2.7").table), 120).rstrip().endswith("→ Ann wins")
    assert "leads" not in render(TrickLine(at(all_steps, "start").table), 120)


def test_crystals_have_a_legend_when_drawn() -> None:
    table = at(steps(), "R2.7").table
    assert LEGEND == "◆ = 5 points, ♦ = 1 point"
    assert LEGEND in render(PlayersPanel(table), 120)
    assert LEGEND not in render(PlayersPanel(table), 80)  # no crystals, no legend


def test_taken_counts_stay_in_line_with_two_digits() -> None:
    table = at(steps(), "R2.7").table
    taken = list(table.taken)
    taken[1] = (12, 0, 1, 2)
    lines = render(PlayersPanel(replace(table, taken=tuple(taken)))).split("\n")
    ann = next(line for line in lines if " Ann " in line)
    bob = next(line for line in lines if " Bob " in line)
    assert " 1 0 4 3 " in ann and "12 0 1 2 " in bob
    assert ann.index(" 1 0 4 3 ") == bob.index("12 0 1 2 ")  # the units of each suit one above another


def test_the_whole_screen_still_fits() -> None:
    all_steps = steps()
    index = find_position(all_steps, "R2.7.2")
    text = render(Position(all_steps[index], index, len(all_steps)))
    assert "Cat to play" in text and all(len(line) <= 80 for line in text.split("\n"))
