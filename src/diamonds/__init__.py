"""diamonds: record, check, replay and analyse games called Diamonds.

Everything installs under this one name: `diamonds.core` (the rules engine,
one family per game called Diamonds), `diamonds.notation` (DGN text and typed
records), `diamonds.replay` (records replayed through the rules) and
`diamonds.cli` (the `diamonds` command). In a source checkout those folders
are `diamonds_core/`, `notation/`, `replay/` and `cli/` (see pyproject.toml).

Importing this package imports nothing else, so that `diamonds.core` stays
free of lark, rich and json. The notebook surface, `read_games` and
`to_pandas` (the games, plays and events tables of DGN files or of a folder
`convert --to parquet` wrote; docs/tables.md), imports pyarrow and pandas
only when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .analysis import GameTables

__all__: list[str] = ["read_games", "to_pandas"]


def read_games(paths: Any, *, encoding: str = "utf-8", jobs: int | None = None) -> "GameTables":
    """The games, plays and events tables (pyarrow) of DGN files or of a folder of Parquet tables."""
    from .analysis import read_games as read

    return read(paths, encoding=encoding, jobs=jobs)


def to_pandas(source: Any, *, encoding: str = "utf-8", jobs: int | None = None) -> "GameTables":
    """The games, plays and events tables as pandas DataFrames: `games, plays, events = diamonds.to_pandas(path)`."""
    from .analysis import to_pandas as frames

    return frames(source, encoding=encoding, jobs=jobs)
