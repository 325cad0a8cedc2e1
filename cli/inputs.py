"""The text opener of every command; it lives in `diamonds.io.text` (shared with the analysis)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from diamonds.io.text import (  # noqa: F401
    BOM,
    DEFAULT_ENCODING,
    DecodedText,
    NotDecodable,
    display_path,
    encoding_name,
    open_text,
)

if TYPE_CHECKING:
    from diamonds.notation import GameRecord

__all__ = ["open_text", "games_in", "display_path", "encoding_name", "DecodedText", "NotDecodable",
           "DEFAULT_ENCODING", "BOM"]


def games_in(path: str, encoding: str = DEFAULT_ENCODING) -> Iterator[GameRecord]:
    """The game records of a DGN file, read through the one text opener."""
    from diamonds.notation import read_games  # the reader (and lark) only for the commands that read games

    with open_text(path, encoding) as stream:
        yield from read_games(stream)
