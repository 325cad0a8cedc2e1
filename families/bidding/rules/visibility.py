"""What a player of the bidding game may know (B2, B4): the one place that decides it."""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core.cards import AnyCard
from diamonds.core.family import Sight

from .moves import Move, TakeFromKitty
from .state import BiddingState

__all__ = ["sight", "is_private"]


def sight(state: BiddingState, moves: Sequence[Move], viewer: int) -> Sight:
    """Own hand; the point cards and the kitty stay face down (B4), so `hidden` names others' `point`."""
    players = state.config.players
    known: list[frozenset[AnyCard]] = [frozenset() for _ in players]
    known[viewer] = frozenset(state.hands[viewer])
    hidden = tuple(frozenset() if seat == viewer else frozenset({"point", "taken"}) for seat in range(len(players)))
    return Sight(viewer, tuple(known), frozenset(), hidden)


def is_private(state: BiddingState, move: Move) -> bool:
    """The card taken from the kitty and the point card laid are face down (B4)."""
    return isinstance(move, TakeFromKitty)
