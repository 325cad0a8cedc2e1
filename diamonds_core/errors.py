"""Illegal moves: one exception class per cause, shared by every family.

Each carries the ruling that forbids the move (`rule`: "R8", "K2", "B6"; the
one field name on every error, written after the message one way, by
`with_rule`: "… (R8)"),
a message a player understands (`reason`), a stable machine-readable `code`,
and the facts as data fields (`seat`, `card`, `cards`, `expected`, `found`),
so that a caller locating the mistake in a record reads fields, never the
message. A family raises these with its own ruling ids, or subclasses them
where its cause is its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cards import AnyCard

__all__ = [
    "with_rule", "rebuilt_error", "PicklableError", "IllegalMove", "WrongPhase", "OutOfTurn", "CardNotHeld",
    "CardNotInDeck", "CardTwice", "MustFollowSuit", "InvalidDeal", "GameOver", "NotationError", "NotAPlayer",
]


def with_rule(message: str, rule: str | None) -> str:
    """A message with the ruling that decides it, as every error and diagnostic writes it: `… (R8)`."""
    return f"{message} ({rule})" if rule else message


def rebuilt_error(kind: type[BaseException], args: tuple[object, ...], fields: dict[str, object]) -> BaseException:
    """An error as it was pickled: its class, its `args` and its data fields, set again without calling its
    `__init__`, whose arguments are fields the pickle does not hold as arguments (`IllegalMove(rule=...)`)."""
    error = kind.__new__(kind)
    error.args = args
    for name, value in fields.items():  # (not `__dict__`: a compiled error keeps its fields in slots)
        setattr(error, name, value)
    return error


class PicklableError:
    """An error that pickles with its fields (`rebuilt_error`), so that one raised in a worker process reaches
    the caller as itself: the default pickling calls `__init__` with `args` alone, which these refuse."""

    __slots__ = ()

    def __reduce__(self) -> tuple[object, ...]:
        return rebuilt_error, (type(self), getattr(self, "args", ()), dict(vars(self)))


class IllegalMove(PicklableError, ValueError):
    """A move the rules refuse in the current state."""

    code = "illegal-move"
    rule: str | None = None

    def __init__(self, message: str, *, rule: str | None = None, seat: int | None = None,
                 card: AnyCard | None = None, cards: tuple[AnyCard, ...] = (), expected: int | None = None,
                 found: int | None = None) -> None:
        if rule is not None:
            self.rule = rule
        self.reason = message
        self.seat = seat  # whose move it was, or whom it concerns
        self.card = card  # the card at fault, where one is
        self.cards = cards  # the cards that show it (e.g. those that must be followed)
        self.expected = expected  # a count the rules require …
        self.found = found  # … and the count the move had
        self.player: str | None = None  # the seat's name, where a caller that knows the names fills it in
        super().__init__(with_rule(message, self.rule))

    @property
    def ruling(self) -> str | None:
        """The ruling that forbids the move (R8, K2, B6): the same as `rule`."""
        return self.rule


class WrongPhase(IllegalMove):
    """A move of a kind that is not due now (e.g. a card while bids are due)."""

    code = "wrong-phase"


class OutOfTurn(IllegalMove):
    code = "out-of-turn"


class CardNotHeld(IllegalMove):
    code = "card-not-held"


class CardNotInDeck(IllegalMove):
    """A card of no deck this game uses (e.g. `11D` or the Joker in Kirk's game)."""

    code = "card-not-in-deck"


class CardTwice(IllegalMove):
    """A card dealt, passed or laid twice."""

    code = "card-twice"


class MustFollowSuit(IllegalMove):
    code = "must-follow-suit"


class InvalidDeal(IllegalMove):
    code = "invalid-deal"


class GameOver(IllegalMove):
    code = "game-over"


class NotationError(PicklableError, ValueError):
    """Text that does not say a move here (`Position.parse("9X")`), with where and what was expected.

    `column` is 1-based within `text`; `line` is set where the text came from a
    file. `rule` names the ruling when the words are another game's or the rules refuse them; `str()` ends
    with it, as an `IllegalMove`'s does (`ruling=` is the same, an older spelling)."""

    def __init__(self, message: str, *, text: str, column: int = 1, expected: str = "",
                 line: int | None = None, rule: str | None = None, ruling: str | None = None,
                 code: str | None = None) -> None:
        self.rule = rule if rule is not None else ruling
        super().__init__(with_rule(message, self.rule))
        self.reason = message
        #: What kind of refusal, where the words say more than "not a move here" (`choice-not-allowed`: another
        #: game's mark on a card); None: the reader's own code for the item applies.
        self.code = code
        self.text = text
        self.column = column
        self.expected = expected
        self.line = line

    @property
    def ruling(self) -> str | None:
        """The same as `rule`."""
        return self.rule


class NotAPlayer(PicklableError, KeyError):
    """A name that is none of the game's players (`pos.view("Nobody")`), or a seat number no one sits at
    (`pos.hand(9)`): `player` (the name or the number) and `players` say which."""

    def __init__(self, player: str | int, players: Sequence[str]) -> None:
        super().__init__(player)
        self.player = player
        self.players = tuple(players)

    def __str__(self) -> str:
        if isinstance(self.player, int):
            return (f"there is no seat {self.player}: the seats are 0 to {len(self.players) - 1} "
                    f"({', '.join(self.players)})")
        return f"{self.player} is not a player of this game: the players are {', '.join(self.players)}"
