"""`ismcts` (bots/ismcts.py): legal moves only in every family, the same seed the same game, and the exact
solver's choice where the player's view leaves one world (a Clubs victim once every card is played, R14).
Its strength against `mc` is measured in docs/bots.md (arenas too slow for this tier); it never peeks
(tests/bots/test_no_peeking.py plays it on twin positions)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tables import TABLES, new_position, play, table_id

import diamonds
from diamonds.bots import family_bot, make_bot, table_of
from diamonds.bots.arena import ArenaSetup, play_game
from diamonds.bots.ismcts import ISMCTSBot
from diamonds.bots.solver import Solver


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_ismcts_plays_only_legal_moves(table) -> None:
    rules, players, variants = table
    bots = [make_bot("ismcts:2" if seat == 0 else "greedy", seed=seat) for seat in range(players)]
    play(new_position(rules, players, variants), bots, random.Random(5), stop_after=120)


def test_a_seed_fixes_the_game() -> None:
    setup = ArenaSetup("kirk", 4, ("ismcts:2", "greedy", "ismcts:2", "greedy"), 3, options={"Hands": "1"})
    first, again = play_game(setup, 0), play_game(setup, 0)
    assert first.text == again.text
    other = play_game(ArenaSetup("kirk", 4, setup.bots, 4, options={"Hands": "1"}), 0)
    assert other.text != first.text


def test_the_budget_is_a_count_of_worlds() -> None:
    assert make_bot("ismcts:40").iterations == 40 and make_bot("ismcts").iterations == ISMCTSBot().iterations
    for spec in ("ismcts:0", "ismcts:x", "greedy:3"):
        with pytest.raises(ValueError):
            make_bot(spec)


def one_world_victims(count: int) -> list[tuple[diamonds.Position, object]]:
    """1e positions (3 players, greedy play) where the victim's choice is due, the view leaves one world and
    the victims' exact values differ: with the solver's best victim."""
    found = []
    for seed in range(12):
        rng = random.Random(seed)
        pos = new_position("1e", 3, dealer=seed % 3)
        bots = [make_bot("greedy", seed=s) for s in range(3)]
        while not pos.is_over and len(found) < count:
            if pos.is_chance:
                pos.deal(rng)
                continue
            seat = pos.to_move_seat
            view = pos.view(seat)
            if len(view.legal_moves) > 1 and pos.text(view.legal_moves[0]).startswith(">"):
                table, fam = table_of(view), family_bot("1e")
                world = fam.determinise(table, random.Random(1))
                solver = Solver(pos.rule_set)
                if world == fam.determinise(table, random.Random(2)) and solver.applies(world):
                    ranked = solver.solve_state(world).ranked()
                    if ranked[0][1] > ranked[1][1]:
                        found.append((pos.copy(), ranked[0][0]))
            pos.push(bots[seat].choose(view))
        if len(found) >= count:
            break
    return found


def test_where_the_view_leaves_one_world_the_solver_decides() -> None:
    found = one_world_victims(3)
    assert len(found) == 3
    for position, best in found:
        view = position.view(position.to_move_seat)
        for seed in range(3):
            assert make_bot("ismcts:2", seed=seed).choose(view) == best


class _Recording:
    """A rule set that records every move its `apply` is given, with the seat it was due from."""

    def __init__(self, rules: object) -> None:
        self._rules = rules
        self.applied: list[tuple[object, int, object]] = []

    def apply(self, state, move):  # type: ignore[no-untyped-def]
        self.applied.append((state, self._rules.to_move(state), move))
        return self._rules.apply(state, move)

    def __getattr__(self, name: str) -> object:
        return getattr(self._rules, name)


@pytest.mark.parametrize("rules_id, players", [("kirk", 4), ("2e", 4), ("bidding", 3)])
def test_with_greedy_others_the_other_sides_answer_in_the_tree_as_the_playouts_do(rules_id, players,
                                                                                  monkeypatch) -> None:
    """`greedy_others`: below the root, every move of another side is greedy's move in that world; without it,
    the tree tries other replies too."""
    import diamonds.bots.ismcts as ismcts_module

    rng = random.Random(4)
    pos = new_position(rules_id, players)
    fam = family_bot(rules_id)
    while True:  # a decision the tree searches: a few moves, in a phase the family samples
        if pos.is_chance:
            pos.deal(rng)
            continue
        view = pos.view(pos.to_move_seat)
        table = table_of(view)
        if 4 <= len(view.legal_moves) <= 24 and fam.determinise(table, random.Random(0)) is not None:
            break
        pos.push(fam.greedy(pos.rule_set, table.state, table.seat, rng))
    root_seat = view.viewer_seat
    found = {}
    real = ismcts_module.table_of
    for greedy_others in (True, False):
        recording = _Recording(table_of(view).rules)
        monkeypatch.setattr(ismcts_module, "table_of", lambda v, rec=recording: dataclasses.replace(real(v), rules=rec))
        ISMCTSBot(1, iterations=24, leaf_tricks=0, greedy_others=greedy_others).choose(view)
        others = 0
        for state, seat, move in recording.applied:
            sides = state.config.side_of
            if len(recording.moves_of(state, seat)) == 1:
                continue
            if sides[seat] != sides[root_seat]:
                others += move != fam.greedy(recording, state, seat, random.Random(0))
        found[greedy_others] = others
    assert found[True] == 0
    assert found[False] > 0
