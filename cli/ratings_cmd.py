"""`diamonds ratings FILES…`: openskill ratings (Plackett-Luce) of the players, game by game in date order.

Inputs are read as `stats` reads them (DGN files, folders of Parquet
tables); the rating is `diamonds.replay.ratings`. A missing extra (parquet,
ratings, plot) is one line naming it, status 2.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from .errors import CommandError

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from diamonds.replay.arrow import MissingExtra, require_pyarrow
    from diamonds.replay.players import LeagueAccumulator
    from diamonds.replay.ratings import AliasError, parse_aliases, rate, require_openskill

    try:
        require_pyarrow()
        require_openskill()
    except MissingExtra as error:
        raise CommandError(str(error)) from None
    if args.plot is not None:
        from .stats_plot import check_plot_target

        check_plot_target(args.plot)
    aliases: dict[str, str] = {}
    if args.alias is not None:
        from diamonds.io.text import open_text

        try:  # the one text opener: a byte of another encoding is placed at file:line:col, with --encoding's hint
            with open_text(args.alias, args.encoding) as handle:
                aliases = parse_aliases(handle.read(), args.alias)
        except AliasError as error:
            raise CommandError(str(error)) from None
    from .stats_inputs import read_inputs

    counts = LeagueAccumulator()
    counts.keep_games = True
    problems = read_inputs(args, counts, "rating", "rated")
    ratings = rate(counts.played, aliases)
    for line in ratings.skipped:
        print(f"diamonds ratings: {line}; not rated", file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(json.dumps(ratings.as_dict(), indent=2) + "\n")
    elif args.format == "csv":
        writer = csv.DictWriter(sys.stdout, ["player", "rating", "sigma", "ordinal", "games"], lineterminator="\n")
        writer.writeheader()
        for row in ratings.rows:
            writer.writerow(row.as_dict())
    else:
        from rich.table import Table
        from rich.text import Text

        from .console import console as make_console

        console = make_console(width=args.width, highlight=False)
        console.print(Text(f"{ratings.games:,} game{'s' if ratings.games != 1 else ''} rated in date order "
                           f"({ratings.model}); ordinal = rating - 3 sigma, the conservative rating",
                           style="bold"))
        table = Table(show_edge=False, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column("player", justify="left")
        for name in ("rating", "sigma", "ordinal", "games"):
            table.add_column(name, justify="right", no_wrap=True)
        for place, row in enumerate(ratings.rows, 1):
            table.add_row(str(place), Text(row.player), f"{row.mu:.1f}", f"{row.sigma:.1f}", f"{row.ordinal:.1f}",
                          f"{row.games:,}")
        console.print(table)
    if args.plot is not None:
        from .stats_plot import draw_ratings

        draw_ratings(ratings, args.plot)
    return 1 if problems or ratings.skipped else 0
