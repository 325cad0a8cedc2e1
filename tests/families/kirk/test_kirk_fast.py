"""Kirk's fast table (`kirk/fast.py`) against the pure `apply`, move by move, on random games.

The pure path is the definition: after every move the table's snapshot must
equal the pure state, its events the pure events, its standings the pure
standings; every illegal move must raise the same `IllegalMove` subclass
with the same message and data fields, and leave the table as it was. The
batched `play_run` must stop exactly where the pure path would refuse.
"""

from __future__ import annotations

import random
from typing import Any

import fastcheck
import pytest

from diamonds.core.cards import JOKER, Card, Suit
from diamonds.families.kirk.rules import Deal, Kirk, Phase, PlayCard, State
from diamonds.families.kirk.rules.fast import KirkTable

PLAYERS = ("Ann", "Bob", "Cat", "Dan")
PACK = tuple(Card(rank, suit, rank > 10) for suit in Suit for rank in range(2, 15))
FOREIGN = (JOKER, Card(11, Suit.DIAMONDS), Card(1, Suit.HEARTS), Card(15, Suit.CLUBS))
OPTIONS = ({}, {"Hands": "2"}, {"Target": "300"}, {"Hands": "1"})


def illegal_moves(state: State, rng: random.Random) -> list[Any]:
    """A few moves the pure path refuses here (checked below), of every kind."""
    moves: list[Any] = [PlayCard(rng.choice(FOREIGN))]
    seat = state.to_move
    if seat is not None:
        others = [card for card in PACK if card not in state.hands[seat]]
        moves += [PlayCard(card) for card in rng.sample(others, 3)]
    pack = list(PACK)
    rng.shuffle(pack)
    deal = [tuple(pack[i * 13:(i + 1) * 13]) for i in range(4)]
    moves.append(Deal(tuple(deal[:3])))
    moves.append(Deal((deal[0][:12], *deal[1:])))
    moves.append(Deal((deal[0][:12] + (deal[1][0],), *deal[1:])))
    moves.append(Deal((deal[0][:12] + (rng.choice(FOREIGN),), *deal[1:])))
    if state.phase is not Phase.DEAL:
        moves.append(Deal(tuple(deal)))
    return moves


def check_game(seed: int) -> int:
    config = Kirk.configure(PLAYERS, dealer=seed % 4, options=OPTIONS[seed % len(OPTIONS)])
    return fastcheck.check_game(Kirk, config, KirkTable, seed, illegal_moves)


def test_fast_table_makes_the_pure_moves() -> None:
    moves = sum(check_game(seed) for seed in range(24))
    assert moves > 3000


def test_random_illegal_plays_after_random_moves() -> None:
    """At many positions, every card of the pack (and foreign ones): the same answer, the same error."""
    configs = [Kirk.configure(PLAYERS, dealer=seed % 4) for seed in range(6)]
    plays = [PlayCard(card) for card in (*PACK, *FOREIGN)]
    fastcheck.check_refusals_along(Kirk, configs, plays, Phase.PLAY, 0.3, random.Random(7))


@pytest.mark.parametrize("seed", range(8))
def test_play_run_stops_where_the_pure_path_refuses(seed: int) -> None:
    """A hand's cards in one run, with a wrong card slipped in somewhere: it stops before it."""
    rng = random.Random(seed)
    config = Kirk.configure(PLAYERS, dealer=seed % 4, options={"Hands": "3"})
    state = Kirk.initial_state(config)
    table = Kirk.table(state, record=False)
    loud = Kirk.table(state)
    assert isinstance(table, KirkTable) and isinstance(loud, KirkTable)
    while not Kirk.is_over(state):
        state = fastcheck.apply_all(Kirk, state, Kirk.random_move(state, rng), table, loud)
        cards: list[Any] = []
        probe = state
        while probe.phase is Phase.PLAY and probe.hand_no == state.hand_no:
            move = Kirk.random_move(probe, rng)
            cards.append(move.card)
            probe, _ = Kirk.apply(probe, move)
        wrong = rng.randrange(len(cards) + 10)  # sometimes no wrong card at all
        if wrong < len(cards):
            cards.insert(wrong, rng.choice((*FOREIGN, *PACK)))
        cards += [rng.choice(PACK)] * 2  # cards past the end of the hand are not played
        state = fastcheck.check_play_run(Kirk, state, table, loud, cards, Phase.PLAY, rng, PlayCard)


# --------------------------------------------------------------------------- the replay's check path


def corrupted_token(rng: random.Random) -> str:
    """What a corrupted trick line's changed card becomes (`fastcheck.corrupted`)."""
    return str(rng.choice((*PACK, *PACK, *FOREIGN)))


@pytest.mark.parametrize("seed", range(12))
def test_check_path_reports_what_the_full_replay_reports(seed: int) -> None:
    """`validate_record` (no history: `play_run` over a hand's tricks) and the full card-by-card replay
    report the same problems and notes, on simulated records with a card changed."""
    from diamonds.core import simulate

    game = simulate(4, rules="kirk", seed=seed, options=OPTIONS[seed % len(OPTIONS)])
    fastcheck.check_path_matches(game, seed, fastcheck.swap_drop_or_change(corrupted_token))
