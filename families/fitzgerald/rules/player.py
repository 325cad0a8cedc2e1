"""Fitzgerald's random player: complete, legal games for tests, benchmarks and learners.

Every decision is drawn from `legal_moves`, so a simulated game is legal by
construction and explores the corners (empty Showrooms, victims with nothing
to take, unnamed optional victims) that careful players rarely reach.
"""

from __future__ import annotations

import random

from diamonds.core.cards import sort_cards

from .config import GameConfig
from .engine import playable_cards
from .moves import ChoosePassCount, ChooseVictim, Deal, Move, PassCards, PlayCard
from .state import Phase, State

__all__ = ["random_deal", "random_move"]


def random_deal(config: GameConfig, rng: random.Random) -> Deal:
    cards = list(config.deck)
    rng.shuffle(cards)
    size = config.hand_size
    return Deal(tuple(sort_cards(cards[i * size:(i + 1) * size]) for i in range(config.player_count)))  # display order


def random_move(state: State, rng: random.Random) -> Move:
    """One random legal move (a random deal at a deal) without listing every pass."""
    phase = state.phase
    if phase is Phase.PLAY:
        return PlayCard(rng.choice(playable_cards(state)))
    if phase is Phase.CHOOSE_VICTIM:
        pending = state.pending
        assert pending is not None
        seats = [seat for side in pending.candidates for seat in state.config.sides[side]]
        if not pending.required and rng.random() < 0.5:
            return ChooseVictim(None)
        return ChooseVictim(rng.choice(seats))
    if phase is Phase.PASSING:
        seat = state.to_move
        assert seat is not None and state.pass_count is not None
        return PassCards(seat, tuple(rng.sample(state.hand(seat), state.pass_count)))
    if phase is Phase.PASS_COUNT:
        return ChoosePassCount(rng.randint(1, 3))
    if phase is Phase.DEAL:
        return random_deal(state.config, rng)
    raise ValueError("the game is over")
