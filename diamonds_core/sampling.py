"""Sharing cards nobody has seen among the places they may lie, under what the record proves.

Two readers need it and must agree: a bot redrawing the hands it cannot see
(`bots.knowledge`, each family's `determinise`), and the replay drawing a
stand-in deal for an unfinished round written without deal lines, so that
the round can be played on the engine while its hands stay unknown.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from .cards import Card, Suit

__all__ = ["deal_unknown", "shown_voids", "void_refusals", "shuffle"]


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
            pick = _pick_bucket(rng, allowed[i], room, spare)
            if pick == _NO_CHOICE:
                ok = False
                break
            if pick < 0:
                spare -= 1
            else:
                room[pick] -= 1
                buckets[pick].append(cards[i])
        if ok and not any(room):
            return buckets
    raise ValueError("no way to share the unknown cards among the hands")  # pragma: no cover


_NO_CHOICE: Final = -2
_SPARE: Final = -1


def _pick_bucket(rng: random.Random, allowed: Sequence[int], room: Sequence[int], spare: int) -> int:
    """`rng.choices(choices, weights)[0]` over the buckets of `allowed` with room left, each weighted by its
    room, then the spare (`_SPARE`, weighted `spare`) where some cards may stay undealt: the same one number
    drawn and so the same pick, without the library call's checks and the two lists, which a redraw made once a
    card. The library bisects the running totals with the last choice as its bound: the first choice whose
    running total is above the number drawn, else the last. `_NO_CHOICE` where there is none."""
    total = count = 0
    for bucket in allowed:
        if room[bucket] > 0:
            total += room[bucket]
            count += 1
    if spare > 0:
        total += spare
        count += 1
    if count == 0:
        return _NO_CHOICE
    drawn = rng.random() * (total + 0.0)
    running = 0
    for bucket in allowed:
        if room[bucket] > 0:
            count -= 1
            if count == 0:  # the last choice: never compared
                return bucket
            running += room[bucket]
            if drawn < running:
                return bucket
    return _SPARE


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
