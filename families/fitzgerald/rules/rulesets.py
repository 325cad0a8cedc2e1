"""Mike Fitzgerald's Diamonds as a family of the engine: one `Rules` class per edition.

The three editions differ only in class variables (R7, R13, R15), as
python-chess's variants do; `EDITIONS` lists them explicitly. Their methods
are the family's protocol (`diamonds.core.family.Rules`), over the mutable
`Table` of `engine.py`, which is where this family keeps its speed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from itertools import combinations
from typing import ClassVar, Final

from diamonds.core.errors import NotationError
from diamonds.core.family import EngineFunctions, EngineRules, MoveTextFunctions, PlayerFunctions, VisibilityFunctions
from diamonds.core.seating import ConfigError

from . import engine, movetext, player, solver, visibility
from .config import GameConfig, Variant
from .errors import VictimRequired
from .moves import Move, PassCards
from .state import Phase, State

__all__ = ["Fitzgerald", "FirstEdition", "SecondEdition", "BoardGameArena", "EDITIONS", "RULE_SETS", "rule_set",
           "configure"]


class Fitzgerald(EngineRules):
    """Mike Fitzgerald's Diamonds (Stronghold Games); the editions differ in class variables."""

    family = "fitzgerald"
    player_counts = (2, 3, 4, 5, 6)
    default_players = 4
    variants = tuple(v.value for v in Variant)
    seats_rule = "R1"
    clubs_uses_thief: ClassVar[bool] = True  # R13 vs R14
    dealer_leads: ClassVar[bool] = False  # R7
    thief_resets_each_round: ClassVar[bool] = False  # R15

    engine_module: ClassVar[EngineFunctions] = engine
    player_module: ClassVar[PlayerFunctions] = player
    movetext_module: ClassVar[MoveTextFunctions] = movetext
    visibility_module: ClassVar[VisibilityFunctions | None] = visibility

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[Variant | str] = (),
                  dealer: str | int | None = None, options: Mapping[str, str] | None = None) -> GameConfig:
        return GameConfig.create(players, edition=cls, variants=variants, dealer=dealer)

    @classmethod
    def split_text(cls, state: State, text: str) -> tuple[str, ...]:
        """A card and its Clubs victim written as one word (`12C>Cat`, R14) are two moves."""
        return movetext.split_text(state, text)

    @classmethod
    def refuse_part(cls, state: State, text: str, parts: tuple[str, ...], index: int) -> NotationError | None:
        """A victim written on a card where none is due right after it (R14)."""
        return movetext.refuse_part(state, text, parts, index)

    @classmethod
    def question_words(cls, config: GameConfig, code: str) -> tuple[str, ...] | None:
        """A Clubs card whose victim is due and not written (`victim-required`, R14; at a round's end, the
        award's, R16) is asked for its victim: each player, `>Name`."""
        if code != VictimRequired.code:
            return None
        return tuple(f">{name}" for name in config.players)

    @classmethod
    def table(cls, state: State, *, record: bool = True) -> engine.Table:
        return engine.Table(state, record=record)

    @classmethod
    def solver_key(cls, state: State) -> Hashable:
        """In play, cards as suit and place among the cards of their suit still to be played (`solver`)."""
        return solver.solver_key(state)

    @classmethod
    def endgame(cls, state: State) -> solver.FitzgeraldEndgame | None:
        """The round in play as a `FitzgeraldEndgame` (over the engine's `Table`); None outside play."""
        return solver.FitzgeraldEndgame(state) if state.phase in (Phase.PLAY, Phase.CHOOSE_VICTIM) else None

    @classmethod
    def moves_of(cls, state: State, seat: int) -> tuple[Move, ...]:
        """One seat's legal moves; while passing (R6), only its own passes rather than every seat's."""
        if state.to_move != seat:
            return ()
        if state.phase is Phase.PASSING and state.pass_count is not None:
            return tuple([PassCards(seat, cards) for cards in combinations(state.hand(seat), state.pass_count)])
        return engine.legal_moves(state)


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
RULE_SETS: Final[dict[str, type[Fitzgerald]]] = {edition.id: edition for edition in EDITIONS}


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
