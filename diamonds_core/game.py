"""`Engine`: a game of any family in progress, with push / pop like python-chess's Board, under the front
door's `Position` (the front door's `Game` is a recorded game: one name, one meaning).

The game is played on its family's mutable table (`Rules.table`); after each
move a frozen state snapshot is kept (unless `history=False`), so going back
any number of steps is a list lookup. Without history, pushing is the fast
path for checking a record: no snapshots, and no events unless asked for.

A game may keep its snapshots only as they are asked for (`snapshot_every`
above 1, as `Position` does): a playout asks whose turn it is and what is
legal at every decision, which a table that answers them itself
(`TurnTable`) does without a snapshot. A snapshot is then made when the
state is read, and at least every `snapshot_every` moves, and a step back to
a move without one replays the moves since the last one kept.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar, cast

from .family import Rules, SideResult, Table, TurnTable
from .registry import DEFAULT_RULES, family_of, rules_for
from .seating import Seating

__all__ = ["Engine", "LAZY_SNAPSHOTS", "events_by_move", "replayed_engine", "split_before"]

E = TypeVar("E")

#: `Position`'s `snapshot_every`: a step back replays at most this many moves, and a playout makes one
#: snapshot in as many moves. Measured on random playouts (compiled, Kirk and 2e): at 32 a playout runs within
#: 3% of one that never keeps a snapshot, at 1 at half to two thirds of its speed.
LAZY_SNAPSHOTS: Final = 32


class Engine:
    def __init__(self, config: Seating, *, history: bool = True, events: bool = True,
                 snapshot_every: int = 1) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every counts moves (1 or more), not {snapshot_every}")
        self.config = config
        self.rules: type[Rules] = rules_for(config.rules)
        initial = self.rules.initial_state(config)
        self.table: Table = self.rules.table(initial, record=events)
        #: Whether the family's table answers whose turn it is and the legal moves itself (a `TurnTable`).
        self._answers = bool(getattr(self.table, "answers_turns", False))
        self._record_events = events
        self._history = history
        self._recording = events or history
        self._every = snapshot_every
        #: The state after each move (index 0: the start); None where no snapshot was made (`snapshot_every`).
        self._states: list[Any] = [initial]
        self._kept = 0  # the last index of `_states` that holds a snapshot
        self._moves: list[Any] = []
        self._events: list[tuple[Any, ...]] = []

    @classmethod
    def create(cls, players: Iterable[str], *, rules: str = DEFAULT_RULES, variants: Iterable[Any] = (),
               dealer: str | int | None = None, options: Mapping[str, str] | None = None) -> Engine:
        """A new game of the rule set `rules` names (any registered family)."""
        return cls(rules_for(rules).configure(players, variants=variants, dealer=dealer, options=options))

    @property
    def state(self) -> Any:
        if self._history:
            state = self._states[-1]
            if state is None:  # not kept at its move (`snapshot_every`): the table is at it now
                state = self._states[-1] = self.table.freeze()
                self._kept = len(self._moves)
            return state
        return self.table.freeze()

    @property
    def snapshot_every(self) -> int:
        """A snapshot is kept at least every this many moves, and whenever the state is read (1: at each)."""
        return self._every

    @property
    def moves(self) -> tuple[Any, ...]:
        return tuple(self._moves)

    @property
    def events(self) -> tuple[tuple[Any, ...], ...]:
        """The events of every move pushed, move by move (none kept with `events=False, history=False`)."""
        return tuple(self._events)

    @property
    def recording(self) -> bool:
        """Whether each move's events or snapshot are kept."""
        return self._recording

    @property
    def history(self) -> bool:
        """Whether a snapshot is kept after each move (to step back); without, a fast path may play on `table`."""
        return self._history

    def legal_moves(self) -> tuple[Any, ...]:
        return self.rules.legal_moves(self.state)

    @property
    def is_over(self) -> bool:
        return self.table.is_over

    @property
    def to_move(self) -> int | None:
        return self.rules.to_move(self.state)

    def seat_to_act(self) -> int | None:
        """The seat to act now: None when the game is over or a chance move is due, which by the family contract
        is when no seat is to move (`Rules.is_chance`). Asked at every decision of a playout (`Position`), so a
        table that answers it is asked without a snapshot; else the rules are asked once on the snapshot."""
        if self._answers:
            return cast(TurnTable, self.table).seat_to_act()
        return self._seat_in(self.state)

    def moves_to_act(self) -> list[Any]:
        """The legal moves of the seat to act (`seat_to_act`), [] where none acts: `Position.legal_moves`."""
        if self._answers:
            return cast(TurnTable, self.table).moves_to_act()
        state = self.state
        seat = self._seat_in(state)
        return [] if seat is None else list(self.rules.moves_of(state, seat))

    def is_chance(self) -> bool:
        """Whether a chance move (a deal) is due (`Rules.is_chance`): no seat acts, and the game is not over."""
        if self._answers:
            table = cast(TurnTable, self.table)
            return not table.is_over and table.seat_to_act() is None
        return self.rules.is_chance(self.state)

    def _seat_in(self, state: Any) -> int | None:
        rules = self.rules
        return None if rules.is_over(state) else rules.to_move(state)

    def standings(self) -> tuple[SideResult, ...]:
        """The sides' results now, final once the game is over, without a snapshot where the family allows."""
        return self.table.standings()

    def push(self, move: Any) -> tuple[Any, ...]:
        """Make a move; raises an `IllegalMove` subclass and changes nothing if it is illegal."""
        events = self.table.apply(move)
        self._moves.append(move)
        if self._recording:
            self._events.append(events)
        if self._history:
            if len(self._moves) - self._kept < self._every:
                self._states.append(None)  # made if asked for (`state`), or replayed for a step back
            else:
                self._states.append(self.table.freeze())
                self._kept = len(self._moves)
        return events

    def apply(self, move: Any) -> tuple[Any, ...]:
        """`push` under its other name (a method, not `apply = push`: mypyc compiles no alias in a class body)."""
        return self.push(move)

    def note_played(self, moves: Iterable[Any], events: Sequence[tuple[Any, ...]] | None = None) -> None:
        """Moves a family's fast path has already made on `table` itself (only without history); a game that
        keeps events takes the events each move caused, move by move (`events_by_move`)."""
        if self._history:
            raise ValueError("a game that keeps history takes its moves through push()")
        if not self._record_events:
            self._moves.extend(moves)
            return
        made = list(moves)
        if events is None or len(events) != len(made):
            raise ValueError(f"{len(made)} moves need as many tuples of events, "
                             f"not {'none' if events is None else len(events)}")
        self._moves.extend(made)
        self._events.extend(events)

    def note_run(self, run: Callable[[], int], moves: Callable[[int], Iterable[Any]], opening: type) -> int:
        """A family fast path's run on `table`: `run()` plays it and returns where it stopped, `moves(end)`
        gives the moves it made, which are noted (`note_played`), with the events each caused where the
        table records them (`events_by_move`, each move's first event being an `opening` one)."""
        table: Any = self.table
        if table.events is None:
            end = run()
            self.note_played(moves(end))
            return end
        table.events = []
        end = run()
        self.note_played(moves(end), events_by_move(table.events, opening))
        return end

    def pop(self) -> Any:
        """Take back the last move."""
        if not self._moves:
            raise IndexError("pop from a game with no moves")
        if not self._history:
            raise ValueError("this game keeps no history (history=False): it cannot step back")
        self._states.pop()
        self._events.pop()
        move = self._moves.pop()
        ply = len(self._moves)
        before = self._states[ply]
        if before is None:  # (not `state_at`: the table is still after the move taken back)
            before = self._replayed_to(ply)
        self._kept = ply
        self.table = self.rules.table(before, record=self._record_events)
        return move

    def copy(self, ply: int | None = None) -> Engine:
        """An independent game with the first `ply` moves (all by default); the frozen states kept are shared,
        not replayed (the state at `ply` is made if none was kept), so it needs history."""
        if not self._history:
            raise ValueError("this game keeps no history (history=False): copy it by replaying its moves")
        ply = len(self._moves) if ply is None else ply
        if not 0 <= ply <= len(self._moves):
            raise IndexError(f"a game of {len(self._moves)} moves has no ply {ply}")
        at = self.state_at(ply)
        # Through __init__ (an initial state made and dropped), not Engine.__new__: a class compiled by mypyc
        # runs __init__ from __new__ (docs/build.md).
        twin = Engine(self.config, history=self._history, events=self._record_events, snapshot_every=self._every)
        twin._states, twin._moves, twin._kept = self._states[:ply + 1], self._moves[:ply], ply
        twin._events = self._events[:ply] if self._record_events else []
        twin.table = self.rules.table(at, record=self._record_events)
        return twin

    def state_at(self, ply: int) -> Any:
        """The state after `ply` moves (0: before the first; -1: now, -2 before the last move, as a list is
        indexed); needs history."""
        given = ply
        if ply < 0:
            ply += len(self._moves) + 1
        if not 0 <= ply <= len(self._moves):
            raise IndexError(f"a game of {len(self._moves)} moves has no ply {given}")
        if not self._history:
            if ply != len(self._moves):
                raise ValueError("this game keeps no history (history=False)")
            return self.table.freeze()
        if ply == len(self._moves):
            return self.state
        state = self._states[ply]
        return self._replayed_to(ply) if state is None else state

    def _replayed_to(self, ply: int) -> Any:
        """The state after `ply` moves where no snapshot was kept (`snapshot_every`): the moves since the last
        snapshot before it played again on a table of that snapshot, keeping a snapshot after each."""
        states, kept = self._states, ply
        while states[kept] is None:
            kept -= 1
        table = self.rules.table(states[kept], record=False)
        for index in range(kept, ply):
            table.apply(self._moves[index])
            states[index + 1] = table.freeze()
        return states[ply]

    def events_at(self, ply: int) -> tuple[Any, ...]:
        """The events of move `ply` (0: the first), without copying the list of every move's (`events`)."""
        return self._events[ply]

    def __len__(self) -> int:
        return len(self._moves)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as its set-up, its options and its moves, which are played again on
        loading: a table and its snapshots are the engine's own, and a compiled engine has no `__dict__`."""
        return (replayed_engine, (self.config, self._history, self._record_events, self._every, tuple(self._moves)))

    def _repr_svg_(self) -> str:
        """Jupyter shows a game as the picture of its table now: the family's picture of its last replay stop.

        The replay and the picture are imported only here, through the registry,
        so the engine itself still imports neither."""
        family = family_of(self.config.rules)
        replay = importlib.import_module("diamonds.replay")
        replayed = replay.ReplayedGame(replay.record_from_game(self), self.config, self)
        last = family.part("steps")(replayed)[-1]
        return str(family.part("picture").svg(last))

    def __repr__(self) -> str:
        players = " ".join(self.config.players)
        return f"<Engine {self.config.rules} [{players}] {len(self._moves)} moves, {self.state.phase.value}>"


def replayed_engine(config: Seating, history: bool, events: bool, snapshot_every: int,
                    moves: Sequence[Any]) -> Engine:
    """An engine with `moves` pushed (how a pickled one is loaded: `Engine.__reduce__`)."""
    engine = Engine(config, history=history, events=events, snapshot_every=snapshot_every)
    for move in moves:
        engine.push(move)
    return engine


def events_by_move(events: Sequence[E], opening: type) -> list[tuple[E, ...]]:
    """A fast path's run of events, split move by move: each move's events begin with one `opening`
    event (a card played), and all that follows it until the next is what that move caused."""
    leading, groups = split_before(events, opening)
    if leading:
        raise ValueError(f"a run's events begin with {type(events[0]).__name__}, not {opening.__name__}")
    return groups


def split_before(events: Sequence[E], kind: type) -> tuple[tuple[E, ...], list[tuple[E, ...]]]:
    """`events` cut before each event of exactly the type `kind`: those before the first such event,
    then one group per such event, holding it and all that follows until the next."""
    starts = [index for index, event in enumerate(events) if type(event) is kind]
    ends = [*starts[1:], len(events)]
    return tuple(events[:starts[0] if starts else len(events)]), [
        tuple(events[start:end]) for start, end in zip(starts, ends)]
