"""`Bidding`: the three-handed bidding game behind the engine's family protocol."""

from __future__ import annotations

import random
from typing import Iterable, Mapping, Sequence

from diamonds.core.family import Rules, Sight
from . import engine, movetext, visibility
from .config import RULES_ID, BiddingConfig
from .events import BiddingStanding, Event
from .fast import BiddingTable
from .moves import Move
from .player import random_move
from .state import BiddingState

__all__ = ["Bidding"]


class Bidding(Rules):
    """Three-handed bidding Diamonds (RULINGS B1–B10)."""

    id = RULES_ID
    family = "bidding"
    title = "Three-handed bidding Diamonds (33 cards, Diamonds trumps, bid your tricks exactly)"
    player_counts = (3,)
    default_players = 3
    variants = ()
    option_tags = ()
    rounds_word = "hand"

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> BiddingConfig:
        return BiddingConfig.create(players, variants=variants, dealer=dealer, options=options)

    @classmethod
    def initial_state(cls, config: BiddingConfig) -> BiddingState:
        return engine.initial_state(config)

    @classmethod
    def legal_moves(cls, state: BiddingState) -> tuple[Move, ...]:
        return engine.legal_moves(state)

    @classmethod
    def apply(cls, state: BiddingState, move: Move) -> tuple[BiddingState, tuple[Event, ...]]:
        return engine.apply(state, move)

    @classmethod
    def table(cls, state: BiddingState, *, record: bool = True) -> BiddingTable:
        """The mutable table (`fast.BiddingTable`): the same decisions as `apply`, without a state per card."""
        return BiddingTable(state, record=record)

    @classmethod
    def is_over(cls, state: BiddingState) -> bool:
        return state.is_over

    @classmethod
    def to_move(cls, state: BiddingState) -> int | None:
        return state.to_move

    @classmethod
    def standings(cls, state: BiddingState) -> tuple[BiddingStanding, ...]:
        return engine.standings(state)

    @classmethod
    def random_move(cls, state: BiddingState, rng: random.Random) -> Move:
        return random_move(state, rng)

    @classmethod
    def move_text(cls, state: BiddingState, move: Move) -> str:
        return movetext.move_text(state, move)

    @classmethod
    def parse_move(cls, state: BiddingState, text: str) -> Move:
        return movetext.parse_move(state, text)

    @classmethod
    def is_private(cls, state: BiddingState, move: Move) -> bool:
        return visibility.is_private(state, move)

    @classmethod
    def sight(cls, state: BiddingState, moves: Sequence[Move], viewer: int) -> Sight:
        return visibility.sight(state, moves, viewer)
