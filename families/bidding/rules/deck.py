"""The bidding game's pack, what its cards are worth, and how they rank in a trick.

B2: 33 cards, 7 to A in the four suits and one Joker. B9: a point card's
value. B7/B8: an ace ranks high or low, the Joker high or low in the suit
its player gives it.
"""

from __future__ import annotations

from typing import Final

from diamonds.core.cards import JOKER, AnyCard, Card, Suit, standard_cards

__all__ = ["DECK", "SUITED", "TRUMPS", "point_value", "in_suit_strength", "choices_needed"]

#: B2: the 32 suited cards 7..A, in sort order.
SUITED: tuple[Card, ...] = standard_cards(7)
#: B2: the whole pack: the suited cards, then the Joker.
DECK: tuple[AnyCard, ...] = (*SUITED, JOKER)
#: B8: Diamonds are trumps.
TRUMPS = Suit.DIAMONDS

#: B9: the Joker's value as a point card.
JOKER_VALUE: Final = 20
#: B9: an ace's value as a point card.
ACE_VALUE: Final = 15

#: B8, within a suit from low to high: a low Joker, a low ace, 7 … K, a high ace.
LOW_JOKER_STRENGTH: Final = 0
LOW_ACE_STRENGTH: Final = 1


def point_value(card: AnyCard) -> int:
    """B9: 7, 8, 9, 10 their number; J 11, Q 12, K 13, A 15, Joker 20."""
    if not isinstance(card, Card):
        return JOKER_VALUE
    if card.is_ace:
        return ACE_VALUE
    return card.rank  # 7..10, and J 11, Q 12, K 13 by their rank


def in_suit_strength(card: AnyCard, high: bool | None) -> int:
    """B8: a card's place within its (effective) suit, low to high.

    A low Joker 0, a low ace 1, 7..K their rank (7..13), a high ace 14.
    A high Joker is above everything and never compared this way (it wins
    the trick outright); it is given 15 here for completeness.
    """
    if not isinstance(card, Card):
        return 15 if high else LOW_JOKER_STRENGTH
    rank = card.rank
    if high is False and rank == 14 and card.court:  # a low ace (`is_ace`, read without the property)
        return LOW_ACE_STRENGTH
    return rank


def choices_needed(card: AnyCard) -> tuple[bool, bool]:
    """B7: whether a play of `card` needs (high/low, a given suit)."""
    if not isinstance(card, Card):
        return True, True
    return card.is_ace, False
