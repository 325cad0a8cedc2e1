"""The bidding game's own causes of an illegal move.

Each subclasses the shared `IllegalMove` and carries its data fields
(`seat`, `card`, `cards`, `expected`, `found`) so that a caller locates the
mistake without reading the message.
"""

from __future__ import annotations

from diamonds.core.errors import IllegalMove

__all__ = ["BadBid", "ForbiddenTotal", "FinalBidMove", "MissingChoice", "ChoiceNotAllowed", "NotInKitty"]


class BadBid(IllegalMove):
    """A bid or final bid outside 0..10 (`found` is the amount; B3 or B5)."""

    code = "bad-bid"
    rule = "B3"


class ForbiddenTotal(IllegalMove):
    """The dealer's bid or final bid would bring the total to exactly 10 (B3 or B5).

    `seat` is the dealer, `found` the amount bid, and `others` the sum of
    the other two players' bids (so `found == 10 - others`).
    """

    code = "forbidden-total"
    rule = "B3"

    def __init__(self, message: str, *, others: int, rule: str | None = None, seat: int | None = None,
                 found: int | None = None) -> None:
        super().__init__(message, rule=rule, seat=seat, found=found)
        self.others = others


class FinalBidMove(IllegalMove):
    """A final bid that moves the bid by more than one (`expected` the bid, `found` the final bid; B5)."""

    code = "final-bid-move"
    rule = "B5"


class MissingChoice(IllegalMove):
    """An ace without high/low, or the Joker without its suit or high/low (B7)."""

    code = "missing-choice"
    rule = "B7"


class ChoiceNotAllowed(IllegalMove):
    """High/low on a card that is not an ace or the Joker, or a suit given to a card that is not the Joker (B7)."""

    code = "choice-not-allowed"
    rule = "B7"


class NotInKitty(IllegalMove):
    """A take of a card the kitty does not hold (`card`; `cards` is what the kitty holds; B4)."""

    code = "not-in-kitty"
    rule = "B4"
