"""Suits, cards and decks: small values that round-trip through text.

Cards are interned: there are at most 60 of them, so `Card.parse` is a
dictionary lookup and identity comparison is as good as equality.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

__all__ = ["Suit", "Card", "CardParseError", "SUITS", "deck", "MAX_RANK"]

MAX_RANK = 15


class Suit(enum.Enum):
    """The four suits, declared in the order end-of-round awards use (R16)."""

    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """Accept a letter in either case or a suit symbol."""
        try:
            return _SUIT_BY_TEXT[text]
        except KeyError:
            raise CardParseError(f"not a suit: {text!r} (expected D, H, S, C or ♦ ♥ ♠ ♣)") from None

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


SUITS: tuple[Suit, ...] = tuple(Suit)
for _i, _suit in enumerate(SUITS):
    _suit.index = _i  # type: ignore[attr-defined]  # position in D, H, S, C; a plain attribute for speed
_SYMBOLS = {Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT: dict[str, Suit] = {}
for _suit in SUITS:
    _SUIT_BY_TEXT[_suit.value] = _suit
    _SUIT_BY_TEXT[_suit.value.lower()] = _suit
    _SUIT_BY_TEXT[_SYMBOLS[_suit]] = _suit


class CardParseError(ValueError):
    """Text that is not a card."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card: rank 1..15 and suit. `str(card)` is its canonical DGN form.

    Cards are interned, so equality and hashing are by identity (fast, and
    the same as by value).
    """

    rank: int
    suit: Suit

    def __new__(cls, rank: int, suit: Suit) -> "Card":
        try:
            return _CARDS[rank, suit]
        except (KeyError, TypeError):
            pass
        if not _BUILDING:
            raise CardParseError(f"no such card: rank {rank!r}, suit {suit!r} (ranks are 1 to {MAX_RANK})")
        return object.__new__(cls)

    @classmethod
    def parse(cls, text: str) -> "Card":
        """`Card.parse("15C")`; suits in either case or as symbols; no leading zero."""
        card = _CARD_BY_TEXT.get(text)
        if card is None:
            raise CardParseError(f"not a card: {text!r} (expected a rank 1-15 and a suit D/H/S/C)")
        return card

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.suit.index, self.rank)

    def __str__(self) -> str:
        return _TEXT[self]  # made once: writers and exports ask for it for every card

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: object) -> "Card":
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (str(self),))


_BUILDING = True
_CARDS: dict[tuple[int, Suit], Card] = {}
_TEXT: dict[Card, str] = {}
for _suit in SUITS:
    for _rank in range(1, MAX_RANK + 1):
        _CARDS[_rank, _suit] = _TEXT_CARD = Card(_rank, _suit)
        _TEXT[_TEXT_CARD] = f"{_rank}{_suit.value}"
_BUILDING = False

_CARD_BY_TEXT: dict[str, Card] = {}
for (_rank, _suit), _card in _CARDS.items():
    for _text in (_suit.value, _suit.value.lower(), _SYMBOLS[_suit]):
        _CARD_BY_TEXT[f"{_rank}{_text}"] = _card


@lru_cache(maxsize=None)
def deck(max_rank: int = MAX_RANK) -> tuple[Card, ...]:
    """The cards of ranks 1..max_rank in every suit, in sort order."""
    return tuple(_CARDS[rank, suit] for suit in SUITS for rank in range(1, max_rank + 1))


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in suit order (D, H, S, C), then rank: the order hands are shown in."""
    return tuple(sorted(cards, key=_sort_key))


def _sort_key(card: Card) -> tuple[int, int]:
    return (card.suit.index, card.rank)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
