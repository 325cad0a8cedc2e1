"""Events: what a move caused, in the order it happened.

The engine returns these from every move so that a replay can narrate each
step and an export can record it, without either re-deriving the rules.
Seats and sides are indices (see `GameConfig`); names are the renderer's job.

The events made per card or per Suit Action (`Area`, `CardsPassed`, `CardPlayed`, `SuitAction`, `TrickWon`)
write their `__init__` out: compiled, they are native (docs/build.md, the written `__init__`).
"""

from __future__ import annotations

from dataclasses import dataclass

from diamonds.core.cards import Card, IdentityEnum, Suit
from diamonds.core.family import CardPlayedEvent, CardsDealtEvent, SideResult, TrickWonEvent

__all__ = [
    "Event", "Area", "AreaKind", "Reason", "RoundStarted", "CardsDealt", "PassCountChosen",
    "CardsPassed", "PassesDelivered", "CardPlayed", "SuitAction", "TrickWon", "RoundEnded",
    "GameEnded", "FitzgeraldResult",
]


class AreaKind(IdentityEnum):
    SUPPLY = "supply"
    SHOWROOM = "showroom"
    VAULT = "vault"


@dataclass(frozen=True, init=False, slots=True)
class Area:
    """Where points lie: the Supply, or a side's Showroom or Vault."""

    kind: AreaKind
    side: int | None = None

    def __init__(self, kind: AreaKind, side: int | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "side", side)


SUPPLY = Area(AreaKind.SUPPLY)


class Reason(IdentityEnum):
    """Why a Suit Action was earned."""

    OFF_SUIT = "off-suit"  # R9
    TRICK_WON = "trick won"  # R10
    SUIT_MAJORITY = "suit majority"  # R16
    NO_TRICKS = "no tricks"  # R17


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_no: int
    dealer: int
    thief: int | None


@dataclass(frozen=True, slots=True)
class CardsDealt(CardsDealtEvent):
    round_no: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class PassCountChosen:
    dealer: int
    count: int


@dataclass(frozen=True, init=False, slots=True)
class CardsPassed:
    giver: int
    receiver: int
    cards: tuple[Card, ...]

    def __init__(self, giver: int, receiver: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "giver", giver)
        object.__setattr__(self, "receiver", receiver)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class PassesDelivered:
    """All passes are handed over at once (R6)."""

    round_no: int


@dataclass(frozen=True, init=False, slots=True)
class CardPlayed(CardPlayedEvent):
    seat: int
    card: Card
    trick_no: int
    led_suit: Suit  # the suit led (the card's own suit when it leads)
    leads: bool
    followed: bool  # of the led suit (True for the lead)

    def __init__(self, seat: int, card: Card, trick_no: int, led_suit: Suit, leads: bool, followed: bool) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "led_suit", led_suit)
        object.__setattr__(self, "leads", leads)
        object.__setattr__(self, "followed", followed)


@dataclass(frozen=True, init=False, slots=True)
class SuitAction:
    """One Suit Action: who, which suit, why, and what it actually moved.

    `points` is 0 when nothing could move (empty Supply, empty Showroom,
    the actor holds the Thief); the action still happened (and moved the
    Thief, R13).
    """

    actor: int | None  # the seat; None for a team's end-of-round award
    side: int
    suit: Suit
    reason: Reason
    source: Area
    target: Area
    points: int
    victim: int | None = None  # side robbed by Clubs
    thief_before: int | None = None
    thief_after: int | None = None

    def __init__(
        self,
        actor: int | None,
        side: int,
        suit: Suit,
        reason: Reason,
        source: Area,
        target: Area,
        points: int,
        victim: int | None = None,
        thief_before: int | None = None,
        thief_after: int | None = None,
    ) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "victim", victim)
        object.__setattr__(self, "thief_before", thief_before)
        object.__setattr__(self, "thief_after", thief_after)


@dataclass(frozen=True, init=False, slots=True)
class TrickWon(TrickWonEvent):
    trick_no: int
    winner: int
    card: Card
    led_suit: Suit
    cards: tuple[Card, ...]

    def __init__(self, trick_no: int, winner: int, card: Card, led_suit: Suit, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "led_suit", led_suit)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The last trick is taken; the awards (SuitAction events) follow."""

    round_no: int
    taken: tuple[tuple[int, int, int, int], ...]  # per side, per suit D H S C
    tricks_won: tuple[int, ...]  # per seat
    majority: tuple[int | None, int | None, int | None, int | None]  # side per suit, None on a tie


@dataclass(frozen=True, init=False, slots=True)
class FitzgeraldResult(SideResult):
    """R18: a side's score, with what it came from (Vault and Showroom)."""

    vault: int
    showroom: int

    def __init__(self, side: int, score: int, winner: bool, vault: int, showroom: int) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "vault", vault)
        object.__setattr__(self, "showroom", showroom)


@dataclass(frozen=True, slots=True)
class GameEnded:
    results: tuple[FitzgeraldResult, ...]  # in seat order of the sides

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(r.side for r in self.results if r.winner)


Event = (
    RoundStarted | CardsDealt | PassCountChosen | CardsPassed | PassesDelivered | CardPlayed
    | SuitAction | TrickWon | RoundEnded | GameEnded
)
