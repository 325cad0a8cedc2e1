"""The analysis tables as Arrow tables and Parquet files: schemas, conversion, writing, reading back.

pyarrow is an optional extra (`parquet`): this module is imported only by
what needs it (`convert --to parquet`, `stats`, `diamonds.read_tables`), and
`require_pyarrow()` turns its absence into one line naming the extra.

Every table has one fixed schema covering every registered family
(`schema(name)`, built from `tables.columns`): strings that repeat are
dictionary-encoded (pandas reads them as categories), numbers are the
smallest integers that hold them, lists and structs stay lists and structs.

Streaming: `convert_batch` (a module-level function, so that worker
processes and Dask workers can run it) turns a batch of game texts into one
Arrow table per table name; `TableWriter` gathers batches into row groups
of `ROW_GROUP_GAMES` games, so memory does not grow with the input, and the
row groups do not depend on how many processes ran (the output is the same
whatever `--jobs`).
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Collection, Generator, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import cache
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .tables import TABLE_NAMES, Column, Kind, TableBuffer, columns, standing_fields

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "MissingExtra", "require_pyarrow", "schema", "to_arrow", "columns_to_arrow", "Converted", "convert_batch",
    "TableWriter", "read_tables", "tables_from_files", "converted_batches", "ROW_GROUP_GAMES", "PARQUET_MISSING",
    "pandas_not_looked_up",
]

#: Games per row group: their rows (some 170,000 plays of 4-player games) are in memory at a time, whatever
#: the input; 1000 keeps a conversion under 200 MB of RSS, pyarrow's own 120 MB included.
ROW_GROUP_GAMES = 1000
#: Tables a folder written by an older version lacks: read back as empty rather than refused.
OPTIONAL_TABLES = frozenset({"rounds"})
PARQUET_MISSING = 'the Parquet tables need the parquet extra: pip install "diamonds[parquet]"'


class MissingExtra(ImportError):
    """An optional package is not installed: `package` is what is missing, `extra` what installs it."""

    def __init__(self, package: str, extra: str, message: str) -> None:
        super().__init__(message)
        self.package, self.extra = package, extra


class _PandasNotYet(importlib.abc.MetaPathFinder):
    """A finder that says pandas is not installed (`pandas_not_looked_up`)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"{name} is left unimported while a command converts games", name=name)


@contextmanager
def pandas_not_looked_up() -> Iterator[None]:
    """A command's conversion to Arrow without importing pandas, which it never needs.

    The first time pyarrow turns a Python list into an array, it imports pandas (if installed) to tell a
    pandas object from a list: 0.2-0.3 s, more than converting a small file takes. Inside this block pandas
    looks not installed, so pyarrow takes the lists as lists; after it, pyarrow imports pandas where it
    does need it (its own `to_pandas`, which tries again; `tests/replay/test_parquet.py` checks that it
    does). For a command's own process only: another thread importing pandas meanwhile would be refused.
    Worker processes forked meanwhile inherit it."""
    if "pandas" in sys.modules:  # already there: nothing to save
        yield
        return
    finder = _PandasNotYet()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


def require_pyarrow() -> Any:
    """pyarrow (with pyarrow.parquet loaded), or `MissingExtra` naming the extra to install."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise MissingExtra("pyarrow", "parquet", PARQUET_MISSING) from None
    return pyarrow


# --------------------------------------------------------------------------- schemas


def _arrow_type(kind: Kind) -> pa.DataType:
    pa = require_pyarrow()
    if kind is Kind.STANDINGS:
        return pa.list_(pa.struct([pa.field(c.name, _arrow_type(c.kind)) for c in standing_fields()]))
    simple = {
        Kind.BOOL: pa.bool_(), Kind.INT8: pa.int8(), Kind.INT16: pa.int16(), Kind.INT32: pa.int32(),
        Kind.STRING: pa.string(), Kind.CATEGORY: pa.dictionary(pa.int32(), pa.string()),
        # Inside lists and structs plain strings: Parquet dictionary-encodes them on disk all the same.
        Kind.CATEGORY_LIST: pa.list_(pa.string()), Kind.INT8_LIST: pa.list_(pa.int8()),
        Kind.TAGS: pa.list_(pa.struct([pa.field("name", pa.string()), pa.field("value", pa.string())])),
    }
    return simple[kind]


def _field(column: Column) -> pa.Field:
    pa = require_pyarrow()
    nullable = column.name not in ("file", "game")
    return pa.field(column.name, _arrow_type(column.kind), nullable=nullable,
                    metadata={"doc": column.doc})


@cache
def schema(name: str) -> pa.Schema:
    """The one Arrow schema of a table (`games`, `plays`, `events`), every family's columns included."""
    pa = require_pyarrow()
    return pa.schema([_field(column) for column in columns(name)])


