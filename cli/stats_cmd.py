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
import sys
from typing import TYPE_CHECKING, Any

from .errors import CommandError
from .stats_inputs import read_inputs

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

    from diamonds.replay.stats import Summary

__all__ = ["run", "SummaryView"]



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
    if args.format == "csv":
        raise CommandError("--format csv is for the league table (--by player); the summary is text or json")
    counts = StatsAccumulator()
    problems = read_inputs(args, counts)
    summary = counts.summary()
    if args.format == "json":
        sys.stdout.write(json.dumps(summary.as_dict(), indent=2) + "\n")
    else:
        from .console import console

        console(width=args.width, highlight=False).print(SummaryView(summary))
    if args.plot is not None:
        from .stats_plot import draw

        draw(summary, args.plot)
    return 1 if problems else 0


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


#: The narrowest the first column (the set-up) of a stats table is let be before its rows are stacked.
_FIRST_COLUMN = 12


class SummaryView:
    """The summary as rich tables, in the order an organiser reads them; fits 80 columns."""

    def __init__(self, summary: Summary) -> None:
        self.summary = summary

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
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
            return Group(Text(""), Text(title, style="bold"), fitted(body))

        def fitted(body: Table) -> Table | Group:
            """The table, or where its columns cannot fit the width even squeezed (`--width 20`), each row as
            its first cell and then one line per other cell, `column: value`: every figure stays readable."""
            columns = [(str(column.header), [str(cell) for cell in column.cells]) for column in body.columns]
            figures = sum(max(len(text) for text in [header, *cells]) + 3 for header, cells in columns[1:])
            if figures + _FIRST_COLUMN <= options.max_width:  # (the first column wraps; the figures do not)
                return body
            lines: list[Text] = []
            for index, first in enumerate(columns[0][1]):
                lines.append(Text(first))
                lines += [Text(f"  {header}: {cells[index]}") for header, cells in columns[1:] if cells[index].strip()]
            return Group(*lines)

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
