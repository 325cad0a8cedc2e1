"""`diamonds stats`: the figures an organiser wants at a glance, computed from the analysis tables.

The input is the tables of `tables.py` as pyarrow Tables (`games`, and
`events` for the families' own figures), whether they were built in memory
from DGN or read back from the Parquet folder `convert --to parquet` wrote:
one code path for both. Figures are gathered by a `StatsAccumulator` that
takes tables a batch at a time and merges with another (so that worker
processes can each count a part and a file of any size is summarised in
bounded memory), then frozen into a `Summary` of plain dataclasses.

Generic figures, for every family, from `games.standings`: games per rule
set, player count and variants; wins by side (a side is a seat, or a team's
seats); the spread of final scores and of the winning margin; how often the
top score was tied, and whether the rules broke the tie (R18's larger
Vault) or the win was shared (R18, K8, B10). Each family's own figures
(Fitzgerald's Suit Actions by reason, Kirk's tie-breaks, the bidding game's
contracts) come from its stats module, `diamonds.replay.<family>_stats`,
found by the family's name: this module names no family.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from diamonds.core import Family
from diamonds.core import families as registered_families

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "Distribution", "SideWins", "Ties", "Group", "Breakdown", "Chart", "FamilyFigures", "Summary",
    "FamilyStats", "StatsAccumulator", "Tally", "Cell", "summarize", "family_stats", "group_sums", "rows_of_kind",
    "add_tally", "STATS_VERSION",
]

#: The version of the JSON shape (`stats --format json`): raised when a field changes meaning or goes.
STATS_VERSION = 1

Cell = str | int | float | None
#: A family's counts: per breakdown name, per key (a tuple of cells), sums of whole numbers.
Tally = dict[str, dict[tuple[Cell, ...], list[int]]]


# --------------------------------------------------------------------------- the frozen results


@dataclass(frozen=True, slots=True)
class Distribution:
    """Whole numbers kept exactly as (value, how often): merging adds counts, and every figure is exact."""

    counts: tuple[tuple[int, int], ...]  # sorted by value

    @classmethod
    def of(cls, counter: Mapping[int, int]) -> Distribution:
        return cls(tuple(sorted((value, count) for value, count in counter.items() if count)))

    @property
    def count(self) -> int:
        return sum(count for _, count in self.counts)

    @property
    def mean(self) -> float | None:
        n = self.count
        return sum(value * count for value, count in self.counts) / n if n else None

    @property
    def stdev(self) -> float | None:
        """The population standard deviation (the spread of these very games, not an estimate)."""
        n, mean = self.count, self.mean
        if mean is None:
            return None
        return math.sqrt(sum(count * (value - mean) ** 2 for value, count in self.counts) / n)

    @property
    def low(self) -> int | None:
        return self.counts[0][0] if self.counts else None

    @property
    def high(self) -> int | None:
        return self.counts[-1][0] if self.counts else None

    @property
    def median(self) -> float | None:
        n = self.count
        if not n:
            return None
        found = self.values_at(((n - 1) // 2, n // 2))  # the two middle places (the same one when n is odd)
        return sum(found) / len(found)

    def values_at(self, places: Iterable[int]) -> list[int]:
        """The values at these 0-based places of all the values in order, in value order (a place that
        falls on the same value as another gives it again; one past the end gives nothing)."""
        places = tuple(places)
        found: list[int] = []
        seen = 0
        for value, count in self.counts:
            for place in places:
                if seen <= place < seen + count:
                    found.append(value)
            seen += count
        return found

    def as_dict(self) -> dict[str, Any]:
        return {"count": self.count, "mean": _round(self.mean), "stdev": _round(self.stdev), "min": self.low,
                "median": _round(self.median), "max": self.high}


@dataclass(frozen=True, slots=True)
class SideWins:
    """One side's wins: `seats` are 1-based (`(1, 3)` for a team); a shared win counts for each winner."""

    side: int  # 1-based, in side order
    seats: tuple[int, ...]
    wins: int
    games: int  # complete games of its group

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def label(self) -> str:
        return "seat " + "+".join(str(seat) for seat in self.seats) if len(self.seats) == 1 else \
            "seats " + "+".join(str(seat) for seat in self.seats)


