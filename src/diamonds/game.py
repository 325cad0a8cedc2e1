"""`Game`: one recorded game, read from DGN and replayed through its family's rules (python-chess's `pgn.Game`).

`read_games(path or handle)` yields every game of a file, invalid ones too
(their `problems` say why, as `validate` does); `read_game(handle)` the next
one, or None at the end. A game's positions are `Position`s: step through
them, ask for the legal moves at any of them, or continue playing from one.
"""

from __future__ import annotations

import io
import os
import weakref
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, TextIO

from diamonds.core import Game as EngineGame
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.reader import game_texts, parse_game
from diamonds.notation.records import GameRecord, Problem
from diamonds.notation.writer import write_game
from diamonds.replay.steps import PositionError, Step, find_position, steps_of
from diamonds.replay.validate import ReplayedGame, replay_record

from .position import Move, Position

__all__ = ["Game", "Diagnostic", "read_games", "read_game", "position_svg", "public_moves"]


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
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.path}:{self.line}:{self.column}: {self.message}{rule}"


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

    @classmethod
    def from_text(cls, text: str, *, path: str = "<string>") -> "Game":
        """The first game of a DGN text."""
        return cls(parse_game(text), path=path)

    @classmethod
    def from_position(cls, position: Position, *, tags: Mapping[str, str] | None = None) -> "Game":
        """The record of a position's moves so far (deal lines included), as a game."""
        from diamonds.replay import record_from_game

        record = record_from_game(position.engine, tags=tuple((tags or {}).items()))
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
        from diamonds.core import DEFAULT_RULES

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
        position = self.start()
        found = [position.copy()]
        for move in self.moves:
            position.push(move)
            found.append(position.copy())  # shares the frozen states: each copy costs a list, not a replay
        return found

    def at(self, label: str) -> Position:
        """The position at a label of `replay --at`: R2.7 (after trick 7 of round 2), R2.7.3, R2.0, R2.end, start, end.

        `PositionError` (a ValueError) names what is not in this game."""
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
    if isinstance(source, (str, os.PathLike)):
        path = path or os.fspath(source)
        from .io.text import open_text  # the one text opener: BOMs, encodings, an undecodable byte located

        with open_text(path, encoding) as handle:
            yield from _games(handle, path)
        return
    yield from _games(source, path or getattr(source, "name", "<stream>"))


def _games(handle: TextIO | Iterable[str], path: str) -> Iterator[Game]:
    for index, first_line, text in game_texts(handle):
        yield Game(parse_game(text, first_line=first_line, index=index), path=path)


_READERS: "weakref.WeakKeyDictionary[Any, Iterator[Game]]" = weakref.WeakKeyDictionary()


def read_game(handle: TextIO) -> Game | None:
    """The next game of an open text handle, or None at its end (python-chess's `read_game`)."""
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
    from diamonds.replay import record_from_game
    from diamonds.svg import step_svg

    engine = position.engine
    replayed = ReplayedGame(record_from_game(engine), engine.config, engine)
    last = steps_of(replayed)[-1]
    return step_svg(last, as_player) if size is None else step_svg(last, as_player, size=size)


def public_moves(position: Position, viewer: int) -> list[tuple[str | None, str | None]]:
    """The moves of a position as `viewer` saw them: (who acted, text), text None where it was hidden."""
    seen: list[tuple[str | None, str | None]] = []
    replay = Position.from_engine(EngineGame(position.config))
    for move in position.moves:
        who = replay.to_move
        if replay.is_chance:
            hand = replay.rule_set.hand
            replay.push(move)
            own = " ".join(str(card) for card in hand(replay.state, viewer))
            seen.append((None, f"deal {position.players[viewer]} {own}"))
            continue
        text = replay.text(move)
        private = who is not None and who != position.players[viewer] and replay.rule_set.is_private(replay.state, move)
        seen.append((who, None if private else text))
        replay.push(move)
    return seen
