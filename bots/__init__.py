"""Bots for every family: `random`, `greedy`, `mc` (determinised Monte Carlo) and `ismcts` (bots/ismcts.py).

A bot is given `position.view(player)` (a `View`), never the position, and
returns one of the view's legal moves:

>>> import random, diamonds
>>> from diamonds.bots import make_bot
>>> pos = diamonds.Position("kirk")
>>> _ = pos.deal(random.Random(1))
>>> bot = make_bot("greedy", seed=1)
>>> bot.choose(pos.view(pos.to_move)) in pos.legal_moves
True

The generic package names no family: each family's rules of thumb and its
sampler of hidden cards are its `bot` part (`families/<name>/bot.py`, a
`FamilyBot`). See docs/bots.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diamonds.core import family_of

from . import montecarlo
from .knowledge import Table, deal_unknown, deck_index, table_of
from .montecarlo import gains, playout, relative_score

__all__ = ["Bot", "RandomBot", "GreedyBot", "MCBot", "FamilyBot", "make_bot", "BOT_NAMES", "family_bot",
           "Table", "table_of", "deal_unknown", "deck_index", "relative_score", "playout"]


@dataclass(frozen=True)
class FamilyBot:
    """A family's `bot` part (docs/bots.md).

    `greedy(rules, state, seat, rng)`: a legal move of `seat` by the family's rules of thumb, reading only
    what `seat` may know. `determinise(table, rng)`: the state now with everything hidden from
    `table.seat` redrawn consistently with what they have seen (None where the family does not
    sample that phase: `mc` then plays `greedy`)."""

    greedy: Callable[[Any, Any, int, random.Random], Any]
    determinise: Callable[[Table, random.Random], Any]
    # The environment's action ids (diamonds.bots.env): how many there are for a set-up, and the ids of a
    # move, one or several (a Fitzgerald pass is its cards chosen one at a time, in deck order).
    action_count: Callable[[Any], int] | None = None
    encode: Callable[[Any, Any], tuple[int, ...]] | None = None
    # The family's own public features of the observation (phase, the trick, bids ...), from `seat`'s side.
    feature_count: Callable[[Any], int] | None = None
    features: Callable[[Any, int], list[float]] | None = None
    # `diamonds analyse`'s marks by default: how far below the best move's value (in the family's points, to
    # the round's end) a move gets `?` and `??`. Each family's scores move in their own steps (a Suit Action
    # is 1 to 3 points, a Kirk trick tens), so one pair for all would mark almost nothing or almost everything.
    thresholds: tuple[float, float] = (2.0, 5.0)
    # `rollout(rules, state, rng, round_no, first)`: what `playout` with `greedy` returns (the same end state,
    # the same random numbers drawn), played on the family's mutable table without a frozen state, events or
    # checks per move: Monte Carlo's playouts are nearly all of its time. `first`, a move or None: the playout
    # of the state after it (`Rules.apply`), which the table can make itself. None: the generic `playout`.
    rollout: Callable[[Any, Any, random.Random, int, Any], Any] | None = None

    def play_out(self, rules: Any, state: Any, rng: random.Random, *, round_no: int) -> Any:
        """`playout` of `state` with the family's `greedy`, by its `rollout` where it has one."""
        return montecarlo.play_out(self, rules, state, rng, round_no)


def family_bot(rules_id: str) -> FamilyBot:
    part = family_of(rules_id).part("bot")
    if not isinstance(part, FamilyBot):
        raise TypeError(f"the {rules_id} family's bot part is not a FamilyBot")
    return part


class Bot:
    """Chooses a move from a view: `choose(view)`; `name` is how arenas and records call it."""

    name = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def moves_of(view: Any) -> list[Any]:
        """The viewer's legal moves; a bot asked to move when it has none is a caller's mistake."""
        if getattr(view, "sight", None) is None:  # a Position (every hand) would let a bot peek: a view only
            raise TypeError(f"a bot chooses from one player's view (pos.view(pos.to_move)), not {type(view).__name__}")
        moves: list[Any] = view.legal_moves
        if not moves:
            raise ValueError(f"{view.viewer} has no move to make here")
        return moves

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """Any legal move, uniformly."""

    name = "random"

    def choose(self, view: Any) -> Any:
        moves = self.moves_of(view)
        return moves[self.rng.randrange(len(moves))]


