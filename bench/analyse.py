"""How far `diamonds analyse`'s marks can be trusted (issue 32), and what a game's analysis costs.

    python bench/analyse.py [FILE ...] [--simulate RULES ...] [--games 1] [--seeds 0 1] [--recheck 300] [--recheck-own]

For each game (the files', then `--games` fresh simulated games per rule set named, deal seeds 11, 12 ...):
- the marks at the default settings under each seed, and how many they share (the seed agreement:
  marks in common over the union of both seeds' marks);
- the CPU seconds of each analysis;
- each mark of the first seed re-checked from the player's own view under three other seeds: a mark holds
  when at least two of the three re-checks give it at least the same glyph's threshold (the interval's lower
  end). With `--recheck` worlds (the issue's own check), and with `--recheck-own` also with as many worlds as
  the mark was given on where that is more (a mark near its threshold is given on up to 64 times `--samples`
  worlds, and fewer worlds cannot confirm it; the bidding game's many such marks make that one slow);
- the per-player accuracy table of the first seed.
At the end, the seed agreement pooled over the files' games and over the simulated ones (issue 32's target:
90% of marks in common over each).
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
        for deal_seed in range(11, 11 + args.games):
            sim = simulate(names, rules=rules, seed=deal_seed, options={"Hands": "1"} if rules == "kirk" else {})
            found.append((f"simulated {rules} (seed {deal_seed})",
                          diamonds.Game.from_text(write_game(record_from_game(sim, deals=True)))))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--simulate", nargs="*", default=[])
    parser.add_argument("--games", type=int, default=1, help="simulated games per rule set")
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 1))
    parser.add_argument("--recheck", type=int, default=300, help="worlds per re-check (0: none)")
    parser.add_argument("--recheck-own", action="store_true",
                        help="re-check each mark with as many worlds as it was given on, too")
    args = parser.parse_args()
    pooled = {"the files' games": [0, 0], "the simulated games": [0, 0]}  # marks in common, marks of either seed
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
        pool = pooled["the simulated games" if name.startswith("simulated") else "the files' games"]
        pool[0] += len(common)
        pool[1] += len(union)
        print(f"\n{name} ({game.rules}): {len(first)} decisions judged; CPU {cpu0:.1f} s and {cpu1:.1f} s")
        print(f"  seed agreement: {len(a)} and {len(b)} marks, {len(common)} in common "
              f"({100 * len(common) / max(1, len(union)):.0f}% of {len(union)}); same glyph on "
              f"{sum(a[p].glyph == b[p].glyph for p in common)}")
        if args.recheck:
            thresholds = mark_thresholds(game.rules, None, None, None)
            held = [0, 0]  # at --recheck worlds; at as many worlds as the mark was given on, if more
            position = game.start()
            for ply, move in enumerate(game.moves):
                mark = a.get(ply)
                if mark is not None:
                    need = thresholds[GLYPHS.index(mark.glyph)]
                    votes = {}
                    own = max(args.recheck, mark.samples) if args.recheck_own else args.recheck
                    for worlds in {args.recheck, own}:
                        votes[worlds] = sum(
                            again is not None and again.loss_low >= need - 1e-9
                            for again in (judge_decision(position, move, ply=ply, seed=seed, samples=worlds,
                                                         most=worlds, thresholds=thresholds) for seed in (101, 202, 303)))
                    held[0] += votes[args.recheck] >= 2
                    held[1] += votes[own] >= 2
                position.push(move)
            own_text = (f", {held[1]} at as many worlds as the mark was given on (at least {args.recheck})"
                        if args.recheck_own else "")
            print(f"  re-checked x 3 seeds from the player's view (a mark holds where 2 of 3 intervals clear its "
                  f"threshold): {held[0]} of {len(a)} hold at {args.recheck} worlds{own_text}")
        print("  player        judged   ?!    ?   ??  mean loss  accuracy")
        for row in accuracy(first, game.players, game.rules):
            print(f"  {row.player:<12} {row.judged:>7} {row.inaccuracies:>4} {row.mistakes:>4} {row.blunders:>4}"
                  f"  {row.mean_loss:>9.2f}  {row.accuracy:>7.1f}%")
        sys.stdout.flush()
    for where, (common_marks, union_marks) in pooled.items():
        if union_marks:
            print(f"\nseed agreement over {where}: {common_marks} of {union_marks} marks in common "
                  f"({100 * common_marks / union_marks:.1f}%: the target's 90% is not to be reached by rounding)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
