"""What the families' fast-table tests share: refusals compared by type, message and data fields,
a random game played by the pure path and the fast tables side by side, and the check path against
the full replay on records with a trick line corrupted."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from diamonds.core.errors import IllegalMove

__all__ = ["refusal", "pure_refusal", "check_game", "problems_of", "corrupted", "check_path_matches"]


def refusal(error: IllegalMove) -> tuple[Any, ...]:
    return type(error), error.args, sorted(vars(error).items(), key=lambda kv: kv[0])


def pure_refusal(rules: Any, state: Any, move: Any) -> tuple[Any, ...] | None:
    """How the pure `apply` refuses `move` here; None where it accepts it."""
    try:
        rules.apply(state, move)
    except IllegalMove as error:
        return refusal(error)
    return None


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
        for bad in illegal_moves(state, rng):
            expected = pure_refusal(rules, state, bad)
            if expected is None:
                continue
            for each in (table, quiet):
                with pytest.raises(IllegalMove) as raised:
                    each.apply(bad)
                assert refusal(raised.value) == expected, (seed, moves, bad)
                assert each.freeze() == state
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


def corrupted(text: str, rng: random.Random, token: Callable[[random.Random], str]) -> str:
    """The record with two cards of a trick line swapped, one dropped, or one changed (to `token(rng)`)."""
    lines = text.split("\n")
    tricks = [i for i, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    index = rng.choice(tricks)
    number, _, rest = lines[index].partition(" ")
    tokens = rest.split(" ")
    how = rng.randrange(5)
    if how == 0:
        i, j = rng.sample(range(len(tokens)), 2)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif how == 1:
        del tokens[rng.randrange(len(tokens))]
    else:
        tokens[rng.randrange(len(tokens))] = token(rng)
    lines[index] = " ".join([number, *tokens])
    return "\n".join(lines)


def check_path_matches(game: Any, seed: int, token: Callable[[random.Random], str]) -> None:
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
            bad = corrupted(text, rng, token)
            assert problems_of(validate_record(parse_game(bad))) == problems_of(replay_record(parse_game(bad))), bad
