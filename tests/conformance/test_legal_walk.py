"""A game's moves are a legal walk: each move of `game.moves` is legal in the position before it.

For every game read, samples and simulated games of every rule set, written with and without deal
lines, and with each round's pass lines in another order than the engine takes them: passes are made
at once (R6), and the `Position` takes them in seat order from the dealer's left, so the record's
order of pass lines does not reach `game.moves`. `is_legal`, `legal_moves` and what `push` accepts
agree at every position (a move refused by `push` is never listed).
"""

from __future__ import annotations

import dataclasses
import glob
import random
import re
from typing import Any

import pytest

import diamonds
from diamonds.core import IllegalMove
from diamonds.core.simulate import simulate

SAMPLES = sorted(glob.glob("samples/*.dgn"))
SIMULATED = [("1e", 2), ("1e", 3), ("1e", 4), ("2e", 3), ("2e", 5), ("2e", 6), ("bga", 2), ("bga", 5),
             ("kirk", 4), ("bidding", 3)]


def _without_deal_lines(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("deal "))


def _passes_reversed(text: str) -> str:
    """Each round's run of pass lines in the reverse of its written order (DGN lets them come in any)."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    run: list[str] = []
    for line in lines:
        if line.startswith("pass ") and not re.match(r"pass \d", line):
            run.append(line)
            continue
        out.extend(reversed(run))
        run = []
        out.append(line)
    out.extend(reversed(run))
    return "".join(out)


def _walk(game: diamonds.Game) -> int:
    """Push every move of `game` into a fresh start, asserting it is legal there; the count of moves checked."""
    pos = game.start()
    checked = 0
    for move in game.moves:
        if not pos.is_chance:
            legal = pos.legal_moves
            assert move in legal, (pos.label, pos.to_move, pos.text(move))
            assert pos.is_legal(move)
            _refuses_the_unlisted(pos, legal)
            checked += 1
        pos.push(move)
    assert pos == game.end()
    return checked


def _refuses_the_unlisted(pos: diamonds.Position, legal: list[Any]) -> None:
    """A move of another seat of the same kind (another player's pass) is not listed, and `push` refuses it."""
    seat = getattr(legal[0], "seat", None)
    if seat is None:
        return
    for other in range(len(pos.players)):
        if other == seat:
            continue
        move = dataclasses.replace(legal[0], seat=other)
        if move in legal:
            continue
        length = len(pos)
        with pytest.raises(IllegalMove):
            pos.push(move)
        assert len(pos) == length and not pos.is_legal(move)


def _simulated(rules: str, players: int, seed: int) -> str:
    engine = simulate(players, rules=rules, seed=seed)
    return str(diamonds.Position.from_engine(engine).game())


@pytest.mark.parametrize("path", SAMPLES)
def test_every_move_of_a_sample_is_legal_in_the_position_before_it(path: str) -> None:
    text = open(path, encoding="utf-8").read()
    for variant in (text, _passes_reversed(text), _without_deal_lines(_passes_reversed(text))):
        for game in diamonds.read_games([line + "\n" for line in variant.split("\n")], path=path):
            if game.is_valid:
                assert _walk(game) > 0 or not game.moves


@pytest.mark.parametrize(("rules", "players"), SIMULATED)
def test_every_move_of_a_simulated_game_is_legal_in_the_position_before_it(rules: str, players: int) -> None:
    for seed in range(2):
        text = _simulated(rules, players, seed)
        for variant in (text, _without_deal_lines(text), _passes_reversed(text),
                        _without_deal_lines(_passes_reversed(text))):
            game = diamonds.Game.from_text(variant)
            assert game.is_valid, [str(problem) for problem in game.problems]
            assert game.is_complete
            assert _walk(game) > 0


def test_pass_lines_in_any_order_give_the_same_moves() -> None:
    """R6: the record's order of pass lines is not the engine's; the moves are the same either way."""
    for seed in range(3):
        text = _simulated("2e", 4, seed)
        shuffled = _passes_reversed(text)
        assert shuffled != text
        assert diamonds.Game.from_text(shuffled).moves == diamonds.Game.from_text(text).moves


def test_a_pass_out_of_seat_order_is_not_legal_and_push_refuses_it() -> None:
    rng = random.Random(3)
    pos = diamonds.Position("2e", ["Ann", "Bob", "Cat"], dealer="Ann")
    pos.deal(rng)
    pos.push_text("pass 2")
    assert pos.to_move == "Bob"  # the dealer's left passes first (R6)
    cat = pos.hand("Cat")
    move = pos.parse(f"pass Cat {cat[0]} {cat[1]}")
    assert not pos.is_legal(move) and move not in pos.legal_moves
    with pytest.raises(IllegalMove) as info:
        pos.push(move)
    assert info.value.rule == "R6" and info.value.player == "Cat"
    assert {getattr(m, "seat", None) for m in pos.legal_moves} == {1}


@pytest.mark.parametrize(("rules", "players"), SIMULATED)
def test_one_seats_moves_are_its_legal_moves_and_a_one_seat_game_keeps_its_promise(rules: str, players: int) -> None:
    """`moves_of(state, seat)` is the legal moves naming that seat (or no seat) at every decision of a random
    game, and nobody else's; a rule set that says no seats decide at once (`decides_at_once = False`, which
    skips that filter) lists no move naming another seat."""
    rng = random.Random(5)
    pos = diamonds.Position(rules, [f"P{seat}" for seat in range(players)], dealer=0)
    rule_set, decisions = pos.rule_set, 0
    while not pos.is_over:
        if pos.is_chance:
            pos.deal(rng)
            continue
        state, seat = pos.state, pos.to_move_seat
        assert seat is not None
        everyone = rule_set.legal_moves(state)
        mine = [move for move in everyone if getattr(move, "seat", seat) == seat]
        assert list(rule_set.moves_of(state, seat)) == mine
        assert not any(rule_set.moves_of(state, other) for other in range(players) if other != seat)
        if not rule_set.decides_at_once:
            assert list(everyone) == mine, (pos.label, pos.to_move)
        decisions += 1
        pos.push(rng.choice(pos.legal_moves))
    assert decisions > 0
