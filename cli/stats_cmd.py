"""`diamonds stats`: a summary of many games at a glance, from DGN files or a folder of Parquet tables.

DGN files are converted to the analysis tables batch by batch, in worker
processes for large inputs (`replay.arrow.converted_batches`, as `convert
--to parquet` does), and each batch is counted as it comes; a folder that
`convert --to parquet` wrote is read back in batches. Both feed the same
counting (`replay.stats`), so the figures are the same either way. Invalid
games are reported on stderr (file:line:col, the ruling) and left out of the
figures; the exit status is then 1.

The text form is rich renderables that fit 80 columns; `--format json` is
`Summary.as_dict()` (docs/stats.md); `--plot FILE` draws charts (.png, .svg).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from diamonds.io.escape import visible, visible_lines
from diamonds.io.folder import PARTIAL_MARKER, is_partial

from .errors import CommandError
from .inputs import NotDecodable
from .progress import ByteProgress

if TYPE_CHECKING:
    import pyarrow as pa
    from rich.console import Console, ConsoleOptions, RenderResult

    from diamonds.replay.stats import StatsAccumulator, Summary

__all__ = ["run", "SummaryView", "EVENT_BATCH_ROWS"]

#: Rows of `events.parquet` read at a time: memory stays bounded whatever the folder's size.
EVENT_BATCH_ROWS = 1 << 16
_GAME_COLUMNS = ["file", "game", "family", "rules", "player_count", "variants", "valid", "complete", "standings",
                 "problem_line", "problem_column", "problem_rule", "problem_message", "players", "tags"]


class _Output:
    """Where problems go while the input is read: stderr, above the progress bar when there is one."""

    def __init__(self, progress: ByteProgress) -> None:
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
              progress: ByteProgress) -> None:
    from diamonds.replay.arrow import converted_batches

    for shown, converted in converted_batches([path], args.encoding, args.jobs):
        if isinstance(converted, NotDecodable):  # the games before the bad byte are counted
            out.problem(f"diamonds stats: {converted}")
            continue
        if isinstance(converted, Exception):
            raise converted
        progress.advance(converted.size)
        for line in converted.errors:
            out.problem(line)
        counts.add_tables(converted.tables)


def _parquet_error(path: str, error: Exception) -> CommandError:
    return CommandError(f"{path}: not a Parquet table that `diamonds convert --to parquet` wrote ({error})")


def _from_parquet(folder: str, counts: Any, out: _Output) -> None:
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
        rule = f" ({row['problem_rule']})" if row["problem_rule"] else ""
        out.problem(f"{row['file']}:{row['problem_line']}:{row['problem_column']}: {row['problem_message']}{rule}")
    counts.add_games(games)
    if not getattr(counts, "needs_events", True) or not os.path.isfile(paths["events"]):
        return  # the games' figures without the families' own
    keys = games.select(["file", "game", "family", "rules"])
    try:
        for batch in pq.ParquetFile(paths["events"]).iter_batches(batch_size=EVENT_BATCH_ROWS):
            counts.add_events(pa.Table.from_batches([batch]), keys)
    except (pa.ArrowException, OSError) as error:
        raise _parquet_error(paths["events"], error) from None


def _check_plot(path: str | None) -> None:
    if path is None:
        return
    from .stats_plot import check_plot_target

    check_plot_target(path)


def run(args: argparse.Namespace) -> int:
    from diamonds.replay.arrow import MissingExtra, require_pyarrow
    from diamonds.replay.stats import StatsAccumulator

    try:
        require_pyarrow()
    except MissingExtra as error:
        raise CommandError(f"stats reads its games through the analysis tables; {error}") from None
    _check_plot(args.plot)  # before reading anything: a bad --plot is a usage error at once
    if getattr(args, "by", None) == "player":
        from .league_cmd import run_league

        return run_league(args)
    if args.format == "csv":
        raise CommandError("--format csv is for the league table (--by player); the summary is text or json")
    counts = StatsAccumulator()
    problems = read_inputs(args, counts)
    summary = counts.summary()
    if args.format == "json":
        sys.stdout.write(json.dumps(summary.as_dict(), indent=2) + "\n")
    else:
        from rich.console import Console

        Console(width=args.width, highlight=False).print(SummaryView(summary))
    if args.plot is not None:
        from .stats_plot import draw

        draw(summary, args.plot)
    return 1 if problems else 0


def read_inputs(args: argparse.Namespace, counts: Any, label: str = "counting") -> int:
    """Every input of `args.files` (DGN files, or folders of Parquet tables) into `counts`; the
    problems reported on stderr (their number is returned)."""
    for path in args.files:
        if path != "-" and not os.path.exists(path):
            raise CommandError(f"{path}: no such file or folder")
    with ByteProgress([p for p in args.files if not os.path.isdir(p)], label=label) as progress:
        out = _Output(progress)
        for path in args.files:
            if path != "-" and os.path.isdir(path):
                _from_parquet(path, counts, out)
            else:
                _from_dgn(path, args, counts, out, progress)
    return out.problems


# --------------------------------------------------------------------------- the text form


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _number(value: float | int | None, places: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{places}f}"


def _cell(value: Any, column: str) -> str:
    if isinstance(value, float):
        return _percent(value) if column in ("share", "made rate", "rate") else _number(value, 2)
    return "-" if value is None else str(value) if not isinstance(value, int) else f"{value:,}"


class SummaryView:
    """The summary as rich tables, in the order an organiser reads them; fits 80 columns."""

    def __init__(self, summary: "Summary") -> None:
        self.summary = summary

    def __rich_console__(self, console: "Console", options: "ConsoleOptions") -> "RenderResult":
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        s = self.summary
        head = f"{s.games:,} game{'s' if s.games != 1 else ''}: {s.valid:,} valid, {s.games - s.valid:,} invalid, " \
               f"{s.complete:,} complete and counted below"
        if s.unreadable:
            head += f" ({s.unreadable:,} unreadable)"
        yield Text(head, style="bold")
        if not s.groups:
            return

        def table(*columns: str, text: tuple[bool, ...] = (True,)) -> Table:
            found = Table(show_edge=False, pad_edge=False, expand=False)
            for number, name in enumerate(columns):
                left = number < len(text) and text[number]
                found.add_column(name, justify="left" if left else "right", no_wrap=number > 0)
            return found

        def titled(title: str, body: Table) -> Group:
            return Group(Text(""), Text(title, style="bold"), body)

        games = table("set-up", "games", "complete", "top tied", "broken", "shared")
        for g in s.groups:
            games.add_row(g.label, _number(g.games), _number(g.complete), _number(g.ties.top_tied),
                          _number(g.ties.broken), _number(g.ties.shared))
        yield titled("Games, and how often ties decided them (top tied: several sides had the best score; "
                     "broken: the rules chose among them, R18's larger Vault; shared: a shared win)", games)

        most = max(len(g.wins) for g in s.groups)
        wins = table("set-up", *(f"side {n}" for n in range(1, most + 1)))
        for g in s.groups:
            cells = [f"{_percent(w.rate)}" for w in g.wins] + [""] * (most - len(g.wins))
            wins.add_row(g.label, *cells)
            if any(len(w.seats) > 1 for w in g.wins):
                wins.add_row(Text("  sides: " + ", ".join("+".join(map(str, w.seats)) for w in g.wins),
                                  style="dim"), *([""] * most))
        yield titled("Win rate by side (a side is a seat, or a team's seats; a shared win counts for each)", wins)

        scores = table("set-up", "mean", "stdev", "min", "median", "max", "margin")
        for g in s.groups:
            d = g.scores
            scores.add_row(g.label, _number(d.mean), _number(d.stdev), _number(d.low), _number(d.median),
                           _number(d.high), _number(g.margins.mean))
        yield titled("Final scores of every side (stdev: the spread) and the winner's margin over the next side",
                     scores)

        for family in s.families:
            for breakdown in family.breakdowns:
                text = tuple(all(isinstance(row[i], str) or row[i] is None for row in breakdown.rows)
                             for i in range(len(breakdown.columns)))
                found = table(*breakdown.columns, text=text)
                for row in breakdown.rows:
                    found.add_row(*(_cell(value, column) for value, column in zip(row, breakdown.columns)))
                yield titled(breakdown.title, found)
