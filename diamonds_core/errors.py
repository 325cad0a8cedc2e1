"""Illegal moves: one exception class per cause.

Each carries the ruling that forbids the move (`rule`, e.g. "R8") and a message
a player understands, e.g. ``Bob must follow Hearts (holds 9H 12H) — R8``.
`code` is a stable, machine-readable name for exports.
"""

from __future__ import annotations

__all__ = [
    "IllegalMove", "WrongPhase", "OutOfTurn", "CardNotHeld", "MustFollowSuit", "WrongPassCount",
    "InvalidPass", "InvalidDeal", "VictimRequired", "VictimNotAllowed", "GameOver",
]


class IllegalMove(ValueError):
    """A move the rules refuse in the current state."""

    code = "illegal-move"
    rule: str | None = None

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        if rule is not None:
            self.rule = rule
        self.reason = message
        super().__init__(f"{message} — {self.rule}" if self.rule else message)


class WrongPhase(IllegalMove):
    """E.g. a card played while the passes are still due."""

    code = "wrong-phase"


class OutOfTurn(IllegalMove):
    code = "out-of-turn"
    rule = "R8"


class CardNotHeld(IllegalMove):
    code = "card-not-held"
    rule = "R8"


class MustFollowSuit(IllegalMove):
    code = "must-follow-suit"
    rule = "R8"


class WrongPassCount(IllegalMove):
    """A pass count outside 1-3, or a pass of the wrong number of cards."""

    code = "wrong-pass-count"
    rule = "R6"


class InvalidPass(IllegalMove):
    """A pass of cards not held, a card twice, or a player passing twice."""

    code = "invalid-pass"
    rule = "R6"


class InvalidDeal(IllegalMove):
    code = "invalid-deal"
    rule = "R5"


class VictimRequired(IllegalMove):
    code = "victim-required"
    rule = "R14"


class VictimNotAllowed(IllegalMove):
    """Naming oneself, one's partner, or a victim where the rules give no choice."""

    code = "victim-not-allowed"
    rule = "R14"


class GameOver(IllegalMove):
    code = "game-over"
    rule = "R4"
