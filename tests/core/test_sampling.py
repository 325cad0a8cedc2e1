"""The voids a seat shows (R8, B6) and the draw that honours them: one reading for the bots' redraw and the
replay's stand-in deal."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from diamonds.core import JOKER
from diamonds.core.cards import Card, Suit
from diamonds.core.sampling import deal_unknown, shown_voids, shuffle, void_refusals, weighted_pick

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


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(1, 40), min_size=1, max_size=7))
def test_a_weighted_pick_is_the_librarys_pick_from_the_same_draw(seed, weights) -> None:
    """`weighted_pick` stands in for `Random.choices(population, weights)[0]` in the sampler's loop: the same
    pick and the same generator state after it, so a seeded bot plays the same game as before."""
    population = [-1, *range(len(weights) - 1)]
    ours, library = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert weighted_pick(ours, population, weights) == library.choices(population, weights)[0]
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
