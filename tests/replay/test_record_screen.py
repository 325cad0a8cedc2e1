"""The terminal recorder's screen (`cli.record_screen.draw`) in every family, drawn to a captured stdout.

A round typed without deal lines is drawn live on its stand-in deal (`Recorder.replayed_live`, its hands
drawn at random): the trick and the public columns as the record makes them, every hand as its count and no
card but those typed, and the footer saying every card is checked as it comes. With deal lines the hands are
known, and drawn, as before. (`test_record_pty` drives the same screen through a real terminal.)
"""

from __future__ import annotations

import re

import pytest
from test_record import game_and_lines, recorder_for

from diamonds.cli.record_screen import STAND_IN, draw
from diamonds.replay.steps import steps_of

# (rules, players, items typed without deal lines (after the header) up to a trick under way)
CASES = [("1e", 3, 5), ("kirk", 4, 2), ("bidding", 3, 10)]
COUNT = re.compile(r"(\d+) cards?$")  # a hand drawn as its count: the players' grid's last column


def shows(text: str, card: object) -> bool:
    """Whether `card` is on `text` as a word of its own (`3D`, not the 3 of `13D`), a play's mark after it."""
    return re.search(rf"(?<![\w.]){re.escape(str(card))}(?![\w])", text) is not None


def drawn(recorder: object, capsys: pytest.CaptureFixture[str]) -> str:
    draw(recorder, "", 2)  # type: ignore[arg-type]
    return capsys.readouterr().out


@pytest.mark.parametrize(("rules", "players", "items"), CASES)
def test_without_deal_lines_the_table_is_live_and_shows_no_hand(rules: str, players: int, items: int,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    game, _expected, lines = game_and_lines(rules, players, (), False)
    recorder = recorder_for(game)
    typed = lines[:items + 1]
    for line in typed:
        assert recorder.enter(line).accepted, line
    assert not recorder.hands_known()
    screen = drawn(recorder, capsys)
    replayed = recorder.replayed_live
    assert replayed.drawn_round == 1
    table = steps_of(replayed)[-1].table
    words = {word.rstrip("+-") for line in typed for word in re.split(r"[\s>]+", line)}
    # every card on the screen was typed (played in the trick or the log); none of any hand, stand-in or real
    assert not [card for card in game.config.deck if str(card) not in words and shows(screen, card)], screen
    held = sorted(len(hand) for hand in table.hands)
    counts = sorted(int(m.group(1)) for line in screen.splitlines() if (m := COUNT.search(line.rstrip())))
    assert counts == held and held and min(held) > 0, screen
    trick = [getattr(play, "card", None) or play[1] for play in table.trick]
    assert trick and all(re.search(rf"(?<![\w.]){re.escape(str(card))}", screen) for card in trick), screen
    assert STAND_IN in screen


@pytest.mark.parametrize(("rules", "players"), [case[:2] for case in CASES])
def test_with_deal_lines_the_hands_are_drawn(rules: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    game, _expected, lines = game_and_lines(rules, players, (), True)
    recorder = recorder_for(game)
    dealt = [line for line in lines if line.split()[0] in ("deal", "kitty")]
    first_trick = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    for line in lines[:first_trick + 1]:
        assert recorder.enter(line).accepted, line
    assert recorder.hands_known() and recorder.replayed_live.drawn_round is None
    screen = drawn(recorder, capsys)
    table = steps_of(recorder.replayed_live)[-1].table
    assert all(shows(screen, card) for hand in table.hands for card in hand), screen
    assert dealt and STAND_IN not in screen
    assert not [line for line in screen.splitlines() if COUNT.search(line.rstrip())]
