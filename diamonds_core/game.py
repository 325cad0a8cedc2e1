"""`Game`: a game in progress, with push / pop over immutable states.

Like python-chess's Board move stack, but each step keeps the whole frozen
state, so going back any number of steps is a list lookup.
"""

from __future__ import annotations

from typing import Iterable

from .config import GameConfig, Variant
from .events import Event
from .moves import Move
from .rulesets import rule_set
from .state import State

__all__ = ["Game"]


class Game:
    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self._rules = rule_set(config.rules)
        self._states: list[State] = [self._rules.initial_state(config)]
        self._moves: list[Move] = []
        self._events: list[tuple[Event, ...]] = []

    @classmethod
    def create(cls, players: Iterable[str], *, rules: str = "2e",
               variants: Iterable[Variant | str] = (), dealer: str | int | None = None) -> "Game":
        return cls(rule_set(rules).configure(players, variants=variants, dealer=dealer))

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def events(self) -> tuple[tuple[Event, ...], ...]:
        """The events of every move pushed, move by move."""
        return tuple(self._events)

    def legal_moves(self) -> tuple[Move, ...]:
        return self._rules.legal_moves(self.state)

    def push(self, move: Move) -> tuple[Event, ...]:
        """Apply a move; raises an `IllegalMove` subclass and changes nothing if it is illegal."""
        state, events = self._rules.apply(self.state, move)
        self._states.append(state)
        self._moves.append(move)
        self._events.append(events)
        return events

    apply = push

    def pop(self) -> Move:
        """Undo the last move."""
        if not self._moves:
            raise IndexError("pop from a game with no moves")
        self._states.pop()
        self._events.pop()
        return self._moves.pop()

    def state_at(self, ply: int) -> State:
        """The state after `ply` moves (0: before the first)."""
        return self._states[ply]

    def __len__(self) -> int:
        return len(self._moves)

    def __repr__(self) -> str:
        players = " ".join(self.config.players)
        return f"<Game {self.config.rules} [{players}] {len(self._moves)} moves, {self.state.phase.value}>"