@dataclass(frozen=True, slots=True)
class Ties:
    """How often ties decided complete games.

    `top_tied`: games in which several sides reached the top score; of those,
    `broken` the rules gave to fewer of them (R18: the larger Vault), and
    `shared` ended with a shared win (R18, K8, B10: a tie shares the win).
    """

    games: int
    top_tied: int
    broken: int
    shared: int


@dataclass(frozen=True, slots=True)
class Group:
    """The games of one rule set, player count and variants."""

    family: str
    rules: str
    players: int
    variants: tuple[str, ...]
    games: int
    valid: int
    complete: int  # valid and finished: only these count in the figures below
    wins: tuple[SideWins, ...]
    scores: Distribution  # every side's final score
    margins: Distribution  # the top score less the best of the other sides' (0 on a tie)
    ties: Ties

    @property
    def label(self) -> str:
        return " ".join([self.rules, f"{self.players}p", *self.variants])


@dataclass(frozen=True, slots=True)
class Chart:
    """How a breakdown is best drawn: bars of `value` for each row, named by the `label` columns."""

    label: tuple[str, ...]
    value: str


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A table of a family's own figures: named columns, rows of plain values."""

    name: str  # stable, for JSON (`suit_actions_by_reason`)
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    chart: Chart | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "columns": list(self.columns),
                "rows": [dict(zip(self.columns, (_round(v) if isinstance(v, float) else v for v in row)))
                         for row in self.rows]}


@dataclass(frozen=True, slots=True)
class FamilyFigures:
    family: str
    title: str
    breakdowns: tuple[Breakdown, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    """Everything `stats` shows: totals, one `Group` per set-up, each family's own figures."""

    games: int
    valid: int
    complete: int
    unreadable: int  # games without a set-up (no rules could be read)
    groups: tuple[Group, ...]
    families: tuple[FamilyFigures, ...]

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of `stats --format json` (docs/stats.md)."""
        return {
            "version": STATS_VERSION,
            "games": self.games, "valid": self.valid, "invalid": self.games - self.valid,
            "complete": self.complete, "unreadable": self.unreadable,
            "groups": [{
                "family": g.family, "rules": g.rules, "players": g.players, "variants": list(g.variants),
                "games": g.games, "valid": g.valid, "complete": g.complete,
                "wins": [{"side": w.side, "seats": list(w.seats), "wins": w.wins, "rate": _round(w.rate)}
                         for w in g.wins],
                "scores": g.scores.as_dict(), "margins": g.margins.as_dict(),
                "ties": {"top_tied": g.ties.top_tied, "broken": g.ties.broken, "shared": g.ties.shared},
            } for g in self.groups],
            "families": [{"family": f.family, "title": f.title, "breakdowns": [b.as_dict() for b in f.breakdowns]}
                         for f in self.families],
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


# --------------------------------------------------------------------------- a family's part


@dataclass(frozen=True, slots=True)
class FamilyStats:
    """What a family's stats module gives (its module-level `STATS`).

    `tally(events)`: counts from a batch of the `events` table holding only
    the family's games, with the games' `rules` joined on; sums per key, so
    that tallies of batches add up. `breakdowns(tally)`: the finished tables.
    """

    title: str
    tally: Callable[[pa.Table], Tally]
    breakdowns: Callable[[Tally], tuple[Breakdown, ...]]


@cache
def family_stats(family: Family) -> FamilyStats | None:
    """The family's own figures: its registered `stats` part (an optional part: None where it has none, and
    `stats` gives the figures every game has)."""
    if family.part("stats", None) is None:
        return None
    return family.typed_part("stats", FamilyStats)


def add_tally(into: Tally, more: Tally) -> None:
    for name, rows in more.items():
        target = into.setdefault(name, {})
        for key, sums in rows.items():
            have = target.get(key)
            if have is None:
                target[key] = list(sums)
            else:
                for i, value in enumerate(sums):
                    have[i] += value


def group_sums(table: pa.Table, keys: list[str], sums: list[str]) -> dict[tuple[Cell, ...], list[int]]:
    """Rows of `table` grouped by `keys`: per key, the row count then the sum of each of `sums` (nulls as 0)."""
    if table.num_rows == 0:
        return {}
    aggregates: list[tuple[Any, str]] = [([], "count_all")] + [(name, "sum") for name in sums]
    grouped = table.group_by(keys, use_threads=False).aggregate(aggregates).to_pydict()
    out: dict[tuple[Cell, ...], list[int]] = {}
    for i in range(len(grouped["count_all"])):
        key = tuple(grouped[name][i] for name in keys)
        out[key] = [grouped["count_all"][i]] + [grouped[f"{name}_sum"][i] or 0 for name in sums]
    return out


def _decoded(table: pa.Table) -> pa.Table:
    """`table` with its dictionary-encoded columns as plain values."""
    import pyarrow as pa

    return pa.table({name: column.cast(column.type.value_type) if pa.types.is_dictionary(column.type) else column
                     for name, column in zip(table.column_names, table.columns)})


def rows_of_kind(events: pa.Table, kind: str, names: list[str]) -> pa.Table:
    """The events of one `kind`, only the columns `names`, dictionary columns decoded to plain values."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kinds = events["kind"]
    if pa.types.is_dictionary(kinds.type):
        kinds = kinds.cast(kinds.type.value_type)
    return _decoded(events.filter(pc.equal(kinds, kind)).select(names))


