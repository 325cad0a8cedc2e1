"""The front door's game and positions: `Position`, a game of any family at one moment (python-chess's
`Board`), and `Game`, one recorded game read from DGN (python-chess's `pgn.Game`).

A `Position` is the engine's game (push / pop; a state kept when read, and every
32 moves: docs/engine.md) with the
names of the players, move text both ways, the labels of `replay --at`
(`R2.7`), the chance moves made explicit (a deal is a move, `is_chance` says
when one is due) and `view(player)`: the position as one player may know it,
decided by the family's one visibility policy (`Rules.sight`).

`read_games(path or handle)` yields every game of a file, invalid ones too
(their `problems` say why, as `validate` does); `read_game(handle)` the next
one, or None at the end. A game's positions are `Position`s: step through
them, ask for the legal moves at any of them, or continue playing from one.
The two live in one module because each makes the other (`Game.at` gives a
position, `Position.game()` a game).
"""

from __future__ import annotations

import copyreg
import io
import os
import random
import weakref
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

from diamonds.core import (
    DEFAULT_RULES,
    Family,
    IllegalMove,
    NotAPlayer,
    Rules,
    Sight,
    default_names,
    family_of,
    option_tags,
    rules_for,
    with_rule,
)
from diamonds.core import Engine as EngineGame
from diamonds.core.game import LAZY_SNAPSHOTS, replayed_engine
from diamonds.core.values import by_constructor
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.reader import game_texts, parse_game
from diamonds.notation.records import GameRecord, Problem
from diamonds.notation.tags import SETUP_TAGS, check_tag, is_tag_name
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game
from diamonds.replay.steps import START, Mark, PositionError, Step, find_position, next_mark, steps_of
from diamonds.replay.validate import ReplayedGame, replay_record
from diamonds.svg import step_svg

from .io.text import open_text  # the one text opener: BOMs, encodings, an undecodable byte located

__all__ = ["Position", "View", "Standing", "Game", "Diagnostic", "NotAPlayer", "read_games", "read_game",
           "position_svg", "public_moves"]

Move = Any  # a family's move: a frozen dataclass of diamonds.families.<name>.rules


@dataclass(frozen=True, slots=True)
class Standing:
    """One side's result now (final once the game is over): the engine's `SideResult` with its players' names."""

    side: int
    players: tuple[str, ...]
    score: int | None  # None where the viewer may not see it (a Fitzgerald Vault, R2)
    winner: bool | None  # before the end: leading now; None where the viewer cannot tell
    details: Any  # the family's own standing (its extra fields: showroom, vault, bid, ...); None if hidden

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self.details is None:
            raise AttributeError(f"{name}: this side's standing is hidden from this viewer until the game ends")
        return getattr(self.details, name)


