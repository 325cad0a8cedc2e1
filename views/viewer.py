"""Who looks at a family's terminal view: everyone, one seat, or no seat at all.

A view's `as_player` is a `Viewer`: None draws the whole table (`replay` of a finished record), a seat
draws what that player may see (`--as`), and `NOBODY` draws what a watcher may see: no seat's private
things (no hand, no secret Vault, no face-down card) until the game is over. `NOBODY` is the terminal's
form of the pictures' watcher sight (serve.state's `_Nobody`), and `sees` the same rule as the
pictures' `Sight.sees`; the recorder's screen uses it while a round is played on a stand-in deal
(`ReplayedGame.drawn_round`), whose hands are drawn at random and so must never be shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Final, TypeAlias

__all__ = ["NOBODY", "Nobody", "Viewer", "sees"]


class Nobody(Enum):
    """The viewer who holds no seat: a watcher (see the module's docstring)."""

    NOBODY = "nobody"

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY: Final = Nobody.NOBODY

#: Whose view a screen is: None (everyone's), a seat, or `NOBODY` (a watcher's).
Viewer: TypeAlias = int | Nobody | None


def sees(viewer: Viewer, seats: Iterable[int], over: bool = False) -> bool:
    """Whether `viewer` may see what only `seats` may see: everyone's view sees all, a seat its own
    things, `NOBODY` nothing private; at the game's end (`over`) nothing is private."""
    return over or viewer is None or (not isinstance(viewer, Nobody) and viewer in tuple(seats))
