"""The end-of-round solver against a brute force: every play sequence enumerated through `Position`
(push, pop, legal_moves, standings), no memo, no shortcut, exact fractions; the same max-n values."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from tables import new_position

import diamonds
from diamonds.bots.solver import MAX_NODES, MAX_TRICKS, Solver, exact, tricks_left
from diamonds.core.family import Rules

#: (rules, players, variants, options): every family, two sides and more, partnerships
SOLVED = [
    ("2e", 4, (), None), ("1e", 3, (), None), ("kirk", 4, (), None), ("kirk", 4, (), {"Hands": "1"}),
    ("bidding", 3, (), None), ("2e", 2, (), None), ("2e", 4, ("partnership",), None), ("bga", 5, (), None),
    ("2e", 5, (), None), ("2e", 6, (), None), ("kirk", 4, (), {"Target": "60"}),
]


def relative(position: Any) -> list[Fraction]:
    """Per side: its score less the mean of the other sides' (as mc counts), exactly."""
    scores = [standing.score for standing in position.standings]
    others = len(scores) - 1
    return [Fraction(score) - Fraction(sum(scores) - score, others) for score in scores]


def brute(position: Any) -> list[Fraction]:
    """Max-n by plain enumeration: each side takes its best child, the first in legal order on a tie;
    the leaves are the round's end (a deal due, or the game over)."""
    if position.is_over or position.is_chance:
        return relative(position)
    side = position.config.side_of[position.to_move_seat]
    best = None
    for move in position.legal_moves:
        position.push(move)
        child = brute(position)
        position.pop()
        if best is None or child[side] > best[side]:
            best = child
    assert best is not None
    return best


def brute_values(position: Any) -> list[tuple[Any, Fraction]]:
    side = position.config.side_of[position.to_move_seat]
    base = relative(position)[side]
    values = []
    for move in position.legal_moves:
        position.push(move)
        values.append((move, brute(position)[side] - base))
        position.pop()
    return values


def end_position(rules: str, players: int, variants: tuple[str, ...], options: Any, seed: int,
                 max_tricks: int) -> Any:
    """A random decision with at most `max_tricks` tricks left (often mid-trick, sometimes a victim)."""
    rng = random.Random(f"{rules}:{players}:{seed}")
    while True:
        position = new_position(rules, players, variants, dealer=seed % players, options=options)
        per_trick = position.config.plays_per_trick
        stop = rng.randint(2, max_tricks * per_trick)  # cards still held
        while not position.is_over:
            if position.is_chance:
                position.deal(rng)
            elif sum(len(position.hand(seat)) for seat in range(players)) <= stop and len(position.legal_moves) > 1:
                return position
            else:
                position.push(rng.choice(position.legal_moves))


@pytest.mark.parametrize("table", SOLVED, ids=lambda t: "-".join([t[0], str(t[1]), *t[2], *(t[3] or {})]))
def test_solver_matches_brute_force(table) -> None:
    rules, players, variants, options = table
    # without a memo, the bigger trees (no duty to follow in Kirk's game, two cards a trick with two players,
    # five players) take minutes to enumerate: two tricks at most there, three elsewhere
    max_tricks = 2 if rules == "kirk" or players in (2, 5, 6) else 3
    # Kirk's solver key drops the piles' order below what a tie-break may read (K5): more endings there
    for seed in range(30 if rules == "kirk" else 10):
        position = end_position(rules, players, variants, options, seed, max_tricks)
        solution = exact(position, Solver(position.rule_set))
        assert solution is not None, position
        expected = brute_values(position)
        assert [move for move, _ in solution.values] == [move for move, _ in expected] == position.legal_moves
        for (move, value), (_, truth) in zip(solution.values, expected, strict=True):
            assert value == pytest.approx(float(truth), abs=1e-9), (position, position.text(move))
        ranked = solution.ranked()
        assert ranked[0][1] == max(value for _, value in solution.values)


@pytest.mark.parametrize("table", [("2e", 2, ()), ("1e", 2, ("perfect",)), ("2e", 4, ("partnership",))],
                         ids=["2e-2", "1e-2-perfect", "2e-4-partnership"])
