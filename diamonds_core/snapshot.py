"""A mutable table over a family's pure `apply`: what the batched tables (Kirk's, the bidding game's) share.

The pure `apply` stays the definition of the rules. A table unpacks a frozen
state into mutable fields (`load`), plays the common case of the tricks itself
(`play_run`, the hot loop of checking a record) and hands everything else to
the pure path on a snapshot (`pure`), so that an illegal move raises exactly
the pure path's `IllegalMove`. While nothing has changed since the last
snapshot, that snapshot is kept and `freeze` returns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .family import SideResult

__all__ = ["SnapshotTable"]

S = TypeVar("S")  # the family's frozen state
E = TypeVar("E")  # the family's events
C = TypeVar("C")  # the family's config


class SnapshotTable(Generic[S, E, C]):
    """The `Table` protocol over `load`, `freeze` and `play_run`, which a family writes, and its pure functions.

    A family's table says `play_phase` and `over_phase` (its `Phase` members), `card_move` (the move
    `play_run` plays itself, in the play phase) and `run_item` (what of that move it takes)."""

    __slots__ = ("config", "record", "snapshot", "phase", "events")

    # Class attributes, each table's own; ClassVar, so that mypyc does not make them slots of the instance.
    play_phase: ClassVar[Any]
    over_phase: ClassVar[Any]
    card_move: ClassVar[type]
    phase: Any
    snapshot: S | None

    def __init__(self, state: S, *, record: bool = True) -> None:
        self.config: C = getattr(state, "config")  # noqa: B009  (every family's state has one)
        self.record = record
        self.events: list[E] | None = [] if record else None  # what the last move caused
        self.load(state)

    def load(self, state: S) -> None:
        """Take `state` as the table's position (it stays the snapshot until a card is played)."""
        raise NotImplementedError

    def freeze(self) -> S:
        raise NotImplementedError

    def play_run(self, items: Sequence[Any], start: int) -> int:
        """Play `items[start:]` while each is legal and the hand goes on; the index it stopped at."""
        raise NotImplementedError

    def run_item(self, move: Any) -> Any:
        """What `play_run` takes of a card move (the move itself, or its card)."""
        return move

    def pure_apply(self, state: S, move: Any) -> tuple[S, tuple[E, ...]]:
        raise NotImplementedError

    def pure_standings(self, state: S) -> tuple[SideResult, ...]:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return bool(self.phase is self.over_phase)

    def standings(self) -> tuple[SideResult, ...]:
        return self.pure_standings(self.freeze())

    def apply(self, move: Any) -> tuple[E, ...]:
        """Check and make one move; the events it caused (none when not recording)."""
        if type(move) is self.card_move and self.phase is self.play_phase:
            if self.record:
                self.events = []
            if self.play_run((self.run_item(move),), 0):
                return tuple(self.events) if self.events else ()
        return self.pure(move)

    def pure(self, move: Any) -> tuple[E, ...]:
        """The move by the pure path (raising its `IllegalMove`, the table unchanged)."""
        after, events = self.pure_apply(self.freeze(), move)
        self.load(after)
        return events if self.record else ()
