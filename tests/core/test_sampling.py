"""The voids a seat shows (R8, B6) and the draw that honours them: one reading for the bots' redraw and the
replay's stand-in deal."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from diamonds.core import JOKER
from diamonds.core.cards import Card, Suit
from diamonds.core.sampling import deal_unknown, shown_voids, shuffle, void_refusals

D, H, S, C = Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS


def test_a_seat_that_does_not_follow_shows_a_void_in_the_suit_led_and_no_other() -> None:
    plays = [(0, Card(5, H), None), (1, Card(9, S), H), (2, Card(3, H), H),  # Bob is out of hearts
             (1, Card(4, C), None), (2, Card(8, D), C), (0, Card(2, C), C)]  # Cat is out of clubs
    assert shown_voids(plays, 3) == [frozenset(), frozenset({H}), frozenset({C})]


def test_a_lead_and_a_card_of_no_suit_show_nothing() -> None:
    """A lead follows nothing; the Joker may be played at any time (B6), so it proves no void."""
    assert shown_voids([(0, Card(5, S), None), (1, JOKER, S), (2, Card(5, S), S)], 3) == [frozenset()] * 3


def test_the_draw_never_gives_a_seat_a_card_of_a_suit_it_showed_void_in() -> None:
    pool = [Card(rank, suit) for suit in (D, H, S, C) for rank in range(1, 7)] + [JOKER]
    refuses = void_refusals([frozenset({H, S}), frozenset(), frozenset({D})])
    assert refuses[1] is None
    for seed in range(50):
        hands = deal_unknown(pool, [6, 6, 6], refuses, random.Random(seed))
        assert not any(isinstance(card, Card) and card.suit in (H, S) for card in hands[0])
        assert not any(isinstance(card, Card) and card.suit is D for card in hands[2])
        assert sorted(map(len, hands)) == [6, 6, 6]


def _library_deal(pool, sizes, refuses, rng, tries=50):  # type: ignore[no-untyped-def]
    """The sampler's algorithm as first written, on the library's `shuffle` and `choices`: the cards shuffled,
    the most constrained first, each to a bucket that takes it (or left undealt), weighted by room left."""
    cards = list(pool)
    for attempt in range(tries + 1):
        strict = attempt < tries
        rng.shuffle(cards)
        room = list(sizes)
        allowed = [[b for b in range(len(room)) if not (strict and refuses[b] is not None and refuses[b](card))]
                   for card in cards]
        order = sorted(range(len(cards)), key=lambda i: len(allowed[i]))
        buckets = [[] for _ in room]
        spare = len(cards) - sum(room)
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
    raise ValueError("no way")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 9), min_size=1, max_size=4), st.integers(0, 4),
       st.lists(st.frozensets(st.sampled_from([D, H, S, C]), max_size=3), min_size=4, max_size=4))
def test_a_draw_is_the_librarys_draw_from_the_same_numbers(seed, sizes, undealt, voids) -> None:
    """`deal_unknown` weighs its buckets without the library's `choices` (and shuffles with `shuffle`): it
    shares the cards as the same algorithm on the library's calls does, and leaves the generator in the same
    state, so a seeded bot plays the same game as before (voids included, and the last try that drops them)."""
    pool = [Card(rank, suit) for rank in range(1, 14) for suit in (D, H, S, C)][:sum(sizes) + undealt]
    refuses = void_refusals(voids[:len(sizes)])
    ours, library = random.Random(seed), random.Random(seed)
    assert deal_unknown(pool, sizes, refuses, ours, tries=3) == _library_deal(pool, sizes, refuses, library, tries=3)
    assert ours.getstate() == library.getstate()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 70))
def test_a_shuffle_is_the_librarys_shuffle_from_the_same_draws(seed, length) -> None:
    """`shuffle` stands in for `Random.shuffle` in the sampler (compiled, where the library's is Python): the
    same order and the same generator state after it, so a seeded bot plays the same game as before."""
    ours, library = random.Random(seed), random.Random(seed)
    mine, theirs = list(range(length)), list(range(length))
    for _ in range(3):
        shuffle(ours, mine)
        library.shuffle(theirs)
        assert mine == theirs
    assert ours.getstate() == library.getstate()
