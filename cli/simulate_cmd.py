"""`diamonds simulate`: random legal games as DGN (or told in words)."""

from __future__ import annotations

import argparse
import random

from diamonds.core import ConfigError, simulate, with_rule
from diamonds.notation.tags import UnsafeTagText, check_tags
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game
from diamonds.views import view_for

from .errors import CommandError
from .outputs import open_output
from .players import seat_names

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    variants = [part.strip() for value in args.variant for part in value.split(",") if part.strip()]
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    players = seat_names(args.players, args.rules)
    options = {name[len("tag_"):]: value for name, value in vars(args).items()
               if name.startswith("tag_") and value is not None}
    try:
        check_tags(options.items())
    except UnsafeTagText as error:
        raise CommandError(f"--{error.tag.lower()}: {error}") from None
    with open_output(args.output, force=args.force) as out:
        for number in range(args.games):
            try:
                game = simulate(players, rules=args.rules, variants=variants, seed=seed + number,
                                options=options)
            except ConfigError as error:
                raise CommandError(with_rule(str(error), error.rule)) from None
            if args.narrate:
                describe = view_for(game.config.rules).describe
                for events in game.events:
                    for event in events:
                        out.write(describe(game.config, event) + "\n")
                continue
            tags = [("Event", "Simulated game"), ("Seed", str(seed + number))]
            record = record_from_game(game, tags=tags, deals=not args.no_deals)
            if number:
                out.write("\n")
            out.write(write_game(record))
    return 0


