"""Suits and cards of every game called Diamonds: small values that round-trip through text.

One card vocabulary serves all the families, because DGN has one notation:

* numbered cards `1D` … `15C` (Fitzgerald's deck uses 1-15; the standard
  pack's 2-10 are the same cards);
* court cards and aces `JD`, `QH`, `KS`, `AC` (the standard pack; `T` is read
  as 10);
* the Joker `Jo` (the bidding game), which belongs to no suit.

`11D` and `JD` are different cards: which of them a game may hold is its
family's deck, checked by the rules, never by the notation. Cards are
interned, so `Card.parse` is a dictionary lookup and identity is equality.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeVar

__all__ = [
    "IdentityEnum", "Suit", "Card", "Joker", "JOKER", "AnyCard", "CardParseError", "SUITS", "MAX_RANK", "COURT_RANKS",
    "card_text", "card_texts", "sort_cards", "same_cards", "format_cards", "numbered_cards", "standard_cards",
]

MAX_RANK = 15
#: The rank value of a court card or ace, by its letter: J 11, Q 12, K 13, A 14.
COURT_RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}


class IdentityEnum(enum.Enum):
    """An enum whose members hash by identity, in C. A member is equal only to itself, so the answers are
    `Enum`'s; but `Enum`'s own hash (of the member's name) is Python code, run at every lookup of a set or dict
    keyed by a member: the suits of a redraw's voids, the Suit Actions an export looks up, once a card."""

    __hash__ = object.__hash__


class Suit(IdentityEnum):
    """The four suits, declared in the order end-of-round awards use (R16)."""

    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    CLUBS = "C"

    index: int  # position in D, H, S, C: a plain attribute, read in hot loops (set below, after the class)

    @property
    def letter(self) -> str:
        return str(self.value)

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Accept a letter in either case or a suit symbol."""
        try:
            return _SUIT_BY_TEXT[text]
        except KeyError:
            raise CardParseError(f"not a suit: {text!r} (expected D, H, S, C or ♦ ♥ ♠ ♣)", text) from None

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
# Each suit's index, set once the class exists: an Enum's own __init__ runs while the class is being
# built, which mypyc's compiled methods cannot (they check `self` against the finished class).
for _index, _suit in enumerate(SUITS):
    _suit.index = _index
_SYMBOLS: Final = {Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT: Final[dict[str, Suit]] = {}
for _suit in SUITS:
    _SUIT_BY_TEXT[_suit.value] = _suit
    _SUIT_BY_TEXT[_suit.value.lower()] = _suit
    _SUIT_BY_TEXT[_SYMBOLS[_suit]] = _suit


class CardParseError(ValueError):
    """Text that is not a card of any Diamonds deck."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its field (`errors.PicklableError`, which a compiled class cannot take as a base)."""
        from .errors import rebuilt_error

        return rebuilt_error, (CardParseError, self.args, {"text": self.text})


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A suited card. `str(card)` is its canonical DGN form: `7D`, `15C`, `10H`, `QS`, `AC`.

    `rank` orders cards within a suit: the number for numbered cards, and
    J 11, Q 12, K 13, A 14 for the lettered ones (`court` is then True).
    What a card is worth is each family's business.
    """

    rank: int
    suit: Suit
    court: bool = False  # written with a letter: J, Q, K or A

    # The parameters are `object`, not int/Suit/bool (the dataclass's fields type the constructor's callers):
    # compiled by mypyc, typed ones would refuse `Card("7", ...)` with a bare TypeError before this body runs;
    # so both builds refuse what is not a card with the same CardParseError. Annotations only: no cost.
    def __new__(cls, rank: object, suit: object, court: object = False) -> Card:
        try:
            return _CARDS[rank, suit, court]  # type: ignore[index]  # any key: what is no card is not found
        except (KeyError, TypeError):
            pass
        if not _BUILDING:
            raise CardParseError(f"no such card: rank {rank!r}, suit {suit!r}", f"{rank}{suit}")
        return object.__new__(cls)

    @classmethod
    def parse(cls, text: str) -> Card:
        """`Card.parse("15C")`, `Card.parse("qh")`, `Card.parse("T♠")`; no leading zero."""
        card = _CARD_BY_TEXT.get(text)
        if type(card) is not Card:
            raise CardParseError(f"not a card: {text!r} (expected a rank and a suit D/H/S/C)", text)
        return card

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.suit.index, self.rank)

    @property
    def is_ace(self) -> bool:
        return self.court and self.rank == 14

    def __str__(self) -> str:
        return _TEXT[self]  # made once: writers and exports ask for it for every card

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (str(self),))


class Joker:
    """The Joker of the bidding game: one card, of no suit. `JOKER` is the only instance."""

    __slots__ = ()
    _instance: ClassVar[Joker | None] = None  # ClassVar: one for the class (mypyc would make it a slot)

    def __new__(cls) -> Joker:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    @property
    def is_ace(self) -> bool:
        return False

    @property
    def sort_key(self) -> tuple[int, int]:
        return (len(SUITS), 0)  # after every suit

    def __str__(self) -> str:
        return "Jo"

    def __repr__(self) -> str:
        return "JOKER"

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (Joker, ())


JOKER = Joker()
AnyCard = Card | Joker

_BUILDING = True
_CARDS: Final[dict[tuple[int, Suit, bool], Card]] = {}
_TEXT: Final[dict[Card, str]] = {}
_CARD_BY_TEXT: Final[dict[str, AnyCard]] = {}
for _suit in SUITS:
    _spellings = (_suit.value, _suit.value.lower(), _SYMBOLS[_suit])
    for _rank in range(1, MAX_RANK + 1):
        _card = _CARDS[_rank, _suit, False] = Card(_rank, _suit, False)
        _TEXT[_card] = f"{_rank}{_suit.value}"
        for _s in _spellings:
            _CARD_BY_TEXT[f"{_rank}{_s}"] = _card
            if _rank == 10:
                _CARD_BY_TEXT[f"T{_s}"] = _CARD_BY_TEXT[f"t{_s}"] = _card
    for _letter, _rank in COURT_RANKS.items():
        _card = _CARDS[_rank, _suit, True] = Card(_rank, _suit, True)
        _TEXT[_card] = f"{_letter}{_suit.value}"
        for _s in _spellings:
            _CARD_BY_TEXT[f"{_letter}{_s}"] = _CARD_BY_TEXT[f"{_letter.lower()}{_s}"] = _card
for _jo in ("Jo", "jo", "JO", "jO"):
    _CARD_BY_TEXT[_jo] = JOKER
_BUILDING = False


def card_text(text: str) -> AnyCard | None:
    """The card a text spells (any deck, the Joker included), or None."""
    return _CARD_BY_TEXT.get(text)


def spellings() -> dict[str, AnyCard]:
    """Every accepted spelling of every card: what a fast reader looks tokens up in."""
    return dict(_CARD_BY_TEXT)


def numbered_cards(low: int, high: int) -> tuple[Card, ...]:
    """The numbered cards low..high in every suit, in sort order (Fitzgerald's decks)."""
    return tuple(_CARDS[rank, suit, False] for suit in SUITS for rank in range(low, high + 1))


def standard_cards(low: int = 2) -> tuple[Card, ...]:
    """The standard pack from rank `low` (2: 52 cards; 7: the bidding game's 32), in sort order."""
    return tuple(
        _CARDS[rank, suit, rank > 10] for suit in SUITS for rank in range(low, 15)
    )


_C = TypeVar("_C", Card, Joker, AnyCard)


def sort_cards(cards: Iterable[_C]) -> tuple[_C, ...]:
    """Cards in suit order (D, H, S, C), then rank: the order hands are shown in."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


def _order(key: tuple[int, int]) -> int:
    """A `sort_key` as one int in the same order (ranks are below 1024): ints compare faster than tuples."""
    suit, rank = key
    assert 0 <= rank < 1024, key
    return suit * 1024 + rank


#: Every card's `sort_key` as an int (`_order`), made once: cards are interned and hash by identity, so a
#: sort's key is one C-level lookup per card (a replay that keeps events sorts every hand it deals, passes and
#: shows, and a playout every hand it lists the moves of).
_SORT_KEY: dict[AnyCard, int] = {card: _order(card.sort_key) for card in _CARDS.values()}
_SORT_KEY[JOKER] = _order(JOKER.sort_key)


#: Every card's text (`str(card)`), the Joker's too: cards hash by identity, so a card's text is one C-level look-up.
_WRITTEN: dict[AnyCard, str] = {card: text for card, text in _TEXT.items()}
_WRITTEN[JOKER] = str(JOKER)


def card_texts(cards: Iterable[AnyCard]) -> list[str]:
    """`[str(card) for card in cards]` without a call per card: an export writes every card it holds."""
    return list(map(_WRITTEN.__getitem__, cards))


def same_cards(first: Sequence[AnyCard], second: Sequence[AnyCard]) -> bool:
    """Whether two runs of cards hold the same cards, each as often, in any order: a hand or a pass is a set of
    cards, and the order its line writes them in is the writer's (R6, K2, B2)."""
    return first == second or (len(first) == len(second) and Counter(first) == Counter(second))


def format_cards(cards: Iterable[AnyCard]) -> str:
    return " ".join(map(_WRITTEN.__getitem__, cards))
