"""The rule-set boundary: one class per rule set, found by id in a registry.

A rule set owns its configuration, its state type, its moves and its
`apply`. The three Fitzgerald rule sets differ only in class variables
(R13, R7, R15); Kirk's four-player Diamonds or the three-handed bidding game
would be new `RuleSet` subclasses with their own modules (see
docs/engine.md), registered the same way, without touching this family.
"""

from __future__ import annotations

from typing import Any, ClassVar, Iterable

from . import fitzgerald
from .config import ConfigError, GameConfig, Variant

__all__ = ["RuleSet", "Fitzgerald", "FirstEdition", "SecondEdition", "BoardGameArena", "rule_set", "RULE_SETS"]

RULE_SETS: dict[str, type["RuleSet"]] = {}


class RuleSet:
    """What every game the engine plays provides."""

    id: ClassVar[str]
    title: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "id" in cls.__dict__:
            RULE_SETS[cls.id] = cls

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[Variant | str] = (),
                  dealer: str | int | None = None) -> Any:
        raise NotImplementedError

    @staticmethod
    def initial_state(config: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def legal_moves(state: Any) -> tuple[Any, ...]:
        raise NotImplementedError

    @staticmethod
    def apply(state: Any, move: Any) -> tuple[Any, tuple[Any, ...]]:
        raise NotImplementedError


class Fitzgerald(RuleSet):
    """Mike Fitzgerald's Diamonds (Stronghold Games); the editions differ in class variables."""

    clubs_uses_thief: ClassVar[bool] = True  # R13 vs R14
    dealer_leads: ClassVar[bool] = False  # R7
    thief_resets_each_round: ClassVar[bool] = False  # R15

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[Variant | str] = (),
                  dealer: str | int | None = None) -> GameConfig:
        return GameConfig.create(players, rules=cls.id, variants=variants, dealer=dealer)

    initial_state = staticmethod(fitzgerald.initial_state)
    legal_moves = staticmethod(fitzgerald.legal_moves)
    apply = staticmethod(fitzgerald.apply)


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


def rule_set(rule_id: str) -> type[Fitzgerald]:
    try:
        return RULE_SETS[rule_id]  # type: ignore[return-value]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise ConfigError(f"unknown rule set {rule_id!r} (known: {known})") from None
