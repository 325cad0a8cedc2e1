"""The set-up of one game of Kirk's Diamonds: four players, the standard pack, and how long it lasts.

`configure` checks the `Players`, `Variant`, `Dealer`, `Hands` and `Target`
tags once and derives a `KirkConfig`; the engine never re-checks them.
Ruling ids (K1…) mark where a ruling decides what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from diamonds.core.cards import Card, standard_cards
from diamonds.core.seating import ConfigError, Seating, check_players, dealer_seat, solo_sides

__all__ = [
    "KirkConfig", "configure", "DECK", "PLAYERS", "HAND_SIZE", "TRICKS_PER_HAND", "PLAYS_PER_TRICK",
    "DEFAULT_HANDS", "RULES_ID",
]

RULES_ID = "kirk"
#: K1: exactly four players.
PLAYERS = 4
#: K2: the standard 52-card pack, 2-10, J, Q, K, A in each suit.
DECK: tuple[Card, ...] = standard_cards(2)
#: K2, K4: thirteen cards each, thirteen tricks of four cards.
HAND_SIZE = 13
TRICKS_PER_HAND = 13
PLAYS_PER_TRICK = 4
#: K8: without a tag the game lasts four hands (each player deals once).
DEFAULT_HANDS = 4

_WHOLE_NUMBER = re.compile(r"[0-9]+\Z")


@dataclass(frozen=True, slots=True)
class KirkConfig(Seating):
    """The checked set-up of one game. Exactly one of `hands` and `target` is set (K8).

    `hands`: the game ends after that many hands. `target`: it ends after
    the first hand in which some player's total reaches that score.
    """

    hands: int | None = DEFAULT_HANDS
    target: int | None = None
    deck: tuple[Card, ...] = DECK
    hand_size: int = HAND_SIZE
    tricks_per_hand: int = TRICKS_PER_HAND
    plays_per_trick: int = PLAYS_PER_TRICK

    def __post_init__(self) -> None:
        if (self.hands is None) == (self.target is None):
            raise ConfigError("a game of Kirk's Diamonds lasts a number of hands or up to a target score, "
                              "exactly one of them", rule="K8")

    @property
    def rounds(self) -> int | None:
        """The number of hands, when the game has a fixed number (the generic layers' word)."""
        return self.hands

    def option_values(self) -> tuple[tuple[str, str], ...]:
        """The tags that say how long the game lasts (K8), as a record writes them.

        Always one: `Hands` (also when it is the default 4, so a record says it
        outright) or `Target`.
        """
        if self.target is not None:
            return (("Target", str(self.target)),)
        return (("Hands", str(self.hands)),)


def configure(players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
              options: Mapping[str, str] | None = None) -> KirkConfig:
    """The checked set-up; raises `ConfigError` (K1, K8) with `tag` naming the tag at fault.

    `options` holds the `Hands` or `Target` tag's text; other keys are not
    Kirk's and are ignored.
    """
    words = tuple(word for word in (str(v).strip() for v in variants) if word)
    given = options or {}
    return _configure(tuple(players), words, dealer, given.get("Hands"), given.get("Target"))


@lru_cache(maxsize=256)
def _configure(players: tuple[str, ...], variants: tuple[str, ...], dealer: str | int | None,
               hands_text: str | None, target_text: str | None) -> KirkConfig:
    """Configurations are values: the same set-up is derived once."""
    names = check_players(players, (PLAYERS,), rule="K1", game="Kirk's Diamonds")
    if variants:
        raise ConfigError(f"Kirk's Diamonds has no variants (not {', '.join(variants)}): "
                          "each of the four plays for themselves with the whole pack", rule="K1", tag="Variant")
    if hands_text is not None and target_text is not None:
        raise ConfigError("a game of Kirk's Diamonds lasts a number of hands or up to a target score, "
                          "not both (give Hands or Target)", rule="K8", tag="Target")
    hands: int | None = DEFAULT_HANDS
    target: int | None = None
    if hands_text is not None:
        hands = _positive(hands_text, "Hands", "the number of hands")
    if target_text is not None:
        hands = None
        target = _positive(target_text, "Target", "the target score")
    sides, side_of = solo_sides(PLAYERS)
    return KirkConfig(
        rules=RULES_ID,
        players=names,
        first_dealer=dealer_seat(names, dealer),
        sides=sides,
        side_of=side_of,
        hands=hands,
        target=target,
    )


def _positive(text: str, tag: str, what: str) -> int:
    """A tag's value that must be a positive whole number (K8)."""
    stripped = text.strip()
    if not _WHOLE_NUMBER.match(stripped) or int(stripped) < 1:
        raise ConfigError(f"{what} must be a positive whole number, not {text!r}", rule="K8", tag=tag)
    return int(stripped)
