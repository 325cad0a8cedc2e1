"""`ismcts`: information-set Monte Carlo tree search from the player's own view (docs/bots.md).

Each iteration draws one world from the view with the family's `determinise` (the hidden cards redrawn
consistently with what the player has seen; the only reader of them) and, in that world, judges every
legal move of the root (common random numbers, as `mc` does) by walking one tree shared by all the worlds
below it (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): at each later decision the moves
legal in this world are the candidates. At the root side's own decisions the one with the best UCB score
is followed, counted against how often the move was *available* (worlds differ in what each seat holds),
and a decision opens its children one by one as it is visited more (progressive widening), greedy's move
first. The other sides answer as the playouts do, by greedy's move in this world (`greedy_others`, the
default: replies chosen by UCB among children opened in other worlds were noise that cost the search its
lead in Kirk's game; docs/bots.md has the arenas). A new node is valued by playing the round out with the
family's `greedy` (the family's fast rollout), optionally the last `leaf_tricks` tricks solved exactly on
that world (the exact solver, bots/solver.py, within `leaf_nodes`; off by default: one trick changed no
choice and cost 2-3.5 times the time), and each seat on the path is credited with its own side's relative
gain (the unit of `mc`). The root's move with the best mean is chosen.

Where the view leaves one world (two worlds drawn are the same: every card placed) and the solver
applies, the decision is solved exactly instead. The budget is counted, never timed: `iterations` worlds
per decision, each judging every move, so a seed fixes every choice on any machine. Decisions with more
legal moves than `max_moves` (Fitzgerald's passes), and phases the family does not sample, are
`greedy`'s, as in `mc`.
"""

from __future__ import annotations

import math
from typing import Any

from . import Bot, family_bot, relative_score, table_of
from .solver import OverBudget, Solver, tricks_left

__all__ = ["ISMCTSBot"]


