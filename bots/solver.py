"""Exact values at the end of a round, where every hand is known: a max-n solver over the last tricks.

Where at most `MAX_TRICKS` tricks remain in the round, `exact(position)` gives
every legal move of the player to move its exact value, reading every hand
(a position knows them all: from a record's deal lines, or inferred for a
complete round). The solver is generic: it reads only the rule set's class
methods (`moves_of`, `apply`, `to_move`, `is_chance`, `is_over`, `standings`,
`hand`, `solver_key`, `solver_scores`, `endgame`) and the state's `round_no`,
as `playout` does, and stops at the round's end (a deal due, or the game
over), so the round's own end-of-round scoring (R16-R17, K7, B9) is in the
value and the next deal is not.

The value (docs/bots.md): max-n. Every side plays, seeing every hand, to
maximise its own *relative score* at the round's end (its score less the mean
of the other sides', as `mc` and `diamonds analyse` count), and a move's value
is the change in the mover's relative score from now to the round's end under
that play: the unit of `mc`'s estimates. Relative scores add up to zero, so
with two sides (two players, a partnership) this is minimax. A side
indifferent between moves takes the first in `legal_moves` order: the
deterministic tie-break that fixes what the others then get. Internally a
side's utility is the integer `k * score - total` (k sides): the relative
score times k - 1, so comparisons and ties are exact.

Speed: a node's result is memoised for the round on the family's
`solver_key` (by default the state; coarser where the rules make states
alike: Kirk's piles matter only through what a tie-break may read), as the
change in the utilities from the node's `solver_scores` to the round's end,
so states that differ only in what is already won share it. A `Solver` keeps
its memo for the round, so the later decisions of a round analysed in order
are mostly looked up. Where the family has an `Endgame` (a mutable position,
moves played and taken back in place) max-n searches it rather than a state
per move through `apply`, several times faster. A forced move is no decision
and is played on unkeyed. With two sides the game is zero-sum, max-n is
minimax and a tie changes nobody's value, so alpha-beta (fail-soft, the
bounds it proves kept per key, through `apply`) finds the same values
searching less; max-n admits no such pruning among three or more sides
without a bound on the scores, so there a tree is searched whole. A search
stops after `max_nodes` work (each decision searched counting its path's
measured cost: an `Endgame`'s `cost`, or `PLAIN_COST` through `apply`) and
`exact` returns None (the caller then estimates by sampling); what it
finished stays in the memo, and the solver tries again in that round only
once a trick's plays less one have been made. Measured (docs/bots.md):
Kirk's last four tricks 61,000-154,000 decisions, 2-5.5 s (1,648,405
through states); five and six players mostly within the budget too.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_TRICKS", "MAX_NODES", "Solution", "Solver", "OverBudget", "tricks_left", "held", "plays_per_trick",
           "exact"]

MAX_TRICKS = 4
INF = float("inf")
MAX_NODES = 200_000  # work per call before giving up (about 5 s on a loaded 2-core machine): see PLAIN_COST
PLAIN_COST = 10  # the work of a decision searched through `apply`; one on a family's `Endgame` costs its `cost`


def plays_per_trick(state: Any) -> int:
    """Cards played to a trick (every family's config says; one per player otherwise)."""
    config = state.config
    return int(getattr(config, "plays_per_trick", len(config.players)))


def held(rules: Any, state: Any) -> int:
    """The cards in all hands."""
    return sum(len(rules.hand(state, seat)) for seat in range(len(state.config.players)))


def tricks_left(rules: Any, state: Any) -> int:
    """The tricks still to finish in this round, the one in progress included (cards held / plays per trick)."""
    return -(-held(rules, state) // plays_per_trick(state))


class OverBudget(Exception):
    """A search went past its `max_nodes`: the tree is too big to solve here."""


@dataclass(frozen=True, slots=True)
class Solution:
    """Every legal move of `seat` with its exact value (in legal order), and what the search cost."""

    seat: int
    values: tuple[tuple[Any, float], ...]
    nodes: int  # decisions searched (memo hits not counted)
    seconds: float

    def ranked(self) -> list[tuple[Any, float]]:
        """Best first; equal values keep the legal order (the solver's own tie-break)."""
        return sorted(self.values, key=lambda pair: -pair[1])


class Solver:
    """Max-n over the rest of a round (see the module). One solver serves one game; it keeps its memo
    until the round changes, so a round's decisions analysed in order share their searches."""

    def __init__(self, rules: Any, *, max_tricks: int = MAX_TRICKS, max_nodes: int | None = MAX_NODES,
                 prune: bool = True, fast: bool = True) -> None:
        self.rules = rules
        self.prune = prune  # alpha-beta where two sides play (False: max-n everywhere, as the tests compare)
        self.fast = fast  # search the family's `Endgame` where it has one (False: through `apply`, as tests compare)
        self.max_tricks = max_tricks
        self.max_nodes = max_nodes
        self.memo: dict[Any, tuple[int, ...]] = {}  # solver key -> the utilities' change from there to the end
        self.bounds: dict[Any, tuple[float, float]] = {}  # two sides: alpha-beta's bounds on that change, side 0's
        self.round: tuple[int, Any] | None = None  # the round the memo belongs to: (round_no, the game's config)
        self.nodes = 0  # work done: a decision searched through `apply` costs PLAIN_COST, on an `Endgame` its cost
        self.limit: int | None = None
        self.wait: int | None = None  # after a search past the budget: try again at this many cards held

    def enter(self, state: Any) -> None:
        """Forget the memo and any wait when `state` is in another round than the memo's."""
        key = (state.round_no, state.config)
        if self.round is None or self.round[0] != key[0] or self.round[1] is not key[1]:
            self.memo.clear()
            self.bounds.clear()
            self.round, self.wait = key, None

    @staticmethod
    def relative(scores: Sequence[int]) -> tuple[int, ...]:
        """Per side, `k * score - total`: the relative score (score less the others' mean) times k - 1."""
        total, count = sum(scores), len(scores)
        return tuple(count * score - total for score in scores)

    def utilities(self, state: Any) -> tuple[int, ...]:
        """`relative` of the family's `solver_scores` (the standings' scores, at the round's end)."""
        return self.relative(self.rules.solver_scores(state))

    def value(self, state: Any, round_no: int) -> tuple[int, ...]:
        """The sides' utilities at the round's end when every side plays max-n from `state`."""
        rules = self.rules
        if rules.is_over(state) or rules.is_chance(state) or state.round_no != round_no:
            return self.utilities(state)
        seat = rules.to_move(state)
        moves = rules.moves_of(state, seat)
        if len(moves) == 1:  # a forced move is no decision, and played on unkeyed: a key costs about as much
            return self.value(rules.apply(state, moves[0])[0], round_no)
        here = self.utilities(state)
        key = rules.solver_key(state)
        known = self.memo.get(key)
        if known is not None:
            return tuple(now + change for now, change in zip(here, known))
        self.count(PLAIN_COST)
        side = state.config.side_of[seat]
        best: tuple[int, ...] | None = None
        for move in moves:
            child = self.value(rules.apply(state, move)[0], round_no)
            if best is None or child[side] > best[side]:
                best = child
        assert best is not None, "a seat to move has a legal move"
        self.memo[key] = tuple(end - now for end, now in zip(best, here))
        return best

    def search(self, game: Any, side_of: Sequence[int], cost: int) -> tuple[int, ...]:
        """`value` on the family's `Endgame`, played and taken back in place (the same memo and keys). A
        forced move is played on unkeyed: a key costs more than the plays to the next choice."""
        seat = game.to_move()
        if seat is None:
            return self.relative(game.scores())
        moves = game.moves()
        if len(moves) == 1:
            end = game.finish()
            if end is not None:
                return self.relative(end)
            game.play(moves[0])
            child = self.search(game, side_of, cost)
            game.undo()
            return child
        here = self.relative(game.scores())
        key = game.key()
        known = self.memo.get(key)
        if known is not None:
            return tuple(now + change for now, change in zip(here, known))
        self.count(cost)
        side = side_of[seat]
        best: tuple[int, ...] | None = None
        for move in moves:
            game.play(move)
            child = self.search(game, side_of, cost)
            game.undo()
            if best is None or child[side] > best[side]:
                best = child
        assert best is not None, "a seat to move has a legal move"
        self.memo[key] = tuple(end - now for end, now in zip(best, here))
        return best

    def count(self, work: int) -> None:
        self.nodes += work
        if self.limit is not None and self.nodes > self.limit:
            raise OverBudget

    def minimax(self, state: Any, round_no: int, alpha: float, beta: float) -> float:
        """Two sides: side 0's utility at the round's end (side 1's is its negative) under minimax, by
        fail-soft alpha-beta with the bounds proved so far kept per key; exact when inside (alpha, beta)."""
        rules = self.rules
        here = self.utilities(state)[0]
        if rules.is_over(state) or rules.is_chance(state) or state.round_no != round_no:
            return here
        key = rules.solver_key(state)
        known = self.bounds.get(key)
        low, high = (known[0] + here, known[1] + here) if known is not None else (-INF, INF)
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        seat = rules.to_move(state)
        moves = rules.moves_of(state, seat)
        if len(moves) > 1:
            self.count(PLAIN_COST)
        maximise = state.config.side_of[seat] == 0
        best = -INF if maximise else INF
        a, b = alpha, beta
        for move in moves:
            child = self.minimax(rules.apply(state, move)[0], round_no, a, b)
            if maximise:
                best = max(best, child)
                a = max(a, best)
            else:
                best = min(best, child)
                b = min(b, best)
            if a >= b:
                break
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.bounds[key] = (low - here, high - here)
        return best

    def applies(self, state: Any) -> bool:
        """Whether a decision is due at `state` with at most `max_tricks` tricks left in the round (and, after a
        search of this round past the budget, a trick's plays less one made since)."""
        rules = self.rules
        if rules.is_over(state) or rules.is_chance(state) or tricks_left(rules, state) > self.max_tricks:
            return False
        self.enter(state)
        return self.wait is None or held(rules, state) <= self.wait

    def solve_state(self, state: Any) -> Solution:
        """Every legal move of the seat to move at `state` with its exact value; `OverBudget` past
        `max_nodes` decisions searched (what was finished stays in the memo)."""
        rules = self.rules
        if rules.is_over(state) or rules.is_chance(state):
            raise ValueError("no decision is due here")
        self.enter(state)
        start, nodes = time.perf_counter(), self.nodes
        self.limit = None if self.max_nodes is None else nodes + self.max_nodes
        seat = rules.to_move(state)
        side = state.config.side_of[seat]
        scale = max(len(state.config.sides) - 1, 1)
        base = self.relative([standing.score for standing in rules.standings(state)])[side]
        values = []
        two_sides = self.prune and len(state.config.sides) == 2
        game = rules.endgame(state) if self.fast and not two_sides else None
        for move in rules.moves_of(state, seat):
            if game is not None:  # max-n on the family's mutable endgame
                game.play(move)
                mine = self.search(game, state.config.side_of, game.cost)[side]
                game.undo()
                values.append((move, (mine - base) / scale))
                continue
            after = rules.apply(state, move)[0]
            if two_sides:  # minimax: the same values as max-n's, found with alpha-beta
                mine = self.minimax(after, state.round_no, -INF, INF) * (1 if side == 0 else -1)
            else:
                mine = self.value(after, state.round_no)[side]
            values.append((move, (mine - base) / scale))
        return Solution(seat, tuple(values), self.nodes - nodes, time.perf_counter() - start)


def exact(position: Any, solver: Solver | None = None) -> Solution | None:
    """The exact value of every legal move at `position`, or None where the solver does not apply: more
    than the solver's `max_tricks` tricks left, or a search past its `max_nodes`."""
    if solver is None or solver.rules is not position.rule_set:
        solver = Solver(position.rule_set)
    state = position.state
    if not solver.applies(state):
        return None
    try:
        return solver.solve_state(state)
    except OverBudget:
        solver.wait = held(solver.rules, state) - plays_per_trick(state) + 1
        return None
