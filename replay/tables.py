"""A replayed game as rows of the analysis tables: `games`, `plays`, `events` (Parquet, stats, notebooks).

Plain Python here, no pyarrow (that is `arrow.py`): every table has one
fixed list of columns covering every registered family, the generic ones
below followed by each family's own (its `tables` part, a `Tables`), in
registry order; a column a family does not use is null in its rows. Every
table starts with `file` (the source path as given) and `game` (the game's
1-based index in that file), which join them.

* `games`: one row per game, readable or not: tags, rules, players, valid,
  complete, the first problem (line, column, code, ruling, message), and
  `standings`, a list with the fields of the JSON export's
  `result.standings` (`side`, `score`, `winner`, the family's own) plus the
  side's `seats`.
* `plays`: one row per card played, as far as the replay got (an invalid
  game keeps its plays up to the problem).
* `events`: one row per scoring event (Fitzgerald's starting Showrooms and
  Suit Actions, Kirk's tricks, tie-break steps and hand scores, the bidding
  game's bids, kitty, tricks and hand scores).
* `rounds`: one row per side and round: its score after the round (and
  Fitzgerald's crystals in Vault and Showroom), derived from the events
  (`rounds.py`).

The families build one game's rows column by column (`TableColumns`), and a
batch of games stays in columns (`TableBuffer`) up to Arrow: a dict per row,
transposed later, cost more than the replay itself (pyarrow's `from_pylist`
took 0.9 s for 100,000 rows). `game_rows` gives one game as row dicts, for
tests and notebooks. The standings are the JSON export's (`export._result`),
so that both say the same. The columns are documented in docs/tables.md,
whose tables a test compares with `columns()`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from diamonds.core import families as registered_families
from diamonds.core import family_named, family_of
from diamonds.core.cards import Card
from diamonds.core.registry import registry_version

from .export import _result

if TYPE_CHECKING:
    from .validate import ReplayedGame

__all__ = [
    "TABLE_NAMES", "Kind", "Column", "Tables", "FamilyRows", "columns", "standing_fields", "game_rows",
    "TableBuffer", "TableColumns", "family_columns", "KEY_COLUMNS", "EventWalk",
]

#: The tables, in the order they are written and documented.
TABLE_NAMES: Final[tuple[str, ...]] = ("games", "plays", "events", "rounds")
#: The columns that join every table: the source path as given, the game's 1-based index in it.
KEY_COLUMNS = ("file", "game")

Row = dict[str, Any]


class Kind(enum.Enum):
    """A column's type, as plain data (arrow.py maps each to its Arrow type)."""

    BOOL = "bool"
    INT8 = "int8"
    INT16 = "int16"
    INT32 = "int32"
    STRING = "string"  # free text that rarely repeats (a problem's message)
    CATEGORY = "category"  # a string that repeats (players, cards, suits): dictionary-encoded
    CATEGORY_LIST = "list<category>"
    INT8_LIST = "list<int8>"
    TAGS = "list<struct<name, value>>"  # the game's tags, in order
    STANDINGS = "list<struct<standing>>"  # per side: side, seats, score, winner, the families' fields


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, its type, and what it means (the docs say the same)."""

    name: str
    kind: Kind
    doc: str


@dataclass(frozen=True, slots=True)
class FamilyRows:
    """What a family's `Tables.rows` makes of one replayed game, column by column, without `file`
    and `game`: `plays` and `events` (each a `TableColumns`), and `game`, the family's own columns
    of the games row (its config as data, e.g. Kirk's `hands` and `target`)."""

    plays: TableColumns
    events: TableColumns
    game: Row


@dataclass(frozen=True, slots=True)
class Tables:
    """A family's part of the tables (its `Family.tables` part, usually named `TABLES`).

    `columns`: per table name, the columns the family adds (a name another
    family also declares must have the same kind). `standing_fields`: the
    fields its `SideResult` subclass adds to each `standings` item (the JSON
    export's names). `rows(replayed)`: the rows of one game whose config is
    the family's (`replayed.game` is not None), from the engine's events.
    """

    columns: Mapping[str, tuple[Column, ...]]
    standing_fields: tuple[Column, ...]
    rows: Callable[[ReplayedGame], FamilyRows]
    #: For a family whose events move points between areas (`from_area` → `to_area`): each area's weight
    #: in the score; the `rounds` table then has the points in each area after every round (rounds.py).
    #: None: its events keep a running `total` instead.
    area_weights: Mapping[str, int] | None = None


_KEYS = (
    Column("file", Kind.CATEGORY, "the source file, as given on the command line (`<stdin>` for -)"),
    Column("game", Kind.INT32, "the game's 1-based index in its file"),
)

GAMES = (
    *_KEYS,
    Column("family", Kind.CATEGORY, "the rule family (fitzgerald, kirk, bidding); null when unreadable"),
    Column("rules", Kind.CATEGORY, "the rule set (the Rules tag: 1e, 2e, bga, kirk, bidding)"),
    Column("variants", Kind.CATEGORY_LIST, "the variants in play (partnership, perfect), sorted"),
    Column("players", Kind.CATEGORY_LIST, "the player ids in seat order (seat 1 first)"),
    Column("player_count", Kind.INT8, "how many players"),
    Column("tags", Kind.TAGS, "every tag of the game, in order, as written"),
    Column("valid", Kind.BOOL, "no problem: every move is legal and the Result tag agrees"),
    Column("complete", Kind.BOOL, "the game reached its end (an unfinished valid game is not complete)"),
    Column("problem_line", Kind.INT32, "line of the first problem (null when valid)"),
    Column("problem_column", Kind.INT32, "column of the first problem"),
    Column("problem_code", Kind.CATEGORY, "the first problem's stable code (syntax, must-follow-suit, ...)"),
    Column("problem_rule", Kind.CATEGORY, "the ruling it breaks (R8, K5, B7), where one does"),
    Column("problem_message", Kind.STRING, "the first problem in words"),
    Column("rounds", Kind.INT16, "rounds (hands) begun in the replay"),
    Column("plays", Kind.INT32, "cards played in the replay (the rows of this game in `plays`)"),
    Column("standings", Kind.STANDINGS, "per side, in side order: the JSON export's result.standings with "
                                        "the side's seats (empty when no game could be set up)"),
    Column("winners", Kind.CATEGORY_LIST, "the winning sides (`Ann`, `Ann+Cat`); empty until complete"),
    Column("date", Kind.CATEGORY, "the Date tag as written (`2026.10.08`, `??` for unknown parts); null without one"),
    Column("event", Kind.CATEGORY, "the Event tag (a league, a club night); null without one"),
    Column("site", Kind.CATEGORY, "the Site tag; null without one"),
    Column("event_round", Kind.CATEGORY, "the Round tag (the round of the event: `4`, `-`), as written; null "
                                        "without one (not `round`: that is a round of play in the other tables)"),
)

PLAYS = (
    *_KEYS,
    Column("round", Kind.INT16, "the round (hand) number, from 1"),
    Column("trick", Kind.INT16, "the trick number in the round, from 1"),
    Column("order", Kind.INT8, "the card's place in the trick: 1 leads"),
    Column("seat", Kind.INT8, "the player's seat, 1-based (the order of the Players tag)"),
    Column("player", Kind.CATEGORY, "the player id"),
    Column("card", Kind.CATEGORY, "the card as DGN writes it (10H, QS, AC, Jo)"),
    Column("suit", Kind.CATEGORY, "the suit the card counts as: its own; a Joker's given suit"),
    Column("rank", Kind.INT8, "the card's rank (J 11, Q 12, K 13, A 14); null for the Joker"),
    Column("led_suit", Kind.CATEGORY, "the suit led in this trick"),
    Column("followed", Kind.BOOL, "of the led suit (true for the lead)"),
    Column("won_trick", Kind.BOOL, "this card won the trick; null when the trick was not finished"),
)

EVENTS = (
    *_KEYS,
    Column("seq", Kind.INT32, "the event's place among the game's events, from 1"),
    Column("round", Kind.INT16, "the round (hand) number"),
    Column("trick", Kind.INT16, "the trick it belongs to; null for events of the round (awards, bids, scores)"),
    Column("kind", Kind.CATEGORY, "what happened (see the family's list in docs/tables.md)"),
    Column("seat", Kind.INT8, "the acting or scoring player's seat, 1-based; null for a team's award"),
    Column("player", Kind.CATEGORY, "that player's id"),
    Column("side", Kind.CATEGORY, "the side it counts for (`Ann`, `Ann+Cat`)"),
    Column("suit", Kind.CATEGORY, "the suit concerned (a Suit Action's suit)"),
    Column("card", Kind.CATEGORY, "the card concerned (the trick's winning card, the card taken)"),
    Column("points", Kind.INT16, "points gained (negative: lost) by `side` through this event"),
    Column("total", Kind.INT32, "the side's total after it, where the rules keep one per hand"),
)

ROUNDS = (
    *_KEYS,
    Column("round", Kind.INT16, "the round (hand) number, from 1"),
    Column("side", Kind.CATEGORY, "the side (`Ann`, `Ann+Cat`), in side order"),
    Column("seats", Kind.INT8_LIST, "its players' seats, 1-based"),
    Column("score", Kind.INT32, "the side's score after the round (so far, in a round left unfinished)"),
    Column("points", Kind.INT32, "what the round changed it by"),
)

_GENERIC: Final[dict[str, tuple[Column, ...]]] = {"games": GAMES, "plays": PLAYS, "events": EVENTS, "rounds": ROUNDS}

#: The fields of every `standings` item (the JSON export's, with the side's seats).
STANDING_FIELDS: Final = (
    Column("side", Kind.CATEGORY, "the side as DGN writes it: `Ann`, or `Ann+Cat` for a team"),
    Column("seats", Kind.INT8_LIST, "its players' seats, 1-based"),
    Column("score", Kind.INT32, "its score (final when the game is complete)"),
    Column("winner", Kind.BOOL, "it won (only in a complete game; ties give several winners)"),
)


@cache
def _family_tables(name: str) -> Tables:
    return family_named(name).typed_part("tables", Tables)


def _union(groups: list[tuple[Column, ...]], what: str) -> tuple[Column, ...]:
    seen: dict[str, Column] = {}
    for group in groups:
        for column in group:
            earlier = seen.get(column.name)
            if earlier is None:
                seen[column.name] = column
            elif earlier.kind is not column.kind:
                raise TypeError(f"{what}: column {column.name!r} is both {earlier.kind.value} and "
                                f"{column.kind.value}")
    return tuple(seen.values())


def columns(table: str) -> tuple[Column, ...]:
    """Every column of `table`: the generic ones, then each family's (registry order)."""
    return _columns(table, registry_version())


@cache
def _columns(table: str, _registry: object) -> tuple[Column, ...]:
    """`columns`, kept per registry (a family registered in-process adds its columns; a registry put back
    drops them)."""
    groups = [_GENERIC[table]] + [_family_tables(f.name).columns.get(table, ()) for f in registered_families()]
    return _union(groups, table)


def standing_fields() -> tuple[Column, ...]:
    """The fields of a `standings` item: the generic ones, then each family's."""
    return _standing_fields(registry_version())


@cache
def _standing_fields(_registry: object) -> tuple[Column, ...]:
    return _union([STANDING_FIELDS] + [_family_tables(f.name).standing_fields for f in registered_families()], "standings")


# --------------------------------------------------------------------------- rows

_CARD_FACTS: Final[dict[Any, tuple[str, int | None]]] = {}  # card -> (text, rank); cards are interned singletons


def _card_facts(card: Any) -> tuple[str, int | None]:
    facts = _CARD_FACTS.get(card)
    if facts is None:
        facts = _CARD_FACTS[card] = (str(card), card.rank if isinstance(card, Card) else None)
    return facts


#: The generic plays columns `add_play` fills, in the order of its arguments.
_PLAY_ARGUMENTS: Final = ("round", "trick", "order", "seat", "player", "card", "suit", "rank", "led_suit", "followed")


class TableColumns:
    """One game's rows of one table, column by column: a family fills the generic columns and its own.

    `add(values)` appends a row (a column absent from `values` is null);
    `add_play(...)` appends a card played with the generic plays columns
    positionally (the conversion's hot loop); `set(name, index, value)`
    changes a cell already added (who won the trick, once it is won).
    """

    __slots__ = ("data", "count", "_play", "_rest")

    def __init__(self, table: str, own: tuple[Column, ...]) -> None:
        self.data: dict[str, list[Any]] = {c.name: [] for c in (*_GENERIC[table][2:], *own)}
        self.count = 0
        if table == "plays":  # bound appends, for add_play
            self._play = tuple(self.data[name].append for name in _PLAY_ARGUMENTS)
            self._rest = tuple(values.append for name, values in self.data.items() if name not in _PLAY_ARGUMENTS)

    def add(self, values: Row) -> int:
        for name, column in self.data.items():
            column.append(values.get(name))
        self.count += 1
        return self.count - 1

    def appenders(self, *names: str) -> tuple[Callable[[Any], None], ...]:
        """The bound `append` of each named column, for a family whose hot loop fills every column of
        a row itself (it must append to each column once per row, and count with `added`)."""
        return tuple(self.data[name].append for name in names)

    def added(self, rows: int = 1) -> None:
        self.count += rows

    def add_play(self, round_no: int, trick: int, order: int, seat: int, player: str, card: Any, suit: str,
                 led_suit: str, followed: bool) -> int:
        """A card played (`seat` 0-based, written 1-based); `won_trick` and the family's own columns are
        null until `set`."""
        text, rank = _card_facts(card)
        append = self._play
        append[0](round_no)
        append[1](trick)
        append[2](order)
        append[3](seat + 1)
        append[4](player)
        append[5](text)
        append[6](suit)
        append[7](rank)
        append[8](led_suit)
        append[9](followed)
        for null in self._rest:
            null(None)
        self.count += 1
        return self.count - 1

    def set(self, name: str, index: int, value: Any) -> None:
        self.data[name][index] = value

    def mark_winner(self, start: int, card: Any) -> int | None:
        """Set `won_trick` on the trick's plays from `start` on: true on `card` (the winning card: in a
        two-player game one seat plays two cards of a trick), false on the others; its index."""
        text = _card_facts(card)[0]
        cards, won = self.data["card"], self.data["won_trick"]
        winner = None
        for index in range(start, self.count):
            won[index] = cards[index] == text
            if won[index]:
                winner = index
        return winner

    def get(self, name: str, index: int) -> Any:
        return self.data[name][index]

    def rows(self) -> list[Row]:
        names = list(self.data)
        return [dict(zip(names, values)) for values in zip(*self.data.values())] if names else []


class CountedColumns(TableColumns):
    """The rows of a table nobody asked for (`TableBuffer(tables=...)` leaves it out): counted, not kept.

    A family's `rows` fills plays and events alike without knowing which are wanted; here a row is only
    counted (the games row still says how many cards were played), a cell set is dropped and read as
    null."""

    __slots__ = ()

    def add(self, values: Row) -> int:
        self.count += 1
        return self.count - 1

    def appenders(self, *names: str) -> tuple[Callable[[Any], None], ...]:
        return (_drop,) * len(names)

    def add_play(self, round_no: int, trick: int, order: int, seat: int, player: str, card: Any, suit: str,
                 led_suit: str, followed: bool) -> int:
        self.count += 1
        return self.count - 1

    def set(self, name: str, index: int, value: Any) -> None:
        pass

    def mark_winner(self, start: int, card: Any) -> int | None:
        return None

    def get(self, name: str, index: int) -> Any:
        return None

    def rows(self) -> list[Row]:
        return []


def _drop(_value: Any) -> None:
    pass


#: The tables whose rows are kept while a `TableBuffer` adds a game (the others are counted only): set
#: around a family's `rows`, which has no say in which tables a command wants.
_KEPT: Final[ContextVar[frozenset[str]]] = ContextVar("_KEPT", default=frozenset(TABLE_NAMES))


@contextmanager
def _keeping(tables: frozenset[str]) -> Iterator[None]:
    token = _KEPT.set(tables)
    try:
        yield
    finally:
        _KEPT.reset(token)


def family_columns(tables: Tables) -> tuple[TableColumns, TableColumns]:
    """Empty plays and events columns for one game of the family whose part is `tables` (a table the
    conversion does not keep is only counted: `CountedColumns`)."""
    kept = _KEPT.get()

    def made(table: str) -> TableColumns:
        return (TableColumns if table in kept else CountedColumns)(table, tables.columns.get(table, ()))

    return made("plays"), made("events")



class EventWalk:
    """A family's `rows`, written while it walks a replayed game's events in order (`for event in walk`).

    It keeps what every family's walk keeps: the round being played (`new_round`), the trick being
    filled (where it started in `plays` and its led suit: `play`, `won`) and the events' numbering
    (`event`, `seat_event`)."""

    def __init__(self, replayed: ReplayedGame, tables: Tables) -> None:
        game = replayed.game
        assert game is not None
        self.game = game
        self.names: tuple[str, ...] = tuple(replayed.config.players)
        self.plays, self.events = family_columns(tables)
        self.round_no = 0
        self.trick_start = 0
        self.led = ""
        self.seq = 0

    def __iter__(self) -> Iterator[Any]:
        for move_events in self.game.events:
            yield from move_events

    def new_round(self, number: int) -> None:
        self.round_no = number
        self.trick_start = self.plays.count

    def play(self, trick_no: int, seat: int, card: Any, suit: str, leads: bool, followed: bool | None = None) -> int:
        """A card played (its row's index); `followed`, unless given, is whether `suit` is the led suit."""
        if leads:
            self.trick_start = self.plays.count
            self.led = suit
        return self.plays.add_play(self.round_no, trick_no, self.plays.count - self.trick_start + 1, seat,
                                   self.names[seat], card, suit, self.led,
                                   suit == self.led if followed is None else followed)

    def won(self, card: Any) -> None:
        """The trick being filled is won by `card`."""
        self.plays.mark_winner(self.trick_start, card)

    def event(self, kind: str, trick: int | None = None, **values: Any) -> None:
        self.seq += 1
        self.events.add({"seq": self.seq, "round": self.round_no, "trick": trick, "kind": kind, **values})

    def seat_event(self, kind: str, seat: int, trick: int | None = None, **values: Any) -> None:
        """An event of one seat (who is also their own side, in a game without partnerships)."""
        name = self.names[seat]
        self.event(kind, trick, seat=seat + 1, player=name, side=name, **values)

    def rows(self, game: Row) -> FamilyRows:
        return FamilyRows(self.plays, self.events, game)

#: Tags that are also plain columns of `games`.
_PLAIN_TAGS: Final = {"Date": "date", "Event": "event", "Site": "site", "Round": "event_round"}


def _games_row(replayed: ReplayedGame, family: Row, plays: int) -> Row:
    record, config, game = replayed.record, replayed.config, replayed.game
    first = replayed.problems[0] if replayed.problems else None
    row: Row = {
        "family": replayed.family,
        "rules": config.rules if config is not None else None,
        "variants": sorted(getattr(v, "value", v) for v in getattr(config, "variants", ())) if config else [],
        "players": list(config.players) if config is not None else [],
        "player_count": config.player_count if config is not None else None,
        "tags": [{"name": t.name, "value": t.value} for t in record.tags],
        "valid": replayed.valid,
        "complete": replayed.complete,
        "problem_line": first.line if first else None,
        "problem_column": first.column if first else None,
        "problem_code": first.code if first else None,
        "problem_rule": first.rule if first else None,
        "problem_message": first.message if first else None,
        "rounds": game.state.round_no if game is not None else None,
        "plays": plays,
        "standings": [],
        "winners": [],
    }
    for tag in record.tags:  # the first of each, as the tags say it (`tags` keeps them all)
        name = _PLAIN_TAGS.get(tag.name)
        if name is not None and name not in row:
            row[name] = tag.value
    if config is not None and game is not None:
        standings = _result(replayed)["standings"]
        for item, standing in zip(standings, game.standings()):
            item["seats"] = [seat + 1 for seat in config.sides[standing.side]]
        row["standings"] = standings
        row["winners"] = [item["side"] for item in standings if item["winner"]]
    row.update(family)
    return row


def _family_rows(replayed: ReplayedGame) -> FamilyRows:
    if replayed.config is None or replayed.game is None:  # unreadable, or no game could be set up
        return FamilyRows(TableColumns("plays", ()), TableColumns("events", ()), {})
    return _family_tables(family_of(replayed.config.rules).name).rows(replayed)


def game_rows(replayed: ReplayedGame, file: str, game: int) -> dict[str, list[Row]]:
    """One replayed game (replayed with events) as row dicts per table, `file` and `game` included
    (a column the game's family does not have is left out: it is null)."""
    found = _family_rows(replayed)
    key = {"file": file, "game": game}
    games_row = _games_row(replayed, found.game, found.plays.count)
    return {
        "games": [{**key, **games_row}],
        "plays": [{**key, **row} for row in found.plays.rows()],
        "events": [{**key, **row} for row in found.events.rows()],
        "rounds": [{**key, **row} for row in _rounds(replayed, found, games_row).rows()],
    }


def _rounds(replayed: ReplayedGame, found: FamilyRows, row: Row) -> TableColumns:
    """The game's rows of the `rounds` table (rounds.py), from its events and standings."""
    from .rounds import round_rows

    weights = None
    own: tuple[Column, ...] = ()
    if replayed.config is not None and replayed.game is not None:
        tables = _family_tables(family_of(replayed.config.rules).name)
        weights, own = tables.area_weights, tables.columns.get("rounds", ())
    rounds = TableColumns("rounds", own)
    round_rows(found.events, row["standings"], row["rounds"], weights, rounds)
    return rounds


class TableBuffer:
    """The rows of many games, column by column (every column of `columns(table)`), ready for Arrow.

    `tables`: the tables kept (`games` always is), in `TABLE_NAMES` order in `data`. A command that
    reads only some (`stats` the games and events) leaves the others unbuilt: their rows are counted,
    not kept (`CountedColumns`), and the `rounds` rows are not derived at all."""

    def __init__(self, tables: Collection[str] = TABLE_NAMES) -> None:
        unknown = set(tables) - set(TABLE_NAMES)
        if unknown:
            raise ValueError(f"no such table: {', '.join(sorted(unknown))} (the tables are {', '.join(TABLE_NAMES)})")
        self.kept = frozenset({"games", *tables})
        self.names = {table: tuple(c.name for c in columns(table)) for table in TABLE_NAMES if table in self.kept}
        self.data: dict[str, dict[str, list[Any]]] = {}
        self.games = 0
        self.clear()

    def clear(self) -> None:
        self.data = {table: {name: [] for name in names} for table, names in self.names.items()}
        self.games = 0

    def _extend(self, table: str, found: dict[str, list[Any]], count: int, file: str, game: int) -> None:
        data = self.data[table]
        data["file"].extend([file] * count)
        data["game"].extend([game] * count)
        nulls: list[Any] | None = None
        for name in self.names[table][2:]:
            values = found.get(name)
            if values is None:
                nulls = nulls or [None] * count
                values = nulls
            data[name].extend(values)

    def add(self, replayed: ReplayedGame, file: str, game: int) -> None:
        """One replayed game (replayed with events); an unreadable record gives its games row only."""
        with _keeping(self.kept):
            found = _family_rows(replayed)
        row = _games_row(replayed, found.game, found.plays.count)
        self._extend("games", {name: [value] for name, value in row.items()}, 1, file, game)
        for table, part in (("plays", found.plays), ("events", found.events)):
            if table in self.kept:
                self._extend(table, part.data, part.count, file, game)
        if "rounds" in self.kept:
            rounds = _rounds(replayed, found, row)
            self._extend("rounds", rounds.data, rounds.count, file, game)
        self.games += 1
