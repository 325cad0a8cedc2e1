"""The family protocol: what every game the engine plays provides, and one registration per family.

A *rule set* is what a game's `Rules` tag names (`1e`, `kirk`, `bidding`): a
`Rules` subclass whose class methods are the game's rules. Editions of one
game are subclasses that differ in class variables (as python-chess's
variants); separate games are separate implementations behind this one
protocol (as OpenSpiel registers games).

A *family* groups the rule sets of one game and says, in one `Family`
record: its `Rules` classes, and the package that holds the rest of the game
(bridge, export, view, picture, ...), loaded by name only when a layer asks,
so that the engine imports no lark, rich or json. Families register
themselves (entry-point group `diamonds.families`); `registry.py` finds them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

from .errors import NotationError
from .seating import ConfigError, Seating

__all__ = [
    "SideResult", "HandNumbered", "CardsDealtEvent", "HandDealtEvent", "CardPlayedEvent", "TrickWonEvent",
    "Sight", "Rules", "EngineRules", "Table", "TurnTable", "Endgame", "PureTable", "Family",
    "FamilyMismatch", "STANDARD_PARTS", "REQUIRED_PARTS", "MissingPart", "FamilyInvariants", "move_kind",
]


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side's result: every family's standings have these fields, and may add their own."""

    side: int
    score: int
    winner: bool


class HandNumbered:
    """An event of a game that calls its rounds hands (`hand_no`): `round_no` is the generic layers' name for it."""

    __slots__ = ()

    @property
    def round_no(self) -> int:
        return _hand_no(self)


def _hand_no(event: object) -> int:
    # Read by name, not declared as `hand_no: int`: compiled by mypyc, such a declaration is an attribute of the
    # class, which the subclasses' dataclass fields would take as their default.
    hand: int = getattr(event, "hand_no")  # noqa: B009
    return hand


class CardsDealtEvent:
    """The event of a deal: a new round's hands are dealt. Every family's `CardsDealt` is one, so generic layers
    (the bots' public record) know a round begins by its type, not its class's name."""

    __slots__ = ()


class HandDealtEvent(CardsDealtEvent):
    """The deal of a game that calls its rounds hands: a `CardsDealtEvent` whose `round_no` is its `hand_no`, as
    `HandNumbered` gives (a class of its own, not both as bases: a class compiled by mypyc has one base)."""

    __slots__ = ()

    @property
    def round_no(self) -> int:
        return _hand_no(self)


class CardPlayedEvent:
    """The event of a card played to a trick: every family's `CardPlayed` is one, with the fields `seat`, `card`,
    `trick_no` and `leads` (not declared here, for the reason `HandNumbered` gives)."""

    __slots__ = ()


class TrickWonEvent:
    """The event of a trick won: every family's `TrickWon` is one, with the fields `trick_no`, `winner`, `card`
    (the winning card) and `cards` (in play order)."""

    __slots__ = ()


def move_kind(move: object) -> str:
    """What a move is, as its class declares it (`kind`, a property: a class attribute of a dataclass compiled by
    mypyc would be taken for a field): "card" for a card played to a trick, "victim" for a Clubs victim named, else
    the word of the DGN item it stands for ("deal", "pass", "bid", "take", "final"). Generic layers (the analysis)
    tell moves apart by it, never by a class's name or a move's text; "move" for a class that declares none."""
    kind: str = getattr(move, "kind", "move")
    return kind


@dataclass(frozen=True, slots=True)
class Sight:
    """What one player may know at a moment, under the rules: the one visibility policy.

    `hands` holds, per seat, the cards the viewer knows that seat holds (all of
    their own; of others, e.g. the cards the viewer passed them and they have not
    played). `hidden_scores` are the sides whose score the viewer may not see
    yet (Fitzgerald's Vaults, R2). `hidden` names further private facts by the
    family's own words (a bidding player's point card), per seat.
    """

    viewer: int
    hands: tuple[frozenset[Any], ...]
    hidden_scores: frozenset[int] = frozenset()
    hidden: tuple[frozenset[str], ...] = ()


