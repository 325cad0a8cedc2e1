"""Moves: what a player (or the deal) does. Plain frozen values.

Every decision of the game is one move, so that a bot, a replay and a record
all speak the same language:

* `Deal`: the chance move that starts a round (the cards each seat receives);
* `ChoosePassCount`: the dealer's n (R6);
* `PassCards`: one player's n cards (R6);
* `PlayCard`: the next card of the trick (R8);
* `ChooseVictim`: whose Showroom a chosen Clubs action takes from (R14),
  asked at the moment the action is taken, with `victim=None` meaning
  "not named" (allowed only where the record need not name one).

The cards a move names are typed `AnyCard`, as Kirk's are: a move may name any card of any Diamonds deck (the
Joker, `AC`); the rules refuse those of no deck of this game (R5). (Compiled by mypyc, a field typed `Card`
would refuse the Joker with a bare TypeError where the pure build lets the rules refuse it.)

`PassCards`, listed by the hundred at a passing decision, writes its `__init__` out: compiled, it is native
(docs/build.md, the written `__init__`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from diamonds.core.cards import AnyCard, Card, format_cards, same_cards
from diamonds.core.trick import Deal  # the house's deal: each seat's hand (R5), compared as sets of cards

from .config import deck

__all__ = ["Move", "Deal", "ChoosePassCount", "PassCards", "PlayCard", "ChooseVictim"]


@dataclass(frozen=True, slots=True)
class ChoosePassCount:
    count: int

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "pass"

    def __str__(self) -> str:
        return f"pass {self.count}"


@dataclass(frozen=True, init=False, slots=True, eq=False)
class PassCards:
    seat: int
    cards: tuple[AnyCard, ...]

    def __init__(self, seat: int, cards: tuple[AnyCard, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __eq__(self, other: object) -> bool:
        """The same seat passing the same cards, in any order (R6: a pass is a set of cards, and the order its
        line writes them in is the writer's): so a pass written out of order is one of `legal_moves`."""
        if not isinstance(other, PassCards):
            return NotImplemented
        return self.seat == other.seat and same_cards(self.cards, other.cards)

    def __hash__(self) -> int:
        return hash((self.seat, frozenset(self.cards)))

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "pass"

    def __str__(self) -> str:
        return f"pass {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: AnyCard

    @staticmethod
    def of(card: Card) -> PlayCard:
        """The one `PlayCard` of each card, made once: hot loops push these instead of building moves.
        A card of no deck (`AC`, written in a game of numbers) gets a move of its own, which the rules refuse."""
        try:
            return _PLAY_CARD[card]
        except KeyError:
            return PlayCard(card)

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "card"

    def __str__(self) -> str:
        return str(self.card)


_PLAY_CARD: Final[dict[Card, PlayCard]] = {card: PlayCard(card) for card in deck()}


@dataclass(frozen=True, slots=True)
class ChooseVictim:
    victim: int | None  # a seat naming its side; None: not named

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "victim"

    def __str__(self) -> str:
        return ">-" if self.victim is None else f">{self.victim}"


Move = Deal | ChoosePassCount | PassCards | PlayCard | ChooseVictim