class Position:
    """A game of any family at one moment; push and pop moves, ask what is legal, read and write move text.

    >>> import random, diamonds
    >>> pos = diamonds.Position("kirk", ["Ann", "Bob", "Cat", "Dan"], dealer="Ann")
    >>> pos.is_chance
    True
    >>> _ = pos.deal(random.Random(1))
    >>> pos.to_move, pos.label
    ('Bob', 'R1.0')
    """

    __slots__ = ("_game", "_at", "_marks", "family", "_moved")

    def __init__(self, rules: str = DEFAULT_RULES, players: Iterable[str] | None = None, *, dealer: str | int | None = None,
                 variants: Iterable[str] = (), options: Mapping[str, str] | None = None) -> None:
        rule_set = rules_for(rules)
        dealt_by: Any = dealer  # (compiled, the declared type refuses a float first, in mypyc's words; not a bool)
        if dealt_by is not None and (isinstance(dealt_by, bool) or not isinstance(dealt_by, (str, int))):
            raise TypeError(f"the dealer is named (Ann) or given by seat (0), not {dealt_by!r}")
        names: list[Any] = list(players) if players is not None else _default_names(rule_set)  # Any: see below
        if not all(isinstance(name, str) for name in names):  # (compiled, a str-typed list would refuse it itself)
            raise TypeError(f"players are named by text (ids such as Ann), not {names!r}")
        if isinstance(variants, str):  # "perfect" or "partnership, perfect", as the Variant tag writes them
            variants = [part.strip() for part in variants.split(",") if part.strip()]
        rule_set.check_options(options)
        config = rule_set.configure(names, variants=variants, dealer=dealer, options=options)
        self._start(EngineGame(config, snapshot_every=LAZY_SNAPSHOTS))  # a playout asks no state (engine docs)

    def _start(self, game: EngineGame) -> None:
        self._game = game
        self.family: Family = family_of(game.config.rules)
        self._marks = self.family.part("marks")
        #: The mark after each move, as far as it has been asked for (`label`): the walk is made when a label is
        #: read, not at every push, which a playout makes thousands of times a second without reading one.
        self._at = [START]
        #: How many times a move was pushed or popped: a `View` knows by it whether its moment is still the
        #: position's own.
        self._moved = 0

    @classmethod
    def from_engine(cls, game: EngineGame) -> Position:
        """A position over an engine game (which it then owns): every move of it is a move of the position."""
        if len(game) and len(game.events) != len(game):
            raise ValueError("a position needs a game that keeps its events and history")
        position = cls.__new__(cls)
        position._start(game)
        return position

    # ---------------------------------------------------------------- what it is
    @property
    def rules(self) -> str:
        """The `Rules` tag's value: 1e, 2e, bga, kirk, bidding, or a plug-in family's."""
        return str(self._game.config.rules)

    @property
    def rule_set(self) -> type[Rules]:
        """The rule set's class (its class methods are the game's rules)."""
        return self._game.rules

    @property
    def config(self) -> Any:
        """The checked set-up (the family's `Seating`: players, sides, dealer, variants, options)."""
        return self._game.config

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seating order (the Players tag)."""
        return tuple(self._game.config.players)

    @property
    def state(self) -> Any:
        """The engine's frozen state now (the family's `State`)."""
        return self._game.state

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move so far, chance moves (deals) included."""
        return self._game.moves

    @property
    def events(self) -> tuple[tuple[Any, ...], ...]:
        """The events of every move so far, move by move (the family's typed events)."""
        return self._game.events

    @property
    def engine(self) -> EngineGame:
        """The engine's game under this position (push/pop on it directly bypasses the labels: don't)."""
        return self._game

    def __len__(self) -> int:
        return len(self._game)

    # ---------------------------------------------------------------- whose turn
    @property
    def is_over(self) -> bool:
        """Whether the game has ended (then `standings` are final)."""
        return self._game.is_over

    @property
    def is_chance(self) -> bool:
        """A chance move is due (a deal): `deal(rng)` makes one, or `push` a `Deal` you built."""
        return self._game.is_chance()

    @property
    def to_move_seat(self) -> int | None:
        """The seat (index into `players`) of the player to act; None at a chance move or when over."""
        return self._game.seat_to_act()

    @property
    def to_move(self) -> str | None:
        """The name of the player to act; None at a chance move or when the game is over."""
        seat = self.to_move_seat
        return None if seat is None else self.players[seat]

    @property
    def legal_moves(self) -> list[Move]:
        """The moves of the player to act ([] only at a chance move or when the game is over)."""
        return self._game.moves_to_act()  # one snapshot, one look at whose turn it is: a playout asks each move

    def is_legal(self, move: Move) -> bool:
        """Whether `move` is one of the legal moves now."""
        return move in self.legal_moves

    def chance_move(self, rng: random.Random | None = None) -> Move:
        """A chance move drawn with `rng` (a shuffled deal), not yet made."""
        given: Any = rng  # Any: the check is the same in both builds
        if given is not None and not isinstance(given, random.Random):
            raise TypeError(f"a chance move is drawn with a random.Random (random.Random(7)), not {given!r}")
        return self.rule_set.chance_move(self.state, rng or random.Random())

    def deal(self, rng: random.Random | None = None) -> Move:
        """Make the chance move due (a random deal with `rng`); returns it."""
        move = self.chance_move(rng)
        self.push(move)
        return move

    # ---------------------------------------------------------------- moves
    def push(self, move: Move) -> tuple[Any, ...]:
        """Make a move and return the events it caused (the family's typed events: a trick won, a Suit
        Action, a hand scored); an `IllegalMove` (with `ruling`, `player`, `card`) changes nothing."""
        if isinstance(move, str):
            raise TypeError(f"push takes a move, not its text: use push_text({move!r}), or push(parse({move!r}))")
        try:
            events = self._game.push(move)
        except IllegalMove as error:
            if error.seat is not None and error.player is None and 0 <= error.seat < len(self.players):
                error.player = self.players[error.seat]
            raise
        self._moved += 1
        return events

    def pop(self) -> Move:
        """Take back the last move, and return it."""
        move = self._game.pop()
        self._moved += 1
        del self._at[len(self._game) + 1:]
        return move

    def peek(self) -> Move | None:
        """The last move, or None before the first."""
        return self._game.moves[-1] if len(self._game) else None

    def text(self, move: Move) -> str:
        """The DGN words of `move` here, as a record writes them: `9H`, `>Cat` (a Clubs victim), `bid Ann 4`,
        `pass Ann 9D 12H`, deal lines (`push_text` reads them back)."""
        return self.rule_set.move_text(self.state, move)

    def parse(self, text: str) -> Move:
        """The move `text` means here, in the reader's forgiving forms (`9h`, `T♠`); `NotationError` if none.

        Only the words are read: `push` says whether the move is legal."""
        if not isinstance(text, str):
            raise TypeError(f"parse reads a move's text (such as '9H'), not {text!r}")
        return self.rule_set.parse_move(self.state, text)

    def push_text(self, text: str) -> list[Move]:
        """Parse and push the moves one written item holds: one move, or several where the game writes them as
        one item (`Rules.split_text`), all or none: if any part is refused, every part pushed is taken back."""
        rules = self.rule_set
        parts = rules.split_text(self.state, text)
        pushed: list[Move] = []
        try:
            for index, part in enumerate(parts):
                refusal = rules.refuse_part(self.state, text, parts, index) if index else None
                if refusal is not None:
                    raise refusal
                move = self.parse(part)
                self.push(move)
                pushed.append(move)
        except Exception:
            for _ in pushed:
                self.pop()
            raise
        return pushed

    def san(self, move: Move) -> str:
        """python-chess's name for `text`, for hands that reach for it."""
        return self.text(move)

    def parse_san(self, text: str) -> Move:
        """python-chess's name for `parse`."""
        return self.parse(text)

    # ---------------------------------------------------------------- where
    @property
    def label(self) -> str:
        """Where the game is, as the replay's stop there is labelled (`replay --steps`, `--at`): start, R2.0
        (dealt), R2.7.3 (the third card of trick 7), R2.end. One walk (`replay.steps.next_mark`) names both."""
        return self._mark().label

    def _mark(self) -> Mark:
        """The mark after the last move: the replay's walk (`next_mark`) over the moves' events, made up to now."""
        at, game = self._at, self._game
        while len(at) <= len(game):
            mark = at[-1]
            for event in game.events_at(len(at) - 1):
                mark = next_mark(mark, event, self._marks) or mark
            at.append(mark)
        return at[-1]

    # ---------------------------------------------------------------- the result
    @property
    def standings(self) -> list[Standing]:
        """Every side's result now (final once over): side, players, score, winner, and the family's fields."""
        config = self.config
        return [Standing(s.side, tuple(config.players[seat] for seat in config.sides[s.side]), s.score, s.winner, s)
                for s in self._game.standings()]

    @property
    def winners(self) -> list[str]:
        """The names of the winning players once the game is over ([] before)."""
        if not self.is_over:
            return []
        return [name for standing in self.standings if standing.winner for name in standing.players]

    # ---------------------------------------------------------------- cards
    def seat(self, player: str | int) -> int:
        """The seat of a player (by name, ignoring case, or already a seat)."""
        given: Any = player  # Any: compiled, a declared `str | int` would refuse another type in its own words
        if isinstance(given, bool) or not isinstance(given, (str, int)):  # (True is an int to Python, no seat)
            raise TypeError(f"a player is named (Ann) or given by seat (0), not {given!r}")
        if isinstance(player, int):
            if not 0 <= player < len(self.players):
                raise NotAPlayer(player, self.players)
            return player
        for seat, name in enumerate(self.players):
            if name.lower() == str(player).lower():
                return seat
        raise NotAPlayer(str(player), self.players)

    def hand(self, player: str | int) -> tuple[Any, ...]:
        """A player's cards now, in display order, as far as this position knows them."""
        return self.rule_set.hand(self.state, self.seat(player))

    def view(self, player: str | int) -> View:
        """The position as `player` may know it under the rules (their hand, public cards, cards they passed), now:
        a view is of this moment, and the position's later pushes and pops do not change it (it reads the
        position while that is still at its moment, and plays its moves again once if it has moved on). A view
        that followed its position while its sight stayed that of its moment showed, after a `pop()`, cards of
        other hands that the player could not know then."""
        seat = self.seat(player)
        moves = self.moves
        return View(self, seat, self.rule_set.sight(self.state, moves, seat), moves)

    # ---------------------------------------------------------------- copies and records
    def copy(self) -> Position:
        """An independent position with the same moves (sharing the frozen states behind them)."""
        position = Position.__new__(Position)
        position._game = self._game.copy()
        position.family = self.family
        position._marks = self._marks
        position._at = list(self._at)
        position._moved = 0
        return position

    def game(self, tags: Mapping[str, str] | None = None) -> Game:
        """The `Game` of the moves so far: `str(pos.game())` is DGN that validates."""
        return Game.from_position(self, tags=tags)

    def svg(self, as_player: str | int | None = None, *, size: int | None = None) -> str:
        """The table now as SVG text, drawn by the family's picture; `as_player` shows only what they may see."""
        seat = None if as_player is None else self.seat(as_player)
        return position_svg(self, seat, size=size)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        if self.is_over:
            where = "over"
        elif self.is_chance:
            where = "deal due"
        else:
            where = f"{self.to_move} to move"
        return f"<Position {self.rules} [{' '.join(self.players)}] {self.label}, {where}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.config == other.config and self.moves == other.moves

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as its engine (its set-up and moves, played again on loading): its
        labels and the family's parts are found again from those."""
        return (Position.from_engine, (self._game,))

    __hash__ = None  # type: ignore[assignment]  # mutable, as python-chess's Board