class Table(Protocol):
    """A game being played: what `Game` pushes moves into.

    `apply` checks a move completely before changing anything, so a refused
    move (an `IllegalMove`) leaves the table as it was.

    A table may also answer, without a snapshot, what a playout asks at every
    decision (a `TurnTable`): it then says `answers_turns = True` and has
    `seat_to_act()` (the seat to act, None at a chance move or once over:
    `Rules.to_move`) and `moves_to_act()` (that seat's legal moves as a list,
    in `Rules.moves_of`'s order; [] where none acts). Else the engine asks the
    rules on a snapshot.
    """

    def apply(self, move: Any) -> tuple[Any, ...]: ...

    def freeze(self) -> Any: ...

    @property
    def is_over(self) -> bool: ...

    def standings(self) -> tuple[SideResult, ...]: ...


class TurnTable(Table, Protocol):
    """A table that answers what a playout asks at every decision, without a snapshot (`answers_turns`)."""

    answers_turns: bool

    def seat_to_act(self) -> int | None: ...

    def moves_to_act(self) -> list[Any]: ...


class Endgame(Protocol):
    """The rest of a round as one mutable position, for the end-of-round solver: its moves made and taken
    back in place, without a state per move, events or checks (only moves from `moves` are played).

    It stands for a state of `Rules`: `moves` are `moves_of` that state's seat to move, in the same order
    (less, if the family likes, a move that plays exactly as the one before it: the same values after either),
    `key` is `solver_key` of that state, and `scores` its `solver_scores`; `to_move` is None once the
    round is over (a deal due, or the game over), where `scores` are the standings' after the round's scoring.
    `cost` is what a decision searched on it counts toward the solver's budget: its time relative to the
    cheapest endgame's (1), measured, so that the budget means about as many seconds on every family.
    """

    cost: int

    def to_move(self) -> int | None: ...

    def moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> None: ...

    def undo(self) -> None: ...

    def key(self) -> Hashable: ...

    def scores(self) -> tuple[int, ...]: ...

    def finish(self) -> tuple[int, ...] | None:
        """Where every move left in the round is forced, `scores` at its end (a shortcut); else None."""
        ...


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
    #: The ruling that seats the players (R1, K1, B1), which the replay cites for a missing, unknown or
    #: repeated player: each game's own (Kirk's and the bidding game's say "seats as R1" but are K1 and B1).
    seats_rule: ClassVar[str | None] = None
    #: The family's promise that while tricks are played a card's words mean one move in every game of the
    #: rule set, and an item that names its player (a bid, a victim) one move for the same players: the replay
    #: then reads each such text once a process and reuses the move. A rule set whose words mean more than
    #: that (a move that depends on the state it is read in) says False, and every text is read afresh.
    words_read_alike: ClassVar[bool] = True
    #: Whether several seats ever decide at once (Fitzgerald's passes, R6): then `legal_moves` lists all of their
    #: moves and `moves_of` keeps one seat's. A rule set whose every decision is one seat's says False, and
    #: `moves_of` is its legal moves as they are (a playout asks at every decision).
    decides_at_once: ClassVar[bool] = True

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> Seating:
        """The checked set-up; raises `ConfigError` (with `tag` naming the tag at fault)."""
        raise NotImplementedError

    @classmethod
    def check_options(cls, options: Mapping[str, str] | None) -> None:
        """Each option tag given is one this rule set reads (`option_tags`), its name and value text as a tag
        writes them: `ConfigError` names a tag it does not read, `TypeError` what is not text. Every door that
        takes options (`Position`, `simulate`, the recorder and so the server) asks it first."""
        given: Mapping[Any, Any] = options or {}  # Any: compiled, a str-typed loop would refuse an int itself
        for tag, value in given.items():
            if not isinstance(tag, str) or not isinstance(value, str):
                raise TypeError(f"an option's tag and value are text, as a tag writes them, not {tag!r}: {value!r}")
            if tag not in cls.option_tags:
                raise ConfigError(f"the {tag} tag has no meaning in a {cls.id} game", tag=tag)

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
    def standings(cls, state: Any) -> tuple[SideResult, ...]:
        """The sides' results now (final once the game is over), in side order."""
        raise NotImplementedError

    @classmethod
    def random_move(cls, state: Any, rng: random.Random) -> Any:
        """One legal move drawn at random, a random deal at a deal: the random player."""
        raise NotImplementedError

    @classmethod
    def is_chance(cls, state: Any) -> bool:
        """Whether a chance move (a deal) is due: no player decides, the cards do."""
        return not cls.is_over(state) and cls.to_move(state) is None

    @classmethod
    def chance_move(cls, state: Any, rng: random.Random) -> Any:
        """The chance move drawn with `rng` (a shuffled deal), where `is_chance`."""
        if not cls.is_chance(state):
            raise ValueError("no chance move is due here")
        return cls.random_move(state, rng)

    @classmethod
    def moves_of(cls, state: Any, seat: int) -> tuple[Any, ...]:
        """The legal moves of one seat now ([] when it is not that seat's decision).

        Where several seats decide at once (Fitzgerald's passes, R6), `legal_moves`
        lists all of theirs; a move names its seat in a `seat` field."""
        if cls.to_move(state) != seat:
            return ()
        moves = cls.legal_moves(state)
        if not cls.decides_at_once:
            return moves
        return tuple([move for move in moves if getattr(move, "seat", seat) == seat])

    @classmethod
    def move_text(cls, state: Any, move: Any) -> str:
        """The move's DGN words here (`9H`, `>Cat`, `bid 4`, `take 9H point 7S`); `parse_move` reads them back."""
        raise NotImplementedError

    @classmethod
    def parse_move(cls, state: Any, text: str) -> Any:
        """The move `text` means here, in the reader's forgiving forms; `NotationError` if it names none.

        Only the words are read: whether the move is legal is `apply`'s answer."""
        raise NotImplementedError

    @classmethod
    def split_text(cls, state: Any, text: str) -> tuple[str, ...]:
        """The texts of the moves one written item holds, in order: a record may write several decisions as
        one item (Fitzgerald's card and its Clubs victim, `12C>Cat`, R14), which `Position.push_text` parses
        and pushes one by one, all or none. Read from the words alone, in `state` before the first is pushed;
        by default one text is one move."""
        return (text,)

    @classmethod
    def refuse_part(cls, state: Any, text: str, parts: tuple[str, ...], index: int) -> NotationError | None:
        """Part `index` (1 or more) of `split_text(text)` is next, in `state` after the parts before it: the
        game's refusal if that part is not due there (its words, column in `text` and ruling), or None to let
        `parse_move` and `apply` decide. By default None."""
        return None

    @classmethod
    def other_writings(cls, config: Any, text: str) -> tuple[tuple[str, str], ...]:
        """Other ways to write the play `text` (one card word, as written), each with what it says instead:
        where a play says more than its card, a scorer's page offers the other after the card (the bidding
        game's ace, high when written bare: `AH` gives `(("AH-", "low"),)`, B7). By default none."""
        return ()

    @classmethod
    def question_words(cls, config: Any, code: str) -> tuple[str, ...] | None:
        """Whether a refusal with this code is a question, and what may answer it: the card just written needs
        one more word on it (Fitzgerald's Clubs victim, R14; the bidding game's Joker, B7), and a recorder asks
        for it rather than refuse the card. The words, in the order to offer them (each is tried first); None:
        the refusal is no question. By default no refusal is."""
        return None

    @classmethod
    def parse_card(cls, config: Any, text: str) -> Any:
        """The card one word of this game's text names: the one reader of a card word, which `parse_move`
        and the replay of a record both use, so that a game accepts only its own words. `NotationError`,
        with the game's ruling, for another game's word (the Joker in a game without one). Which cards the
        deck holds is the rules' answer (`apply`), not this one's. By default every card word of DGN."""
        from .movetext import card_of, one_word

        return card_of(text, one_word(text))

    @classmethod
    def hand(cls, state: Any, seat: int) -> tuple[Any, ...]:
        """The cards a seat holds now, in display order."""
        return tuple(state.hand(seat))

    @classmethod
    def solver_key(cls, state: Any) -> Hashable:
        """What of `state` decides the rest of its round, for the end-of-round solver's memo: two states of
        one round with equal keys must have the same legal moves in the same order (up to moves that play
        alike) and the same changes of `solver_scores` from there to the round's end under every play
        (the scores themselves may differ). By default the state itself; a family whose states keep what
        cannot matter any more (the order of cards won, a Vault's points) gives a coarser key."""
        key: Hashable = state
        return key

    @classmethod
    def solver_scores(cls, state: Any) -> tuple[int, ...]:
        """Per side, a score now from which the change to the round's end depends only on `solver_key`:
        the solver keeps that change per key. By default, and at the round's end always, the standings'
        scores; a family that scores a round at its end may count what is already won (cards in a pile)."""
        return tuple(standing.score for standing in cls.standings(state))

    @classmethod
    def endgame(cls, state: Any) -> Endgame | None:
        """`state`'s round as an `Endgame`, where the family has one (the solver then searches it in place,
        several times faster than through `apply`); None by default, and where it does not apply."""
        return None

    @classmethod
    def is_private(cls, state: Any, move: Any) -> bool:
        """Whether the table does not see what this move is (a pass, a card taken from the kitty): only its player."""
        return _nothing_private(state, move)

    @classmethod
    def sight(cls, state: Any, moves: Sequence[Any], viewer: int) -> Sight:
        """What `viewer` may know after `moves` (the game so far): by default their own hand only."""
        return _own_hand_only(cls, state, viewer)


