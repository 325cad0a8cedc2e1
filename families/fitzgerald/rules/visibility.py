"""What a Fitzgerald player may know (R2, R6): the one place that decides it.

The terminal view, the SVG picture, the page, `--as`, `Position.view` and the
recorder all ask here.
"""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core.cards import AnyCard
from diamonds.core.family import Sight

from .moves import Move, PassCards
from .state import Phase, State

__all__ = ["hides_vault", "sight", "is_private"]


def hides_vault(viewer_side: int | None, side: int, over: bool) -> bool:
    """R2: a Vault is seen by its own side only, until the game ends (then every score is shown)."""
    return viewer_side is not None and side != viewer_side and not over


def sight(state: State, moves: Sequence[Move], viewer: int) -> Sight:
    """The viewer's own hand, the cards they passed this round still held by whoever received them (R6),
    and every Vault but their own side's hidden until the game ends (R2)."""
    config = state.config
    known: list[frozenset[AnyCard]] = [frozenset() for _ in config.players]
    known[viewer] = frozenset(state.hands[viewer])
    passed = state.passed[viewer] if state.passed else None
    if passed:
        target = config.pass_target(viewer)
        if target != viewer:
            known[target] = frozenset(passed) & state.hands[target]
    own = config.side_of[viewer]
    over = state.phase is Phase.GAME_OVER
    hidden = frozenset(side for side in range(len(config.sides)) if hides_vault(own, side, over))
    return Sight(viewer, tuple(known), hidden)


def is_private(state: State, move: Move) -> bool:
    """Passed cards are seen by their giver and receiver only (R6)."""
    return isinstance(move, PassCards)
