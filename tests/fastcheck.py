"""What the families' fast-table tests share: refusals compared by type, message and data fields,
a random game played by the pure path and the fast tables side by side, and the check path against
the full replay on records with a trick line corrupted."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from diamonds.core.errors import IllegalMove

__all__ = ["refusal", "pure_refusal", "check_refusals", "apply_all", "check_refusals_along", "check_play_run",
           "check_game", "problems_of", "swap_drop_or_change", "corrupted",
           "check_path_matches"]


def refusal(error: IllegalMove) -> tuple[Any, ...]:
    return type(error), error.args, sorted(vars(error).items(), key=lambda kv: kv[0])


def pure_refusal(rules: Any, state: Any, move: Any) -> tuple[Any, ...] | None:
    """How the pure `apply` refuses `move` here; None where it accepts it."""
    try:
        rules.apply(state, move)
    except IllegalMove as error:
        return refusal(error)
    return None


def check_refusals(rules: Any, state: Any, table: Any, moves: Iterable[Any], *why: Any) -> None:
    """Each of `moves` the pure path refuses here, the table refuses alike (type, message, data fields),
    and is left as it was; the moves the pure path accepts are skipped. `why`: said with a failure."""
    for move in moves:
        expected = pure_refusal(rules, state, move)
        if expected is None:
            continue
        with pytest.raises(IllegalMove) as raised:
            table.apply(move)
        assert refusal(raised.value) == expected, (*why, move)
        assert table.freeze() == state


def apply_all(rules: Any, state: Any, move: Any, *tables: Any) -> Any:
    """The state after `move` by the pure path; the tables make it too."""
    state, _ = rules.apply(state, move)
    for table in tables:
        table.apply(move)
    return state


def check_refusals_along(rules: Any, configs: Iterable[Any], moves: list[Any], playing: Any, chance: float,
                         rng: random.Random) -> None:
    """A random game of each config made by the pure path and a quiet table alike; at positions of phase
    `playing` (a `chance` of them), `moves` refused alike (`check_refusals`)."""
    for config in configs:
        state = rules.initial_state(config)
        table = rules.table(state, record=False)
        while not rules.is_over(state):
            if state.phase is playing and rng.random() < chance:
                check_refusals(rules, state, table, moves)
            state = apply_all(rules, state, rules.random_move(state, rng), table)
            assert table.freeze() == state


def check_play_run(rules: Any, state: Any, table: Any, loud: Any, plays: list[Any], playing: Any,
                   rng: random.Random, move_of: Callable[[Any], Any] = lambda play: play) -> Any:
    """A quiet and a recording table make a run of plays (`play_run`) from `state`, a position of phase
    `playing` (each play the move `move_of(play)` of the pure path): both stop where the pure path first
    refuses, with its events and state; then the hand is finished by random moves (of `rng`). The state
    at the end of the hand."""
    stopped = table.play_run(plays, 0)
    assert loud.events is not None
    loud.events.clear()
    assert loud.play_run(plays, 0) == stopped
    index = 0
    events: list[Any] = []
    while index < len(plays) and state.phase is playing:  # the pure path, play by play
        move = move_of(plays[index])
        if pure_refusal(rules, state, move) is not None:
            break
        state, caused = rules.apply(state, move)
        events += caused
        index += 1
    assert stopped == index
    assert loud.events == events
    assert table.freeze() == state == loud.freeze()
    while state.phase is playing:  # stopped at a wrong play: finish the hand play by play
        state = apply_all(rules, state, rules.random_move(state, rng), table, loud)
    assert table.freeze() == state == loud.freeze()
    return state


def check_game(rules: Any, config: Any, table_type: type, seed: int,
               illegal_moves: Callable[[Any, random.Random], list[Any]]) -> int:
    """A random game by the pure path, and a recording and a quiet fast table alongside it: after every
    move the same state, events and standings; every refused move (of `illegal_moves`) refused alike,
    leaving the tables as they were. The number of moves made."""
    rng = random.Random(seed)
    state = rules.initial_state(config)
    table = rules.table(state)
    quiet = rules.table(state, record=False)
    assert isinstance(table, table_type) and isinstance(quiet, table_type)
    moves = 0
    while True:
        bad = illegal_moves(state, rng)
        for each in (table, quiet):
            check_refusals(rules, state, each, bad, seed, moves)
        if rules.is_over(state):
            assert table.is_over and quiet.is_over
            break
        move = rules.random_move(state, rng)
        state, events = rules.apply(state, move)
        assert table.apply(move) == events, (seed, moves, move)
        assert quiet.apply(move) == ()
        assert table.freeze() == state == quiet.freeze(), (seed, moves, move)
        assert table.standings() == rules.standings(state) == quiet.standings()
        assert table.is_over == rules.is_over(state)
        moves += 1
    return moves


def problems_of(replayed: Any) -> tuple[Any, ...]:
    return (tuple((p.pos, p.message, p.code, p.rule, p.length) for p in replayed.problems),
            tuple(replayed.notes), replayed.valid, replayed.complete)


#: A change to the tokens of a trick line (its plays, after the number), made in place with the random source.
Change = Callable[[list[str], random.Random], None]


def swap_drop_or_change(token: Callable[[random.Random], str]) -> Change:
    """Two cards of a trick line swapped, one dropped, or one changed (to `token(rng)`)."""
    def change(tokens: list[str], rng: random.Random) -> None:
        how = rng.randrange(5)
        if how == 0:
            i, j = rng.sample(range(len(tokens)), 2)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif how == 1:
            del tokens[rng.randrange(len(tokens))]
        else:
            tokens[rng.randrange(len(tokens))] = token(rng)
    return change


def corrupted(text: str, rng: random.Random, change: Change) -> str:
    """The record with a trick line, chosen at random, changed by `change`."""
    lines = text.split("\n")
    tricks = [i for i, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    index = rng.choice(tricks)
    number, _, rest = lines[index].partition(" ")
    tokens = rest.split(" ")
    change(tokens, rng)
    lines[index] = " ".join([number, *tokens])
    return "\n".join(lines)


def check_path_matches(game: Any, seed: int, change: Change) -> None:
    """`validate_record` (the check path, `play_run` over a hand's tricks) and the full replay report
    the same problems and notes on the game's record, with and without deals, and on corrupted copies."""
    from diamonds.notation import parse_game
    from diamonds.notation.writer import write_game
    from diamonds.replay import record_from_game, replay_record, validate_record

    rng = random.Random(seed)
    for deals in (True, False):
        text = write_game(record_from_game(game, deals=deals))
        assert problems_of(validate_record(parse_game(text))) == problems_of(replay_record(parse_game(text)))
        for _ in range(4):
            bad = corrupted(text, rng, change)
            assert problems_of(validate_record(parse_game(bad))) == problems_of(replay_record(parse_game(bad))), bad
