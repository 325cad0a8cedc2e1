"""A Fitzgerald game's configuration: everything the rules derive from the set-up, once.

`GameConfig.create` checks the combination (edition, variants, player count)
and derives rounds, hand size, tricks, deck and teams, so that the engine never
recomputes or re-checks them mid-game. The edition is passed in as its `Rules`
class, whose class variables are the editions' differences (R7, R13, R15).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import ClassVar, Protocol

from diamonds.core.cards import Card, numbered_cards
from diamonds.core.seating import ConfigError, Seating, check_players, dealer_seat

__all__ = ["Variant", "GameConfig", "ConfigError", "Edition", "deck"]

#: R4: rounds per game by player count.
ROUNDS_BY_PLAYERS = {2: 4, 3: 6, 4: 4, 5: 5, 6: 6}
#: R5: with `perfect`, (hand size, highest rank kept) by player count.
PERFECT_DEAL = {5: (12, 15), 4: (13, 13), 3: (12, 9), 2: (16, 8)}
STANDARD_HAND = 10
#: R2: Showroom points per player at the start.
START_SHOWROOM_PER_PLAYER = 3
#: R3: 110 one-point and 25 five-point crystals.
TOTAL_POINTS = 110 + 25 * 5
PASS_COUNTS = (1, 2, 3)


class Variant(enum.Enum):
    PARTNERSHIP = "partnership"
    PERFECT = "perfect"

    def __repr__(self) -> str:
        return f"Variant.{self.name}"


@cache
def deck(max_rank: int = 15) -> tuple[Card, ...]:
    """R5: the numbered cards 1..max_rank in every suit, in sort order."""
    return numbered_cards(1, max_rank)


class Edition(Protocol):
    """What the configuration reads of an edition's `Rules` class: its id and its differences."""

    id: ClassVar[str]
    clubs_uses_thief: ClassVar[bool]  # R13 vs R14
    dealer_leads: ClassVar[bool]  # R7
    thief_resets_each_round: ClassVar[bool]  # R15


@dataclass(frozen=True, slots=True)
class GameConfig(Seating):
    """The checked, derived set-up of one game.

    Seats are indices into `players` (R1: clockwise, left = next seat).
    A *side* scores together: a player, or a team with `partnership`.
    """

    variants: frozenset[Variant]
    rounds: int
    hand_size: int
    tricks_per_round: int
    plays_per_trick: int
    deck: tuple[Card, ...]
    pass_targets: tuple[int, ...]  # R6, per seat
    uses_thief: bool
    dealer_leads: bool
    thief_resets_each_round: bool

    @classmethod
    def create(
        cls,
        players: Iterable[str],
        *,
        edition: type[Edition],
        variants: Iterable[Variant | str] = (),
        dealer: str | int | None = None,
    ) -> GameConfig:
        variant_set = frozenset(v if isinstance(v, Variant) else _parse_variant(v) for v in variants)
        return _create(tuple(players), edition, variant_set, dealer)

    @classmethod
    def _derive(cls, players: tuple[str, ...], ruleset: type[Edition], variant_set: frozenset[Variant],
                dealer: str | int | None) -> GameConfig:
        check_players(players, range(2, 7))
        n = len(players)
        partnership = Variant.PARTNERSHIP in variant_set
        perfect = Variant.PERFECT in variant_set
        if partnership and n not in (4, 6):
            raise ConfigError(f"the partnership variant needs 4 or 6 players, not {n}", tag="Variant")
        if perfect and n not in PERFECT_DEAL:
            raise ConfigError(f"the perfect variant is for 2 to 5 players, not {n}", tag="Variant")

        if perfect:
            hand_size, max_rank = PERFECT_DEAL[n]
        else:
            hand_size, max_rank = STANDARD_HAND, 15
        two_player = n == 2
        if partnership:
            half = n // 2
            sides = tuple(tuple(range(team, n, half)) for team in range(half))
        else:
            sides = tuple((seat,) for seat in range(n))
        side_of = tuple(next(i for i, side in enumerate(sides) if seat in side) for seat in range(n))

        first_dealer = dealer_seat(players, dealer)

        return cls(
            rules=ruleset.id,
            players=players,
            variants=variant_set,
            first_dealer=first_dealer,
            rounds=ROUNDS_BY_PLAYERS[n],
            hand_size=hand_size,
            tricks_per_round=hand_size // 2 if two_player else hand_size,  # R11
            plays_per_trick=4 if two_player else n,  # R8
            deck=deck(max_rank),
            sides=sides,
            side_of=side_of,
            pass_targets=tuple((seat + n // 2) % n if partnership else (seat + 1) % n for seat in range(n)),
            # R13 / R14: the Thief only with 3-6 players, no partnership, and a Thief rule set.
            uses_thief=ruleset.clubs_uses_thief and not two_player and not partnership,
            dealer_leads=ruleset.dealer_leads,
            thief_resets_each_round=ruleset.thief_resets_each_round,
        )

    @property
    def partnership(self) -> bool:
        return Variant.PARTNERSHIP in self.variants

    @property
    def perfect(self) -> bool:
        return Variant.PERFECT in self.variants

    def pass_target(self, seat: int) -> int:
        """R6: left neighbour; the partner with `partnership`; the opponent with 2 players."""
        return self.pass_targets[seat]

    def start_showroom(self, side: int) -> int:
        """R2: 3 points per member."""
        return START_SHOWROOM_PER_PLAYER * len(self.sides[side])

    @property
    def variant_text(self) -> str:
        return ",".join(v.value for v in Variant if v in self.variants)


@lru_cache(maxsize=256)
def _create(players: tuple[str, ...], edition: type[Edition], variant_set: frozenset[Variant],
            dealer: str | int | None) -> GameConfig:
    """Configurations are values: the same set-up is derived once (an archive repeats its set-ups)."""
    return GameConfig._derive(players, edition, variant_set, dealer)


def _parse_variant(text: str) -> Variant:
    try:
        return Variant(text.strip().lower())
    except ValueError:
        known = ", ".join(v.value for v in Variant)
        raise ConfigError(f"unknown variant {text!r} (known: {known})", tag="Variant") from None
