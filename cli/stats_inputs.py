"""The inputs of `stats`, `stats --by player` and `ratings`: DGN files or folders of Parquet tables, fed to a
counting object batch by batch, with every invalid game reported on stderr."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from diamonds.core.errors import with_rule
from diamonds.io.escape import visible, visible_lines
from diamonds.io.folder import PARTIAL_MARKER, is_partial

from .errors import CommandError
from .inputs import NotDecodable, display_path
from .progress import GameProgress

if TYPE_CHECKING:
    pass

__all__ = ["read_inputs", "EVENT_BATCH_ROWS"]

#: Rows of `events.parquet` read at a time: memory stays bounded whatever the folder's size.
EVENT_BATCH_ROWS = 1 << 16
_GAME_COLUMNS = ["file", "game", "family", "rules", "player_count", "variants", "valid", "complete", "standings",
                 "problem_line", "problem_column", "problem_rule", "problem_message", "players", "tags"]


class _Output:
    """Where problems go while the input is read: stderr, above the progress bar when there is one."""

    def __init__(self, progress: GameProgress) -> None:
        self.progress = progress
        self.problems = 0

    def problem(self, text: str) -> None:
        self.problems += 1
        text = visible_lines(text)  # from the input (a Parquet games row, a file's line): made terminal-safe
        bar = self.progress.progress
        if bar is not None:
            bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=sys.stderr)


def _from_dgn(path: str, args: argparse.Namespace, counts: Any, out: _Output,
              progress: GameProgress) -> None:
    from diamonds.replay.arrow import converted_batches, pandas_not_looked_up

    games = 0
    tables = ("games", "events") if getattr(counts, "needs_events", True) else ("games",)  # never the plays
    with pandas_not_looked_up(), converted_batches([path], args.encoding, args.jobs, tables=tables) as batches:
        for _shown, converted in batches:
            if isinstance(converted, NotDecodable):  # the games before the bad byte are counted
                out.problem(f"diamonds {args.command}: {converted}\n{converted.shown}")
                return
            if isinstance(converted, Exception):
                raise converted
            progress.advance(converted.size, converted.games)
            games += converted.games
            for line in converted.errors:
                out.problem(line)
            counts.add_tables(converted.tables)
    if not games:  # empty, or blank lines only: a warning, and the status 1 of a problem
        out.problem(f"diamonds {args.command}: warning: {display_path(path)} holds no game")


def _parquet_error(path: str, error: Exception) -> CommandError:
    return CommandError(f"{path}: not a Parquet table that `diamonds convert --to parquet` wrote ({error})")


def _from_parquet(folder: str, counts: Any, out: _Output, progress: GameProgress) -> None:
    """A folder's games into `counts` (a `StatsAccumulator`, or anything with `add_games`, `add_events`
    and `needs_events`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = {name: os.path.join(folder, f"{name}.parquet") for name in ("games", "events")}
    if is_partial(folder):  # an interrupted `convert --keep-partial`: counts of part of the games
        print(visible(f"diamonds stats: warning: {folder} is partial (its {PARTIAL_MARKER} file says the "
                      "conversion that wrote it was interrupted): these counts cover only part of the games"),
              file=sys.stderr)
    if not os.path.isfile(paths["games"]):
        raise CommandError(f"{folder}: no games.parquet in this folder; give DGN files, or a folder written by "
                           f"`diamonds convert FILES --to parquet -o {folder}`")
    try:
        games = pq.read_table(paths["games"], columns=_GAME_COLUMNS)
    except (pa.ArrowException, OSError) as error:
        raise _parquet_error(paths["games"], error) from None
    for row in games.filter(pa.compute.invert(games["valid"])).select(
            ["file", "problem_line", "problem_column", "problem_message", "problem_rule"]).to_pylist():
        out.problem(with_rule(f"{row['file']}:{row['problem_line']}:{row['problem_column']}: "
                              f"{row['problem_message']}", row["problem_rule"]))
    counts.add_games(games)
    progress.advance(0, games.num_rows)
    if not getattr(counts, "needs_events", True) or not os.path.isfile(paths["events"]):
        return  # the games' figures without the families' own
    keys = games.select(["file", "game", "family", "rules"])
    try:
        for batch in pq.ParquetFile(paths["events"]).iter_batches(batch_size=EVENT_BATCH_ROWS):
            counts.add_events(pa.Table.from_batches([batch]), keys)
    except (pa.ArrowException, OSError) as error:
        raise _parquet_error(paths["events"], error) from None


def read_inputs(args: argparse.Namespace, counts: Any, label: str = "counting", done: str = "counted") -> int:
    """Every input of `args.files` (DGN files, or folders of Parquet tables) into `counts`; the
    problems reported on stderr (their number is returned)."""
    for path in args.files:
        if path != "-" and not os.path.exists(path):
            raise CommandError(f"{path}: no such file or folder")
    with GameProgress([p for p in args.files if not os.path.isdir(p)], label, done) as progress:
        out = _Output(progress)
        for path in args.files:
            if path != "-" and os.path.isdir(path):
                _from_parquet(path, counts, out, progress)
            else:
                _from_dgn(path, args, counts, out, progress)
    return out.problems
