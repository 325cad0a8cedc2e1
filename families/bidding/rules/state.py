"""The state of a bidding game between two moves: one frozen value.

`BiddingState`, made after every move of a game that keeps its history, and `Played`, made per card, write their
`__init__` out: compiled, they are native (docs/build.md, the written `__init__`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from diamonds.core.cards import AnyCard, Suit, sort_cards

from .config import BiddingConfig

__all__ = ["Phase", "Played", "BiddingState"]


class Phase(enum.Enum):
    DEAL = "deal"  # a chance move: the hand's cards (B2)
    BID = "bid"  # B3
    TAKE = "take"  # B4
    FINAL = "final"  # B5
    PLAY = "play"  # B6
    GAME_OVER = "game over"  # B10

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True, init=False, slots=True)
class Played:
    """One card in the trick: who played it, its choice, and the suit it counts as (B7)."""

    seat: int
    card: AnyCard
    high: bool | None
    suit: Suit

    def __init__(self, seat: int, card: AnyCard, high: bool | None, suit: Suit) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "suit", suit)


@dataclass(frozen=True, init=False, slots=True)
class BiddingState:
    """Seat-indexed tuples hold the current hand's facts.

    A scored hand clears them for the next hand, except the game's last
    hand: the final state still shows it (and `hand_no` is that hand's).
    `bids`, `taken`, `point_cards` and `final_bids` are None for a seat
    that has not yet made that decision.
    """

    config: BiddingConfig
    phase: Phase
    hand_no: int  # 1-based: the hand being played (or about to be dealt)
    dealer: int
    scores: tuple[int, ...]  # B9: totals, by seat
    hands: tuple[frozenset[AnyCard], ...]
    kitty: tuple[AnyCard, ...]  # what is left of it, in the order dealt
    bids: tuple[int | None, ...]
    taken: tuple[AnyCard | None, ...]  # the card each seat took from the kitty
    point_cards: tuple[AnyCard | None, ...]
    final_bids: tuple[int | None, ...]
    trick_no: int  # 1-based: the trick in progress (or next)
    leader: int
    trick: tuple[Played, ...]
    tricks_won: tuple[int, ...]

    def __init__(
        self,
        config: BiddingConfig,
        phase: Phase,
        hand_no: int,
        dealer: int,
        scores: tuple[int, ...],
        hands: tuple[frozenset[AnyCard], ...],
        kitty: tuple[AnyCard, ...],
        bids: tuple[int | None, ...],
        taken: tuple[AnyCard | None, ...],
        point_cards: tuple[AnyCard | None, ...],
        final_bids: tuple[int | None, ...],
        trick_no: int,
        leader: int,
        trick: tuple[Played, ...],
        tricks_won: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "hand_no", hand_no)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "kitty", kitty)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "point_cards", point_cards)
        object.__setattr__(self, "final_bids", final_bids)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "tricks_won", tricks_won)

    def with_hidden(self, hands: tuple[frozenset[AnyCard], ...], point_cards: tuple[AnyCard | None, ...],
                    kitty: tuple[AnyCard, ...]) -> BiddingState:
        """This state with other hands, point cards and kitty, the rest kept: the bots' redrawn worlds. By the
        constructor, not `dataclasses.replace`, which reads every field by name and, compiled, is the one
        interpreted call of a redraw."""
        return BiddingState(self.config, self.phase, self.hand_no, self.dealer, self.scores, hands, kitty, self.bids,
                            self.taken, point_cards, self.final_bids, self.trick_no, self.leader, self.trick,
                            self.tricks_won)

    def with_trick(self, hands: tuple[frozenset[AnyCard], ...], trick_no: int, leader: int, trick: tuple[Played, ...],
                   tricks_won: tuple[int, ...]) -> BiddingState:
        """This state after a card: the fields a card (and a trick won) changes, the rest kept. By the
        constructor, not `dataclasses.replace`, for the reason `with_hidden` gives: `mc` applies a card for
        every move it judges."""
        return BiddingState(self.config, self.phase, self.hand_no, self.dealer, self.scores, hands, self.kitty,
                            self.bids, self.taken, self.point_cards, self.final_bids, trick_no, leader, trick,
                            tricks_won)

    @property
    def round_no(self) -> int:
        """The generic layers' name for the hand number."""
        return self.hand_no

    @property
    def turn_order(self) -> tuple[int, ...]:
        """B3, B4, B5: the dealer's left first, the dealer last."""
        return self.config.turn_order(self.dealer)

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is due; None at a deal or when the game is over."""
        phase = self.phase
        if phase is Phase.PLAY:
            return (self.leader + len(self.trick)) % len(self.hands)  # a hand a seat; clockwise from the leader (B6)
        if phase is Phase.BID:
            return self._first_without(self.bids)
        if phase is Phase.TAKE:
            return self._first_without(self.point_cards)
        if phase is Phase.FINAL:
            return self._first_without(self.final_bids)
        return None

    def _first_without(self, decided: tuple[object | None, ...]) -> int | None:
        for seat in self.turn_order:
            if decided[seat] is None:
                return seat
        return None

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the trick's first card (a led Joker's given suit, B7)."""
        return self.trick[0].suit if self.trick else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def hand(self, seat: int) -> tuple[AnyCard, ...]:
        """A seat's hand in display order (the Joker last)."""
        return sort_cards(self.hands[seat])
