"""The notebook surface of the analysis tables: `read_games` and `to_pandas`, three lines from a file to a frame.

    import diamonds
    games, plays, events = diamonds.to_pandas("logs/club.dgn")
    plays.groupby("seat", observed=True)["won_trick"].mean()
    diamonds.to_pandas("logs/club.dgn").rounds   # every side's score after every round

A path is a DGN file (converted in memory, as `convert --to parquet` would)
or a folder of tables that command wrote (read back). The columns are in
docs/tables.md. pyarrow and pandas are the `parquet` extra; without them
these functions raise `MissingExtra`, whose message names the extra.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = ["GameTables", "read_games", "to_pandas"]


class _Three(NamedTuple):
    games: Any
    plays: Any
    events: Any


class GameTables(_Three):
    """The tables, as pyarrow Tables (`read_games`) or pandas DataFrames (`to_pandas`); unpack them as
    `games, plays, events` (as always), and the fourth, every side's score after every round, is
    `.rounds` (an attribute, so that the three-way unpacking of existing code keeps working)."""

    rounds: Any

    def __new__(cls, games: Any, plays: Any, events: Any, rounds: Any = None) -> GameTables:
        self = super().__new__(cls, games, plays, events)
        self.rounds = rounds
        return self

    def __reduce__(self) -> Any:
        return (GameTables, (self.games, self.plays, self.events, self.rounds))


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
    return GameTables(tables["games"], tables["plays"], tables["events"], tables["rounds"])


def to_pandas(source: GameTables | str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *,
              encoding: str = "utf-8", jobs: int | None = None) -> GameTables:
    """The three tables as pandas DataFrames (nullable integers, booleans and strings; repeated strings as
    categories: the dtypes `diamonds.dask` gives, so a notebook and a cluster agree); `source` is what
    `read_games` returned, or the paths to give it."""
    from diamonds.replay.arrow import MissingExtra

    if importlib.util.find_spec("pandas") is None:
        raise MissingExtra("pandas", "parquet", 'diamonds.to_pandas needs pandas: pip install "diamonds[parquet]"')
    tables = source if isinstance(source, GameTables) else read_games(source, encoding=encoding, jobs=jobs)
    games, plays, events = (pandas_frame(table) for table in tables)
    rounds = None if tables.rounds is None else pandas_frame(tables.rounds)
    return GameTables(games, plays, events, rounds=rounds)


def pandas_frame(table: pa.Table) -> pd.DataFrame:
    """An Arrow table as pandas with the dtypes `read_parquet(dtype_backend="numpy_nullable")` gives:
    nullable integers, booleans and strings (one dtype in every partition, nulls or not),
    dictionary columns as categories, lists and structs as objects."""
    import pandas as pd

    from diamonds.replay.arrow import require_pyarrow

    pa = require_pyarrow()
    nullable = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(),
                pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype(), pa.string(): pd.StringDtype()}
    return string_categories(table.to_pandas(types_mapper=nullable.get))


def string_categories(frame: pd.DataFrame) -> pd.DataFrame:
    """Categories of one string dtype in every partition: pandas gives an empty or all-null dictionary
    column `object` categories, the others `str`, and Dask cannot concatenate the two."""
    import pandas as pd

    for name in frame.columns:
        dtype = frame[name].dtype
        if isinstance(dtype, pd.CategoricalDtype) and dtype.categories.dtype != pd.Index([], dtype="str").dtype:
            categories = pd.Index(dtype.categories.astype("str"), dtype="str")
            frame[name] = frame[name].cat.set_categories(categories)
    return frame

