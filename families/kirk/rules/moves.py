"""Moves of Kirk's Diamonds: the deal (a chance move) and playing a card. Plain frozen values.

Their cards are typed `AnyCard` because a record may name any card of any
Diamonds deck (`11D`, the Joker); the rules refuse those (K2).
"""

from __future__ import annotations

from dataclasses import dataclass

from diamonds.core.cards import AnyCard, format_cards

__all__ = ["Move", "Deal", "PlayCard"]


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand (K2): per seat, in seat order, 13 cards each."""

    hands: tuple[tuple[AnyCard, ...], ...]

    def __str__(self) -> str:
        return " / ".join(format_cards(hand) for hand in self.hands)


@dataclass(frozen=True, slots=True)
class PlayCard:
    """The next card of the trick, played by whoever is to move (K4)."""

    card: AnyCard

    def __str__(self) -> str:
        return str(self.card)


Move = Deal | PlayCard
