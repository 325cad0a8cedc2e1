"""Entry point of the `diamonds` command."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from diamonds_core import ConfigError, RULE_SETS, simulate

from .narrate import describe

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="diamonds", description="Record, check and replay games of Diamonds.")
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play a random legal game and narrate it")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--rules", choices=sorted(RULE_SETS), default="2e")
    sim.add_argument("--variant", action="append", default=[], help="partnership or perfect")
    sim.add_argument("--seed", type=int, default=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = simulate(args.players, rules=args.rules, variants=args.variant, seed=args.seed)
    except ConfigError as error:
        print(f"diamonds: {error}", file=sys.stderr)
        return 2
    for events in game.events:
        for event in events:
            print(describe(game.config, event))
    return 0


if __name__ == "__main__":
    sys.exit(main())
