"""Every family's terminal view as a watcher sees it (`as_player=NOBODY`, `diamonds.core.viewer`): no seat's hand, no
secret Vault or score (Fitzgerald, R2), no face-down kitty, take or point card (bidding, B2, B4, B9), no
passed card (R6); the trick, the tricks won and the public columns as usual; at the game's end, everything.

This is the view the recorder's screen draws while a round without deal lines is played on a stand-in deal
(its hands drawn at random, so never to be shown); each check is made against everyone's view (None) of the
same stop, which shows what the watcher's hides.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
import viewcheck

from diamonds.core import simulate
from diamonds.core.viewer import NOBODY, Viewer, sees
from diamonds.families.fitzgerald.render import hides_vault
from diamonds.replay.steps import Step
from diamonds.views import view_for

GAMES = [("1e", 3), ("2e", 4), ("kirk", 4), ("bidding", 3)]  # every family: Fitzgerald, Kirk, the bidding game
COUNT = re.compile(r"(\d+) cards?$")  # a hidden hand: its count, the grid's last column


@cache
def stops(rules: str, players: int) -> list[Step]:
    return viewcheck.steps_of(simulate(players, rules=rules, seed=7))


def screen(step: Step, index: int, total: int, as_player: Viewer) -> str:
    view = view_for(step.table.config.rules)
    return viewcheck.render(view.screen(step, index, total, as_player, ""))


def shows(text: str, card: object, played: bool = False) -> bool:
    """Whether `card` is drawn as a face on `text` (a word of its own: `3D`, not the 3 of `13D`); `played`,
    with what a play adds after it (the Joker's suit and sign: `JoC-`, B7)."""
    end = "" if played else r"(?!\w)"
    return re.search(rf"(?<![\w.]){re.escape(str(card))}{end}", text) is not None


def first_round(steps: list[Step]) -> list[int]:
    """The stops of the first round before its end, every third card, and its deal (and passes)."""
    end = next(i for i, step in enumerate(steps) if step.kind == "end")
    return [i for i in range(1, end) if steps[i].kind != "card" or i % 3 == 0]


def grid_row(text: str, seat: int, name: str) -> str:
    """`seat`'s row of the players' grid: the rows follow the rule under its heading, in seat order."""
    lines = viewcheck.lines_of(text)
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    row = lines[rule + 1 + seat]
    assert name in row.split()[:2], row
    return row


def plays(table: Any) -> list[Any]:
    """The cards of the trick on the table (Fitzgerald and Kirk keep (seat, card), the bidding game a play)."""
    return [getattr(play, "card", None) or play[1] for play in table.trick]


def test_a_watcher_sees_no_private_thing_a_seat_sees_its_own_and_everyone_all() -> None:
    assert sees(None, ()) and sees(None, (2,))  # everyone's view: all
    assert sees(1, (1, 3)) and not sees(1, (0, 2)) and not sees(1, ())  # a seat: its own things
    assert not sees(NOBODY, (0, 1, 2, 3)) and not sees(NOBODY, ())  # a watcher: nobody's
    assert sees(NOBODY, (), over=True) and sees(1, (0,), over=True)  # the game's end: nothing private


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_a_watcher_sees_every_hand_as_a_count_and_the_trick_as_usual(rules: str, players: int) -> None:
    steps = stops(rules, players)
    checked = 0
    for index in first_round(steps):
        step, table = steps[index], steps[index].table
        hands = [tuple(hand) for hand in table.hands] if table.hands else []
        held = [card for hand in hands for card in hand]
        if not held:
            continue
        everyone = screen(step, index, len(steps), None)
        watcher = screen(step, index, len(steps), NOBODY)
        assert all(shows(everyone, card) for card in held), f"{step.label}: everyone's view lacks a hand card"
        faces = [card for card in held if shows(watcher, card)]
        assert not faces, f"{step.label}: a watcher sees {faces}\n{watcher}"
        counts = [int(m.group(1)) for line in viewcheck.lines_of(watcher) if (m := COUNT.search(line))]
        assert sorted(counts) == sorted(len(hand) for hand in hands if hand), f"{step.label}\n{watcher}"
        assert not [line for line in viewcheck.lines_of(everyone) if COUNT.search(line)]
        for card in plays(table):  # the trick on the table is public
            assert shows(watcher, card, played=True), f"{step.label}: {card} of the trick is not shown\n{watcher}"
        assert not [card for card in held if shows("\n".join(view_for(rules).step_lines(step, NOBODY)), card)]
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_at_the_game_s_end_a_watcher_sees_everything(rules: str, players: int) -> None:
    steps = stops(rules, players)
    last = len(steps) - 1
    assert screen(steps[last], last, len(steps), NOBODY) == screen(steps[last], last, len(steps), None)


@pytest.mark.parametrize("rules", ["1e", "2e"])
def test_a_watcher_sees_no_vault_nor_score_until_the_end_and_no_passed_card(rules: str) -> None:
    """R2: a Vault (and so the score) is its side's secret, so a watcher, of no side, sees none; the Showrooms
    are open. R6: a pass is seen by its giver and receiver only, so a watcher reads how many cards, not which."""
    steps = stops(rules, 3)
    index = next(i for i, step in enumerate(steps) if step.kind == "card" and step.table.tricks_won[0] > 0
                 and any(step.table.vault))
    step, table = steps[index], steps[index].table
    sides = range(len(table.config.sides))
    assert all(hides_vault(table, NOBODY, side) for side in sides)
    assert not any(hides_vault(table, None, side) for side in sides)
    assert [hides_vault(table, 0, side) for side in sides] == [side != table.config.side_of[0] for side in sides]
    names = table.config.players
    watcher, everyone = screen(step, index, len(steps), NOBODY), screen(step, index, len(steps), None)
    for seat, name in enumerate(names):
        row, full = grid_row(watcher, seat, name), grid_row(everyone, seat, name)
        assert row.split().count("?") == 2, row  # Vault and Score
        assert str(table.showroom[table.config.side_of[seat]]) in row.split()  # the Showroom is open
        assert "?" not in full.split()
    passing = next(step for step in steps if any(type(e).__name__ == "CardsPassed" for e in step.events))
    passed = [card for event in passing.events if type(event).__name__ == "CardsPassed" for card in event.cards]
    lines = "\n".join(view_for(rules).step_lines(passing, NOBODY))
    assert "passes" in lines and not [card for card in passed if shows(lines, card)]
    assert all(shows("\n".join(view_for(rules).step_lines(passing, None)), card) for card in passed)


def test_a_watcher_sees_the_kitty_takes_and_point_cards_face_down_until_scored() -> None:
    """B2: the kitty is dealt face down; B4, B9: a take and its point card are the taker's until the hand is scored."""
    steps = stops("bidding", 3)
    index = next(i for i, step in enumerate(steps) if step.kind == "deal" and all(step.table.taken))
    step, table = steps[index], steps[index].table
    watcher, everyone = screen(step, index, len(steps), NOBODY), screen(step, index, len(steps), None)
    secret = [*table.kitty, *table.taken, *table.point_cards]
    assert secret and all(card is not None for card in secret)
    assert not [card for card in secret if shows(watcher, card)], watcher
    assert all(shows(everyone, card) for card in secret)
    assert f"Kitty: {len(table.kitty)} cards face down" in watcher
    assert watcher.count("laid") == len(table.config.players)
    log = "\n".join(view_for("bidding").step_lines(step, NOBODY))
    assert log.count("takes a card from the kitty and lays a point card") == len(table.config.players)
