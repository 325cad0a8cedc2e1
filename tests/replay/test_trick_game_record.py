"""The generic writer of a plain trick game (replay.record.trick_game_record) needs nothing of a family beyond the
protocol: Kirk's game, a plain trick game with its own writer, is written the same by both, whole or unfinished,
with and without deal lines; and what it writes validates."""

from __future__ import annotations

import random

import pytest

from diamonds.core import family_of, play_random_game, simulate
from diamonds.notation import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import validate_record
from diamonds.replay.record import trick_game_record


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("deals", [True, False])
def test_the_generic_writer_writes_kirks_games_as_kirks_own_writer_does(seed: int, deals: bool) -> None:
    whole = simulate(rules="kirk", seed=seed, options={"Hands": "2"})
    unfinished = play_random_game(whole.config, random.Random(seed), stop_after=30 + 17 * seed)
    own = family_of("kirk").part("bridge").record_from_game
    for game in (whole, unfinished):
        text = write_game(trick_game_record(game, deals=deals))
        assert text == write_game(own(game, deals=deals))
        checked = validate_record(parse_game(text))
        assert checked.valid, checked.problems
