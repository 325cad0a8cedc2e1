"""`diamonds convert FILES --to parquet -o DIR`: the analysis tables (games, plays, events) as Parquet.

Streamed in bounded memory: games are read and handed out in batches as
`validate` does (`cli.parallel`, several processes or a Dask cluster), each
batch becomes Arrow tables in a worker (`replay.arrow.convert_batch`), and
the tables are written a row group per few thousand games. The output is the
same whatever `--jobs` or `--scheduler`. A game with a problem is reported
on stderr (file:line:col, the line, a caret, the ruling) and still has its
games row (what is wrong, where) and its plays up to the problem; the exit
status is then 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from diamonds.io.escape import visible
from diamonds.io.folder import StagedFolder, is_partial
from diamonds.replay.arrow import MissingExtra, TableWriter, converted_batches, pandas_not_looked_up, require_pyarrow
from diamonds.replay.tables import TABLE_NAMES

from .errors import CommandError
from .inputs import NotDecodable, display_path, warn_no_game
from .progress import GameProgress

__all__ = ["run_parquet"]


def run_parquet(args: argparse.Namespace) -> int:
    folder = args.output
    if not folder:
        raise CommandError("--to parquet writes a folder of tables: name it with -o DIR "
                           f"(it will hold {', '.join(n + '.parquet' for n in TABLE_NAMES)})")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CommandError(f"{folder}: not a folder (--to parquet writes {', '.join(TABLE_NAMES)} .parquet "
                           "files into a folder)")
    try:
        require_pyarrow()
    except MissingExtra as missing:
        raise CommandError(str(missing)) from None
    for path in args.files:  # refused before anything is written: a missing file leaves no half output
        if path != "-" and not os.path.isfile(path):
            raise CommandError(f"{path}: no such file" if not os.path.exists(path) else f"{path}: not a file")
    replaced = held(folder)
    failures = 0
    with_games: set[str] = set()
    # The tables are written into a fresh folder beside DIR, swapped into place when complete: a reader
    # sees the old folder or the new one, and nothing is written through a symlink planted in DIR.
    # Interrupted, the fresh folder is removed (DIR as it was), or with --keep-partial swapped in marked
    # by a PARTIAL file.
    staged = StagedFolder(folder, keep_partial=getattr(args, "keep_partial", False),
                          allowed=frozenset(f"{name}.parquet" for name in TABLE_NAMES))
    with staged, GameProgress(args.files, "converting", "converted") as progress, \
            TableWriter(staged.stage or "") as writer:
        writer.keep_partial = staged.keep_partial
        with pandas_not_looked_up(), converted_batches(args.files, args.encoding, args.jobs, args.scheduler) as batches:
            for shown, converted in batches:
                if isinstance(converted, NotDecodable):  # the games before the bad byte are written; the next file too
                    print(visible(f"diamonds convert: {converted}"), file=sys.stderr)
                    print(converted.shown, file=sys.stderr)
                    failures += 1
                    with_games.add(shown)
                    continue
                if isinstance(converted, Exception):  # pragma: no cover - converted_batches yields no other
                    raise converted
                progress.advance(converted.size, converted.games)
                for problem in converted.errors:
                    print(problem, file=sys.stderr)
                failures += converted.invalid
                if converted.games:
                    with_games.add(shown)
                writer.write(converted.tables, converted.games)
    for path in args.files:
        if display_path(path) not in with_games:
            warn_no_game("convert", path)
            failures += 1
    if replaced is not None:
        print(visible(f"diamonds convert: {folder} replaced: {replaced.described()}; it now holds "
                      f"{_games(writer.games)}"), file=sys.stderr)
    return 1 if failures else 0


@dataclass(frozen=True, slots=True)
class Held:
    """What an output folder held before it was replaced: its tables, and their games."""

    tables: tuple[str, ...]
    games: int | None  # None: games.parquet missing or unreadable
    partial: bool

    def described(self) -> str:
        games = _games(self.games) if self.games is not None else "an unknown number of games"
        partial = " (partial)" if self.partial else ""
        return f"it held {games}{partial} in {len(self.tables)} table{'s' if len(self.tables) != 1 else ''} " \
               f"({', '.join(self.tables)})"


def _games(count: int) -> str:
    return f"{count:,} game{'s' if count != 1 else ''}"


def held(folder: str) -> Held | None:
    """The tables of `folder` and their games (from the Parquet footer, nothing else read); None when it
    holds no table (new, or empty): then nothing is replaced."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not os.path.isdir(folder):
        return None
    tables = tuple(name for name in TABLE_NAMES if os.path.isfile(os.path.join(folder, f"{name}.parquet")))
    if not tables:
        return None
    games: int | None = None
    if "games" in tables:
        try:
            games = pq.read_metadata(os.path.join(folder, "games.parquet")).num_rows
        except (pa.ArrowException, OSError):
            games = None
    return Held(tables, games, is_partial(folder))