class View:
    """A position as one player may know it: `hand(p)` holds only the cards they know `p` holds.

    Bots are given a view, never the position, so they cannot peek. Everything
    here comes from the family's one visibility policy (`Rules.sight`). A view is
    of one moment (`Position.view`): the position moving on does not change it.
    """

    __slots__ = ("_position", "viewer_seat", "sight", "_moves", "_moved")

    def __init__(self, position: Position, seat: int, sight: Sight, moves: tuple[Move, ...] | None = None) -> None:
        self._position = position
        self.viewer_seat = seat
        self.sight = sight
        self._moves = position.moves if moves is None else moves  # the moment's moves (`position.moves` then)
        self._moved = position._moved

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as its position, seat and sight: compiled, a view has no `__dict__`."""
        return View, (self._now(), self.viewer_seat, self.sight)

    def _now(self) -> Position:
        """The position at the view's moment: the one it was taken of while that has not moved since (nothing is
        copied for a view read at once, as a bot's is), else its moves played again, once."""
        position = self._position
        if position._moved != self._moved:
            engine = position._game
            position = Position.from_engine(replayed_engine(engine.config, True, True, LAZY_SNAPSHOTS, self._moves))
            self._position, self._moved = position, position._moved
        return position

    @property
    def viewer(self) -> str:
        return self._now().players[self.viewer_seat]

    @property
    def rules(self) -> str:
        return self._now().rules

    @property
    def players(self) -> tuple[str, ...]:
        return self._now().players

    @property
    def label(self) -> str:
        return self._now().label

    @property
    def is_over(self) -> bool:
        return self._now().is_over

    @property
    def is_chance(self) -> bool:
        return self._now().is_chance

    @property
    def to_move(self) -> str | None:
        return self._now().to_move

    @property
    def legal_moves(self) -> list[Move]:
        """The viewer's legal moves when it is their turn, else [] (they decide from their own hand and the table)."""
        if self._now().to_move_seat != self.viewer_seat:
            return []
        return self._now().legal_moves

    def hand(self, player: str | int) -> tuple[Any, ...]:
        """The cards the viewer knows `player` holds (all of their own)."""
        seat = self._now().seat(player)
        known = self.sight.hands[seat]
        return tuple(card for card in self._now().hand(seat) if card in known)

    def text(self, move: Move) -> str:
        return self._now().text(move)

    def parse(self, text: str) -> Move:
        return self._now().parse(text)

    @property
    def standings(self) -> list[Standing]:
        """The standings with every score the viewer may not see yet as None (a Fitzgerald Vault, R2)."""
        hidden = self.sight.hidden_scores
        unknown = bool(hidden) and not self.is_over  # who leads is itself hidden while some score is
        return [Standing(s.side, s.players, None if s.side in hidden else s.score, None if unknown else s.winner,
                         None if s.side in hidden else s.details)
                for s in self._now().standings]

    @property
    def public_moves(self) -> list[tuple[str | None, str | None]]:
        """The moves so far as the viewer saw them: (who acted, their text), the text None where it was hidden
        (another player's deal or pass; a deal shows the viewer's own cards only)."""
        return public_moves(self._now(), self.viewer_seat)

    def svg(self, *, size: int | None = None) -> str:
        return self._now().svg(self.viewer_seat, size=size)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<View of {self.viewer}: {self._now()!r}>"


