"""`diamonds analyse`: wiring only (the analysis is `diamonds.bots.analyse`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .errors import CommandError
from .inputs import display_path, warn_no_game
from .outputs import open_output

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    import diamonds
    from diamonds.bots.analyse import accuracy, analyse_game, marks
    from diamonds.bots.notes import with_summary
    from diamonds.notation.writer import write_game

    if args.blunder is not None and args.mistake is not None and args.blunder < args.mistake:
        raise CommandError("--blunder must be at least --mistake")
    if args.max_samples is not None and args.max_samples < args.samples:
        raise CommandError(f"--max-samples {args.max_samples} is below --samples {args.samples}: the most worlds for "
                           "one decision cannot be fewer than the first draw")
    games = list(diamonds.read_games(args.file, encoding=args.encoding))
    if not games:
        warn_no_game("analyse", args.file)
        return 1
    if args.game is not None:  # as replay's --game: that game alone is analysed and written
        if args.game > len(games):
            raise CommandError(f"{display_path(args.file)} has fewer than {args.game} games: {len(games)} "
                               f"(--game 1 to {len(games)})")
        games = [games[args.game - 1]]
    texts, reports, status = [], [], 0
    total = len(games)
    for number, game in enumerate(games, args.game or 1):
        if not game.is_valid:
            print(f"diamonds analyse: game {number} is not valid ({len(game.problems)} problem(s)): "
                  "written unchanged, not judged", file=sys.stderr)
            for problem in game.problems:
                print(problem.render(), file=sys.stderr)
            texts.append(write_game(game.record))
            reports.append({"game": number, "valid": False, "problems": [str(p) for p in game.problems]})
            status = 1
            continue
        record, judgements = analyse_game(game, samples=args.samples, max_samples=args.max_samples, seed=args.seed,
                                          mistake=args.mistake, blunder=args.blunder, exact_nodes=args.exact_nodes,
                                          double_dummy=args.double_dummy, jobs=args.jobs or os.cpu_count() or 1)
        rows = accuracy(judgements, game.players, game.rules, args.mistake)
        record = with_summary(record, rows)
        texts.append(write_game(record))
        mistake, blunder = marks(game.rules, args.mistake, args.blunder)
        reports.append({"game": number, "valid": True, "rules": game.rules,
                        "thresholds": {"?!": mistake / 2, "?": mistake, "??": blunder},
                        "players": [row.as_dict() for row in rows],
                        "judgements": [_judgement(j) for j in judgements]})
        _print_summary(number, total, judgements, rows)
    with open_output(args.output, force=args.force) as out:
        if args.format == "json":
            out.write(json.dumps({"seed": args.seed, "samples": args.samples, "games": reports}, indent=1) + "\n")
        else:
            out.write("\n".join(texts))
    return status


def _judgement(j: Any) -> dict[str, Any]:
    return {"ply": j.ply, "round": j.round_index + 1, "at": j.at, "kind": j.kind, "player": j.player, "played": j.played,
            "best": j.best, "played_value": round(j.played_estimate, 3), "best_value": round(j.best_estimate, 3),
            "loss": round(j.loss, 3), "loss_interval": [round(j.loss_low, 3), round(j.loss_high, 3)],
            "worlds": j.samples, "considered": j.considered, "legal": j.legal, "method": j.method, "mark": j.glyph}


def _print_summary(number: int, count: int, judgements: list[Any], rows: list[Any]) -> None:
    """The per-player table, always, on standard error (standard output holds the game or the report)."""
    exact = sum(1 for j in judgements if j.exact)
    head = f"game {number} of {count}: " if count > 1 else ""
    print(f"{head}{len(judgements)} decisions judged ({exact} exactly), "
          f"{sum(1 for j in judgements if j.glyph)} marked", file=sys.stderr)
    width = max([6, *(len(row.player) for row in rows)])
    print(f"  {'player':<{width}}  judged   ?!    ?   ??  mean loss  accuracy", file=sys.stderr)
    for row in rows:
        print(f"  {row.player:<{width}}  {row.judged:>6} {row.inaccuracies:>4} {row.mistakes:>4} {row.blunders:>4}"
              f"  {row.mean_loss:>9.2f}  {row.accuracy:>7.1f}%", file=sys.stderr)