# The defaults of `is_private` and `sight`, as functions: `EngineRules` falls back on them by name, not through
# `super()`, which a class method compiled by mypyc (2.4) calls with `type` for `cls` (docs/build.md).
def _nothing_private(state: Any, move: Any) -> bool:
    return False


def _own_hand_only(rules: type[Rules], state: Any, viewer: int) -> Sight:
    return Sight(viewer, tuple(frozenset(rules.hand(state, seat)) if seat == viewer else frozenset()
                               for seat in range(len(state.config.players))))


class EngineFunctions(Protocol):
    """An engine module's pure functions, as `EngineRules` calls them."""

    def initial_state(self, config: Any, /) -> Any: ...

    def legal_moves(self, state: Any, /) -> tuple[Any, ...]: ...

    def apply(self, state: Any, move: Any, /) -> tuple[Any, tuple[Any, ...]]: ...

    def standings(self, state: Any, /) -> tuple[SideResult, ...]: ...


class PlayerFunctions(Protocol):
    def random_move(self, state: Any, rng: random.Random, /) -> Any: ...


class MoveTextFunctions(Protocol):
    def move_text(self, state: Any, move: Any, /) -> str: ...

    def parse_move(self, state: Any, text: str, /) -> Any: ...

    def parse_card(self, config: Any, text: str, /) -> Any: ...


