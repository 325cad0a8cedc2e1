"""The seeded random player (`diamonds_core.simulate`).

Reproducible (same seed, same game), varied (different seeds, different games;
the corners of R14 are reached), complete (every allowed set-up reaches
GAME_OVER) and strict about set-ups (ConfigError). That every move it makes is
legal is checked step by step in test_properties.py.
"""

from __future__ import annotations

import random

import pytest
from helpers import SETUPS, allowed_variant_sets, setup_id  # noqa: F401  (shared list of set-ups)
from hypothesis import given, settings
from hypothesis import strategies as st

from diamonds.core import ConfigError, play_random_game, simulate
from diamonds.families.fitzgerald.rules import (
    ChoosePassCount,
    ChooseVictim,
    Deal,
    GameEnded,
    Phase,
    random_deal,
    random_move,
    rule_set,
)

RULE_IDS = ("1e", "2e", "bga")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
PERFECT_DEAL = {5: (12, 15), 4: (13, 13), 3: (12, 9), 2: (16, 8)}  # R5: hand size, highest rank


variant_sets = allowed_variant_sets


COMBOS = [
    pytest.param(rules, players, variants, id=f"{rules}-{players}p" + "".join(f"-{v}" for v in variants))
    for rules in RULE_IDS
    for players in range(2, 7)
    for variants in variant_sets(players)
]


def victim_choices(game):
    """(state before, move) for every ChooseVictim the game made."""
    return [(game.state_at(ply), move) for ply, move in enumerate(game.moves) if isinstance(move, ChooseVictim)]


# --------------------------------------------------------------------------- reproducible


