"""One bot against the others, from `diamonds arena --duplicate` files: `python bench/duel.py BOT FILE.dgn ...`.

Each file holds whole duplicate deals (each deal's games in a row, the bots rotated one seat a game, every
game's Bots and Seed tags as the arena writes them). The lead is the arena's own (`diamonds.bots.arena.
paired_leads`, which `diamonds arena` prints too): per game, the mean score of BOT's seats less the mean of
the other bots' seats; per deal, the mean of its games' leads, so the luck of the cards cancels out; the
deals' mean lead with its 95% interval (Student's t over the deals: a paired comparison, the deals
independent). Here over several files, and with BOT's wins: a Wilson 95% interval on the share of its
seats that won, beside the mean share of one other seat and the fair share (a shared win counts for each
winner).

The arena of issue 32 point 6 (docs/bots.md, "ismcts against mc:8"):

    diamonds arena --rules kirk --hands 1 --bots ismcts,mc:8,mc:8,mc:8 --games 40 --duplicate --seed 1 -o k1.dgn
    python bench/duel.py ismcts k1.dgn
"""

from __future__ import annotations

import sys

import diamonds
from diamonds.bots.arena import GameResult, paired_leads
from diamonds.replay.intervals import wilson


def main(bot: str, paths: list[str]) -> None:
    results: list[tuple[tuple[str, str, int], GameResult]] = []  # (its deal, the game)
    for path in paths:
        for game in diamonds.read_games(path):
            bots = dict(word.split("=", 1) for word in game.tags["Bots"].split())
            seed, number = game.tags["Seed"].split(":")
            score: dict[str, int] = {}
            won: dict[str, bool] = {}
            for standing in game.end().standings:
                for player in standing.players:
                    score[player], won[player] = standing.score or 0, bool(standing.winner)
            players = list(bots)
            result = GameResult(int(number), tuple(bots[p] for p in players), tuple(score[p] for p in players),
                                tuple(won[p] for p in players), "")
            results.append(((path, seed, int(number) // len(bots)), result))
    [lead] = [row for row in paired_leads(results) if row.bot == bot]
    games = len(results)
    seats = [(spec == bot, won) for _, result in results for spec, won in zip(result.bots, result.winners)]
    mine = [won for is_bot, won in seats if is_bot]
    others = [won for is_bot, won in seats if not is_bot]
    wins = sum(mine)
    low, high = wilson(wins, len(mine)) or (0.0, 1.0)  # no games: nothing known
    print(f"{bot}: {games} games, {lead.deals} deals; lead per deal {lead.lead:+.2f} ± {lead.interval:.2f} "
          f"(95%, Student's t over the deals, {lead.deals - 1} df): [{lead.low:+.2f}, {lead.high:+.2f}]")
    print(f"{bot} wins {wins}/{len(mine)} = {wins / len(mine):.1%} (Wilson 95% {low:.1%}-{high:.1%}); "
          f"one other seat {sum(others) / len(others):.1%}; fair share {games / len(seats):.1%}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
