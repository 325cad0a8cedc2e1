"""How far `diamonds analyse`'s marks can be trusted (issue 32), and what a game's analysis costs.

    python bench/analyse.py [FILE ...] [--simulate RULES ...] [--seeds 0 1] [--recheck 300]

For each game (the files', then one fresh simulated game per rule set named):
- the marks at the default settings under each seed, and how many they share (the seed agreement:
  marks in common over the union of both seeds' marks);
- the CPU seconds of each analysis;
- each mark of the first seed re-checked from the player's own view with `--recheck` worlds under three
  other seeds: a mark holds when at least two of the three re-checks give it at least the same glyph's
  threshold (the interval's lower end);
- the per-player accuracy table of the first seed.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import diamonds
from diamonds.bots.analyse import GLYPHS, accuracy, judge, judge_decision, mark_thresholds
from diamonds.core.simulate import simulate
from diamonds.notation.writer import write_game
from diamonds.replay.record import record_from_game


def games(args: argparse.Namespace) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for path in args.files:
        for number, game in enumerate(diamonds.read_games(path), 1):
            found.append((f"{path}#{number}", game))
    for rules in args.simulate:
        names = ("Ann", "Bob", "Cat", "Dan")[: 4 if rules in ("kirk", "2e", "bga") else 3]
        sim = simulate(names, rules=rules, seed=11, options={"Hands": "1"} if rules == "kirk" else {})
        found.append((f"simulated {rules}", diamonds.Game.from_text(write_game(record_from_game(sim, deals=True)))))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--simulate", nargs="*", default=[])
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 1))
    parser.add_argument("--recheck", type=int, default=300, help="worlds per re-check (0: none)")
    args = parser.parse_args()
    for name, game in games(args):
        runs = []
        for seed in args.seeds:
            start = time.process_time()
            found = judge(game, seed=seed)
            runs.append((found, time.process_time() - start))
        (first, cpu0), (second, cpu1) = runs
        a = {j.ply: j for j in first if j.glyph}
        b = {j.ply: j for j in second if j.glyph}
        union = set(a) | set(b)
        common = set(a) & set(b)
        print(f"\n{name} ({game.rules}): {len(first)} decisions judged; CPU {cpu0:.1f} s and {cpu1:.1f} s")
        print(f"  seed agreement: {len(a)} and {len(b)} marks, {len(common)} in common "
              f"({100 * len(common) / max(1, len(union)):.0f}% of {len(union)}); same glyph on "
              f"{sum(a[p].glyph == b[p].glyph for p in common)}")
        if args.recheck:
            thresholds = mark_thresholds(game.rules, None, None, None)
            held = 0
            position = game.start()
            for ply, move in enumerate(game.moves):
                mark = a.get(ply)
                if mark is not None:
                    need = thresholds[GLYPHS.index(mark.glyph)]
                    votes = 0
                    for seed in (101, 202, 303):
                        again = judge_decision(position, move, ply=ply, seed=seed, samples=args.recheck,
                                               most=args.recheck, thresholds=thresholds)
                        votes += again is not None and again.loss_low >= need - 1e-9
                    held += votes >= 2
                position.push(move)
            print(f"  re-checked with {args.recheck} worlds x 3 seeds from the player's view: "
                  f"{held} of {len(a)} marks hold")
        print("  player        judged   ?!    ?   ??  mean loss  accuracy")
        for row in accuracy(first, game.players, game.rules):
            print(f"  {row.player:<12} {row.judged:>7} {row.inaccuracies:>4} {row.mistakes:>4} {row.blunders:>4}"
                  f"  {row.mean_loss:>9.2f}  {row.accuracy:>7.1f}%")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
