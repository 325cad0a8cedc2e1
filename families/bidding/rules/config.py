"""The set-up of a three-handed bidding game: three seats, a dealer, and the sizes B2 fixes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from diamonds.core.cards import AnyCard
from diamonds.core.seating import ConfigError, Seating, check_players, dealer_seat, solo_sides

from .deck import DECK

__all__ = [
    "BiddingConfig", "PLAYERS", "HAND_SIZE", "KITTY_SIZE", "TRICKS_PER_HAND", "MAX_BID", "FORBIDDEN_TOTAL",
    "GAME_END_HIGH", "GAME_END_LOW", "RULES_ID",
]

RULES_ID = "bidding"
#: B1: exactly three players.
PLAYERS = 3
#: B2: ten cards to each player, three to the kitty.
HAND_SIZE = 10
KITTY_SIZE = 3
#: B6: a hand is ten tricks of one card per player.
TRICKS_PER_HAND = 10
#: B3, B5: a bid is a number of tricks from 0 to 10.
MAX_BID = 10
#: B3, B5: the dealer may not bring the total of the bids to exactly this.
FORBIDDEN_TOTAL = 10
#: B10: the game ends after a hand in which a total is at least 100 or at most -100.
GAME_END_HIGH = 100
GAME_END_LOW = -100


@dataclass(frozen=True, slots=True)
class BiddingConfig(Seating):
    """The checked set-up: three solo sides (side = seat), the pack and its sizes."""

    deck: tuple[AnyCard, ...] = DECK
    hand_size: int = HAND_SIZE
    kitty_size: int = KITTY_SIZE
    tricks_per_hand: int = TRICKS_PER_HAND
    plays_per_trick: int = PLAYERS

    @classmethod
    def create(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
               options: Mapping[str, str] | None = None) -> BiddingConfig:
        """B1: exactly three players, no variant; the first dealer as given (the first player if not)."""
        names = check_players(players, (PLAYERS,), rule="B1", game="Three-handed bidding Diamonds")
        given = [v.strip() for v in variants if v.strip()]
        if given:
            raise ConfigError(
                f"no variant applies to three-handed bidding Diamonds (given: {', '.join(given)})",
                rule="B1", tag="Variant",
            )
        for tag in options or {}:
            # The family reads no option tags: `Hands` and `Target` are Kirk's alone.
            raise ConfigError(f"the {tag} tag does not apply to three-handed bidding Diamonds", tag=tag)
        sides, side_of = solo_sides(PLAYERS)
        return cls(rules=RULES_ID, players=names, first_dealer=dealer_seat(names, dealer), sides=sides,
                   side_of=side_of)

    def turn_order(self, dealer: int) -> tuple[int, ...]:
        """B3: from the dealer's left round to the dealer, who is last (made once per table size and dealer: every
        look at whose call is due reads it)."""
        n = len(self.players)
        found = _TURN_ORDERS.get((n, dealer))
        if found is None:
            found = _TURN_ORDERS[n, dealer] = tuple([(dealer + step) % n for step in range(1, n + 1)])
        return found


#: `turn_order` by (players, dealer).
_TURN_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}
