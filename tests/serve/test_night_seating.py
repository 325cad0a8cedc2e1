"""Seating the night (serve/seating.py), by property: tables only of the sizes allowed, nobody twice in a
round, the fewest sitting out, sit-outs shared (any two players' differ by at most one), and on small nights
each round's repeated meetings the fewest possible, checked against every split of the players (brute force,
written here without the search's pruning)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diamonds.serve.seating import (
    SeatedRound,
    SeatingError,
    meetings,
    seat_night,
    seat_round,
    table_sizes,
)

NAMES = [f"P{i:02d}" for i in range(40)]


@st.composite
def nights(draw: st.DrawFn, most: int = 14) -> tuple[list[str], tuple[int, ...], int, int]:
    allowed = tuple(sorted(draw(st.sets(st.integers(2, 6), min_size=1, max_size=3))))
    count = draw(st.integers(min(allowed), most))
    usual = draw(st.sampled_from(allowed))
    rounds = draw(st.integers(1, 6))
    return NAMES[:count], allowed, usual, rounds


def _fewest_out(count: int, allowed: tuple[int, ...]) -> int:
    """The fewest of `count` who cannot be seated at tables of `allowed` sizes (by trying every mix)."""
    fits = {0}
    for _ in range(count):
        fits |= {total + size for total in fits for size in allowed if total + size <= count}
    return count - max(fits)


@settings(max_examples=150, deadline=None)
@given(nights())
def test_every_round_seats_everyone_once_at_allowed_sizes_with_the_fewest_out(night) -> None:
    players, allowed, usual, rounds = night
    planned = seat_night(players, allowed, usual, rounds, budget=2000)  # a short search: the swaps' tables too
    assert [r.number for r in planned] == list(range(1, rounds + 1))
    for seated in planned:
        at_tables = [name for table in seated.tables for name in table]
        assert all(len(table) in allowed for table in seated.tables)
        assert len(at_tables) == len(set(at_tables))  # nobody twice in a round
        assert sorted(at_tables + list(seated.sitting_out)) == sorted(players)  # everyone, once
        assert len(seated.sitting_out) == _fewest_out(len(players), allowed)


@settings(max_examples=100, deadline=None)
@given(nights(most=16))
def test_sit_outs_are_shared_out(night) -> None:
    players, allowed, usual, rounds = night
    planned = seat_night(players, allowed, usual, rounds, budget=2000)  # who sits out is not searched
    for played in range(1, rounds + 1):  # after every round, not only at the end
        out = Counter(name for seated in planned[:played] for name in seated.sitting_out)
        counts = [out[name] for name in players]
        assert max(counts) - min(counts) <= 1, (played, out)


def _splits(players: tuple[str, ...], sizes: Counter[int]):
    """Every split of `players` into tables of `sizes` (a multiset), each once: the first player's table is
    chosen (its size and companions), then the rest are split."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in sorted(sizes):
        if not sizes[size]:
            continue
        left = sizes.copy()
        left[size] -= 1
        for companions in itertools.combinations(rest, size - 1):
            others = tuple(name for name in rest if name not in companions)
            for split in _splits(others, left):
                yield ((first, *companions), *split)


def _repeats(tables, met: Counter) -> int:
    return sum(met[frozenset(pair)] for table in tables for pair in itertools.combinations(table, 2))


@settings(max_examples=80, deadline=None)
@given(nights(most=9))
def test_each_round_has_the_fewest_repeats_possible_after_the_rounds_before(night) -> None:
    players, allowed, usual, rounds = night
    planned = seat_night(players, allowed, usual, rounds)
    for i, seated in enumerate(planned):
        met = meetings(planned[:i])
        seated_players = tuple(name for name in players if name not in seated.sitting_out)
        sizes = Counter(len(table) for table in seated.tables)
        fewest = min(_repeats(split, met) for split in _splits(seated_players, sizes))
        assert seated.exact
        assert _repeats(seated.tables, met) == fewest, (seated, fewest)


def test_sixteen_players_at_fours_meet_everyone_once_in_five_rounds() -> None:
    """Sixteen at four tables of four can meet each other player exactly once in five rounds (the affine
    plane of order 4); the round-by-round search finds such a night, and a sixth round must repeat."""
    planned = seat_night(NAMES[:16], (4,), 4, 6)
    met = meetings(planned[:5])
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}
    assert all(seated.exact for seated in planned[:5])
    assert _repeats(planned[5].tables, met) == 4 * 6  # every pair of round 6 has met once: no better exists


def test_table_sizes_prefer_the_usual_size_then_fewer_tables() -> None:
    assert table_sizes(10, (4,), 4) == (4, 4)  # two sit out: Kirk's fours (K1)
    assert table_sizes(7, (3,), 3) == (3, 3)  # one sits out: the bidding game's threes (B1)
    assert table_sizes(10, (2, 3, 4, 5, 6), 4) == (5, 5)  # as near 4 as 3+3+4, in fewer tables
    assert table_sizes(7, (2, 3, 4, 5, 6), 4) == (4, 3)
    assert table_sizes(9, (4, 6), 4) == (4, 4)  # partnership: even tables, one out
    with pytest.raises(SeatingError) as refused:
        table_sizes(3, (4,), 4)
    assert refused.value.players == 3 and refused.value.sizes == (4,)


def test_a_late_arrival_is_not_sent_out_first() -> None:
    """Rounds not played count as sat out: who came for round 3 has already missed two."""
    early = seat_night(NAMES[:8], (4,), 4, 2)
    planned = seat_night(NAMES[:9], (4,), 4, 4, history=early)
    assert [r.number for r in planned] == [3, 4]
    assert NAMES[8] not in planned[0].sitting_out and NAMES[8] not in planned[1].sitting_out
    out = Counter(name for seated in planned for name in seated.sitting_out)
    assert sorted(out.values()) == [1, 1]  # two of the first eight, each once


def test_a_search_out_of_steps_still_seats_everyone_and_no_swap_would_help() -> None:
    history = seat_night(NAMES[:16], (4,), 4, 5)
    met = meetings(history)
    tables, exact = seat_round(NAMES[:16], (4, 4, 4, 4), met, budget=10)
    assert not exact and sorted(n for t in tables for n in t) == NAMES[:16]
    now = _repeats(tables, Counter(met))
    for a, b in itertools.combinations(range(len(tables)), 2):
        for p in tables[a]:
            for q in tables[b]:
                swapped = [list(t) for t in tables]
                swapped[a][swapped[a].index(p)], swapped[b][swapped[b].index(q)] = q, p
                assert _repeats(swapped, Counter(met)) >= now


def test_a_name_listed_twice_is_refused() -> None:
    with pytest.raises(SeatingError, match="P01 is listed twice"):
        seat_night(["P00", "P01", "P01", "P02"], (4,), 4, 1)


def test_rounds_already_played_are_not_planned_again() -> None:
    played = (SeatedRound(1, (("P00", "P01", "P02"),)),)
    assert seat_night(NAMES[:3], (3,), 3, 1, history=played) == ()
