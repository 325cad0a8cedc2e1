"""A seeded random player: complete, legal games for tests, benchmarks and learners.

Every decision is one of `legal_moves`. Plays are drawn card first, then
the card's choice (so the Joker, with eight ways to be played, is not
played eight times as often as another card).
"""

from __future__ import annotations

import random

from diamonds.core.cards import sort_cards

from .config import BiddingConfig
from .engine import legal_moves, play_choices, playable_cards
from .moves import Deal, Move
from .state import BiddingState, Phase

__all__ = ["random_deal", "random_move"]


def random_deal(config: BiddingConfig, rng: random.Random) -> Deal:
    """B2: the shuffled pack, ten cards to each seat and three to the kitty."""
    cards = list(config.deck)
    rng.shuffle(cards)
    size = config.hand_size
    n = config.player_count
    hands = tuple(sort_cards(cards[seat * size:(seat + 1) * size]) for seat in range(n))  # as a record writes them
    return Deal(hands, tuple(cards[n * size:n * size + config.kitty_size]))


def random_move(state: BiddingState, rng: random.Random) -> Move:
    """One random legal move (a random deal at a deal)."""
    phase = state.phase
    if phase is Phase.DEAL:
        return random_deal(state.config, rng)
    if phase is Phase.PLAY:
        return rng.choice(play_choices(rng.choice(playable_cards(state))))
    moves = legal_moves(state)
    if not moves:
        raise ValueError("the game is over")
    return rng.choice(moves)
