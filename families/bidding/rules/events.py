"""Events of the bidding game: what each move caused, in the order it happened.

Seats are indices into the configuration's players; names are a view's job.

The events made per card (`CardPlayed`, `TrickWon`) write their `__init__` out: compiled, they are native
(docs/build.md, the written `__init__`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from diamonds.core.cards import AnyCard, Suit
from diamonds.core.family import CardPlayedEvent, HandDealtEvent, HandNumbered, SideResult, TrickWonEvent

__all__ = [
    "Event", "HandStarted", "CardsDealt", "BidMade", "CardTaken", "FinalBidMade", "CardPlayed", "WinReason",
    "TrickWon", "SeatScore", "HandScored", "BiddingResult", "GameEnded",
]


@dataclass(frozen=True, slots=True)
class HandStarted(HandNumbered):
    hand_no: int  # 1-based
    dealer: int


@dataclass(frozen=True, slots=True)
class CardsDealt(HandDealtEvent):
    """B2: each seat's ten cards (in display order) and the kitty (in the order dealt)."""

    hand_no: int
    hands: tuple[tuple[AnyCard, ...], ...]
    kitty: tuple[AnyCard, ...]


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CardTaken:
    """B4: `seat` took `card` from the kitty and laid `point` as its point card."""

    seat: int
    card: AnyCard
    point: AnyCard


@dataclass(frozen=True, slots=True)
class FinalBidMade:
    """B5: `change` is -1, 0 or +1 from the seat's bid."""

    seat: int
    amount: int
    change: int


@dataclass(frozen=True, init=False, slots=True)
class CardPlayed(CardPlayedEvent):
    """B6/B7: one play.

    `high` is the ace's or the Joker's choice (None for other cards). `suit`
    is the suit the card counts as: its own, or the Joker's given suit.
    `followed` is True when that suit is the led suit (always for the lead);
    a Joker given another suit does not follow, but never revokes (B6).
    """

    seat: int
    card: AnyCard
    trick_no: int
    leads: bool
    high: bool | None
    suit: Suit
    followed: bool

    def __init__(
        self,
        seat: int,
        card: AnyCard,
        trick_no: int,
        leads: bool,
        high: bool | None,
        suit: Suit,
        followed: bool,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "leads", leads)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "followed", followed)


class WinReason(enum.Enum):
    """B8: why the trick's winning card won."""

    HIGH_JOKER = "high joker"  # a high Joker wins outright
    TRUMP = "trump"  # Diamonds were played: the highest Diamond (even when Diamonds were led)
    LED_SUIT = "led suit"  # no Diamond: the highest card of the led suit

    def __repr__(self) -> str:
        return f"WinReason.{self.name}"


@dataclass(frozen=True, init=False, slots=True)
class TrickWon(TrickWonEvent):
    trick_no: int
    winner: int  # the seat
    card: AnyCard  # the winning card
    cards: tuple[AnyCard, ...]  # the trick's cards in play order
    why: WinReason

    def __init__(self, trick_no: int, winner: int, card: AnyCard, cards: tuple[AnyCard, ...], why: WinReason) -> None:
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "why", why)


@dataclass(frozen=True, slots=True)
class SeatScore:
    """B9: one seat's result for a hand."""

    seat: int
    final_bid: int
    tricks: int
    point_card: AnyCard
    points: int  # + the point card's value when tricks == final_bid, else - it
    total: int  # the seat's total after this hand

    @property
    def made(self) -> bool:
        return self.tricks == self.final_bid


@dataclass(frozen=True, slots=True)
class HandScored:
    hand_no: int
    seats: tuple[SeatScore, ...]  # by seat

    @property
    def round_no(self) -> int:
        """The generic layers' name for the hand number."""
        return self.hand_no

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(s.points for s in self.seats)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.seats)


@dataclass(frozen=True, init=False, slots=True)
class BiddingResult(SideResult):
    """A seat's result: `side` is the seat, `score` its total (may be negative)."""

    def __init__(self, side: int, score: int, winner: bool) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "winner", winner)


@dataclass(frozen=True, slots=True)
class GameEnded:
    """B10: the final standings, by seat."""

    standings: tuple[BiddingResult, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.side for s in self.standings if s.winner)


Event = (
    HandStarted | CardsDealt | BidMade | CardTaken | FinalBidMade | CardPlayed | TrickWon | HandScored | GameEnded
)