def test_two_sides_alpha_beta_finds_the_max_n_values(table) -> None:
    rules, players, variants = table
    for seed in range(6):
        position = end_position(rules, players, variants, None, 100 + seed, 3)
        pruned = exact(position, Solver(position.rule_set))
        plain = exact(position, Solver(position.rule_set, prune=False))
        assert pruned is not None and plain is not None
        assert pruned.values == plain.values, position


def test_the_last_round_ends_the_game() -> None:
    position = end_position("kirk", 4, (), {"Hands": "1"}, 1, 2)
    solver = Solver(position.rule_set)
    solution = exact(position, solver)
    assert solution is not None and solution.nodes > 0
    again = exact(position, solver)  # the memo answers the same decision at no cost
    assert again is not None and again.values == solution.values and again.nodes == 0


def test_declines_more_than_four_tricks_and_a_tree_over_budget() -> None:
    rng = random.Random(3)
    position = new_position("2e", 4)
    position.deal(rng)
    while position.to_move_seat is None or tricks_left(position.rule_set, position.state) > MAX_TRICKS + 1:
        position.push(rng.choice(position.legal_moves)) if not position.is_chance else position.deal(rng)
    assert exact(position) is None  # five tricks left
    while tricks_left(position.rule_set, position.state) > MAX_TRICKS or position.to_move_seat is None:
        position.push(rng.choice(position.legal_moves))
    assert exact(position, Solver(position.rule_set, max_nodes=10)) is None
    assert exact(position) is not None


def test_a_round_without_deal_lines_is_solved_from_its_inferred_hands() -> None:
    game = next(diamonds.read_games("samples/bidding-3p-no-deals.dgn"))
    position = game.at("R1.7")  # three tricks left; the hands were inferred from the plays
    solution = exact(position)
    assert solution is not None
    assert [value for _, value in solution.values] == pytest.approx([float(v) for _, v in brute_values(position)])


#: the tables whose family has a fast `Endgame` the solver searches in place, with three sides or more
FAST = [("kirk", 4, None), ("2e", 5, None), ("2e", 6, None), ("bga", 5, None), ("1e", 3, None), ("kirk", 4, {"Hands": "1"})]


@pytest.mark.parametrize("table", FAST, ids=lambda t: "-".join([t[0], str(t[1]), *(t[2] or {})]))
def test_fast_endgame_and_plain_path_agree_on_four_tricks(table) -> None:
    """The fast path (the family's `Endgame`, played in place) against the plain one (a state per move
    through `apply`), with four tricks left: the same values. (Kirk's from the lead of the fourth trick
    from the end take the plain path a minute; from its third or fourth card seconds.)"""
    rules, players, options = table
    rng = random.Random(11)
    for seed in range(3 if rules == "kirk" else 2):
        position = end_position(rules, players, (), options, 200 + seed, MAX_TRICKS)
        while tricks_left(position.rule_set, position.state) < MAX_TRICKS:
            position.pop()
        if rules == "kirk":
            played = rng.choice((2, 3))
            while len(position.state.trick) != played:
                position.push(rng.choice(position.legal_moves)) if len(position.state.trick) < played else position.pop()
        else:  # from the trick's lead, to the first choice
            while position.to_move_seat is None or len(position.legal_moves) < 2:
                position.push(position.legal_moves[0])
        assert position.rule_set.endgame(position.state) is not None
        fast = exact(position, Solver(position.rule_set, max_nodes=None))
        plain = exact(position, Solver(position.rule_set, max_nodes=None, fast=False))
        assert fast is not None and plain is not None
        assert fast.values == plain.values, position


