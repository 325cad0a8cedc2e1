"""Seating a club night: each round's tables, computed round by round (not a printed movement).

A bridge club seats its night by a fixed movement (Mitchell, Howell): a schedule printed for a given number
of tables of four, pairs moving one way and boards the other. Our games seat 2 to 6 at a table as the rules
allow, the players come one by one and the count changes from night to night, so the tables are computed,
one round after another, from the rounds before (docs/serve.md, "Seating the night"):

1. `table_sizes`: the fewest players sitting out such that the others fill tables of sizes the rules allow;
   among those, the sizes nearest the rules' usual count, then the fewest tables;
2. `sit_outs`: who sits out is who has played least (a round of the night not played counts, so a late
   arrival is not sent out at once); then who sat out longest ago; then the last listed. With the same
   players every round, any two players' sit-outs differ by at most one;
3. `seat_round`: the others are split into tables of those sizes with the fewest repeated meetings: the sum,
   over every two players put at one table, of the rounds they have already shared a table. A branch-and-
   bound search over the partitions finds the fewest exactly within SEARCH_BUDGET steps (small rounds always,
   larger ones while fresh tables are still possible: it stops at the first split with no repeat); where the
   budget runs out, the best split found is improved by swapping two players of different tables while a
   swap lowers the sum, and the round says it is not proved (`exact`).

Each round is the best for the rounds before it (a greedy night): the whole night is not searched at once.
Pure functions over names; nothing here knows a game: the sizes come from the caller (the family's rules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["SeatedRound", "SeatingError", "table_sizes", "sit_outs", "seat_round", "seat_night", "meetings",
           "repeats", "SEARCH_BUDGET"]

#: Steps (partial tables tried) of the exact search for one round before it settles for swaps.
SEARCH_BUDGET = 50_000

Pair = frozenset[str]


class SeatingError(ValueError):
    """A night that cannot be seated: `players` present for tables of `sizes` (data fields, not the message)."""

    def __init__(self, message: str, players: int = 0, sizes: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.players, self.sizes = players, sizes


@dataclass(frozen=True, slots=True)
class SeatedRound:
    """One round: its number (from 1), its tables (names in the order listed), who sits out; `exact`: the
    tables are proved to have the fewest repeated meetings possible after the rounds before."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    sitting_out: tuple[str, ...] = ()
    exact: bool = True


def table_sizes(count: int, allowed: Iterable[int], usual: int) -> tuple[int, ...]:
    """The sizes of the tables for `count` players (largest first): the fewest sitting out, then the sizes
    nearest `usual` (the least sum of squared differences), then the fewest tables."""
    sizes = sorted({size for size in allowed if size >= 1}, reverse=True)
    if not sizes:
        raise SeatingError("the rules allow no table size", count, ())
    # best[m]: (cost, sizes) of the best split of m players; costs add up, so the best of m extends a best of m - s
    best: list[tuple[tuple[int, int], tuple[int, ...]] | None] = [None] * (count + 1)
    best[0] = ((0, 0), ())
    for seated in range(1, count + 1):
        for size in sizes:
            before = best[seated - size] if size <= seated else None
            if before is None:
                continue
            cost = (before[0][0] + (size - usual) ** 2, before[0][1] + 1)
            if best[seated] is None or cost < best[seated][0]:  # type: ignore[index]
                best[seated] = (cost, tuple(sorted((*before[1], size), reverse=True)))
    for seated in range(count, 0, -1):
        found = best[seated]
        if found is not None:
            return found[1]
    smallest = min(sizes)
    raise SeatingError(f"{count} player(s) present: the rules seat at least {smallest} at a table", count,
                       tuple(sizes))


def meetings(rounds: Iterable[SeatedRound]) -> Counter[Pair]:
    """How many rounds each two players have shared a table."""
    met: Counter[Pair] = Counter()
    for seated in rounds:
        for table in seated.tables:
            for i, first in enumerate(table):
                for second in table[i + 1:]:
                    met[frozenset((first, second))] += 1
    return met


def repeats(tables: Iterable[Sequence[str]], met: Mapping[Pair, int]) -> int:
    """The repeated meetings of `tables`: over every two players at one table, the rounds they have shared."""
    return sum(met.get(frozenset((table[i], other)), 0)
               for table in tables for i in range(len(table)) for other in table[i + 1:])


def sit_outs(players: Sequence[str], count: int, history: Sequence[SeatedRound]) -> tuple[str, ...]:
    """The `count` players to sit out next (in the order listed): who has played least (a round of the night
    not at a table counts as sat out), then who sat out longest ago, then the last listed."""
    sat: Counter[str] = Counter()
    last: dict[str, int] = {}
    for seated in history:
        at_table = {name for table in seated.tables for name in table}
        for name in players:
            if name not in at_table:
                sat[name] += 1
                last[name] = seated.number
    order = sorted(range(len(players)), key=lambda i: (sat[players[i]], last.get(players[i], 0), -i))
    chosen = {players[i] for i in order[:count]}
    return tuple(name for name in players if name in chosen)


class _OutOfSteps(Exception):
    pass