class VisibilityFunctions(Protocol):
    def is_private(self, state: Any, move: Any, /) -> bool: ...

    def sight(self, state: Any, moves: Sequence[Any], viewer: int, /) -> Sight: ...


class EngineRules(Rules):
    """A rule set whose class methods are its engine's module functions, the modules named on the class.

    `engine_module` plays (initial_state, legal_moves, apply, standings), `player_module` draws
    (random_move), `movetext_module` writes and reads moves, and `visibility_module`, when there
    is one, says what is private (else `Rules`'s defaults: nothing hidden but the other hands).
    A state says itself whether it `is_over` and who is `to_move`.
    """

    engine_module: ClassVar[EngineFunctions]
    player_module: ClassVar[PlayerFunctions]
    movetext_module: ClassVar[MoveTextFunctions]
    visibility_module: ClassVar[VisibilityFunctions | None] = None

    @classmethod
    def initial_state(cls, config: Any) -> Any:
        return cls.engine_module.initial_state(config)

    @classmethod
    def legal_moves(cls, state: Any) -> tuple[Any, ...]:
        return cls.engine_module.legal_moves(state)

    @classmethod
    def apply(cls, state: Any, move: Any) -> tuple[Any, tuple[Any, ...]]:
        return cls.engine_module.apply(state, move)

    @classmethod
    def is_over(cls, state: Any) -> bool:
        return bool(state.is_over)

    @classmethod
    def to_move(cls, state: Any) -> int | None:
        seat: int | None = state.to_move
        return seat

    @classmethod
    def standings(cls, state: Any) -> tuple[SideResult, ...]:
        return cls.engine_module.standings(state)

    @classmethod
    def random_move(cls, state: Any, rng: random.Random) -> Any:
        return cls.player_module.random_move(state, rng)

    @classmethod
    def move_text(cls, state: Any, move: Any) -> str:
        return cls.movetext_module.move_text(state, move)

    @classmethod
    def parse_move(cls, state: Any, text: str) -> Any:
        return cls.movetext_module.parse_move(state, text)

    @classmethod
    def parse_card(cls, config: Any, text: str) -> Any:
        return cls.movetext_module.parse_card(config, text)

    @classmethod
    def is_private(cls, state: Any, move: Any) -> bool:
        if cls.visibility_module is None:
            return _nothing_private(state, move)
        return cls.visibility_module.is_private(state, move)

    @classmethod
    def sight(cls, state: Any, moves: Sequence[Any], viewer: int) -> Sight:
        if cls.visibility_module is None:
            return _own_hand_only(cls, state, viewer)
        return cls.visibility_module.sight(state, moves, viewer)


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

    def standings(self) -> tuple[SideResult, ...]:
        return self.rules.standings(self.state)


