"""mc beats greedy and greedy beats random, in an arena per family (slow: run with -m slow).

Each arena is 200 games (the bidding game's run to +-100 points and are long: 40 games there), in two
processes, with mc at 4 samples per decision to keep the whole under about three minutes on two cores.
The comparison is of mean final score, with mc and greedy each needing a clear lead (more than the sum of
the two 95% half-intervals would be too strict for 200 games; a lead in mean and in wins is asked)."""

from __future__ import annotations

import functools

import pytest

from diamonds.bots.arena import ArenaSetup, play_game, standings
from diamonds.io.parallel import ordered_map

ARENAS = [
    ("2e", 4, ("mc:4", "greedy", "greedy", "random"), {}, 200),
    ("1e", 3, ("mc:4", "greedy", "random"), {}, 200),
    ("kirk", 4, ("mc:4", "greedy", "greedy", "random"), {"Hands": "1"}, 200),
    ("bidding", 3, ("mc:4", "greedy", "random"), {}, 40),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules,players,bots,options,games", ARENAS, ids=[a[0] for a in ARENAS])
def test_mc_beats_greedy_beats_random(rules, players, bots, options, games) -> None:
    setup = ArenaSetup(rules, players, bots, 1, options=options)
    rows = {row.bot: row for row in standings(ordered_map(functools.partial(play_game, setup), range(games), 2))}
    mc, greedy, rand = rows["mc:4"], rows["greedy"], rows["random"]
    assert mc.mean > greedy.mean > rand.mean, [(r.bot, r.mean) for r in rows.values()]
    assert mc.wins / mc.games > greedy.wins / greedy.games > rand.wins / rand.games
