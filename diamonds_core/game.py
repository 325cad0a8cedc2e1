"""`Game`: a game in progress, with push / pop like python-chess's Board.

The game is played on one mutable `Table`; after each move a frozen `State`
snapshot is kept (unless `history=False`), so going back any number of steps
is a list lookup. Without history, pushing is the fast path for checking a
record: no snapshots, and no events unless asked for.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .config import GameConfig, Variant
from .events import Event, SideResult
from .fitzgerald import Table, results_of
from .moves import _PLAY_CARD, Move, PlayCard
from .rulesets import rule_set
from .cards import Card
from .state import PendingVictim, Phase, State

__all__ = ["Game"]

_PLAY = Phase.PLAY


class Game:
    def __init__(self, config: GameConfig, *, history: bool = True, events: bool = True) -> None:
        self.config = config
        self._rules = rule_set(config.rules)
        initial = self._rules.initial_state(config)
        self._table = Table(initial, record=events)
        self._history = history
        self._recording = events or history
        self._states: list[State] = [initial]
        self._moves: list[Move] = []
        self._events: list[tuple[Event, ...]] = []

    @classmethod
    def create(cls, players: Iterable[str], *, rules: str = "2e",
               variants: Iterable[Variant | str] = (), dealer: str | int | None = None) -> "Game":
        return cls(rule_set(rules).configure(players, variants=variants, dealer=dealer))

    @property
    def state(self) -> State:
        if self._history:
            return self._states[-1]
        return self._table.freeze()

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def events(self) -> tuple[tuple[Event, ...], ...]:
        """The events of every move pushed, move by move (none kept with `events=False, history=False`)."""
        return tuple(self._events)

    def legal_moves(self) -> tuple[Move, ...]:
        return self._rules.legal_moves(self.state)

    # Cheap views of the table, for callers that must not pay for a snapshot.

    @property
    def is_over(self) -> bool:
        return self._table.phase is Phase.GAME_OVER

    @property
    def phase(self) -> Phase:
        return self._table.phase

    @property
    def round_no(self) -> int:
        return self._table.round_no

    @property
    def dealer(self) -> int:
        return self._table.dealer

    @property
    def pending(self) -> PendingVictim | None:
        return self._table.pending

    def standings(self) -> tuple[SideResult, ...]:
        """`results(game.state)` without making a snapshot (R18)."""
        return results_of(self.config, self._table.showroom, self._table.vault)

    def holds(self, seat: int, card: Card) -> bool:
        return card in self._table.hands[seat]

    def push(self, move: Move) -> tuple[Event, ...]:
        """Make a move; raises an `IllegalMove` subclass and changes nothing if it is illegal."""
        events = self._table.apply(move)
        self._moves.append(move)
        if self._recording:
            self._events.append(events)
        if self._history:
            self._states.append(self._table.freeze())
        return events

    apply = push

    def play_cards(self, cards: Sequence[Card], start: int = 0) -> int:
        """Play `cards[start:]` in order while a card is due; the index after the last one played.

        The fast path for checking a record: one call per trick line instead of
        one `push` per card. It stops early where a decision is due (a Clubs
        victim, R14) or where the game moves on (a new round). A refused card
        raises its `IllegalMove`; the cards before it stay played, so
        `len(game)` tells how far it got.
        """
        table = self._table
        if self._recording:  # events and snapshots are kept move by move
            index = start
            while index < len(cards) and table.phase is _PLAY:
                self.push(PlayCard.of(cards[index]))
                index += 1
            return index
        index = table.play_run(cards, start)
        self._moves.extend(map(_PLAY_CARD.__getitem__, cards[start:index]))
        if index < len(cards) and table.phase is _PLAY:
            table.refuse_play(cards[index])
        return index

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._moves:
            raise IndexError("pop from a game with no moves")
        if not self._history:
            raise ValueError("this game keeps no history (history=False): it cannot step back")
        self._states.pop()
        self._events.pop()
        self._table = Table(self._states[-1], record=self._table.events is not None)
        return self._moves.pop()

    def state_at(self, ply: int) -> State:
        """The state after `ply` moves (0: before the first); needs history."""
        if not self._history and ply != len(self._moves):
            raise ValueError("this game keeps no history (history=False)")
        return self._states[ply] if self._history else self._table.freeze()

    def __len__(self) -> int:
        return len(self._moves)

    def __repr__(self) -> str:
        players = " ".join(self.config.players)
        return f"<Game {self.config.rules} [{players}] {len(self._moves)} moves, {self.state.phase.value}>"
