"""A game's configuration: everything the rules derive from the set-up, once.

`GameConfig.create` checks the combination (rule set, variants, player count)
and derives rounds, hand size, tricks, deck and teams, so that the engine never
recomputes or re-checks them mid-game.
"""

from __future__ import annotations

import enum
import re
from functools import lru_cache
from dataclasses import dataclass
from typing import Iterable

from .cards import Card, deck

__all__ = ["Variant", "GameConfig", "ConfigError", "PLAYER_ID"]

PLAYER_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}\Z")

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


class ConfigError(ValueError):
    """A set-up the rules do not allow (e.g. `perfect` with 6 players)."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The checked, derived set-up of one game.

    Seats are indices into `players` (R1: clockwise, left = next seat).
    A *side* scores together: a player, or a team with `partnership`.
    """

    rules: str
    players: tuple[str, ...]
    variants: frozenset[Variant]
    first_dealer: int
    rounds: int
    hand_size: int
    tricks_per_round: int
    plays_per_trick: int
    deck: tuple[Card, ...]
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    pass_targets: tuple[int, ...]  # R6, per seat
    uses_thief: bool
    dealer_leads: bool
    thief_resets_each_round: bool

    @classmethod
    def create(
        cls,
        players: Iterable[str],
        *,
        rules: str = "2e",
        variants: Iterable[Variant | str] = (),
        dealer: str | int | None = None,
    ) -> "GameConfig":
        variant_set = frozenset(v if isinstance(v, Variant) else _parse_variant(v) for v in variants)
        return _create(cls, tuple(players), rules, variant_set, dealer)

    @classmethod
    def _derive(cls, players: tuple[str, ...], rules: str, variant_set: frozenset[Variant],
                dealer: str | int | None) -> "GameConfig":
        from .rulesets import rule_set  # the registry knows the rule sets' class variables

        ruleset = rule_set(rules)
        n = len(players)
        if not 2 <= n <= 6:
            raise ConfigError(f"Diamonds is for 2 to 6 players, not {n}")
        for name in players:
            if not PLAYER_ID.match(name):
                raise ConfigError(
                    f"{name!r} is not a player id (a letter, then up to 15 letters, digits, _ or -)"
                )
        folded = [name.casefold() for name in players]
        if len(set(folded)) != n:
            twice = next(name for name in players if folded.count(name.casefold()) > 1)
            raise ConfigError(f"player {twice!r} is seated twice (ids must differ ignoring case)")
        partnership = Variant.PARTNERSHIP in variant_set
        perfect = Variant.PERFECT in variant_set
        if partnership and n not in (4, 6):
            raise ConfigError(f"the partnership variant needs 4 or 6 players, not {n}")
        if perfect and n not in PERFECT_DEAL:
            raise ConfigError(f"the perfect variant is for 2 to 5 players, not {n}")

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

        if dealer is None:
            first_dealer = 0
        elif isinstance(dealer, int):
            if not 0 <= dealer < n:
                raise ConfigError(f"dealer seat {dealer} does not exist")
            first_dealer = dealer
        else:
            try:
                first_dealer = folded.index(dealer.casefold())
            except ValueError:
                raise ConfigError(f"dealer {dealer!r} is not one of the players") from None

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
    def player_count(self) -> int:
        return len(self.players)

    @property
    def partnership(self) -> bool:
        return Variant.PARTNERSHIP in self.variants

    @property
    def perfect(self) -> bool:
        return Variant.PERFECT in self.variants

    @property
    def side_count(self) -> int:
        return len(self.sides)

    def left_of(self, seat: int) -> int:
        """R1: the next seat clockwise."""
        return (seat + 1) % len(self.players)

    def pass_target(self, seat: int) -> int:
        """R6: left neighbour; the partner with `partnership`; the opponent with 2 players."""
        return self.pass_targets[seat]

    def dealer_of_round(self, round_no: int) -> int:
        """R4: the dealer moves one seat left each round (rounds count from 1)."""
        return (self.first_dealer + round_no - 1) % len(self.players)

    def seat_of(self, name: str) -> int | None:
        """The seat of a player id, matched exactly or else ignoring case."""
        try:
            return self.players.index(name)
        except ValueError:
            folded = name.casefold()
            for seat, player in enumerate(self.players):
                if player.casefold() == folded:
                    return seat
            return None

    def side_name(self, side: int) -> str:
        """A side as DGN writes it: `Ann`, or `Ann+Cat` for a team."""
        return "+".join(self.players[seat] for seat in self.sides[side])

    def start_showroom(self, side: int) -> int:
        """R2: 3 points per member."""
        return START_SHOWROOM_PER_PLAYER * len(self.sides[side])

    @property
    def variant_text(self) -> str:
        return ",".join(v.value for v in Variant if v in self.variants)


@lru_cache(maxsize=256)
def _create(cls: type[GameConfig], players: tuple[str, ...], rules: str, variant_set: frozenset[Variant],
            dealer: str | int | None) -> GameConfig:
    """Configurations are values: the same set-up is derived once (an archive repeats its set-ups)."""
    return cls._derive(players, rules, variant_set, dealer)


def _parse_variant(text: str) -> Variant:
    try:
        return Variant(text.strip().lower())
    except ValueError:
        known = ", ".join(v.value for v in Variant)
        raise ConfigError(f"unknown variant {text!r} (known: {known})") from None