# --------------------------------------------------------------------------- counting


class _GroupCounts:
    """The mergeable counts behind one `Group`."""

    __slots__ = ("games", "valid", "complete", "wins", "seats", "scores", "margins", "top_tied", "broken",
                 "shared")

    def __init__(self) -> None:
        self.games = self.valid = self.complete = 0
        self.wins: Counter[int] = Counter()
        self.seats: dict[int, tuple[int, ...]] = {}
        self.scores: Counter[int] = Counter()
        self.margins: Counter[int] = Counter()
        self.top_tied = self.broken = self.shared = 0

    def merge(self, other: _GroupCounts) -> None:
        self.games += other.games
        self.valid += other.valid
        self.complete += other.complete
        self.wins.update(other.wins)
        self.seats.update(other.seats)
        self.scores.update(other.scores)
        self.margins.update(other.margins)
        self.top_tied += other.top_tied
        self.broken += other.broken
        self.shared += other.shared


GroupKey = tuple[str, str, int, tuple[str, ...]]  # family, rules, players, variants

_GAME_COLUMNS = ["family", "rules", "player_count", "variants", "valid", "complete", "standings"]


class StatsAccumulator:
    """Counts from batches of tables; `merge` another's; `summary()` freezes the figures.

    Not frozen: this is the one mutable piece, the counter a pass over the
    input fills (it pickles, so a worker process can send one back).
    """

    def __init__(self) -> None:
        self.groups: dict[GroupKey, _GroupCounts] = {}
        self.unreadable = 0
        self.tallies: dict[str, Tally] = {}  # per family name

    def add_games(self, games: pa.Table) -> None:
        """A batch of the `games` table."""
        data = games.select(_GAME_COLUMNS).to_pydict()
        for family, rules, players, variants, valid, complete, standings in zip(*(data[c] for c in _GAME_COLUMNS)):
            if family is None or rules is None:
                self.unreadable += 1
                continue
            key = (family, rules, players, tuple(variants or ()))
            counts = self.groups.get(key)
            if counts is None:
                counts = self.groups[key] = _GroupCounts()
            counts.games += 1
            counts.valid += bool(valid)
            if not (valid and complete and standings):
                continue
            counts.complete += 1
            scores = [item["score"] for item in standings]
            for number, item in enumerate(standings, 1):
                counts.seats.setdefault(number, tuple(item["seats"]))
                counts.scores[item["score"]] += 1
                if item["winner"]:
                    counts.wins[number] += 1
            top = max(scores)
            at_top = scores.count(top)
            winners = sum(1 for item in standings if item["winner"])
            rest = sorted(scores, reverse=True)
            counts.margins[top - rest[1] if len(rest) > 1 else 0] += 1
            if at_top > 1:
                counts.top_tied += 1
                if winners < at_top:
                    counts.broken += 1
            if winners > 1:
                counts.shared += 1

    def add_events(self, events: pa.Table, games: pa.Table) -> None:
        """A batch of the `events` table; `games` holds (at least) the rows of its games, for family and rules."""
        if events.num_rows == 0:
            return
        import pyarrow as pa
        import pyarrow.compute as pc

        # Arrow joins carry no list columns: join the keys with each row's place, then take the rows.
        # Keys as plain strings: batches read from Parquet row groups carry differing dictionaries.
        places = _decoded(events.select(["file", "game"])).append_column(
            "place", pa.array(range(events.num_rows), pa.int64()))
        joined = places.join(_decoded(games.select(["file", "game", "family", "rules"])), keys=["file", "game"],
                             use_threads=False)
        keyed = events.take(joined["place"]).append_column("family", joined["family"]).append_column(
            "rules", joined["rules"])
        for family in registered_families():
            stats = family_stats(family)
            if stats is None:
                continue
            mine = keyed.filter(pc.equal(keyed["family"].cast("string"), family.name))
            if mine.num_rows:
                add_tally(self.tallies.setdefault(family.name, {}), stats.tally(mine))

    def add_tables(self, tables: Mapping[str, pa.Table]) -> None:
        """A batch of the tables (`games`, `events`) covering the same games."""
        self.add_games(tables["games"])
        if "events" in tables:
            self.add_events(tables["events"], tables["games"])

    def merge(self, other: StatsAccumulator) -> None:
        for key, counts in other.groups.items():
            mine = self.groups.get(key)
            if mine is None:
                self.groups[key] = counts
            else:
                mine.merge(counts)
        self.unreadable += other.unreadable
        for name, tally in other.tallies.items():
            add_tally(self.tallies.setdefault(name, {}), tally)

    def summary(self) -> Summary:
        order = {family.name: i for i, family in enumerate(registered_families())}
        rule_order = {rule_id: i for family in registered_families() for i, rule_id in enumerate(family.rule_ids)}
        groups = []
        for key in sorted(self.groups, key=lambda k: (order.get(k[0], 99), rule_order.get(k[1], 99), k[1], k[2],
                                                      k[3])):
            family, rules, players, variants = key
            counts = self.groups[key]
            wins = tuple(SideWins(side, counts.seats[side], counts.wins[side], counts.complete)
                         for side in sorted(counts.seats))
            groups.append(Group(family, rules, players, variants, counts.games, counts.valid, counts.complete,
                                wins, Distribution.of(counts.scores), Distribution.of(counts.margins),
                                Ties(counts.complete, counts.top_tied, counts.broken, counts.shared)))
        families = []
        for registered in registered_families():
            stats = family_stats(registered)
            tally = self.tallies.get(registered.name)
            if tally and stats is not None:
                families.append(FamilyFigures(registered.name, stats.title, stats.breakdowns(tally)))
        return Summary(
            games=sum(g.games for g in groups) + self.unreadable,
            valid=sum(g.valid for g in groups),
            complete=sum(g.complete for g in groups),
            unreadable=self.unreadable,
            groups=tuple(groups),
            families=tuple(families),
        )


def summarize(batches: Iterable[Mapping[str, pa.Table]]) -> Summary:
    """The summary of batches of tables (each a dict with `games`, and `events` for the families' figures)."""
    accumulator = StatsAccumulator()
    for tables in batches:
        accumulator.add_tables(tables)
    return accumulator.summary()
