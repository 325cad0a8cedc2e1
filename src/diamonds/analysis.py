"""The notebook surface of the analysis tables: `read_games` and `to_pandas`, three lines from a file to a frame.

    import diamonds
    games, plays, events = diamonds.to_pandas("logs/club.dgn")
    plays.groupby("seat", observed=True)["won_trick"].mean()

A path is a DGN file (converted in memory, as `convert --to parquet` would)
or a folder of tables that command wrote (read back). The columns are in
docs/tables.md. pyarrow and pandas are the `parquet` extra; without them
these functions raise `MissingExtra`, whose message names the extra.
"""

from __future__ import annotations

import importlib.util
import os
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = ["GameTables", "read_games", "to_pandas"]


class GameTables(NamedTuple):
    """The three tables, as pyarrow Tables (`read_games`) or pandas DataFrames (`to_pandas`); unpack them
    as `games, plays, events`."""

    games: Any
    plays: Any
    events: Any


def _is_table_folder(path: str) -> bool:
    return os.path.isdir(path)


def read_games(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *, encoding: str = "utf-8",
               jobs: int | None = None) -> GameTables:
    """The games, plays and events tables (pyarrow) of DGN files, or of one folder `convert --to parquet` wrote.

    Problems do not raise: they are in the games rows (`valid`, `problem_*`).
    A folder must be the only path given."""
    from diamonds.replay.arrow import read_tables, tables_from_files

    items = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    folders = [path for path in items if _is_table_folder(path)]
    if folders:
        if len(items) != 1:
            raise ValueError("read_games takes one folder of tables, or DGN files, not both or several folders")
        tables = read_tables(folders[0])
    else:
        tables = tables_from_files(items, encoding, jobs)
    return GameTables(tables["games"], tables["plays"], tables["events"])


def to_pandas(source: "GameTables | str | os.PathLike[str] | Iterable[str | os.PathLike[str]]", *,
              encoding: str = "utf-8", jobs: int | None = None) -> GameTables:
    """The three tables as pandas DataFrames (repeated strings as categories); `source` is what
    `read_games` returned, or the paths to give it."""
    from diamonds.replay.arrow import MissingExtra

    if importlib.util.find_spec("pandas") is None:
        raise MissingExtra("pandas", "parquet", 'diamonds.to_pandas needs pandas: pip install "diamonds[parquet]"')
    tables = source if isinstance(source, GameTables) else read_games(source, encoding=encoding, jobs=jobs)
    frames: list["pd.DataFrame"] = [_frame(table) for table in tables]
    return GameTables(*frames)


def _frame(table: "pa.Table") -> "pd.DataFrame":
    return table.to_pandas()