class _Node:
    """A decision reached by a sequence of moves: its children by move, each edge's visits, available
    count and total reward (for the seat that made the move)."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class ISMCTSBot(Bot):
    """See the module. `iterations`: worlds per decision (each judging every move); `explore`: UCB's constant, in
    units of the largest gain seen in this decision (so one constant suits every family's points); `widen`:
    below the root a decision visited v times has at most 1 + widen * sqrt(v) children; `greedy_others`: the
    other sides answer by greedy's move (False: they too choose in the tree); `leaf_tricks`: the last tricks
    solved exactly at each new node (0: none)."""

    name = "ismcts"

    def __init__(self, seed: int | str | None = None, *, iterations: int = 48, explore: float = 0.3,
                 widen: float = 0.5, greedy_others: bool = True, leaf_tricks: int = 0, leaf_nodes: int = 2_000,
                 max_moves: int = 24) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.explore = explore
        self.widen = widen
        self.greedy_others = greedy_others
        self.leaf_tricks = leaf_tricks
        self.leaf_nodes = leaf_nodes
        self.max_moves = max_moves

    def choose(self, view: Any) -> Any:
        moves = self.moves_of(view)
        if len(moves) == 1:
            return moves[0]
        table = table_of(view)
        fam = family_bot(view.rules)
        rules, seat = table.rules, table.seat
        first = fam.determinise(table, self.rng) if len(moves) <= self.max_moves else None
        if first is None:
            return fam.greedy(rules, table.state, seat, self.rng)
        second = fam.determinise(table, self.rng)
        if second == first:  # the view may leave one world: solve it exactly where the solver applies
            solved = self._solve(rules, first)
            if solved is not None:
                return solved
        root = _Node()
        scale = [1e-9]
        round_no = table.state.round_no
        leaf = Solver(rules, max_tricks=self.leaf_tricks, max_nodes=self.leaf_nodes) if self.leaf_tricks else None
        world = first
        for count in range(self.iterations):
            if count == 1:
                world = second
            elif count > 1:
                world = fam.determinise(table, self.rng)
            for move in moves:  # every move judged in every world: common random numbers, as in `mc`
                self._iterate(rules, fam, world, root, round_no, scale, leaf, move)
        return max(moves, key=lambda move: root.children[move].total)  # equal visits: the best mean

    def _solve(self, rules: Any, world: Any) -> Any | None:
        solver = Solver(rules)
        if not solver.applies(world):
            return None
        try:
            return solver.solve_state(world).ranked()[0][0]
        except OverBudget:
            return None

    def _iterate(self, rules: Any, fam: Any, world: Any, root: _Node, round_no: int, scale: list[float],
                 leaf: Solver | None, first: Any) -> None:
        """One walk of the tree in `world`, starting with the root's move `first`, valued at a new node."""
        state, node = world, root
        path: list[tuple[_Node, int]] = []
        sides = state.config.side_of
        mine = sides[rules.to_move(world)]  # the side deciding at the root
        start = [relative_score(rules, world, s) for s in range(len(sides))]
        rng = self.rng
        while not _ended(rules, state, round_no):
            seat = rules.to_move(state)
            moves = rules.moves_of(state, seat)
            if len(moves) == 1:
                state = rules.apply(state, moves[0])[0]
                continue
            if node is root:
                child = node.children.get(first)
                if child is None:
                    child = node.children[first] = _Node()
                child.avail += 1
                path.append((child, seat))
                state = rules.apply(state, first)[0]
                node = child
                continue
            if self.greedy_others and sides[seat] != mine:
                # The other sides answer as the playouts do, by greedy's move in this world: the tree is the
                # root side's own plans against them, with no statistics of replies drawn from other worlds.
                move = fam.greedy(rules, state, seat, rng)
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = _Node()
                child.avail += 1
                node = child
                path.append((node, seat))
                state = rules.apply(state, move)[0]
                continue
            present = [move for move in moves if move in node.children]
            for move in present:
                node.children[move].avail += 1
            # Progressive widening below the root: a decision's first child is greedy's move (the playouts'
            # own policy), and another is opened only as the decision is visited more, so that with a small
            # budget the others answer as the playouts would rather than at random.
            allowed = 1 + int(self.widen * math.sqrt(node.visits))
            if len(present) < min(allowed, len(moves)) or not present:
                untried = [move for move in moves if move not in node.children]
                hint = fam.greedy(rules, state, seat, rng)
                move = hint if hint in untried else untried[rng.randrange(len(untried))]
                child = node.children[move] = _Node()
                child.avail = 1
                path.append((child, seat))
                state = rules.apply(state, move)[0]
                break
            c = self.explore * scale[0]
            move = max(present, key=lambda m: _ucb(node.children[m], c))
            node = node.children[move]
            path.append((node, seat))
            state = rules.apply(state, move)[0]
        sides_count = len(state.config.sides)
        end = self._finish(rules, fam, state, round_no, leaf, sides_count)
        solved = isinstance(end, tuple)
        for child, seat in path:
            gain = (end[sides[seat]] if solved else relative_score(rules, end, seat)) - start[seat]
            if abs(gain) > scale[0]:
                scale[0] = abs(gain)
            child.visits += 1
            child.total += gain

    def _finish(self, rules: Any, fam: Any, state: Any, round_no: int, leaf: Solver | None,
                sides: int) -> tuple[float, ...] | Any:
        """The round's end from `state`: each side's relative score, solved exactly on this world where at
        most `leaf_tricks` tricks remain (max-n, every hand seen, within `leaf_nodes`), else the end state of
        a playout by `greedy`."""
        if leaf is None:
            return fam.play_out(rules, state, self.rng, round_no=round_no)
        while not _ended(rules, state, round_no) and tricks_left(rules, state) > self.leaf_tricks:
            state = rules.apply(state, fam.greedy(rules, state, rules.to_move(state), self.rng))[0]
        if _ended(rules, state, round_no):
            return state
        leaf.enter(state)
        leaf.limit = leaf.nodes + self.leaf_nodes
        try:
            game = rules.endgame(state)  # the family's mutable endgame where it has one: several times faster
            utilities = leaf.search(game, state.config.side_of, game.cost) if game is not None else \
                leaf.value(state, round_no)
        except OverBudget:
            return fam.play_out(rules, state, self.rng, round_no=round_no)
        return tuple(u / max(sides - 1, 1) for u in utilities)


def _ended(rules: Any, state: Any, round_no: int) -> bool:
    return bool(rules.is_over(state) or rules.is_chance(state) or state.round_no != round_no)


def _ucb(child: _Node, c: float) -> float:
    if child.visits == 0:
        return math.inf
    return child.total / child.visits + c * math.sqrt(math.log(max(child.avail, 1)) / child.visits)