#: The parts a family may provide, by the module (inside the family's package) and the name in it.
#: A family may name them elsewhere (`Family(parts=...)`), e.g. to share one module between several parts.
#: REQUIRED_PARTS are what every game has (its records replayed, its positions labelled); the others are
#: optional: a command that needs one a family lacks ends with one line (`MissingPart`), exit status 2.
STANDARD_PARTS: Final[Mapping[str, str]] = {
    "bridge": "bridge:BRIDGE",  # record items -> moves, and a game -> record (diamonds.replay.Bridge)
    "export": "export:EXPORT",  # a replayed game -> plain data, and its JSON Schema part
    "steps": "steps:build_steps",  # a replayed game cut into replay stops (R2.7, R2.end), no rich
    "marks": "steps:MARKS",  # which events open a round, a card, a round's end (labels such as R2.7)
    "tables": "tables:TABLES",  # a replayed game -> rows of the analysis tables (Parquet, stats)
    "stats": "stats:STATS",  # the family's own figures of `diamonds stats`
    "picture": "picture:PICTURE",  # a replay stop -> an SVG picture of the table (pure, no rich)
    "view": "view:VIEW",  # rich renderables, narration, the terminal's screens
    "words": "words:WORDS",  # the notation words its records use (deal, pass, kitty, bid ...)
    "visibility": "visibility:VISIBILITY",  # what each player may know (Position.view, pictures, --as)
    "bot": "bot:BOT",  # the bots' rules of thumb and sampler of hidden cards (diamonds.bots.FamilyBot)
    "invariants": "invariants:INVARIANTS",  # what the family conserves: the conformance suite's own checks
}