def _default_names(rule_set: type[Rules]) -> list[str]:
    return list(default_names(rule_set.default_players))


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem with a game at a place in its file: `str()` is `file:line:col: message (ruling)`."""

    path: str
    line: int
    column: int
    message: str
    code: str  # stable, for machines: "syntax", "must-follow-suit", …
    rule: str | None  # the ruling broken (R8, K2, B6), where a ruling is the reason
    problem: Problem = field(repr=False)
    record: GameRecord = field(repr=False)

    @property
    def ruling(self) -> str | None:
        return self.rule

    def render(self) -> str:
        """Three lines, as `validate` prints them: where and what, the source line, a caret under the token."""
        return format_problem(self.path, self.record, self.problem)

    def __str__(self) -> str:
        return with_rule(f"{self.path}:{self.line}:{self.column}: {self.message}", self.rule)


class Game:
    """One recorded game: its tags, its moves (deals included, as chance moves) and its positions.

    `str(game)` is the canonical DGN. A game whose record breaks the rules has
    `problems`, and its moves and positions go as far as the replay could.
    """

    def __init__(self, record: GameRecord, *, path: str = "<game>", replayed: ReplayedGame | None = None) -> None:
        self.record = record
        self.path = path
        self._replayed = replayed if replayed is not None else replay_record(record)
        self._steps: list[Step] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as its record and path, replayed again on loading (a replay is the engine's)."""
        return game_of_record, (self.record, self.path)

    @classmethod
    def from_text(cls, text: str, *, path: str = "<string>") -> Game:
        """The first game of a DGN text (of several, as `read_games` finds them: the next one's tags end it)."""
        first = next(_games(io.StringIO(text), path), None)
        return first if first is not None else cls(parse_game(text), path=path)  # no game: an empty one

    @classmethod
    def from_position(cls, position: Position, *, tags: Mapping[str, str] | None = None) -> Game:
        """The record of a position's moves so far (deal lines included), as a game; `tags` adds tags of the
        event (Event, Site, Date, ...), each a name and a value as DGN writes them. The set-up's tags are the
        game's own: `TypeError` or `ValueError` names a tag that is not text, not a tag, or the set-up's."""
        given: Any = tags  # Any: the check is the same in both builds
        if given is not None and not isinstance(given, Mapping):
            raise TypeError(f"tags are a mapping of names to values ({{'Event': 'Club night'}}), not {given!r:.60}")
        extra: tuple[tuple[Any, Any], ...] = tuple((tags or {}).items())  # Any: compiled, str pairs refuse an int
        own = {*SETUP_TAGS, *option_tags()}
        for name, value in extra:
            if not isinstance(name, str) or not isinstance(value, str):
                raise TypeError(f"a tag's name and value are text, not {name!r}: {value!r}")
            if not is_tag_name(name):
                raise ValueError(f"{name!r} is not a tag's name (a letter, then letters, digits or _)")
            if name in own:
                raise ValueError(f"the game writes its own {name} tag, from the position's set-up")
            check_tag(name, value)  # no control (a line break), bidi or lone surrogate character: UnsafeTagText
        record = record_from_game(position.engine, tags=extra)
        text = write_game(record)
        return cls(parse_game(text), path="<position>")

    # ---------------------------------------------------------------- what it says
    @property
    def tags(self) -> dict[str, str]:
        """The tags in file order (a tag written twice keeps its first value)."""
        found: dict[str, str] = {}
        for tag in self.record.tags:
            found.setdefault(tag.name, tag.value)
        return found

    @property
    def rules(self) -> str:
        """The Rules tag's value (DGN's default, 2e, when it is absent)."""
        if self._replayed.config is not None:
            return str(self._replayed.config.rules)
        return self.tags.get("Rules", DEFAULT_RULES).strip() or DEFAULT_RULES

    @property
    def players(self) -> tuple[str, ...]:
        if self._replayed.config is not None:
            return tuple(self._replayed.config.players)
        return tuple(self.tags.get("Players", "").split())

    @property
    def problems(self) -> list[Diagnostic]:
        """What is wrong with the game (file:line:col, ruling); [] for a valid game."""
        return [Diagnostic(self.path, problem.line, problem.column, problem.message, problem.code, problem.rule,
                           problem, self.record) for problem in self._replayed.problems]

    @property
    def notes(self) -> list[str]:
        """What the replay could not check, and why (an unfinished round without deal lines)."""
        return list(self._replayed.notes)

    @property
    def is_valid(self) -> bool:
        return not self._replayed.problems

    @property
    def is_complete(self) -> bool:
        return self._replayed.complete

    @property
    def moves(self) -> tuple[Move, ...]:
        """The record's moves in order, deals included (as chance moves), as far as the replay went."""
        engine = self._replayed.game
        return engine.moves if engine is not None else ()

    @property
    def replayed(self) -> ReplayedGame:
        """The replay behind this game (the engine game, the record item behind each move, problems, notes)."""
        return self._replayed

    # ---------------------------------------------------------------- its positions
    def start(self) -> Position:
        """The position before the first move."""
        return self._position_after(0)

    def end(self) -> Position:
        """The position after the last move the replay made."""
        return self._position_after(len(self.moves))

    def positions(self) -> list[Position]:
        """Every position, in order: before the first move, then after each move."""
        return [self._position_after(ply) for ply in range(len(self.moves) + 1)]

    def at(self, label: str) -> Position:
        """The position at a label of `replay --at`: R2.7 (after trick 7 of round 2), R2.7.3, R2.0, R2.end, start, end.

        `PositionError` (a ValueError) names what is not in this game."""
        given: Any = label  # (compiled, the declared `str` refuses first, in mypyc's words: docs/build.md)
        if not isinstance(given, str):
            raise TypeError(f"a position is named by its label (R2.7, start, end), not {given!r}")
        steps = self.steps()
        return self._position_after(steps[find_position(steps, label)].ply)

    def steps(self) -> list[Step]:
        """The replay's stops (what `replay --steps` shows), each with the number of moves behind it (`ply`)."""
        if self._steps is None:
            if self._replayed.game is None:
                raise PositionError("this game could not be replayed at all: " +
                                    "; ".join(str(problem) for problem in self.problems))
            self._steps = steps_of(self._replayed)
        return self._steps

    def _position_after(self, ply: int) -> Position:
        if self._replayed.config is None:
            raise PositionError("this game could not be set up: " + "; ".join(str(p) for p in self.problems))
        replayed = self._replayed.game
        if replayed is not None and replayed.recording and len(replayed.events) == len(replayed):
            return Position.from_engine(replayed.copy(ply))  # the replay's own states: nothing played again
        engine = EngineGame(self._replayed.config)
        for move in self.moves[:ply]:
            engine.push(move)
        return Position.from_engine(engine)

    # ---------------------------------------------------------------- as text and pictures
    def __str__(self) -> str:
        return write_game(self.record)

    def _repr_svg_(self) -> str:
        return self.end().svg() if self._replayed.config is not None else ""

    def __repr__(self) -> str:
        state = "valid" if self.is_valid else f"{len(self._replayed.problems)} problem(s)"
        return (f"<Game {self.rules} [{' '.join(self.players)}] {self.tags.get('Event', '')!r} "
                f"{len(self.moves)} moves, {state}>")