def columns_to_arrow(data: dict[str, dict[str, list[Any]]]) -> dict[str, pa.Table]:
    """Column lists per table (a `TableBuffer`'s: every table, or those it kept) as Arrow tables of the fixed
    schemas, in `TABLE_NAMES` order."""
    pa = require_pyarrow()
    out = {}
    for name in TABLE_NAMES:
        if name not in data:
            continue
        table_schema = schema(name)
        arrays = [pa.array(data[name][field.name], type=field.type) for field in table_schema]
        out[name] = pa.Table.from_arrays(arrays, schema=table_schema)
    return out


def to_arrow(rows_by_table: dict[str, list[dict[str, Any]]]) -> dict[str, pa.Table]:
    """Row dicts per table (`tables.game_rows`, several games' concatenated) as Arrow tables; an absent
    column is null."""
    data = {name: {c.name: [row.get(c.name) for row in rows_by_table.get(name, [])] for c in columns(name)}
            for name in TABLE_NAMES}
    return columns_to_arrow(data)


# --------------------------------------------------------------------------- converting games


@dataclass(frozen=True, slots=True)
class Converted:
    """One batch of games converted (in a worker): its tables, and its problems ready to print.

    `errors` are formatted as everywhere (file:line:col, the line, a caret,
    the ruling); `games` and `invalid` count the batch's games; `size` is the
    characters of DGN read (for the progress bar)."""

    tables: dict[str, pa.Table]
    errors: tuple[str, ...]
    games: int
    invalid: int
    size: int


def convert_batch(file: str, batch: list[tuple[int, int, str]], *,
                  tables: Collection[str] = TABLE_NAMES) -> Converted:
    """A batch of (index, first line, text) games of `file` as tables (those named in `tables`, and `games`);
    picklable for worker processes.

    Every game gets a games row, an unreadable one too (with its first problem);
    an invalid game keeps its plays and events up to the problem."""
    from diamonds.io.parallel import collector_paused
    from diamonds.notation.diagnostics import format_problem
    from diamonds.notation.reader import parse_game

    from .validate import replay_record

    buffer = TableBuffer(tables)
    errors: list[str] = []
    invalid = size = 0
    with collector_paused():
        for index, first_line, text in batch:
            size += len(text)
            record = parse_game(text, first_line=first_line, index=index)
            replayed = replay_record(record, history=False)
            if replayed.problems:
                invalid += 1
                errors.extend(format_problem(file, record, problem) for problem in replayed.problems)
            buffer.add(replayed, file, index)
        converted = columns_to_arrow(buffer.data)
    return Converted(converted, tuple(errors), len(batch), invalid, size)


class TableWriter:
    """Writes converted batches to `folder`/{games,plays,events}.parquet, a row group per
    `ROW_GROUP_GAMES` games (zstd-compressed). Use as a context manager.

    The command writes into a fresh staged folder (`diamonds.io.folder.StagedFolder`) swapped into place
    when complete; on an exception (an interrupt) the pending rows are not flushed, the files are only
    closed (each is then readable up to its last row group) and the stage decides what is kept."""

    def __init__(self, folder: str, *, row_group_games: int | None = None) -> None:
        pa = require_pyarrow()
        self.folder = folder
        self.row_group_games = row_group_games or ROW_GROUP_GAMES
        os.makedirs(folder, exist_ok=True)
        # Every table is opened, even when an interrupt comes while they are (it is raised once they are, and
        # closed): a folder kept partial (`--keep-partial`) then holds every table readable, never a file of
        # 0 bytes that no reader takes.
        self.writers: dict[str, Any] = {}
        interrupted: KeyboardInterrupt | None = None
        for name in TABLE_NAMES:
            while name not in self.writers:
                try:
                    self.writers[name] = pa.parquet.ParquetWriter(self.path(name), schema(name), compression="zstd")
                except KeyboardInterrupt as error:
                    interrupted = error
        if interrupted is not None:
            self.close(flush=False)
            raise interrupted
        self.pending: dict[str, list[Any]] = {name: [] for name in TABLE_NAMES}  # Arrow tables
        self.pending_games = 0
        self.games = 0
        self.keep_partial = False

    def path(self, name: str) -> str:
        return os.path.join(self.folder, f"{name}.parquet")

    def write(self, tables: dict[str, pa.Table], games: int) -> None:
        # One assignment: an interrupt leaves every table's pending batches alike (all or none of this one).
        self.pending = {name: [*self.pending[name], tables[name]] for name in TABLE_NAMES}
        self.pending_games += games
        self.games += games
        if self.pending_games >= self.row_group_games:
            self.flush()

    def flush(self) -> None:
        if not any(self.pending.values()):
            return
        pa = require_pyarrow()
        pending, self.pending = self.pending, {name: [] for name in TABLE_NAMES}
        self.pending_games = 0  # taken first: an interrupt in the loop leaves nothing half-flushed to redo
        for name in TABLE_NAMES:
            # The batches' chunks go into one row group as they are (no combine_chunks copy); their
            # dictionaries unified first, so that Parquet writes them as dictionaries (a third smaller).
            table = pa.concat_tables(pending[name]).unify_dictionaries()
            self.writers[name].write_table(table, row_group_size=max(1, table.num_rows))

    def close(self, flush: bool = True) -> None:
        try:
            if flush:
                self.flush()
        finally:
            interrupted: KeyboardInterrupt | None = None
            for writer in self.writers.values():  # each closed whole (its footer written), even if interrupted
                while True:
                    try:
                        writer.close()
                        break
                    except KeyboardInterrupt as error:
                        interrupted = error
            if interrupted is not None:
                raise interrupted

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        # Interrupted with `keep_partial`, the batches converted so far are flushed before closing.
        self.close(flush=kind is None or self.keep_partial and isinstance(value, KeyboardInterrupt))


