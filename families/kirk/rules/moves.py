"""Moves of Kirk's Diamonds: the deal (a chance move, K2: 13 cards a seat) and the next card of the trick,
played by whoever is to move (K4).

They are the plain trick game's moves (`diamonds.core.trick`): a Kirk move says nothing a plain trick
game's does not. Their cards are typed `AnyCard` because a record may name any card of any Diamonds deck
(`11D`, the Joker); the rules refuse those (K2).
"""

from __future__ import annotations

from diamonds.core.trick import Deal, PlayCard

__all__ = ["Move", "Deal", "PlayCard"]

Move = Deal | PlayCard
