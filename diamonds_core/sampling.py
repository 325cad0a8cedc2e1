"""Sharing cards nobody has seen among the places they may lie, under what the record proves.

Two readers need it and must agree: a bot redrawing the hands it cannot see
(`bots.knowledge`, each family's `determinise`), and the replay drawing a
stand-in deal for an unfinished round written without deal lines, so that
the round can be played on the engine while its hands stay unknown.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .cards import Card, Suit

__all__ = ["deal_unknown", "shown_voids", "void_refusals", "weighted_pick", "shuffle"]


def shown_voids(plays: Iterable[tuple[int, Any, Suit | None]], players: int) -> list[frozenset[Suit]]:
    """Per seat, the suits it has shown it holds none of, in a game with a duty to follow suit (Fitzgerald's
    R8, the bidding game's B6): it played a suited card of another suit to a trick led in that suit.
    `plays` gives each card played with its seat and the suit led (None for the lead). A card of no suit
    (the Joker, free to be played at any time) shows nothing. The bots' redraw and the replay's stand-in
    deal both read voids here, so the two cannot disagree."""
    voids: list[set[Suit]] = [set() for _ in range(players)]
    for seat, card, led in plays:
        if led is not None and isinstance(card, Card) and card.suit is not led:
            voids[seat].add(led)
    return [frozenset(suits) for suits in voids]


def void_refusals(voids: Sequence[frozenset[Suit]]) -> list[Callable[[Any], bool] | None]:
    """Per seat, the test `deal_unknown` takes: a card of a suit the seat has shown void in (None: any card)."""
    return [_refusing(out) if out else None for out in voids]


def _refusing(out: frozenset[Suit]) -> Callable[[Any], bool]:
    def refuses(card: Any) -> bool:
        return isinstance(card, Card) and card.suit in out

    return refuses


def deal_unknown(pool: Sequence[Any], sizes: Sequence[int], refuses: Sequence[Callable[[Any], bool] | None],
                 rng: random.Random, *, tries: int = 50) -> list[list[Any]]:
    """Share `pool` (cards in a fixed order) into buckets of `sizes`; bucket i never gets a card
    `refuses[i](card)` is true of. Cards left over stay undealt (cards out of play, as Fitzgerald's
    unused ranks). When the constraints defeat `tries` random attempts, they are dropped for the
    last one, so a sample always comes back (they can only fail on a record that broke them)."""
    cards = list(pool)
    for attempt in range(tries + 1):
        strict = attempt < tries
        shuffle(rng, cards)
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
            pick = weighted_pick(rng, choices, weights)
            if pick < 0:
                spare -= 1
            else:
                room[pick] -= 1
                buckets[pick].append(cards[i])
        if ok and not any(room):
            return buckets
    raise ValueError("no way to share the unknown cards among the hands")  # pragma: no cover


def weighted_pick(rng: random.Random, population: Sequence[int], weights: Sequence[int]) -> int:
    """`rng.choices(population, weights)[0]` for positive whole weights, drawing the same one number and so
    giving the same pick: without the library call's checks and lists, which a sample makes once a card. The
    library bisects the running totals, the last choice its bound: the first choice whose running total is
    above the number drawn, else the last."""
    total = 0
    for weight in weights:
        total += weight
    drawn = rng.random() * (total + 0.0)
    last = len(weights) - 1
    running = 0
    for index in range(last):
        running += weights[index]
        if drawn < running:
            return population[index]
    return population[last]


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """`rng.shuffle(items)`, drawing the same numbers and so giving the same order: the library's algorithm
    (from the last place down, each swap's index below its bound by `getrandbits` of the bound's bit length,
    drawn again while too large), here so that the compiled build runs it natively: a bot's redraw shuffles
    the unseen cards once a world, and the library's pure Python was a tenth of a compiled `mc`'s time."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _refused(refuse: Any, card: Any) -> bool:
    """Whether a bucket's constraint (None: none) refuses the card."""
    return refuse is not None and bool(refuse(card))
