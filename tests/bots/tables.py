"""The tables the bots' tests play: every family, every rule set, the variants."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import diamonds
from diamonds.core.simulate import default_names

#: (rules, players, variants)
TABLES: list[tuple[str, int, tuple[str, ...]]] = [
    ("1e", 3, ()), ("2e", 4, ()), ("2e", 2, ()), ("bga", 5, ()), ("2e", 4, ("partnership",)),
    ("1e", 4, ("perfect",)), ("kirk", 4, ()), ("bidding", 3, ()),
]


def table_id(table: tuple[str, int, tuple[str, ...]]) -> str:
    rules, players, variants = table
    return "-".join([rules, str(players), *variants])


def new_position(rules: str, players: int, variants: Sequence[str] = (), *, dealer: int = 0,
                 options: Mapping[str, str] | None = None) -> Any:
    return diamonds.Position(rules, default_names(players), dealer=dealer, variants=variants, options=options)


def play(position: Any, bots: Sequence[Any], rng: random.Random, *, stop_after: int | None = None) -> Any:
    """Play on with one bot per seat (each given only its view); every move checked to be legal first."""
    while not position.is_over and (stop_after is None or len(position) < stop_after):
        if position.is_chance:
            position.deal(rng)
            continue
        seat = position.to_move_seat
        move = bots[seat].choose(position.view(seat))
        assert move in position.legal_moves, f"{bots[seat]} chose {move!r}, not a legal move at {position!r}"
        position.push(move)
    return position
