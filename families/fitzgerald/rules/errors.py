"""Fitzgerald's illegal moves: the generic causes with this game's rulings, and its own causes.

Each class names the ruling that forbids the move by default (R8, R6…);
callers read the data fields (`seat`, `card`, `cards`, `expected`, `found`),
never the message.
"""

from __future__ import annotations

from diamonds.core import errors as generic
from diamonds.core.errors import IllegalMove, WrongPhase

__all__ = [
    "IllegalMove", "WrongPhase", "OutOfTurn", "CardNotHeld", "MustFollowSuit", "WrongPassCount",
    "InvalidPass", "InvalidDeal", "VictimRequired", "VictimNotAllowed", "GameOver",
]


class OutOfTurn(generic.OutOfTurn):
    rule = "R8"


class CardNotHeld(generic.CardNotHeld):
    rule = "R8"


class MustFollowSuit(generic.MustFollowSuit):
    rule = "R8"


class WrongPassCount(IllegalMove):
    """A pass count outside 1-3, or a pass of the wrong number of cards."""

    code = "wrong-pass-count"
    rule = "R6"


class InvalidPass(IllegalMove):
    """A pass of a card twice, or a player passing twice."""

    code = "invalid-pass"
    rule = "R6"


class InvalidDeal(generic.InvalidDeal):
    rule = "R5"


class VictimRequired(IllegalMove):
    code = "victim-required"
    rule = "R14"


class VictimNotAllowed(IllegalMove):
    """Naming oneself, one's partner, or a victim where the rules give no choice."""

    code = "victim-not-allowed"
    rule = "R14"


class GameOver(generic.GameOver):
    rule = "R4"