def converted_batches(paths: Iterable[str], encoding: str = "utf-8", jobs: int | None = None,
                      scheduler: str | None = None, *, tables: Collection[str] = TABLE_NAMES,
                      ) -> closing[Generator[tuple[str, Converted | Exception], None, None]]:
    """Every file's games converted to `tables` (all by default; `games` always), batch by batch, in input
    order: (shown path, `Converted`), or
    (shown path, `NotDecodable`) where a file holds a byte not of `encoding` (its games before it
    are converted; the next file follows). Read inside its block, `with converted_batches(...) as batches:`,
    whose end stops the workers however it is left (as `diamonds.io.parallel.ordered_map`'s).

    Files are read as every command reads them (`diamonds.io.text.open_text`: strict decoding with
    line:col of a bad byte) and spread over processes as `validate` does (`diamonds.io.parallel`)."""
    return closing(_converted_batches(list(paths), encoding, jobs, scheduler, tuple(tables)))


def _converted_batches(paths: list[str], encoding: str, jobs: int | None, scheduler: str | None,
                       tables: tuple[str, ...]) -> Generator[tuple[str, Converted | Exception], None, None]:
    import functools

    from diamonds.io.parallel import batches, default_jobs, ordered_map
    from diamonds.io.text import NotDecodable, display_path, open_text
    from diamonds.notation.reader import game_texts

    workers = default_jobs(paths, jobs)
    for path in paths:
        shown = display_path(path)
        try:
            with open_text(path, encoding) as stream:
                work = functools.partial(convert_batch, shown, tables=tables)
                with ordered_map(work, batches(game_texts(stream)), workers, scheduler) as results:
                    for converted in results:
                        yield shown, converted
        except NotDecodable as error:
            yield shown, error


def tables_from_files(paths: Iterable[str] | str, encoding: str = "utf-8",
                      jobs: int | None = None) -> dict[str, pa.Table]:
    """The tables of DGN files, in memory (for `stats`, notebooks); problems are in the games rows.

    A byte not of `encoding` raises `NotDecodable` (file:line:col)."""
    pa = require_pyarrow()
    parts: dict[str, list[Any]] = {name: [] for name in TABLE_NAMES}  # Arrow tables
    with converted_batches([paths] if isinstance(paths, str) else paths, encoding, jobs) as batches:
        for _, converted in batches:
            if isinstance(converted, Exception):
                raise converted
            for name in TABLE_NAMES:
                parts[name].append(converted.tables[name])
    return {name: (pa.concat_tables(parts[name]).unify_dictionaries().combine_chunks() if parts[name]
                   else schema(name).empty_table()) for name in TABLE_NAMES}


def read_tables(folder: str) -> dict[str, pa.Table]:
    """The tables `convert --to parquet` wrote to `folder`; `FileNotFoundError` naming a missing one."""
    pa = require_pyarrow()
    out = {}
    for name in TABLE_NAMES:
        path = os.path.join(folder, f"{name}.parquet")
        if name in OPTIONAL_TABLES and not os.path.isfile(path):
            out[name] = schema(name).empty_table()  # a folder written before the table existed
            continue
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{path}: no such file (a folder written by `diamonds convert --to parquet` "
                                    f"holds {', '.join(n + '.parquet' for n in TABLE_NAMES)})")
        out[name] = pa.parquet.read_table(path)
    return out
