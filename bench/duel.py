"""One bot against the others, from `diamonds arena --duplicate` files: `python bench/duel.py BOT FILE.dgn ...`.

Each file holds whole duplicate deals (each deal's games in a row, the bots rotated one seat a game, every
game's Bots and Seed tags as the arena writes them). Per game, BOT's seat's final score less the mean of
the other seats' scores (BOT in one seat a game); per deal, the mean of its games' leads, so the luck of
the cards cancels out. Prints the deals' mean lead with its 95% interval (Student's t over the deals:
a paired comparison, the deals independent), and BOT's wins with a Wilson 95% interval on its share,
beside the mean share of one other seat and the fair share 1/n (a shared win counts for each winner).

The arena of issue 32 point 6 (docs/bots.md, "ismcts against mc:8"):

    diamonds arena --rules kirk --hands 1 --bots ismcts,mc:8,mc:8,mc:8 --games 40 --duplicate --seed 1 -o k1.dgn
    python bench/duel.py ismcts k1.dgn
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict

import diamonds
from diamonds.replay.intervals import t_point, wilson


def main(bot: str, paths: list[str]) -> None:
    leads: dict[tuple[str, str, int], list[float]] = defaultdict(list)
    wins = games = other_wins = other_seats = 0
    for path in paths:
        for game in diamonds.read_games(path):
            bots = dict(word.split("=", 1) for word in game.tags["Bots"].split())
            seed, number = game.tags["Seed"].split(":")
            score: dict[str, float] = {}
            won: dict[str, bool] = {}
            for standing in game.end().standings:
                for player in standing.players:
                    score[player], won[player] = float(standing.score or 0), bool(standing.winner)
            (mine,) = [player for player, spec in bots.items() if spec == bot]
            others = [player for player in bots if player != mine]
            leads[(path, seed, int(number) // len(bots))].append(
                score[mine] - statistics.fmean(score[player] for player in others))
            games += 1
            wins += won[mine]
            other_wins += sum(won[player] for player in others)
            other_seats += len(others)
    deals = [statistics.fmean(lead) for lead in leads.values()]
    mean, count = statistics.fmean(deals), len(deals)
    half = t_point(count - 1) * statistics.stdev(deals) / math.sqrt(count) if count > 2 else math.inf
    low, high = wilson(wins, games) or (0.0, 1.0)  # no games: nothing known
    print(f"{bot}: {games} games, {count} deals; lead per deal {mean:+.2f} ± {half:.2f} "
          f"(95%, Student's t over the deals, {count - 1} df): [{mean - half:+.2f}, {mean + half:+.2f}]")
    print(f"{bot} wins {wins}/{games} = {wins / games:.1%} (Wilson 95% {low:.1%}-{high:.1%}); "
          f"one other seat {other_wins / other_seats:.1%}; fair share {games / (games + other_seats):.1%}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
