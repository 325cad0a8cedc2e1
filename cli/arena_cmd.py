"""`diamonds arena`: bots against bots; wiring only (the arena itself is `diamonds.bots.arena`)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import sys

from diamonds.core import ConfigError, rules_for, with_rule

from .errors import CommandError
from .outputs import open_output
from .players import seat_names
from .progress import GameProgress

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from diamonds.bots import make_bot
    from diamonds.bots.arena import (
        ArenaSetup,
        deal_of,
        format_leads,
        format_standings,
        paired_leads,
        play_game,
        standings,
    )
    from diamonds.io.parallel import ordered_map

    try:
        import openskill  # noqa: F401  (the ratings)
    except ImportError:
        raise CommandError('the arena\'s ratings need the bots extra: pip install "diamonds[bots]"') from None
    rule_set = rules_for(args.rules)
    names = seat_names(args.players, args.rules)
    players = len(names)
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
    if args.duplicate and args.games % players:
        raise CommandError(f"--duplicate plays each deal once per rotation of the {players} seats' bots: "
                           f"--games {args.games} is not a multiple of {players}")
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    setup = ArenaSetup(args.rules, players, specs, seed, variants, options, names, duplicate=args.duplicate)
    try:
        rule_set.configure(list(names), variants=variants, options=options or None)
    except ConfigError as error:
        raise CommandError(with_rule(str(error), error.rule)) from None
    results = []
    sink = open_output(args.output, force=args.force) if args.output else contextlib.nullcontext(_Nowhere())
    with sink as out, GameProgress([], "playing", "played", games=args.games) as progress:
        with ordered_map(functools.partial(play_game, setup), range(args.games), args.jobs) as games:
            for result in games:
                if result.number:
                    out.write("\n")
                out.write(result.text)
                results.append(result)
                progress.advance(len(result.text))
    report = sys.stderr if args.output == "-" else sys.stdout  # the games have stdout then
    count = args.games // players
    deals = f", {count} duplicate deal{'s' * (count != 1)}" if args.duplicate else ""
    print(f"{args.games} games of {args.rules}, {players} players, seed {seed}{deals}", file=report)
    print(format_standings(standings(results)), file=report)
    leads = paired_leads((deal_of(setup, result.number), result) for result in results)
    if len(leads) > 1:  # a bot against the others, deal by deal (a game is its own deal without --duplicate)
        print(format_leads(leads, "deal" if args.duplicate else "game"), file=report)
    return 0


class _Nowhere:
    def write(self, text: str) -> int:
        return len(text)
