"""The rules engines of the games called Diamonds: plain values, legal moves, and the events each move causes.

Every game is a *family* behind one protocol (`family.Rules`) that registers
itself (`registry.families()`, entry-point group `diamonds.families`); `Engine` plays any of them with push /
pop (the front door's `Position` stands on it; `diamonds.Game` is a recorded game). It knows
nothing of text formats, terminals or JSON (see `diamonds.notation` and
`diamonds.cli`).
"""

from typing import TYPE_CHECKING, Any

from . import cards, errors, family, trick
from .cards import (
    COURT_RANKS,
    JOKER,
    MAX_RANK,
    SUITS,
    AnyCard,
    Card,
    CardParseError,
    Joker,
    Suit,
    format_cards,
    numbered_cards,
    sort_cards,
    standard_cards,
)
from .errors import *
from .family import Family, MissingPart, PureTable, Rules, SideResult, Sight, Table
from .game import Engine
from .registry import DEFAULT_RULES, families, family_named, family_of, option_tags, register, rules_for
from .seating import PLAYER_ID, ConfigError, Seating
from .simulate import DEFAULT_NAMES, default_names, play_random_game, simulate
from .values import keep_picklable

keep_picklable(cards, family, trick)  # compiled, they pickle and copy only so (values.py)

__all__ = [
    "AnyCard", "COURT_RANKS", "Card", "CardParseError", "ConfigError", "DEFAULT_NAMES", "DEFAULT_RULES", "FAMILIES",
    "Engine", "Family", "JOKER", "MissingPart", "Joker", "MAX_RANK", "PLAYER_ID", "PureTable", "RULE_SETS", "Rules",
    "SUITS", "Seating",
    "SideResult", "Sight", "Suit", "Table", "default_names", "families", "family_named", "family_of", "register",
    "format_cards", "numbered_cards", "option_tags", "play_random_game", "rules_for", "simulate", "sort_cards",
    "standard_cards",
]
__all__ += errors.__all__  # the illegal moves, and NotationError


if TYPE_CHECKING:  # found on first use by __getattr__ below
    from .registry import FAMILIES, RULE_SETS


def __getattr__(name: str) -> Any:
    """`FAMILIES` and `RULE_SETS` are found on first use (see registry), not when this package is imported.

    `Game` and `Standing` are old names, kept for scripts that import them (a DeprecationWarning): the engine is
    `Engine` and a side's result `SideResult` now, since the front door's `diamonds.Game` is a recorded game and
    its `diamonds.Standing` a side's result as one viewer sees it."""
    if name in ("FAMILIES", "RULE_SETS"):
        from . import registry

        return getattr(registry, name)
    if name == "Game":
        import warnings

        warnings.warn("diamonds.core.Game is diamonds.core.Engine now (diamonds.Game is a recorded game)",
                      DeprecationWarning, stacklevel=2)
        return Engine
    if name == "Standing":
        import warnings

        warnings.warn("diamonds.core.Standing is diamonds.core.SideResult now (diamonds.Standing is a side's "
                      "result as a viewer sees it)", DeprecationWarning, stacklevel=2)
        return SideResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
