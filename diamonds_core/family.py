"""The family protocol: what every game the engine plays provides, and one registration per family.

A *rule set* is what a game's `Rules` tag names (`1e`, `kirk`, `bidding`): a
`Rules` subclass whose class methods are the game's rules. Editions of one
game are subclasses that differ in class variables (as python-chess's
variants); separate games are separate implementations behind this one
protocol (as OpenSpiel registers games).

A *family* groups the rule sets of one game and says, in one `Family`
record, where each layer finds its part: the engine's `Rules` classes here,
and by dotted name (so that the engine imports no lark, rich or json) the
replay's bridge from record items to moves, the export, and the view. The
registry (`registry.py`) lists the families explicitly.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Iterable, Mapping, Protocol, TypeVar

from .seating import Seating

__all__ = ["Standing", "Rules", "Table", "PureTable", "Family"]


@dataclass(frozen=True, slots=True)
class Standing:
    """One side's result: every family's standings have these fields, and may add their own."""

    side: int
    score: int
    winner: bool


class Table(Protocol):
    """A game being played: what `Game` pushes moves into.

    `apply` checks a move completely before changing anything, so a refused
    move (an `IllegalMove`) leaves the table as it was.
    """

    def apply(self, move: Any) -> tuple[Any, ...]: ...

    def freeze(self) -> Any: ...

    @property
    def is_over(self) -> bool: ...

    def standings(self) -> tuple[Standing, ...]: ...


S = TypeVar("S")
P = TypeVar("P")  # a family part of a known type


class Rules:
    """A rule set. Every method is a class method: a rule set is a value, not an object with state."""

    id: ClassVar[str]  # the Rules tag's value
    family: ClassVar[str]  # the Family's name
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    default_players: ClassVar[int]
    variants: ClassVar[tuple[str, ...]] = ()  # the Variant tag's words it accepts
    option_tags: ClassVar[tuple[str, ...]] = ()  # the tags it reads besides Players, Rules, Variant, Dealer
    rounds_word: ClassVar[str] = "round"  # what one dealt hand is called ("hand" in some games)

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> Seating:
        """The checked set-up; raises `ConfigError` (with `tag` naming the tag at fault)."""
        raise NotImplementedError

    @classmethod
    def initial_state(cls, config: Any) -> Any:
        raise NotImplementedError

    @classmethod
    def legal_moves(cls, state: Any) -> tuple[Any, ...]:
        """Every legal decision now; the deal (a chance move) is not listed."""
        raise NotImplementedError

    @classmethod
    def apply(cls, state: Any, move: Any) -> tuple[Any, tuple[Any, ...]]:
        """Pure: the next state and the events the move caused, or an `IllegalMove`."""
        raise NotImplementedError

    @classmethod
    def table(cls, state: Any, *, record: bool = True) -> Table:
        """A mutable game to push moves into; plain families use `PureTable` over `apply`."""
        return PureTable(cls, state, record=record)

    @classmethod
    def is_over(cls, state: Any) -> bool:
        raise NotImplementedError

    @classmethod
    def to_move(cls, state: Any) -> int | None:
        """The seat whose decision is due; None for a chance move or when the game is over."""
        raise NotImplementedError

    @classmethod
    def standings(cls, state: Any) -> tuple[Standing, ...]:
        """The sides' results now (final once the game is over), in side order."""
        raise NotImplementedError

    @classmethod
    def random_move(cls, state: Any, rng: random.Random) -> Any:
        """One legal move drawn at random, a random deal at a deal: the random player."""
        raise NotImplementedError


class PureTable(Generic[S]):
    """A table over a family's pure `apply`: each move replaces the frozen state."""

    __slots__ = ("rules", "state", "record")

    def __init__(self, rules: type[Rules], state: S, *, record: bool = True) -> None:
        self.rules = rules
        self.state = state
        self.record = record

    def apply(self, move: Any) -> tuple[Any, ...]:
        self.state, events = self.rules.apply(self.state, move)
        return events if self.record else ()

    def freeze(self) -> S:
        return self.state

    @property
    def is_over(self) -> bool:
        return self.rules.is_over(self.state)

    def standings(self) -> tuple[Standing, ...]:
        return self.rules.standings(self.state)


@dataclass(frozen=True, slots=True)
class Family:
    """One game's registration: its rule sets, and where the other layers find their parts.

    `bridge`, `export`, `steps`, `tables`, `stats`, `picture` and `view` are
    "module:attribute" names, loaded only when a layer asks (`part`), so the
    engine never imports them.
    """

    name: str
    title: str
    rule_sets: tuple[type[Rules], ...]
    bridge: str  # diamonds.replay: record items → moves
    export: str  # diamonds.replay: a replayed game → plain data, and its JSON Schema part
    steps: str  # diamonds.replay: a replayed game cut into replay stops (R2.7, R2.end), no rich
    tables: str  # diamonds.replay: a replayed game → rows of the analysis tables (Parquet, stats)
    stats: str  # diamonds.replay: the family's own figures of `diamonds stats`, counted from the tables
    picture: str  # diamonds.svg: a replay stop → an SVG picture of the table (pure, no rich)
    view: str  # diamonds.cli: rich renderables, narration, the terminal's screens

    def part(self, which: str) -> Any:
        module, _, attribute = getattr(self, which).partition(":")
        return getattr(importlib.import_module(module), attribute)

    def typed_part(self, which: str, kind: type[P]) -> P:
        """`part(which)`, checked to be a `kind`: a misnamed part fails here, naming itself."""
        found = self.part(which)
        if not isinstance(found, kind):
            raise TypeError(f"the {self.name} family's {which} part ({getattr(self, which)}) is not a {kind.__name__}")
        return found

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(rules.id for rules in self.rule_sets)
