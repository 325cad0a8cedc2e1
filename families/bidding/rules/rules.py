"""`Bidding`: the three-handed bidding game behind the engine's family protocol."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from diamonds.core.errors import NotationError
from diamonds.core.family import EngineFunctions, EngineRules, MoveTextFunctions, PlayerFunctions, VisibilityFunctions

from . import engine, movetext, player, visibility
from .config import RULES_ID, BiddingConfig
from .errors import MissingChoice
from .fast import BiddingTable
from .state import BiddingState

__all__ = ["Bidding"]


class Bidding(EngineRules):
    """Three-handed bidding Diamonds (RULINGS B1–B10)."""

    id = RULES_ID
    family = "bidding"
    title = "Three-handed bidding Diamonds (33 cards, Diamonds trumps, bid your tricks exactly)"
    player_counts = (3,)
    default_players = 3
    variants = ()
    option_tags = ()
    rounds_word = "hand"
    seats_rule = "B1"
    decides_at_once = False  # B3-B6: every call and card is the one seat's whose turn it is

    engine_module: ClassVar[EngineFunctions] = engine
    player_module: ClassVar[PlayerFunctions] = player
    movetext_module: ClassVar[MoveTextFunctions] = movetext
    visibility_module: ClassVar[VisibilityFunctions | None] = visibility

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> BiddingConfig:
        return BiddingConfig.create(players, variants=variants, dealer=dealer, options=options)

    @classmethod
    def other_writings(cls, config: object, text: str) -> tuple[tuple[str, str], ...]:
        """An ace's other sign (B7: an ace is high or low, high when written bare or `+`): `AH` → `AH-`, low;
        `AH-` → `AH`, high. A Joker's choice is asked for (`question_words`), not offered here."""
        marks = text.rstrip("!?")
        bare = marks[:-1] if marks.endswith(("+", "-")) else marks
        try:
            card = movetext.parse_card(config, bare)
        except NotationError:
            return ()
        if not getattr(card, "is_ace", False):
            return ()
        return ((bare, "high"),) if marks.endswith("-") else ((bare + "-", "low"),)

    @classmethod
    def question_words(cls, config: object, code: str) -> tuple[str, ...] | None:
        """A Joker written without its suit or sign (`missing-choice`, B7) is asked for them, tried in this
        order: a sign, a suit and a sign."""
        if code != MissingChoice.code:
            return None
        return ("+", "-", *(suit + sign for suit in "DHSC" for sign in "+-"))

    @classmethod
    def table(cls, state: BiddingState, *, record: bool = True) -> BiddingTable:
        """The mutable table (`fast.BiddingTable`): the same decisions as `apply`, without a state per card."""
        return BiddingTable(state, record=record)
