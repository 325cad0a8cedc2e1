"""mc beats greedy and greedy beats random, in an arena per family (slow: run with -m slow).

Each arena plays up to 200 games of one hand or the usual rounds (the bidding game's run to +-100 points
and are long: up to 20 games there), with mc at 4 samples per decision (8 in Kirk's game, where its lead
over greedy is small). The games are fixed by seed 1.

Kirk's arena duplicates its deals, as in duplicate bridge (`ArenaSetup.duplicate`): each deal is played
once per rotation of the bots, so that every bot holds every seat's cards of it, and the arena is whole
deals (its 200 games rounded up to a multiple of the seats). The luck of the cards, most of a Kirk game's
result, then cancels out of a comparison made deal by deal. The other arenas deal afresh every game (each
game a deal, its own rotation): the Fitzgerald arenas are clear at the first look allowed (40 games) as they
are (duplicated, 2e took 60), and the bidding game's one batch is its whole arena.

Asked: mc's mean final score over greedy's, and greedy's over random's, with a higher share of wins.
The arena is sequential: after every batch of deals, each deal gives a paired difference (over its
rotations, the mean of mc's seats' mean score minus greedy's in each game, and greedy's minus random's),
and the arena stops as soon as both differences are above zero with 99% confidence (a stricter bar than
95%, because the arena looks after every batch; Student's t, as the deals at a look may be few) and the
shares of wins are ordered, after at least MIN_GAMES games. That asks more than the fixed 200-game arena
did (an ordering that is not noise, not just an ordering), and a clear ordering costs a fraction of the
games: in Kirk's arena, where mc's lead is small, the differences game by game stay inside the noise for
all 200 games (z 1.7), while deal by deal they are clear after 10 deals (40 games). An ordering that never
becomes clear is still asked of the full arena, as the fixed arena asked it.
"""

from __future__ import annotations

import functools
import math
import statistics

import pytest

from diamonds.bots.arena import ArenaSetup, GameResult, play_game, seat_bots, standings
from diamonds.io.parallel import ordered_map
from diamonds.replay.intervals import t_point

ARENAS = [  # rules, players, bots, option tags, games, duplicate deals
    ("2e", 4, ("mc:4", "greedy", "greedy", "random"), {}, 200, False),
    ("1e", 3, ("mc:4", "greedy", "random"), {}, 200, False),
    ("kirk", 4, ("mc:8", "greedy", "greedy", "random"), {"Hands": "1"}, 200, True),  # mc's lead is small here
    ("bidding", 3, ("mc:4", "greedy", "random"), {}, 20, False),
]
BATCH = 20  # games between two looks, rounded up to whole deals (the bidding game's whole arena is one batch)
MIN_GAMES = 40  # no stop before this many games, so that one lucky batch cannot decide
Z_EARLY = 2.576  # two-sided 99%: the bar for stopping at a look (normal; `t_bar` for few observations)


def seat_mean(result: GameResult, bot: str) -> float:
    scores = [score for seated, score in zip(result.bots, result.scores) if seated == bot]
    return sum(scores) / len(scores)


def per_deal(results: list[GameResult], rotations: int, better: str, worse: str) -> list[float]:
    """Per deal (`rotations` games in a row), the mean of each game's `better` seats' mean minus `worse`'s."""
    games = [seat_mean(r, better) - seat_mean(r, worse) for r in results]
    return [statistics.fmean(games[at:at + rotations]) for at in range(0, len(games), rotations)]


def t_bar(n: int) -> float:
    """The bar for the mean of `n` observations: Student's t at Z_EARLY's level (99%), n - 1 degrees of freedom."""
    return t_point(n - 1, 0.99)


def clearly_above_zero(differences: list[float]) -> bool:
    if len(differences) < 3:
        return False
    spread = statistics.stdev(differences)
    return statistics.fmean(differences) - t_bar(len(differences)) * spread / math.sqrt(len(differences)) > 0


def test_the_stopping_rule_needs_a_difference_that_is_not_noise() -> None:
    assert clearly_above_zero([3.0, 4.0, 5.0, 3.5] * 5)
    assert not clearly_above_zero([3.0, -4.0, 5.0, -3.5] * 5)  # a positive mean inside the noise
    assert not clearly_above_zero([1.0, 2.0])
    # mean 1, standard error 1/3: 3 standard errors clear the normal 99% bar, not t's with 9 degrees of freedom
    assert not clearly_above_zero([0.0, 2.0] * 5)
    assert clearly_above_zero([0.0, 2.0] * 10)  # standard error 0.23: 4.4 of them


def test_the_bar_is_students_t_at_99_percent() -> None:
    """Against the t table's two-sided 99% points (4, 9 and 39 degrees of freedom) and the normal's."""
    for n, point in ((5, 4.604), (10, 3.250), (40, 2.708)):
        assert abs(t_bar(n) - point) < 0.02 * point, (n, t_bar(n))
    assert Z_EARLY < t_bar(1000) < Z_EARLY + 0.01


def test_each_deal_is_played_once_per_rotation_of_the_bots() -> None:
    """The duplicate arena: the games of a deal have its cards in each seat and its dealer, the bots rotated."""
    setup = ArenaSetup("kirk", 4, ("greedy", "random", "random", "random"), 1, options={"Hands": "1"},
                       duplicate=True)
    deals = []
    for number in range(5):
        lines = play_game(setup, number).text.splitlines()
        deals.append([line for line in lines if line.startswith(("deal ", "R1 dealer", "[Dealer"))])
        assert seat_bots(setup, number)[number % 4] == "greedy"
    assert len(deals[0]) == 6 and deals[0] == deals[1] == deals[2] == deals[3] != deals[4]


@pytest.mark.slow
@pytest.mark.parametrize("rules,players,bots,options,games,duplicate", ARENAS, ids=[a[0] for a in ARENAS])
def test_mc_beats_greedy_beats_random(rules, players, bots, options, games, duplicate) -> None:
    setup = ArenaSetup(rules, players, bots, 1, options=options, duplicate=duplicate)
    mc_bot, rotations = bots[0], len(bots) if duplicate else 1  # games a deal
    step = rotations * math.ceil(BATCH / rotations)  # whole deals between two looks
    games = rotations * math.ceil(games / rotations)  # whole deals in the arena
    results: list[GameResult] = []
    while len(results) < games:
        batch = range(len(results), min(games, len(results) + step))
        with ordered_map(functools.partial(play_game, setup), batch, 2) as played:
            results += played
        rows = {row.bot: row for row in standings(results)}
        mc, greedy, rand = rows[mc_bot], rows["greedy"], rows["random"]
        shares_ordered = mc.wins / mc.games > greedy.wins / greedy.games >= rand.wins / rand.games
        over_greedy = per_deal(results, rotations, mc_bot, "greedy")
        over_random = per_deal(results, rotations, "greedy", "random")
        if (len(results) >= MIN_GAMES and shares_ordered
                and clearly_above_zero(over_greedy) and clearly_above_zero(over_random)):
            return  # a clear ordering at this look
    # the whole arena, where the ordering never became clear at a look: asked as the fixed arena asked it
    assert mc.mean > greedy.mean > rand.mean, [(r.bot, r.mean) for r in rows.values()]
    # mc may take every win (it does in the bidding game), so greedy's share is only asked not to trail random's
    assert shares_ordered, [(r.bot, r.wins, r.games) for r in rows.values()]
