"""`diamonds analyse`: wiring only (the analysis is `diamonds.bots.analyse`)."""

from __future__ import annotations

import argparse
import sys

from .errors import CommandError
from .inputs import display_path, warn_no_game
from .outputs import open_output

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    import diamonds
    from diamonds.bots.analyse import analyse_game
    from diamonds.notation.writer import write_game

    if args.blunder is not None and args.mistake is not None and args.blunder < args.mistake:
        raise CommandError("--blunder must be at least --mistake")
    games = list(diamonds.read_games(args.file, encoding=args.encoding))
    if not games:
        warn_no_game("analyse", args.file)
        return 1
    if args.game is not None:  # as replay's --game: that game alone is analysed and written
        if args.game > len(games):
            raise CommandError(f"{display_path(args.file)} has fewer than {args.game} games: {len(games)} "
                               f"(--game 1 to {len(games)})")
        games = [games[args.game - 1]]
    texts, marked = [], 0
    for number, game in enumerate(games, args.game or 1):
        if not game.is_valid:
            print(f"diamonds analyse: game {number} is not valid ({len(game.problems)} problem(s)): "
                  "written unchanged", file=sys.stderr)
            texts.append(write_game(game.record))
            continue
        record, judgements = analyse_game(game, samples=args.samples, seed=args.seed, mistake=args.mistake,
                                          blunder=args.blunder, exact_nodes=args.exact_nodes)
        marked += sum(1 for j in judgements if j.glyph)
        texts.append(write_game(record))
        if sys.stderr.isatty():
            print(f"game {number}: {len(judgements)} choices judged ({sum(1 for j in judgements if j.exact)} exactly), "
                  f"{sum(1 for j in judgements if j.glyph)} marked", file=sys.stderr)
    with open_output(args.output, force=args.force) as out:
        out.write("\n".join(texts))
    return 0
