"""What every family's configuration has: the players in their seats, the sides, the first dealer.

A family's own configuration subclasses `Seating` and adds what its rules
derive from the set-up. The generic layers (the replay driver, the export,
the command) need no more than this to name players and sides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import PicklableError

__all__ = ["Seating", "ConfigError", "PLAYER_ID", "check_players", "players_wanted", "dealer_seat", "solo_sides",
           "names_text"]

PLAYER_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,15}\Z")


class ConfigError(PicklableError, ValueError):
    """A set-up the rules do not allow (e.g. `perfect` with 6 players, or 3 players for `kirk`).

    `rule` names the ruling (K1, B1…) where one decides it; `tag` the tag
    whose value is at fault, where it is not Players (e.g. "Hands").
    """

    def __init__(self, message: str, *, rule: str | None = None, tag: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.tag = tag


@dataclass(frozen=True, slots=True)
class Seating:
    """Seats are indices into `players` (clockwise: left is the next seat).

    A *side* scores together: a player, or a team. `rules` is the `Rules`
    tag's value that names the rule set.
    """

    rules: str
    players: tuple[str, ...]
    first_dealer: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def side_count(self) -> int:
        return len(self.sides)

    @property
    def teams(self) -> bool:
        """Some side has more than one player."""
        return any(len(side) > 1 for side in self.sides)

    def left_of(self, seat: int) -> int:
        """The next seat clockwise."""
        return (seat + 1) % len(self.players)

    def dealer_of_round(self, round_no: int) -> int:
        """The deal moves one seat left each round (rounds count from 1)."""
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


def players_wanted(counts: Sequence[int]) -> str:
    """How many players a game seats, as its refusal says it: `exactly 4`, `2 to 6`."""
    return f"exactly {counts[0]}" if len(counts) == 1 else f"{min(counts)} to {max(counts)}"


def check_players(players: Iterable[str], counts: Iterable[int], *, rule: str | None = None,
                  game: str = "Diamonds") -> tuple[str, ...]:
    """Player ids that are ids, distinct ignoring case, and as many as the game seats."""
    names = tuple(players)
    allowed = tuple(counts)
    n = len(names)
    if n not in allowed:
        raise ConfigError(f"{game} is for {players_wanted(allowed)} players, not {n}", rule=rule)
    for name in names:
        if not PLAYER_ID.match(name):
            raise ConfigError(f"{name!r} is not a player id (a letter, then up to 15 letters, digits, _ or -)")
    folded = [name.casefold() for name in names]
    if len(set(folded)) != n:
        twice = next(name for name in names if folded.count(name.casefold()) > 1)
        raise ConfigError(f"player {twice!r} is seated twice (ids must differ ignoring case)")
    return names


def dealer_seat(players: tuple[str, ...], dealer: str | int | None) -> int:
    """The first dealer's seat: the first player when not given."""
    if dealer is None:
        return 0
    if isinstance(dealer, int):
        if not 0 <= dealer < len(players):
            raise ConfigError(f"dealer seat {dealer} does not exist")
        return dealer
    folded = [name.casefold() for name in players]
    try:
        return folded.index(dealer.casefold())
    except ValueError:
        raise ConfigError(f"dealer {dealer!r} is not one of the players") from None


def solo_sides(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Sides and side_of when everyone plays for themselves."""
    return tuple((seat,) for seat in range(n)), tuple(range(n))


def names_text(names: Sequence[str]) -> str:
    """Players' names as a sentence lists them: `Ann`, `Ann and Bob`, `Ann, Bob and Cat` (none: "")."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