def seat_round(seated: Sequence[str], sizes: Sequence[int], met: Mapping[Pair, int],
               budget: int = SEARCH_BUDGET) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """`seated` split into tables of `sizes` with the fewest repeated meetings (`repeats`), and whether that
    is proved (the exact search finished within `budget` steps) or the best found, improved by swaps."""
    if sum(sizes) != len(seated):
        raise SeatingError(f"{len(seated)} players for tables of {list(sizes)}", len(seated), tuple(sizes))
    count = len(seated)
    weight = [[met.get(frozenset((a, b)), 0) if a != b else 0 for b in seated] for a in seated]
    order = sorted(range(len(sizes)), key=lambda t: -sizes[t])
    sizes = [sizes[t] for t in order]
    best = _greedy(count, sizes, weight)
    best_cost = _cost(best, weight)
    if best_cost > 0:
        best = _improved(best, weight)
        best_cost = _cost(best, weight)
    exact = True
    if best_cost > 0:
        members: list[list[int]] = [[] for _ in sizes]
        steps = 0

        def search(player: int, cost: int) -> None:
            nonlocal steps, best, best_cost
            steps += 1
            if steps > budget:
                raise _OutOfSteps
            if player == count:
                best, best_cost = [list(table) for table in members], cost
                return
            options: list[tuple[int, int]] = []
            empty_sizes: set[int] = set()
            for t, table in enumerate(members):
                if len(table) == sizes[t]:
                    continue
                if not table:  # empty tables of one size are alike: try the first only
                    if sizes[t] in empty_sizes:
                        continue
                    empty_sizes.add(sizes[t])
                added = sum(weight[player][other] for other in table)
                if cost + added < best_cost:
                    options.append((added, t))
            for added, t in sorted(options):
                if cost + added >= best_cost:  # a better split was found meanwhile
                    continue
                members[t].append(player)
                search(player + 1, cost + added)
                members[t].pop()
                if best_cost == 0:
                    return

        try:
            search(0, 0)
        except _OutOfSteps:
            exact = False
            best = _improved(best, weight)
    tables = [tuple(seated[i] for i in sorted(table)) for table in best]
    tables.sort(key=lambda table: (-len(table), seated.index(table[0])))
    return tuple(tables), exact


def _cost(tables: Sequence[Sequence[int]], weight: Sequence[Sequence[int]]) -> int:
    return sum(weight[table[i]][other] for table in tables for i in range(len(table)) for other in table[i + 1:])


def _greedy(count: int, sizes: Sequence[int], weight: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each player in turn at the table with room where they add the fewest repeats (the first such)."""
    tables: list[list[int]] = [[] for _ in sizes]
    for player in range(count):
        room = [t for t in range(len(sizes)) if len(tables[t]) < sizes[t]]
        t = min(room, key=lambda t: (sum(weight[player][other] for other in tables[t]), t))
        tables[t].append(player)
    return tables


def _improved(tables: list[list[int]], weight: Sequence[Sequence[int]]) -> list[list[int]]:
    """`tables` after swapping two players of different tables while the best such swap lowers the repeats.
    `link[p][t]`, what player p adds at table t, is kept up to date, so a swap is weighed in constant time;
    only a player with a repeat at their own table can be half of a swap that helps."""
    tables = [list(table) for table in tables]
    seat = {player: t for t, table in enumerate(tables) for player in table}
    link = [[sum(weight[player][other] for other in table) for table in tables] for player in range(len(weight))]
    while True:
        gain, swap = 0, None
        for p, a in seat.items():
            if not link[p][a]:
                continue
            for b, table in enumerate(tables):
                if b == a:
                    continue
                for q in table:
                    change = (link[q][a] - weight[q][p] + link[p][b] - weight[p][q]) - (link[p][a] + link[q][b])
                    if change < gain:
                        gain, swap = change, (a, b, p, q)
        if swap is None:
            return tables
        a, b, p, q = swap
        tables[a][tables[a].index(p)] = q
        tables[b][tables[b].index(q)] = p
        seat[p], seat[q] = b, a
        for x in range(len(weight)):
            link[x][a] += weight[x][q] - weight[x][p]
            link[x][b] += weight[x][p] - weight[x][q]


def seat_night(players: Sequence[str], allowed: Iterable[int], usual: int, rounds: int,
               history: Sequence[SeatedRound] = (), budget: int = SEARCH_BUDGET) -> tuple[SeatedRound, ...]:
    """Rounds len(history) + 1 to `rounds` for `players` (present now), after the rounds already played
    (`history`, numbered from 1): each round's sizes (`table_sizes`), sit-outs (`sit_outs`) and tables
    (`seat_round`, against every meeting before it, the history's and the plan's)."""
    if len(set(players)) != len(players):
        twice = next(name for name in players if players.count(name) > 1)
        raise SeatingError(f"{twice} is listed twice", len(players))
    allowed = tuple(allowed)
    sizes = table_sizes(len(players), allowed, usual)
    made = list(history)
    planned: list[SeatedRound] = []
    met = meetings(made)
    for number in range(len(made) + 1, rounds + 1):
        out = sit_outs(players, len(players) - sum(sizes), [*made, *planned])
        seated = [name for name in players if name not in out]
        tables, exact = seat_round(seated, sizes, met, budget)
        planned.append(SeatedRound(number, tables, out, exact))
        met.update(meetings(planned[-1:]))
    return tuple(planned)
