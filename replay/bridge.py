"""A family's bridge: what the replay layer needs of a family to read and write its records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diamonds.notation.records import GameRecord

    from .validate import Replayer

__all__ = ["Bridge"]


@dataclass(frozen=True, slots=True)
class Bridge:
    """`replayer` turns a record's rounds into moves (a `Replayer` subclass);
    `record_from_game` writes a game played on the engine down as a record (None: the generic writer of a
    plain trick game, `replay.record.trick_game_record`, which needs nothing more of the family)."""

    replayer: type[Replayer]
    record_from_game: Callable[..., GameRecord] | None = None
