"""`Kirk`: Alan Kirk's game behind the engine's family protocol, over the functions of `engine.py`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import ClassVar

from diamonds.core.family import EngineFunctions, EngineRules, MoveTextFunctions, PlayerFunctions

from . import engine, movetext, solver
from .config import KirkConfig, configure
from .fast import KirkTable
from .state import Phase, State

__all__ = ["Kirk"]


class Kirk(EngineRules):
    """Alan Kirk's four-player Diamonds (rulings K1-K8)."""

    id: ClassVar[str] = "kirk"
    family: ClassVar[str] = "kirk"
    title: ClassVar[str] = "Alan Kirk's four-player Diamonds"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_players: ClassVar[int] = 4
    variants: ClassVar[tuple[str, ...]] = ()
    option_tags: ClassVar[tuple[str, ...]] = ("Hands", "Target")
    rounds_word: ClassVar[str] = "hand"
    seats_rule: ClassVar[str | None] = "K1"

    engine_module: ClassVar[EngineFunctions] = engine
    player_module: ClassVar[PlayerFunctions] = engine  # random_move
    movetext_module: ClassVar[MoveTextFunctions] = movetext

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> KirkConfig:
        return configure(players, variants=variants, dealer=dealer, options=options)

    @classmethod
    def table(cls, state: State, *, record: bool = True) -> KirkTable:
        """The mutable table (`fast.KirkTable`): the same decisions as `apply`, without a state per card."""
        return KirkTable(state, record=record)

    @classmethod
    def solver_key(cls, state: State) -> Hashable:
        """Cards as value and points, piles as the top values a tie-break may still read (`solver`)."""
        return solver.solver_key(state)

    @classmethod
    def solver_scores(cls, state: State) -> tuple[int, ...]:
        """In play, the totals with the piles' points so far (K7), so that the key can leave those out."""
        return solver.solver_scores(state)

    @classmethod
    def endgame(cls, state: State) -> solver.KirkEndgame | None:
        """The hand in play as a `KirkEndgame` (cards played and taken back in place); None outside play."""
        return solver.KirkEndgame(state) if state.phase is Phase.PLAY else None
