"""Players across games: the league table of `stats --by player` and the game list `ratings` rates.

Both read only the `games` table (its `players`, `standings` and tags), in
batches, whether it was built in memory from DGN or read back from Parquet.
Only complete, valid games count. A side's result counts for each of its
players (a partnership's two players both win, score and place with it).

* wins: a shared win counts as a fraction, 1 / the number of winning sides;
* place: 1 for a winning side; otherwise 1 + the sides ranked ahead of it
  (winners first, then by score), so sides of equal score share a place;
* win rate: wins / games, with the 95% Wilson score interval.

This module names no family: everything comes from the generic columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from diamonds.core import families as registered_families

from .intervals import wilson

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["PlayerRow", "League", "LeagueAccumulator", "PlayedGame", "played_games", "wilson", "places",
           "LEAGUE_VERSION", "GAME_COLUMNS"]

#: The version of `stats --by player --format json`.
LEAGUE_VERSION = 1
#: The columns of `games` this module reads.
GAME_COLUMNS = ["file", "game", "family", "rules", "players", "tags", "valid", "complete", "standings"]
#: A figure from fewer games than this is shown as a rough one (greyed in charts, marked in text).
FEW_GAMES = 10


def places(standings: list[Mapping[str, Any]]) -> list[int]:
    """Each side's place: 1 for a winner; else 1 + the sides ahead of it (winners, then higher scores)."""
    keys = [(bool(s["winner"]), s["score"]) for s in standings]
    return [1 if key[0] else 1 + sum(1 for other in keys if other > key) for key in keys]


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One complete valid game, as `ratings` needs it: sides as lists of player names, and their places."""

    file: str
    game: int
    order: int  # the game's place in the input (file order, then its index in the file)
    date: str | None
    family: str
    rules: str
    sides: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]
    winners: int


def _tag(tags: list[Mapping[str, str]] | None, name: str) -> str | None:
    for tag in tags or ():
        if tag["name"] == name:
            return tag["value"]
    return None


def played_games(games: pa.Table, start: int = 0) -> list[PlayedGame]:
    """The complete valid games of a batch of the `games` table, in row order; `start` numbers them."""
    names = [c for c in GAME_COLUMNS if c in games.column_names]
    data = games.select(names).to_pydict()
    found = []
    for i in range(games.num_rows):
        row = {name: data[name][i] for name in names}
        standings = row["standings"]
        if not (row["valid"] and row["complete"] and standings and row["family"] and row["rules"]):
            continue
        players = row["players"] or []
        sides = tuple(tuple(players[seat - 1] for seat in s["seats"]) for s in standings)
        found.append(PlayedGame(row["file"], row["game"], start + i, _tag(row.get("tags"), "Date"), row["family"],
                                row["rules"], sides, tuple(s["score"] for s in standings),
                                tuple(places(standings)), sum(1 for s in standings if s["winner"])))
    return found


@dataclass(slots=True)
class _Counts:
    games: int = 0
    wins: Fraction = field(default_factory=Fraction)
    score: int = 0
    place: int = 0

    def add(self, other: _Counts) -> None:
        self.games += other.games
        self.wins += other.wins
        self.score += other.score
        self.place += other.place


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player's figures in one rule set (or, with `rules` None, across the family's rule sets)."""

    player: str
    family: str
    rules: str | None
    games: int
    wins: float
    mean_score: float
    mean_place: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        found = wilson(self.wins, self.games)
        assert found is not None
        return found

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"player": self.player, "family": self.family, "rules": self.rules, "games": self.games,
                "wins": _round(self.wins), "win_rate": _round(self.win_rate),
                "win_rate_low": _round(low), "win_rate_high": _round(high),
                "mean_score": _round(self.mean_score), "mean_place": _round(self.mean_place)}


def _round(value: float) -> float:
    return round(value, 4)


@dataclass(frozen=True, slots=True)
class League:
    """The league: per rule set, each player's row (best win rate first); per family, the totals of
    players who played several of its rule sets' games."""

    games: int  # complete valid games counted
    rows: tuple[PlayerRow, ...]  # per rule set
    families: tuple[PlayerRow, ...]  # per family (rules None), only for families of several rule sets

    def as_dict(self) -> dict[str, Any]:
        return {"version": LEAGUE_VERSION, "by": "player", "games": self.games,
                "players": [row.as_dict() for row in self.rows],
                "families": [row.as_dict() for row in self.families]}


class LeagueAccumulator:
    """Counts the league from batches of the `games` table; `merge` another; `league()` freezes it."""

    needs_events = False

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str, str], _Counts] = {}  # (family, rules, player)
        self.games = 0
        self.seen = 0  # rows read, for numbering the games in input order
        self.played: list[PlayedGame] = []
        self.keep_games = False  # `ratings` keeps every game; the league needs only the sums

    def add_games(self, games: pa.Table) -> None:
        found = played_games(games, self.seen)
        self.seen += games.num_rows
        for played in found:
            self.games += 1
            if self.keep_games:
                self.played.append(played)
            for side, score, place in zip(played.sides, played.scores, played.places):
                win = Fraction(1, played.winners) if place == 1 else Fraction(0)
                for player in side:
                    counts = self.counts.setdefault((played.family, played.rules, player), _Counts())
                    counts.games += 1
                    counts.wins += win
                    counts.score += score
                    counts.place += place

    def add_events(self, events: pa.Table, games: pa.Table) -> None:
        pass  # the league needs only the games

    def add_tables(self, tables: Mapping[str, pa.Table]) -> None:
        self.add_games(tables["games"])

    def league(self) -> League:
        family_order = {family.name: i for i, family in enumerate(registered_families())}
        rule_order = {rule_id: i for family in registered_families() for i, rule_id in enumerate(family.rule_ids)}

        def row(key: tuple[str, str | None, str], c: _Counts) -> PlayerRow:
            return PlayerRow(key[2], key[0], key[1], c.games, float(c.wins), c.score / c.games,
                             c.place / c.games)

        def order(r: PlayerRow) -> tuple[Any, ...]:
            return (family_order.get(r.family, 99), rule_order.get(r.rules or "", -1), r.rules or "",
                    -r.win_rate, -r.games, r.mean_place, r.player)

        rows = sorted((row(k, c) for k, c in self.counts.items()), key=order)
        totals: dict[tuple[str, None, str], _Counts] = {}
        rule_sets: dict[str, set[str]] = {}
        for (family, rules, player), c in self.counts.items():
            totals.setdefault((family, None, player), _Counts()).add(c)
            rule_sets.setdefault(family, set()).add(rules)
        families = sorted((row(k, c) for k, c in totals.items() if len(rule_sets[k[0]]) > 1), key=order)
        return League(self.games, tuple(rows), tuple(families))


def league_of(batches: Iterable[Mapping[str, pa.Table]]) -> League:
    accumulator = LeagueAccumulator()
    for tables in batches:
        accumulator.add_tables(tables)
    return accumulator.league()
