"""The state of a game of Kirk's Diamonds between two moves: one frozen value.

`State`, made after every move of a game that keeps its history, writes its `__init__` out: compiled, it is
native (docs/build.md, the written `__init__`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from diamonds.core.cards import Card, sort_cards

from .config import KirkConfig
from .rules import pile_points

__all__ = ["Phase", "State"]


class Phase(enum.Enum):
    DEAL = "deal"  # a chance move: the cards of the hand (K2)
    PLAY = "play"  # the player to move plays a card (K4)
    GAME_OVER = "game over"  # K8


@dataclass(frozen=True, init=False, slots=True)
class State:
    """A game between two moves.

    `piles` are the scoring piles of this hand (K6): per seat, the cards won,
    bottom first, so that `pile[-1]` is the top card. `totals` are the
    scores of the hands before this one (K7). Once the game is over, `piles`
    still show the last hand and `totals` include it.
    """

    config: KirkConfig
    phase: Phase
    hand_no: int  # 1-based
    dealer: int
    hands: tuple[frozenset[Card], ...]  # per seat
    trick_no: int  # 1-based: the trick in progress (or next)
    leader: int
    trick: tuple[tuple[int, Card], ...]  # plays so far: (seat, card)
    piles: tuple[tuple[Card, ...], ...]  # per seat, bottom first
    totals: tuple[int, ...]  # per seat

    def __init__(
        self,
        config: KirkConfig,
        phase: Phase,
        hand_no: int,
        dealer: int,
        hands: tuple[frozenset[Card], ...],
        trick_no: int,
        leader: int,
        trick: tuple[tuple[int, Card], ...],
        piles: tuple[tuple[Card, ...], ...],
        totals: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "hand_no", hand_no)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "piles", piles)
        object.__setattr__(self, "totals", totals)

    @property
    def round_no(self) -> int:
        """The generic layers' name for the hand number."""
        return self.hand_no

    @property
    def to_move(self) -> int | None:
        """The seat whose card is due; None at a deal or when the game is over."""
        if self.phase is Phase.PLAY:
            return (self.leader + len(self.trick)) % len(self.hands)  # a hand a seat; clockwise from the leader (K4)
        return None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def hand_points(self) -> tuple[int, ...]:
        """Per seat, the points in their scoring pile this hand (K7)."""
        return tuple(pile_points(pile) for pile in self.piles)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Per seat, tricks won this hand."""
        per_trick = self.config.plays_per_trick
        return tuple(len(pile) // per_trick for pile in self.piles)

    def with_trick(self, hands: tuple[frozenset[Card], ...], trick_no: int, leader: int,
                   trick: tuple[tuple[int, Card], ...], piles: tuple[tuple[Card, ...], ...]) -> State:
        """This state after a card: the fields a card changes, the rest kept. By the constructor, not
        `dataclasses.replace`, which reads every field by name: a card is the engine's commonest move, and
        the playouts of `mc` apply one for every move they judge."""
        return State(self.config, self.phase, self.hand_no, self.dealer, hands, trick_no, leader, trick, piles,
                     self.totals)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand in display order."""
        return sort_cards(self.hands[seat])

    def holder(self, card: Card) -> int | None:
        """The seat holding `card`, if anyone does."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None
