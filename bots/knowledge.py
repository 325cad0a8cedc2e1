"""What a bot may use of a `View`, and the generic tools for sampling what it cannot see.

`table_of(view)` is the bots' one door into the game under a view: the rule
set, the current round's states and moves, and the viewer's seat. The states
hold every hand, so whatever reads them promises to read only what the viewer
may know (their own hand, the cards on the table, the public history); the
family's `determinise` is the only reader of the rest, and it redraws it.
`tests/bots/test_no_peeking.py` checks that promise: two positions that differ
only in cards hidden from the viewer give the same choice under the same seed.

`deal_unknown` is the sampler every family's `determinise` uses: it shares
the cards the viewer cannot place among *buckets* (another player's hand, the
kitty, a face-down point card), each of a known size, some refusing suits the
player has shown to be void in (R8, B6).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Table", "table_of", "deal_unknown", "round_start", "deck_index"]


@dataclass(frozen=True, slots=True)
class Table:
    """A view's game as the bots use it: the rule set, the round so far, whose view it is."""

    rules: Any  # the Rules class
    states: tuple[Any, ...]  # states[0] just after this round's deal ... states[-1] now
    moves: tuple[Any, ...]  # moves[i] led from states[i] to states[i + 1]
    seat: int

    @property
    def state(self) -> Any:
        return self.states[-1]


def round_start(plies: int, is_deal: Callable[[int], bool]) -> int:
    """The number of moves up to and including the current round's deal (0 when none was made), where
    `is_deal(ply)` says whether move `ply` of the `plies` made was a deal."""
    for ply in range(plies - 1, -1, -1):
        if is_deal(ply):
            return ply + 1
    return 0


def table_of(view: Any) -> Table:
    """The round under `view` (see the module's promise), from its last deal to now."""
    position = view._position  # the bots' one door; see the module docstring
    engine = position.engine
    moves = engine.moves
    is_chance = position.rule_set.is_chance  # a deal is the chance move: no family's class names here
    start = round_start(len(moves), lambda ply: is_chance(engine.state_at(ply)))
    states = tuple(engine.state_at(ply) for ply in range(start, len(moves) + 1))
    return Table(position.rule_set, states, tuple(moves[start:]), view.viewer_seat)


def deal_unknown(pool: Sequence[Any], sizes: Sequence[int], refuses: Sequence[Callable[[Any], bool] | None],
                 rng: random.Random, *, tries: int = 50) -> list[list[Any]]:
    """Share `pool` (cards in a fixed order) into buckets of `sizes`; bucket i never gets a card
    `refuses[i](card)` is true of. Cards left over stay undealt (cards out of play, as Fitzgerald's
    unused ranks). When the constraints defeat `tries` random attempts, they are dropped for the
    last one, so a sample always comes back (they can only fail on a record that broke them)."""
    cards = list(pool)
    for attempt in range(tries + 1):
        strict = attempt < tries
        rng.shuffle(cards)
        # The most constrained cards first: each goes to a bucket that takes it, weighted by room left.
        room = list(sizes)
        allowed = [[b for b in range(len(room)) if not (strict and _refused(refuses[b], card))] for card in cards]
        order = sorted(range(len(cards)), key=lambda i: len(allowed[i]))
        buckets: list[list[Any]] = [[] for _ in room]
        spare = len(cards) - sum(room)  # how many cards may stay undealt
        ok = True
        for i in order:
            choices = [b for b in allowed[i] if room[b] > 0]
            weights = [room[b] for b in choices]
            if spare > 0:
                choices.append(-1)
                weights.append(spare)
            if not choices:
                ok = False
                break
            pick = rng.choices(choices, weights)[0]
            if pick < 0:
                spare -= 1
            else:
                room[pick] -= 1
                buckets[pick].append(cards[i])
        if ok and not any(room):
            return buckets
    raise ValueError("no way to share the unknown cards among the hands")  # pragma: no cover


def _refused(refuse: Any, card: Any) -> bool:
    """Whether a bucket's constraint (None: none) refuses the card."""
    return refuse is not None and bool(refuse(card))


_DECK_INDEXES: dict[Any, dict[Any, int]] = {}
_LAST_DECK: list[Any] = [None, None]  # the deck asked for last, by identity, and its index


def deck_index(config: Any) -> dict[Any, int]:
    """Each card of the game's deck and its place in it (the action ids and features), built once a deck.
    The deck asked for last is found by identity first: hashing a deck hashes every card, at every call."""
    deck = config.deck
    if _LAST_DECK[0] is deck:
        last: dict[Any, int] = _LAST_DECK[1]
        return last
    found = _DECK_INDEXES.get(deck)
    if found is None:
        found = _DECK_INDEXES[deck] = {card: i for i, card in enumerate(deck)}
    _LAST_DECK[0], _LAST_DECK[1] = deck, found
    return found
