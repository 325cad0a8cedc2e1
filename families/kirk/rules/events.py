"""Events of Kirk's Diamonds: what a move caused, in the order it happened.

The engine returns these from every move so that a replay can narrate each
step and an export can record it without re-deriving the rules. Seats are
indices into `KirkConfig.players` (each player is their own side, K1).

The events made per card or trick (`CardPlayed`, `TieBroken`, `TrickWon`, and the `TieBreak` and `TieStep`
they hold) write their `__init__` out: compiled, they are native (docs/build.md, the written `__init__`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from diamonds.core.cards import Card
from diamonds.core.family import CardPlayedEvent, HandDealtEvent, HandNumbered, SideResult, TrickWonEvent

__all__ = [
    "Event", "DecidedBy", "TieStep", "TieBreak", "KirkResult", "HandStarted", "CardsDealt", "CardPlayed",
    "TieBroken", "TrickWon", "HandScored", "GameEnded",
]


class DecidedBy(enum.Enum):
    """How a trick's winner was found (K5)."""

    HIGHEST = "highest"  # one card had the highest value
    PILES = "piles"  # the tie was broken by cards revealed from the scoring piles
    FIRST_PLAYED = "first played"  # no tied player had a card left: the first of them to play wins


@dataclass(frozen=True, init=False, slots=True)
class TieStep:
    """One step of a tie-break (K5): the cards at one depth of the tied players' piles.

    `revealed`: (seat, card) of each player still tied who has a card at this
    depth, in play order. `no_card`: the players still tied who have none
    (they drop out, unless nobody has one). `outvalued`: those whose revealed
    card's value is below the highest revealed (they drop out). `remaining`:
    the players still tied after the step, in play order.
    """

    depth: int  # 1: the top card of the pile, 2: the card under it, …
    revealed: tuple[tuple[int, Card], ...]
    no_card: tuple[int, ...]
    outvalued: tuple[int, ...]
    remaining: tuple[int, ...]

    def __init__(
        self,
        depth: int,
        revealed: tuple[tuple[int, Card], ...],
        no_card: tuple[int, ...],
        outvalued: tuple[int, ...],
        remaining: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "revealed", revealed)
        object.__setattr__(self, "no_card", no_card)
        object.__setattr__(self, "outvalued", outvalued)
        object.__setattr__(self, "remaining", remaining)

    @property
    def dropped(self) -> tuple[int, ...]:
        """Who dropped out at this step (nobody when no one had a card at this depth)."""
        if not self.revealed:
            return ()
        return self.no_card + self.outvalued


@dataclass(frozen=True, init=False, slots=True)
class TieBreak:
    """How a trick was decided (K5): `trick_winner`'s record.

    `tied`: the seats that played the highest value, in play order (just the
    winner when one card was highest). `depth`: 0 when decided by the
    highest card; for `PILES` the step that left one player; for
    `FIRST_PLAYED` the step at which none of those still tied had a card.
    """

    winner: int
    tied: tuple[int, ...]
    decided_by: DecidedBy
    depth: int
    steps: tuple[TieStep, ...]

    def __init__(
        self,
        winner: int,
        tied: tuple[int, ...],
        decided_by: DecidedBy,
        depth: int,
        steps: tuple[TieStep, ...],
    ) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "tied", tied)
        object.__setattr__(self, "decided_by", decided_by)
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "steps", steps)


@dataclass(frozen=True, init=False, slots=True)
class KirkResult(SideResult):
    """A player's result: `side` is the seat, `score` the total so far (K7), `winner` the highest total (K8)."""

    def __init__(self, side: int, score: int, winner: bool) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "winner", winner)


@dataclass(frozen=True, slots=True)
class HandStarted(HandNumbered):
    hand_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class CardsDealt(HandDealtEvent):
    hand_no: int
    hands: tuple[tuple[Card, ...], ...]  # per seat, in display order


@dataclass(frozen=True, init=False, slots=True)
class CardPlayed(CardPlayedEvent):
    seat: int
    card: Card
    trick_no: int
    leads: bool
    value: int  # K3

    def __init__(self, seat: int, card: Card, trick_no: int, leads: bool, value: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "leads", leads)
        object.__setattr__(self, "value", value)


@dataclass(frozen=True, init=False, slots=True)
class TieBroken:
    """Several players played the highest value; how their piles decided it (K5). Before `TrickWon`."""

    trick_no: int
    winner: int
    tied: tuple[int, ...]
    decided_by: DecidedBy
    depth: int
    steps: tuple[TieStep, ...]

    def __init__(
        self,
        trick_no: int,
        winner: int,
        tied: tuple[int, ...],
        decided_by: DecidedBy,
        depth: int,
        steps: tuple[TieStep, ...],
    ) -> None:
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "tied", tied)
        object.__setattr__(self, "decided_by", decided_by)
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "steps", steps)


@dataclass(frozen=True, init=False, slots=True)
class TrickWon(TrickWonEvent):
    """The trick's cards (in play order) go on top of the winner's scoring pile (K6)."""

    trick_no: int
    winner: int
    card: Card  # the winner's card
    cards: tuple[Card, ...]  # in play order
    tied: tuple[int, ...]  # the seats that played the highest value (just the winner without a tie)
    decided_by: DecidedBy
    depth: int  # see `TieBreak.depth`

    def __init__(
        self,
        trick_no: int,
        winner: int,
        card: Card,
        cards: tuple[Card, ...],
        tied: tuple[int, ...],
        decided_by: DecidedBy,
        depth: int,
    ) -> None:
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "tied", tied)
        object.__setattr__(self, "decided_by", decided_by)
        object.__setattr__(self, "depth", depth)


@dataclass(frozen=True, slots=True)
class HandScored:
    """The end of a hand (K7): each pile's points, and the totals after adding them."""

    hand_no: int
    points: tuple[int, ...]  # per seat, this hand
    totals: tuple[int, ...]  # per seat, after this hand

    @property
    def round_no(self) -> int:
        return self.hand_no


@dataclass(frozen=True, slots=True)
class GameEnded:
    standings: tuple[KirkResult, ...]  # in seat order

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(standing.side for standing in self.standings if standing.winner)


Event = HandStarted | CardsDealt | CardPlayed | TieBroken | TrickWon | HandScored | GameEnded
