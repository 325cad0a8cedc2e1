"""`diamonds stats --by player`: the league table, per rule set (and per family), as text, JSON or CSV.

The counting is `diamonds.replay.players` (the `games` table only); the
inputs are read as `stats` reads them (`stats_cmd.read_inputs`): DGN files
and folders of Parquet tables, in any mix.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

    from diamonds.replay.players import League, PlayerRow

__all__ = ["run_league", "LeagueView", "CSV_COLUMNS"]

CSV_COLUMNS = ["player", "family", "rules", "games", "wins", "win_rate", "win_rate_low", "win_rate_high",
               "mean_score", "mean_place"]


def run_league(args: argparse.Namespace) -> int:
    from diamonds.replay.players import LeagueAccumulator

    from .stats_inputs import read_inputs

    counts = LeagueAccumulator()
    problems = read_inputs(args, counts)
    league = counts.league()
    if args.format == "json":
        sys.stdout.write(json.dumps(league.as_dict(), indent=2) + "\n")
    elif args.format == "csv":
        writer = csv.DictWriter(sys.stdout, CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in (*league.rows, *league.families):
            found = row.as_dict()
            found["rules"] = found["rules"] or "all"
            writer.writerow(found)
    else:
        from .console import console

        console(width=args.width, highlight=False).print(LeagueView(league))
    if args.plot is not None:
        from .stats_plot import draw_league

        draw_league(league, args.plot)
    return 1 if problems else 0


def _wins(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


class LeagueView:
    """One table per rule set, then per family where it has several; names are plain text, never markup."""

    def __init__(self, league: League) -> None:
        self.league = league

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.table import Table
        from rich.text import Text

        from diamonds.replay.players import FEW_GAMES

        league = self.league
        yield Text(f"{league.games:,} complete game{'s' if league.games != 1 else ''} counted; a shared win "
                   f"counts as a fraction; *: fewer than {FEW_GAMES} games", style="bold")

        def block(title: str, rows: list[PlayerRow]) -> Any:
            table = Table(show_edge=False, pad_edge=False, title=title, title_justify="left", title_style="bold")
            table.add_column("player", justify="left")
            for name in ("games", "wins", "win rate", "95% interval", "mean score", "mean place"):
                table.add_column(name, justify="right", no_wrap=True)
            for row in rows:
                low, high = row.interval
                few = row.games < FEW_GAMES
                table.add_row(Text(row.player + (" *" if few else ""), style="dim" if few else ""),
                              f"{row.games:,}", _wins(row.wins), f"{100 * row.win_rate:.0f}%",
                              f"{100 * low:.0f}-{100 * high:.0f}%", f"{row.mean_score:.1f}", f"{row.mean_place:.2f}")
            return table

        groups: dict[tuple[str, str | None], list[PlayerRow]] = {}
        for row in (*league.rows, *league.families):
            groups.setdefault((row.family, row.rules), []).append(row)
        for (family, rules), rows in groups.items():
            yield Text("")
            yield block(f"{family}, rules {rules}" if rules else f"{family}, every rule set", rows)