def read_games(source: str | os.PathLike[str] | TextIO | Iterable[str], *, encoding: str = "utf-8",
               path: str | None = None) -> Iterator[Game]:
    """Every game of a DGN file (a path) or of text (a handle or lines), invalid ones too, one at a time.

    `path` names the text in diagnostics (a file's own path by default)."""
    given: Any = source  # Any: the check is the same in both builds
    if isinstance(given, (bytes, bytearray)) or not isinstance(given, (str, os.PathLike, io.IOBase, Iterable)):
        raise TypeError(f"read_games reads a path (text), a text handle or lines, not {given!r:.60}")
    if isinstance(source, (str, os.PathLike)):
        path = path or os.fspath(source)
        with open_text(path, encoding) as handle:
            yield from _games(handle, path)
        return
    yield from _games(source, path or str(getattr(source, "name", "<stream>")))


def _games(handle: TextIO | Iterable[str], path: str) -> Iterator[Game]:
    for index, first_line, text in game_texts(handle):
        yield Game(parse_game(text, first_line=first_line, index=index), path=path)


_READERS: Final[weakref.WeakKeyDictionary[Any, Iterator[Game]]] = weakref.WeakKeyDictionary()


def read_game(handle: TextIO) -> Game | None:
    """The next game of an open text handle, or None at its end (python-chess's `read_game`)."""
    if isinstance(handle, (str, bytes, os.PathLike)):
        raise TypeError(f"read_game reads an open text handle (open(path, encoding='utf-8')); for a path use "
                        f"read_games({handle!r})")
    try:
        games = _READERS.get(handle)
        if games is None:
            games = _games(handle, getattr(handle, "name", "<stream>"))
            _READERS[handle] = games
    except TypeError:  # a handle that takes no weak reference: read it whole, once
        games = _games(io.StringIO(handle.read()), getattr(handle, "name", "<stream>"))
    return next(games, None)


