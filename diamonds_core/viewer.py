"""Who looks at the table: everyone, one seat, or no seat at all. One rule for every drawing of it.

A `Viewer` is None (the whole table: `replay` of a finished record, the scorer with deal lines), a seat
(what that player may see: `--as`), or `NOBODY` (what a watcher may see: no seat's private things, no
hand, no secret Vault, no face-down card, until the game is over). The pictures (`svg.draw.Sight`) and
the terminal's views (`views.screen`, each family's render) both ask `sees`. A round played on a
stand-in deal (`ReplayedGame.drawn_round`, hands drawn at random) is drawn for `NOBODY` everywhere:
the server's pages and the recorder's screen.
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
