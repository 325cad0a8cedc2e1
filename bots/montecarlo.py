"""What one drawn world tells `mc` and `diamonds analyse`: each move's gain, played out to the round's end.

This is the Monte Carlo bots' loop over the moves of a world (a determinised state): apply the move, play
the round out with the family's greedy rules (its `rollout` on its mutable table where it has one), and
score the end against the start. The compiled build compiles this module (docs/build.md): the playouts are
compiled already, and this loop ran them from interpreted code, once per move and world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["relative_score", "playout", "play_out", "gains"]


def relative_score(rules: Any, state: Any, seat: int) -> float:
    """The seat's side's score less the mean of the other sides' (the standings of any family)."""
    standings = rules.standings(state)
    side = state.config.side_of[seat] if hasattr(state.config, "side_of") else seat
    mine = standings[side].score
    others = [s.score for s in standings if s.side != side]
    return mine - (sum(others) / len(others) if others else 0.0)  # type: ignore[no-any-return]


def playout(rules: Any, state: Any, greedy: Callable[..., Any], rng: random.Random, *, round_no: int) -> Any:
    """Play `state` on with `greedy` for every seat until the round ends (a deal is due, or the game is over)."""
    while not rules.is_over(state) and not rules.is_chance(state) and state.round_no == round_no:
        state, _ = rules.apply(state, greedy(rules, state, rules.to_move(state), rng))
    return state


def play_out(family_bot: Any, rules: Any, state: Any, rng: random.Random, round_no: int, first: Any = None) -> Any:
    """`playout` of `state` with the family's `greedy`, by its `rollout` where it has one (`FamilyBot.play_out`);
    with `first`, of the state after that move (`Rules.apply`), which a rollout may make on its own table."""
    rollout = family_bot.rollout
    if rollout is not None:
        return rollout(rules, state, rng, round_no, first)
    if first is not None:
        state = rules.apply(state, first)[0]
    return playout(rules, state, family_bot.greedy, rng, round_no=round_no)


def gains(rules: Any, family_bot: Any, world: Any, moves: Sequence[Any], seat: int, rng: random.Random,
          round_no: int) -> list[float]:
    """Each move's gain in `relative_score` for `seat`, from `world` to the round's end, in the order of `moves`
    (the random numbers drawn in that order too). `family_bot` is the family's `FamilyBot`."""
    base = relative_score(rules, world, seat)
    return [relative_score(rules, play_out(family_bot, rules, world, rng, round_no, move), seat) - base for move in moves]