@pytest.mark.parametrize("table", FAST, ids=lambda t: "-".join([t[0], str(t[1]), *(t[2] or {})]))
def test_the_endgame_stands_for_the_engine_s_states(table) -> None:
    """Along a random play of whole rounds, the family's `Endgame` (played, and taken back) has the moves,
    key and solver scores of the state `apply` reaches: the contract the solver relies on."""
    rules_id, players, options = table
    rng = random.Random(5)
    position = new_position(rules_id, players, options=options)
    rules = position.rule_set
    for _ in range(2):
        while position.is_chance or rules.endgame(position.state) is None:
            position.deal(rng) if position.is_chance else position.push(rng.choice(position.legal_moves))
        game = rules.endgame(position.state)
        states, finished = [position.state], None
        while rules.to_move(position.state) is not None and position.state.round_no == states[0].round_no:
            state = position.state
            assert game.to_move() == rules.to_move(state)
            assert game.key() == rules.solver_key(state)
            assert tuple(game.scores()) == tuple(rules.solver_scores(state))
            legal = rules.moves_of(state, rules.to_move(state))
            moves = list(game.moves())
            assert set(moves) <= set(legal) and moves[0] == legal[0]
            assert moves == sorted(moves, key=legal.index)  # `legal_moves`' order, less moves that play alike
            if tricks_left(rules, state) <= 2:  # a move left out plays as the one kept before it: the same values
                kept, plain = None, Solver(rules, max_nodes=None, fast=False)
                for other in legal:
                    after = plain.value(rules.apply(state, other)[0], state.round_no)
                    if other in moves:
                        kept = after
                    else:
                        assert after == kept, (state, other)
            if game.finish() is not None and finished is None:
                finished = game.finish()  # the last trick: every card forced
            move = rng.choice(legal)
            if rng.random() < 0.3:  # a detour, taken back
                game.play(rng.choice(moves))
                game.undo()
            game.play(move)
            position.push(move)
            states.append(position.state)
        assert game.to_move() is None  # the round is over: the scores are the standings'
        standings = tuple(s.score for s in rules.standings(position.state))
        assert tuple(game.scores()) == standings
        assert finished is None or finished == standings
        for state in reversed(states[:-1]):
            game.undo()
            assert game.key() == rules.solver_key(state)
        if position.is_over:
            break


@pytest.mark.slow  # Kirk's four-trick searches at the full budget
@pytest.mark.parametrize("table", [("kirk", 4), ("2e", 6)], ids=lambda t: f"{t[0]}-{t[1]}")
def test_the_last_four_tricks_are_solved_within_the_default_budget(table) -> None:
    """Kirk's game and five or six players, from a trick's lead with four tricks left: exact within
    `MAX_NODES` (the figures in docs/bots.md)."""
    rules, players = table
    position = end_position(rules, players, (), None, 7, MAX_TRICKS)
    while tricks_left(position.rule_set, position.state) < MAX_TRICKS or position.state.trick:
        position.pop()
    while position.to_move_seat is None or len(position.legal_moves) < 2 or position.is_chance:
        position.push(position.legal_moves[0])
    solution = exact(position, Solver(position.rule_set))
    assert solution is not None and solution.nodes <= MAX_NODES


@pytest.mark.parametrize("table", [("kirk", 4), ("2e", 6), ("1e", 3), ("bga", 5)], ids=lambda t: f"{t[0]}-{t[1]}")
def test_the_families_keys_give_the_values_of_a_memo_on_whole_states(table) -> None:
    """Deeper than the brute force reaches: the family's `solver_key` and `solver_scores` (and its
    `Endgame`) against the protocol's defaults (the state itself, the standings; `apply`), three tricks
    left, where Kirk's tie-breaks may read piles shifted by the tricks one player wins more (K5)."""
    rules_id, players = table
    for seed in range(12 if rules_id == "kirk" else 4):
        position = end_position(rules_id, players, (), None, 300 + seed, 3)
        while rules_id == "kirk" and (tricks_left(position.rule_set, position.state) < 3 or position.state.trick):
            position.pop()  # back to a trick's lead: three whole tricks (a whole-state memo takes long elsewhere)
        rules = position.rule_set
        keyed = Solver(rules, max_nodes=None).solve_state(position.state)
        whole = Solver(WholeStates(rules), max_nodes=None).solve_state(position.state)
        assert keyed.values == whole.values, position


class WholeStates:
    """A rule set as the solver sees it, with `Rules`' defaults for the memo: the key is the whole state, the
    scores are the standings', and there is no `Endgame` (every move through `apply`). It wraps the rule set
    rather than subclassing it: the compiled build's rule sets (docs/build.md) take no Python subclass, and its
    class methods have no `__func__` to borrow."""

    def __init__(self, rules: type[Rules]) -> None:
        self.rules = rules

    def __getattr__(self, name: str) -> Any:  # every other part: the rule set's own
        return getattr(self.rules, name)

    def solver_key(self, state: Any) -> Any:
        return state

    def solver_scores(self, state: Any) -> tuple[int, ...]:
        return tuple(standing.score for standing in self.rules.standings(state))

    def endgame(self, state: Any) -> None:
        return None
