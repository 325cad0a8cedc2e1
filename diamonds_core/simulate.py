"""A seeded random player for every family: complete, legal games for tests, benchmarks and learners.

Each decision comes from the family's `random_move`, drawn from its legal
moves, so a simulated game is legal by construction and reaches the corners
that careful players rarely do.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Final

from .game import Engine
from .registry import DEFAULT_RULES, rules_for
from .seating import ConfigError, Seating

__all__ = ["play_random_game", "simulate", "default_names", "DEFAULT_NAMES"]

DEFAULT_NAMES: Final = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def play_random_game(config: Seating, rng: random.Random, *, stop_after: int | None = None) -> Engine:
    """Play a whole game (or `stop_after` moves) at random."""
    game = Engine(config)
    rules = game.rules
    while not game.is_over and (stop_after is None or len(game) < stop_after):
        game.push(rules.random_move(game.state, rng))
    return game


def simulate(players: int | Iterable[str] | None = None, *, rules: str = DEFAULT_RULES,
             variants: Iterable[Any] = (), seed: int | None = None, dealer: str | int | None = None,
             options: Mapping[str, str] | None = None) -> Engine:
    """A complete random game; `players` is a count (named Ann, Bob, …), the ids, or the rules' usual count."""
    rule_set = rules_for(rules)
    rule_set.check_options(options)
    if players is None:
        players = rule_set.default_players
    names = default_names(players) if isinstance(players, int) else tuple(players)
    rng = random.Random(seed)
    if dealer is None:
        dealer = rng.randrange(len(names))
    config = rule_set.configure(names, variants=variants, dealer=dealer, options=options)
    return play_random_game(config, rng)


def default_names(count: int) -> tuple[str, ...]:
    if not 1 <= count <= len(DEFAULT_NAMES):
        raise ConfigError(f"at most {len(DEFAULT_NAMES)} players, not {count}")
    return DEFAULT_NAMES[:count]