class GreedyBot(Bot):
    """The family's rules of thumb (docs/bots.md)."""

    name = "greedy"

    def choose(self, view: Any) -> Any:
        moves = self.moves_of(view)
        if len(moves) == 1:
            return moves[0]
        table = table_of(view)
        return family_bot(view.rules).greedy(table.rules, table.state, table.seat, self.rng)


class MCBot(Bot):
    """Determinised Monte Carlo: sample the hidden cards consistently with what the viewer has seen,
    play every legal move out to the end of the round with `greedy` for everyone, and pick the move with
    the best mean gain in `relative_score`. Each sample judges every move (common random numbers).

    `samples`: determinisations per decision; `seconds`: a time budget per decision instead (at least
    one sample), which makes the choice depend on the machine's speed: arenas use `samples`."""

    name = "mc"

    def __init__(self, seed: int | str | None = None, *, samples: int = 16, seconds: float | None = None,
                 max_moves: int = 24) -> None:
        super().__init__(seed)
        self.samples = samples
        self.seconds = seconds
        self.max_moves = max_moves  # more legal moves than this (Fitzgerald's passes): greedy decides

    def estimates(self, view: Any) -> list[tuple[Any, float]]:
        """Every legal move with its estimated mean gain, best first ([] where mc does not sample)."""
        moves = view.legal_moves
        table = table_of(view)
        fam = family_bot(view.rules)
        rules, seat = table.rules, table.seat
        if not moves or len(moves) > self.max_moves:
            return []
        first = fam.determinise(table, self.rng)
        if first is None:
            return []
        totals = [0.0] * len(moves)
        count = 0
        start = time.perf_counter()
        world = first
        round_no = table.state.round_no
        while True:
            for index, gain in enumerate(gains(rules, fam, world, moves, seat, self.rng, round_no)):
                totals[index] += gain
            count += 1
            if self.seconds is not None:
                if time.perf_counter() - start >= self.seconds:
                    break
            elif count >= self.samples:
                break
            world = fam.determinise(table, self.rng)
        ranked = sorted(zip(range(len(moves)), totals), key=lambda pair: -pair[1])
        return [(moves[index], total / count) for index, total in ranked]

    def choose(self, view: Any) -> Any:
        moves = self.moves_of(view)
        if len(moves) == 1:
            return moves[0]
        ranked = self.estimates(view)
        if not ranked:
            table = table_of(view)
            return family_bot(view.rules).greedy(table.rules, table.state, table.seat, self.rng)
        return ranked[0][0]


BOT_NAMES = ("random", "greedy", "mc", "ismcts")


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot by name: `random`, `greedy`, `mc`, `mc:32` (32 samples per decision), `ismcts` or `ismcts:400`
    (400 worlds per decision: bots/ismcts.py)."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot is named by text (choose from {', '.join(BOT_NAMES)}, or mc:N, ismcts:N), not {spec!r}")
    name, _, arg = spec.partition(":")
    if not arg and spec.endswith(":"):
        if name in ("mc", "ismcts"):
            raise ValueError(f"{spec!r}: {name}:N needs its N (mc:32, ismcts:400), or {name} alone for the default")
        raise ValueError(f"no bot called {spec!r} (choose from {', '.join(BOT_NAMES)}, or mc:N, ismcts:N)")
    if arg and name in ("mc", "ismcts") and arg.strip().lstrip("+-").isdigit() and int(arg) < 1:
        raise ValueError(f"{spec!r}: {name}:N takes N of at least 1 ({'samples' if name == 'mc' else 'worlds'} "
                         "per decision)")
    if arg and not (arg.isdigit() and int(arg) > 0 and name in ("mc", "ismcts")):
        raise ValueError(f"no bot called {spec!r} (choose from {', '.join(BOT_NAMES)}, or mc:N, ismcts:N)")
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "mc":
        return MCBot(seed, samples=int(arg)) if arg else MCBot(seed)
    if name == "ismcts":
        from .ismcts import ISMCTSBot

        return ISMCTSBot(seed, iterations=int(arg)) if arg else ISMCTSBot(seed)
    raise ValueError(f"no bot called {spec!r} (choose from {', '.join(BOT_NAMES)}, or mc:N, ismcts:N)")
