"""Mike Fitzgerald's Diamonds as a family of the engine: one `Rules` class per edition.

The three editions differ only in class variables (R7, R13, R15), as
python-chess's variants do; `EDITIONS` lists them explicitly. Their methods
are the family's protocol (`diamonds.core.family.Rules`), over the mutable
`Table` of `engine.py`, which is where this family keeps its speed.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from diamonds.core.family import Rules, Sight
from diamonds.core.seating import ConfigError
from . import engine, movetext, visibility
from .config import GameConfig, Variant
from .events import SideResult
from .moves import Move, PassCards
from .player import random_move
from .state import Phase, State

__all__ = ["Fitzgerald", "FirstEdition", "SecondEdition", "BoardGameArena", "EDITIONS", "RULE_SETS", "rule_set",
           "configure"]


class Fitzgerald(Rules):
    """Mike Fitzgerald's Diamonds (Stronghold Games); the editions differ in class variables."""

    family = "fitzgerald"
    player_counts = (2, 3, 4, 5, 6)
    default_players = 4
    variants = tuple(v.value for v in Variant)
    clubs_uses_thief: ClassVar[bool] = True  # R13 vs R14
    dealer_leads: ClassVar[bool] = False  # R7
    thief_resets_each_round: ClassVar[bool] = False  # R15

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[Variant | str] = (),
                  dealer: str | int | None = None, options: Mapping[str, str] | None = None) -> GameConfig:
        return GameConfig.create(players, edition=cls, variants=variants, dealer=dealer)

    @classmethod
    def initial_state(cls, config: GameConfig) -> State:
        return engine.initial_state(config)

    @classmethod
    def legal_moves(cls, state: State) -> tuple[Move, ...]:
        return engine.legal_moves(state)

    @classmethod
    def apply(cls, state: State, move: Move) -> tuple[State, tuple[Any, ...]]:
        return engine.apply(state, move)

    @classmethod
    def table(cls, state: State, *, record: bool = True) -> engine.Table:
        return engine.Table(state, record=record)

    @classmethod
    def is_over(cls, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    @classmethod
    def to_move(cls, state: State) -> int | None:
        return state.to_move

    @classmethod
    def standings(cls, state: State) -> tuple[SideResult, ...]:
        return engine.results(state)

    @classmethod
    def random_move(cls, state: State, rng: random.Random) -> Move:
        return random_move(state, rng)

    @classmethod
    def moves_of(cls, state: State, seat: int) -> tuple[Move, ...]:
        """One seat's legal moves; while passing (R6), only its own passes rather than every seat's."""
        if state.to_move != seat:
            return ()
        if state.phase is Phase.PASSING and state.pass_count is not None:
            return tuple(PassCards(seat, cards) for cards in combinations(state.hand(seat), state.pass_count))
        return engine.legal_moves(state)

    @classmethod
    def move_text(cls, state: State, move: Move) -> str:
        return movetext.move_text(state, move)

    @classmethod
    def parse_move(cls, state: State, text: str) -> Move:
        return movetext.parse_move(state, text)

    @classmethod
    def is_private(cls, state: State, move: Move) -> bool:
        return visibility.is_private(state, move)

    @classmethod
    def sight(cls, state: State, moves: Sequence[Move], viewer: int) -> Sight:
        return visibility.sight(state, moves, viewer)


class FirstEdition(Fitzgerald):
    id = "1e"
    title = "Stronghold 1st edition (Clubs: the actor chooses whom to rob)"
    clubs_uses_thief = False


class SecondEdition(Fitzgerald):
    id = "2e"
    title = "Stronghold 2nd edition (the Thief)"


class BoardGameArena(Fitzgerald):
    id = "bga"
    title = "Board Game Arena (dealer leads, Thief reset every round)"
    dealer_leads = True
    thief_resets_each_round = True


EDITIONS: tuple[type[Fitzgerald], ...] = (FirstEdition, SecondEdition, BoardGameArena)
RULE_SETS: dict[str, type[Fitzgerald]] = {edition.id: edition for edition in EDITIONS}


def rule_set(rule_id: str) -> type[Fitzgerald]:
    try:
        return RULE_SETS[rule_id]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise ConfigError(f"unknown Fitzgerald edition {rule_id!r} (known: {known})") from None


def configure(players: Iterable[str], *, rules: str = "2e", variants: Iterable[Variant | str] = (),
              dealer: str | int | None = None) -> GameConfig:
    """A checked set-up of an edition named by its id (`1e`, `2e`, `bga`)."""
    return rule_set(rules).configure(players, variants=variants, dealer=dealer)