#: The parts without which a family is no game the toolkit can read: its records replayed into moves, and
#: the marks that name its positions (R2.7.3). Every other part of STANDARD_PARTS is optional.
REQUIRED_PARTS: frozenset[str] = frozenset(("bridge", "steps", "marks"))

#: What each optional part gives, for the one line a command says when a family lacks it.
PART_PURPOSES: Final[Mapping[str, str]] = {
    "bridge": "its records replayed into moves", "steps": "its replay stops", "marks": "its positions' labels",
    "export": "its JSON export (convert --to json or csv, schema)", "tables": "its analysis tables (stats, "
    "ratings, convert --to parquet)", "stats": "its own figures of stats", "picture": "its SVG picture",
    "view": "its screens and narration", "words": "its own item words", "visibility": "its visibility policy",
    "bot": "bots (greedy and mc need it; random bots need nothing from a family)",
    "invariants": "the conserved quantities the conformance suite checks",
}


class MissingPart(LookupError):
    """A part a family does not have (see STANDARD_PARTS): data fields `family` and `part`; `str()` is one line."""

    def __init__(self, family: str, part: str) -> None:
        self.family, self.part = family, part
        purpose = PART_PURPOSES.get(part)
        super().__init__(f"the {family} family has no `{part}` part" + (f": {purpose}" if purpose else ""))


