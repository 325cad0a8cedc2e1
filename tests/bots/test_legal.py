"""Bots play only legal moves, in every family, over many random-seeded games."""

from __future__ import annotations

import random

import pytest
from tables import TABLES, new_position, play, table_id

from diamonds.bots import make_bot

GAMES = 80  # per table, whole games of random and greedy play (150 cost CI 40 s more for no new kind of move)


@pytest.mark.slow  # whole games of random and greedy play, every move checked
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_random_and_greedy_play_only_legal_moves(table) -> None:
    rules, players, variants = table
    for seed in range(GAMES):
        rng = random.Random(seed)
        bots = [make_bot(rng.choice(["random", "greedy"]), seed=seed * 10 + seat) for seat in range(players)]
        position = play(new_position(rules, players, variants, dealer=seed % players), bots, rng)
        assert position.is_over and position.winners


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_mc_plays_only_legal_moves(table) -> None:
    rules, players, variants = table
    rng = random.Random(5)
    bots = [make_bot("mc:2" if seat == 0 else "greedy", seed=seat) for seat in range(players)]
    position = new_position(rules, players, variants)
    play(position, bots, rng, stop_after=150)


def test_bot_names() -> None:
    with pytest.raises(ValueError):
        make_bot("clever")
    assert make_bot("mc:3").samples == 3


def test_every_family_has_a_complete_bot_part() -> None:
    from diamonds.bots import FamilyBot
    from diamonds.core import families

    for family in families():
        part = family.part("bot")
        assert isinstance(part, FamilyBot), family.name
        assert all(getattr(part, name) is not None for name in
                   ("greedy", "determinise", "action_count", "encode", "feature_count", "features")), family.name
