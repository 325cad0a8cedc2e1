"""Moves of the bidding game: plain frozen values, one per decision.

* `Deal`: the chance move that starts a hand (each seat's ten cards and the kitty, B2);
* `Bid`: a seat's bid (B3);
* `TakeFromKitty`: the card a seat takes from the kitty and the point card it lays (B4);
* `FinalBid`: a seat's final bid (B5);
* `PlayCard`: the next card of the trick, with its choices (B6, B7).

`str(move)` is the move's DGN wording without the player's id
(`bid 3`, `take 9H point QS`, `final 4`, `AH-`, `JoS+`).

The calls, listed by the dozen at each decision (`Bid`, `TakeFromKitty`, `FinalBid`), write their `__init__`
out: compiled, they are native (docs/build.md, the written `__init__`).
"""

from __future__ import annotations

from dataclasses import dataclass

from diamonds.core.cards import AnyCard, Card, CardParseError, Suit, card_text, format_cards, same_cards

__all__ = ["Move", "Deal", "Bid", "TakeFromKitty", "FinalBid", "PlayCard"]


@dataclass(frozen=True, slots=True, eq=False)
class Deal:
    """B2: the ten cards of each seat (by seat index) and the three cards of the kitty."""

    hands: tuple[tuple[AnyCard, ...], ...]
    kitty: tuple[AnyCard, ...]

    def __eq__(self, other: object) -> bool:
        """The same hands, each in any order (a hand is a set of cards, and its deal line's order is the
        writer's: `same_cards`), and the same kitty in the same order (the state keeps its order)."""
        if not isinstance(other, Deal):
            return NotImplemented
        return (len(self.hands) == len(other.hands) and all(map(same_cards, self.hands, other.hands))
                and self.kitty == other.kitty)

    def __hash__(self) -> int:
        return hash(tuple([frozenset(hand) for hand in self.hands]) + (self.kitty,))

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "deal"

    def __str__(self) -> str:
        return " / ".join(format_cards(hand) for hand in self.hands) + f" kitty {format_cards(self.kitty)}"


@dataclass(frozen=True, init=False, slots=True)
class Bid:
    """B3: `seat` bids `amount` tricks."""

    seat: int
    amount: int

    def __init__(self, seat: int, amount: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "amount", amount)

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "bid"

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, init=False, slots=True)
class TakeFromKitty:
    """B4: `seat` takes `card` from the kitty, then lays `point` (possibly the same card) as its point card."""

    seat: int
    card: AnyCard
    point: AnyCard

    def __init__(self, seat: int, card: AnyCard, point: AnyCard) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "point", point)

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "take"

    def __str__(self) -> str:
        return f"take {self.card} point {self.point}"


@dataclass(frozen=True, init=False, slots=True)
class FinalBid:
    """B5: `seat`'s final bid (its bid, one more, or one less)."""

    seat: int
    amount: int

    def __init__(self, seat: int, amount: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "amount", amount)

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "final"

    def __str__(self) -> str:
        return f"final {self.amount}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    """B6/B7: the next card of the trick, played by the seat whose turn it is.

    `high` is True (high) or False (low) for an ace or the Joker, and None
    for any other card. `suit` is the suit given to the Joker, and None for
    any other card; a led Joker's given suit is the led suit.
    """

    card: AnyCard
    high: bool | None = None
    suit: Suit | None = None

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "card"

    def __str__(self) -> str:
        text = str(self.card)
        if self.suit is not None:
            text += self.suit.letter
        if self.high is False:
            text += "-"
        elif self.high is True and (not isinstance(self.card, Card) or not self.card.is_ace):
            text += "+"  # canonical: a high ace is written bare (`AH`), the Joker always with its sign
        return text

    @classmethod
    def parse(cls, text: str) -> PlayCard:
        """A card as DGN writes it in a trick: `9H`, `AH`, `AH+`, `AH-`, `JoS+`, `JoD-`.

        Lenient on purpose: `7H+` or a bare `Jo` parse, and the rules refuse
        them (B7) with the error that says why. A bare ace (`AH`) is high.
        """
        body, high = text, None
        if body.endswith(("+", "-")):
            body, high = body[:-1], body.endswith("+")
        suit: Suit | None = None
        if body[:2].lower() == "jo" and len(body) == 3:
            body, suit = body[:2], Suit.parse(body[2])
        card = card_text(body)
        if card is None:
            raise CardParseError(f"not a card of a trick: {text!r}", text)
        if high is None and isinstance(card, Card) and card.is_ace:
            high = True
        return cls(card, high, suit)


Move = Deal | Bid | TakeFromKitty | FinalBid | PlayCard
