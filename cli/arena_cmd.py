"""`diamonds arena`: bots against bots; wiring only (the arena itself is `diamonds.bots.arena`)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import sys

from diamonds.core import ConfigError, rules_for, with_rule

from .console import console
from .errors import CommandError
from .outputs import open_output

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from diamonds.bots import make_bot
    from diamonds.bots.arena import ArenaSetup, format_standings, play_game, standings
    from diamonds.io.parallel import ordered_map

    try:
        import openskill  # noqa: F401  (the ratings)
    except ImportError:
        raise CommandError('the arena\'s ratings need the bots extra: pip install "diamonds[bots]"') from None
    rule_set = rules_for(args.rules)
    players = args.players or rule_set.default_players
    specs = tuple(word.strip() for word in args.bots.split(",") if word.strip())
    if len(specs) != players:
        raise CommandError(f"--bots names {len(specs)} bot(s) for {players} players: name one per seat")
    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as error:
            raise CommandError(str(error)) from None
    variants = tuple(part.strip() for value in args.variant for part in value.split(",") if part.strip())
    options = {name[len("tag_"):]: value for name, value in vars(args).items()
               if name.startswith("tag_") and value is not None}
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    setup = ArenaSetup(args.rules, players, specs, seed, variants, options)
    try:
        rule_set.configure([f"P{seat}" for seat in range(players)], variants=variants, options=options or None)
    except ConfigError as error:
        raise CommandError(with_rule(str(error), error.rule)) from None
    results = []
    progress = _progress(args.games)
    sink = open_output(args.output, force=args.force) if args.output else contextlib.nullcontext(_Nowhere())
    with sink as out:
        games = ordered_map(functools.partial(play_game, setup), range(args.games), args.jobs)
        for result in games:
            if result.number:
                out.write("\n")
            out.write(result.text)
            results.append(result)
            progress(len(results))
    progress(None)
    report = sys.stderr if args.output == "-" else sys.stdout  # the games have stdout then
    print(f"{args.games} games of {args.rules}, {players} players, seed {seed}", file=report)
    print(format_standings(standings(results)), file=report)
    return 0


class _Nowhere:
    def write(self, text: str) -> int:
        return len(text)


def _progress(total: int):  # type: ignore[no-untyped-def]
    """A bar on stderr when it is a terminal; call with the count done, then None to close it."""
    if not sys.stderr.isatty():
        return lambda done: None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=console(stderr=True), transient=True)
    bar.start()
    task = bar.add_task("games", total=total)

    def update(done: int | None) -> None:
        if done is None:
            bar.stop()
        else:
            bar.update(task, completed=done)

    return update
