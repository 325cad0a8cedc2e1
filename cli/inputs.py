"""The text opener of every command; it lives in `diamonds.io.text` (shared with the analysis)."""

from collections.abc import Iterator

from diamonds.io.text import (  # noqa: F401
    BOM,
    DEFAULT_ENCODING,
    DecodedText,
    NotDecodable,
    display_path,
    encoding_name,
    open_text,
)
from diamonds.notation import GameRecord, read_games

__all__ = ["open_text", "games_in", "display_path", "encoding_name", "DecodedText", "NotDecodable",
           "DEFAULT_ENCODING", "BOM"]


def games_in(path: str, encoding: str = DEFAULT_ENCODING) -> Iterator[GameRecord]:
    """The game records of a DGN file, read through the one text opener."""
    with open_text(path, encoding) as stream:
        yield from read_games(stream)