def position_svg(position: Position, as_player: int | None, *, size: int | None = None) -> str:
    """The family's picture of the table at a position (its last replay stop)."""
    engine = position.engine
    replayed = ReplayedGame(record_from_game(engine), engine.config, engine)
    last = steps_of(replayed)[-1]
    return step_svg(last, as_player) if size is None else step_svg(last, as_player, size=size)


def public_moves(position: Position, viewer: int) -> list[tuple[str | None, str | None]]:
    """The moves of a position as `viewer` saw them: (who acted, text), text None where it was hidden."""
    rules, engine, players = position.rule_set, position.engine, position.players
    seen: list[tuple[str | None, str | None]] = []
    for ply, move in enumerate(position.moves):  # read from the states the position keeps: nothing replayed
        state = engine.state_at(ply)
        text = rules.move_text(state, move)
        if rules.is_chance(state):  # a deal: the viewer's own line, their hand as dealt
            own = " ".join(str(card) for card in rules.hand(engine.state_at(ply + 1), viewer))
            seen.append((None, f"{text.split()[0]} {players[viewer]} {own}"))
            continue
        seat = rules.to_move(state)
        private = seat is not None and seat != viewer and rules.is_private(state, move)
        seen.append((None if seat is None else players[seat], None if private else text))
    return seen


def game_of_record(record: GameRecord, path: str) -> Game:
    """A `Game` of a record read from `path` (how a pickled game is loaded: `Game.__reduce__`)."""
    return Game(record, path=path)


# Compiled, a frozen dataclass's own pickling sets its fields one by one, which the frozen guard refuses: these
# pickle through their constructor (diamonds/core/values.py), in either build alike.
copyreg.pickle(Standing, by_constructor)
copyreg.pickle(Diagnostic, by_constructor)