@pytest.mark.parametrize(("rules", "players", "variants"), COMBOS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_same_seed_same_game(rules, players, variants, seed):
    first = simulate(players, rules=rules, variants=variants, seed=seed)
    second = simulate(players, rules=rules, variants=variants, seed=seed)
    assert first.config == second.config
    assert first.moves == second.moves
    assert first.events == second.events
    assert [first.state_at(p) for p in range(len(first) + 1)] == [
        second.state_at(p) for p in range(len(second) + 1)
    ]
    # the lower-level entry point is just as reproducible
    config = first.config
    assert play_random_game(config, random.Random(seed)).moves == play_random_game(
        config, random.Random(seed)).moves


@pytest.mark.parametrize(("rules", "players", "variants"), COMBOS)
def test_different_seeds_give_different_games(rules, players, variants):
    games = [simulate(players, rules=rules, variants=variants, seed=seed) for seed in range(8)]
    assert len({game.moves for game in games}) == len(games)
    # already the first deal differs
    assert len({game.moves[0] for game in games}) == len(games)
    assert all(isinstance(game.moves[0], Deal) for game in games)


def test_the_seed_also_draws_the_first_dealer_unless_given():
    dealers = {simulate(4, seed=seed).config.first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seat in range(4):
        assert simulate(4, seed=5, dealer=seat).config.first_dealer == seat
    assert simulate(4, seed=5, dealer="Cat").config.first_dealer == 2


def test_random_move_draws_from_the_rng_it_is_given():
    config = rule_set("2e").configure(NAMES[:4])
    state = play_random_game(config, random.Random(0), stop_after=1).state  # dealt: PASS_COUNT
    assert state.phase is Phase.PASS_COUNT
    counts = {random_move(state, random.Random(seed)) for seed in range(60)}
    assert counts == {ChoosePassCount(1), ChoosePassCount(2), ChoosePassCount(3)}


# --------------------------------------------------------------------------- complete


@pytest.mark.parametrize(("rules", "players", "variants"), COMBOS)
def test_every_combination_finishes(rules, players, variants):
    for seed in range(3):
        game = simulate(players, rules=rules, variants=variants, seed=seed)
        assert game.config.rules == rules
        assert game.config.players == NAMES[:players]
        assert sorted(v.value for v in game.config.variants) == sorted(variants)
        assert game.state.phase is Phase.GAME_OVER
        assert game.state.is_over
        assert any(isinstance(event, GameEnded) for event in game.events[-1])
        with pytest.raises(ValueError):
            random_move(game.state, random.Random(seed))


def test_simulate_uses_given_player_ids():
    game = simulate(("Xia", "Yuri", "Zed"), rules="bga", seed=3)
    assert game.config.players == ("Xia", "Yuri", "Zed")
    assert game.state.is_over


@pytest.mark.parametrize("stop_after", [0, 1, 2, 7, 40])
def test_play_random_game_stops_after_the_given_number_of_moves(stop_after):
    config = rule_set("1e").configure(NAMES[:3], dealer=1)
    partial = play_random_game(config, random.Random(11), stop_after=stop_after)
    full = play_random_game(config, random.Random(11))
    assert len(partial) == stop_after
    assert not partial.state.is_over
    assert partial.moves == full.moves[:stop_after]


@pytest.mark.parametrize(("rules", "players", "variants"), COMBOS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_random_deal_deals_distinct_cards_of_the_deck(rules, players, variants, seed):
    config = rule_set(rules).configure(NAMES[:players], variants=variants)
    deal = random_deal(config, random.Random(seed))
    hand_size, top = PERFECT_DEAL[players] if "perfect" in variants else (10, 15)  # R5
    assert len(deal.hands) == players
    assert all(len(hand) == hand_size for hand in deal.hands)
    cards = [card for hand in deal.hands for card in hand]
    assert len(set(cards)) == len(cards)
    assert set(cards) <= set(config.deck)
    assert all(card.rank <= top for card in cards)


# --------------------------------------------------------------------------- the corners of R14


def test_1e_games_leave_out_optional_victims_and_rob_empty_showrooms():
    """Over a number of seeds, the simulator reaches R14's corners in 1e games:
    an optional victim left out (both kinds: a single candidate side, and several
    with nothing to take), an optional victim named anyway, and a victim whose
    Showroom is empty. It never leaves out a required victim."""
    unnamed_single = unnamed_all_empty = named_optional = empty_victim = 0
    for players in range(2, 7):
        for variants in variant_sets(players):
            for seed in range(12):
                game = simulate(players, rules="1e", variants=variants, seed=seed)
                for state, move in victim_choices(game):
                    pending = state.pending
                    assert pending is not None
                    if move.victim is None:
                        assert not pending.required
                        if len(pending.candidates) == 1:
                            unnamed_single += 1
                        else:
                            assert all(state.showroom[side] == 0 for side in pending.candidates)
                            unnamed_all_empty += 1
                    else:
                        if not pending.required:
                            named_optional += 1
                        if state.showroom[state.config.side_of[move.victim]] == 0:
                            empty_victim += 1
    assert unnamed_single >= 1
    assert unnamed_all_empty >= 1
    assert named_optional >= 1
    assert empty_victim >= 1


def test_thief_games_never_ask_for_a_victim():
    """R13: with the Thief (2e, bga, 3-6 players, no partnership) Clubs leaves no choice."""
    for rules in ("2e", "bga"):
        for players in range(3, 7):
            game = simulate(players, rules=rules, seed=players)
            assert victim_choices(game) == []


# --------------------------------------------------------------------------- bad set-ups


@pytest.mark.parametrize(
    ("players", "kwargs"),
    [
        pytest.param(1, {}, id="one-player"),
        pytest.param(7, {}, id="seven-players"),
        pytest.param(0, {}, id="no-players"),
        pytest.param(("Ann",), {}, id="one-named-player"),
        pytest.param(NAMES + ("Gus",), {}, id="seven-named-players"),
        pytest.param(6, {"variants": ["perfect"]}, id="perfect-6p"),
        pytest.param(2, {"variants": ["partnership"]}, id="partnership-2p"),
        pytest.param(3, {"variants": ["partnership"]}, id="partnership-3p"),
        pytest.param(5, {"variants": ["partnership"]}, id="partnership-5p"),
        pytest.param(6, {"variants": ["partnership", "perfect"]}, id="partnership-perfect-6p"),
        pytest.param(4, {"variants": ["bogus"]}, id="unknown-variant"),
        pytest.param(4, {"rules": "3e"}, id="unknown-rule-set"),
        pytest.param(4, {"dealer": 4}, id="dealer-seat-missing"),
        pytest.param(4, {"dealer": -1}, id="dealer-seat-negative"),
        pytest.param(4, {"dealer": "Zoe"}, id="dealer-not-playing"),
        pytest.param(("Ann", "ann", "Bob"), {}, id="seated-twice"),
        pytest.param(("Ann", "9lives"), {}, id="bad-player-id"),
    ],
)
def test_simulate_refuses_bad_set_ups(players, kwargs):
    with pytest.raises(ConfigError):
        simulate(players, seed=1, **kwargs)