def _nothing(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class FamilyInvariants:
    """A family's `invariants` part: what its games conserve, checked by the conformance suite after every move
    of games played at random (tests/conformance/test_families.py), so a plug-in brings its own.

    `max_moves(config)`: an upper bound on a whole game's moves (deals included), so that "the game ends" is
    checked, not hoped for; `state(state)`: what holds in every state; `step(before, move, after, events)`:
    what holds across one move; `final(state, standings)`: who wins, by the family's own tie rule;
    `extra_options`: set-ups to play besides player counts × variants, as option tags' text (Kirk's `Hands`).
    Work the expected numbers out from the rulings, never from the engine's constants."""

    max_moves: Callable[[Any], int]
    state: Callable[[Any], None] = _nothing
    step: Callable[[Any, Any, Any, tuple[Any, ...]], None] = _nothing
    final: Callable[[Any, tuple[Any, ...]], None] = _nothing
    extra_options: tuple[Mapping[str, str], ...] = ()


_REQUIRED: Final[Any] = object()  # `Family.part`'s default: no default, a missing part is a MissingPart
#: A part's location in the house itself (`diamonds.replay.plain:BRIDGE`), not in the family's package: the
#: parts the house gives a plain trick game (diamonds.core.trick), which a family names instead of writing its own.
_HOUSE: Final = "diamonds."


class FamilyMismatch(Exception):
    """A family whose rule sets, once loaded, are not the ones it declared (ids or option tags)."""

    def __init__(self, message: str, *, name: str) -> None:
        super().__init__(message)
        self.name = name


class Family:
    """One game's registration: its rule sets, and the package that holds all of the game's parts.

    A family is one folder (`diamonds.families.kirk`, or any installed package)
    that registers itself in the entry-point group `diamonds.families`; its
    parts are loaded only when a layer asks (`part`), so the engine never
    imports a layer above it.

    `rule_sets` are the classes, or where they lie in the package ("rules:Kirk",
    loaded when a game of the family is first played). A family that names them
    declares their `rule_ids` and `option_tags`, so that reading a game of one
    family never imports the engines of the others; the declaration is checked
    when the classes load.
    """

    __slots__ = ("name", "title", "package", "parts", "rule_ids", "option_tags", "_rule_sets", "_where")

    name: str
    title: str
    package: str  # the family's package: where its parts live
    parts: Mapping[str, str]
    rule_ids: tuple[str, ...]  # the Rules tag values it plays, in its own order
    option_tags: frozenset[str]  # the tags its rule sets read besides the standard ones (Hands, Target)

    def __init__(self, name: str, title: str, rule_sets: Sequence[type[Rules]] | str, package: str,
                 parts: Mapping[str, str] | None = None, *, rule_ids: Sequence[str] = (),
                 option_tags: Iterable[str] = ()) -> None:
        self.name, self.title, self.package = name, title, package
        self.parts = dict(STANDARD_PARTS) if parts is None else parts
        if isinstance(rule_sets, str):
            if not rule_ids:
                raise FamilyMismatch(f"the {name} family names its rule sets ({rule_sets}) without declaring "
                                     "their rule_ids", name=name)
            self._where: str | None = rule_sets
            self._rule_sets: tuple[type[Rules], ...] | None = None
            self.rule_ids, self.option_tags = tuple(rule_ids), frozenset(option_tags)
        else:
            self._where, self._rule_sets = None, tuple(rule_sets)
            self.rule_ids = tuple(rules.id for rules in self._rule_sets)
            self.option_tags = frozenset(tag for rules in self._rule_sets for tag in rules.option_tags)

    @property
    def rule_sets(self) -> tuple[type[Rules], ...]:
        """The rule set classes, imported on first use and checked against what the family declared."""
        if self._rule_sets is None:
            assert self._where is not None
            module, _, attribute = self._where.partition(":")
            found = getattr(importlib.import_module(f"{self.package}.{module}"), attribute)
            loaded = tuple(found) if isinstance(found, (tuple, list)) else (found,)
            ids = tuple(rules.id for rules in loaded)
            tags = frozenset(tag for rules in loaded for tag in rules.option_tags)
            if ids != self.rule_ids or tags != self.option_tags:
                raise FamilyMismatch(
                    f"the {self.name} family declares rule sets {', '.join(self.rule_ids)} reading "
                    f"{sorted(self.option_tags)}, but {self.package}.{self._where} holds {', '.join(ids)} "
                    f"reading {sorted(tags)}", name=self.name)
            self._rule_sets = loaded
        return self._rule_sets

    def rule_set(self, rule_id: str) -> type[Rules]:
        """The rule set `rule_id` of this family (KeyError if it has none of that id)."""
        if rule_id not in self.rule_ids:
            raise KeyError(rule_id)
        return self.rule_sets[self.rule_ids.index(rule_id)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Family):
            return NotImplemented
        return (self.name, self.title, self.package, self.rule_ids) == \
            (other.name, other.title, other.package, other.rule_ids)

    def __hash__(self) -> int:
        return hash((self.name, self.package, self.rule_ids))

    def part(self, which: str, default: Any = _REQUIRED) -> Any:
        """The family's part `which` (see STANDARD_PARTS), imported on first use; `default` where the family
        has none (a part it does not name, or whose module or name is not there), else `MissingPart`.
        A location is `module:name` in the family's package, or in the house (`diamonds.svg.plain:PICTURE`)."""
        location = self.parts.get(which)
        if location is not None:
            module, _, attribute = location.partition(":")
            name = module if module.startswith(_HOUSE) else f"{self.package}.{module}"
            try:
                found = importlib.import_module(name)
            except ModuleNotFoundError as error:
                if error.name is None or not (name == error.name or name.startswith(error.name + ".")):
                    raise  # the part's module is there but imports something missing: a bug to show
            else:
                if hasattr(found, attribute):
                    return getattr(found, attribute)
        if default is not _REQUIRED:
            return default
        raise MissingPart(self.name, which)

    def typed_part(self, which: str, kind: type[P]) -> P:
        """`part(which)`, checked to be a `kind`: a misnamed part fails here, naming itself."""
        found = self.part(which)
        if not isinstance(found, kind):
            raise TypeError(f"the {self.name} family's {which} part ({self.package}.{self.parts[which]}) "
                            f"is not a {kind.__name__}")
        return found

    def __repr__(self) -> str:
        return f"<Family {self.name} ({', '.join(self.rule_ids)}) from {self.package}>"
