"""`diamonds ratings`: players rated game by game with openskill's Plackett-Luce model.

Games are the complete valid ones of `players.played_games`, taken in date
order (the Date tag, `YYYY.MM.DD`; a game without a full date comes after
the dated ones), then in input order (file order, then the game's place in
its file). Each side is a team of its players; sides are ranked by their
place (a shared win is a tie at rank 1). Names are matched exactly, after
the aliases (`parse_aliases`) map other spellings to one name.

openskill is the `ratings` extra; `require_openskill` says so in one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .arrow import MissingExtra
from .players import PlayedGame

__all__ = ["RatingRow", "RatingPoint", "Ratings", "rate", "parse_aliases", "require_openskill", "AliasError",
           "RATINGS_MISSING", "date_key"]

RATINGS_MISSING = 'ratings need openskill: pip install "diamonds[ratings]"'
_FULL_DATE = re.compile(r"\d{4}\.\d{2}\.\d{2}\Z")


class AliasError(ValueError):
    pass


def require_openskill() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise MissingExtra("openskill", "ratings", RATINGS_MISSING) from None
    return PlackettLuce


def parse_aliases(text: str, source: str = "aliases") -> dict[str, str]:
    """Lines `Canonical: alias1, alias2` as {alias: canonical}; blank lines and `#` comments are skipped.

    A name given two canonical spellings, or a line without a colon, is an `AliasError` (file:line)."""
    found: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise AliasError(f"{source}:{number}: expected `Canonical: alias1, alias2`, got {raw.strip()!r}")
        canonical, rest = (part.strip() for part in line.split(":", 1))
        if not canonical:
            raise AliasError(f"{source}:{number}: no canonical name before the colon")
        for alias in (a.strip() for a in rest.split(",")):
            if not alias or alias == canonical:
                continue
            if found.get(alias, canonical) != canonical:
                raise AliasError(f"{source}:{number}: {alias!r} is already an alias of {found[alias]!r}")
            # One step from an alias to its player: a chain (or a cycle, which swapped two players' ratings)
            # would make a name both a player and another player's alias.
            if canonical in found:
                raise AliasError(f"{source}:{number}: {canonical!r} is an alias of {found[canonical]!r}: write "
                                 f"{alias!r} on that player's line")
            if alias in found.values():
                raise AliasError(f"{source}:{number}: {alias!r} has aliases of its own: write them on "
                                 f"{canonical!r}'s line")
            found[alias] = canonical
    return found


def date_key(game: PlayedGame) -> tuple[int, str, int]:
    """Dated games first, by date; then input order."""
    date = game.date or ""
    return (0, date, game.order) if _FULL_DATE.match(date) else (1, "", game.order)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one game (`index`: the game's place in the rated order, from 1)."""

    index: int
    date: str | None
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingRow:
    player: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative rating: mu - 3 sigma (openskill's `ordinal`)."""
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict[str, Any]:
        return {"player": self.player, "rating": round(self.mu, 4), "sigma": round(self.sigma, 4),
                "ordinal": round(self.ordinal, 4), "games": self.games}


@dataclass(frozen=True, slots=True)
class Ratings:
    model: str
    games: int  # games rated
    skipped: tuple[str, ...]  # why some games were not rated (a name twice in one game after the aliases)
    rows: tuple[RatingRow, ...]  # best ordinal first
    history: Mapping[str, tuple[RatingPoint, ...]]

    def as_dict(self) -> dict[str, Any]:
        return {"version": 1, "model": self.model, "games": self.games,
                "players": [row.as_dict() for row in self.rows]}


def rate(games: Iterable[PlayedGame], aliases: Mapping[str, str] | None = None) -> Ratings:
    """Rate `games` (in date order, then input order) with Plackett-Luce; sides are teams of players."""
    model = require_openskill()()
    aliases = aliases or {}
    ratings: dict[str, Any] = {}
    counts: dict[str, int] = {}
    history: dict[str, list[RatingPoint]] = {}
    skipped: list[str] = []
    rated = 0
    for game in sorted(games, key=date_key):
        sides = [[aliases.get(name, name) for name in side] for side in game.sides]
        names = [name for side in sides for name in side]
        if len(set(names)) != len(names):
            twice = sorted({name for name in names if names.count(name) > 1})
            given = {alias for side in game.sides for alias in side if aliases.get(alias, alias) in twice}
            skipped.append(f"{game.file}: game {game.game}: {', '.join(twice)} "
                           f"{'is' if len(twice) == 1 else 'are'} on the board twice after the aliases "
                           f"(played as {', '.join(sorted(given))})")
            continue
        rated += 1
        teams = [[ratings.get(name) or model.rating(name=name) for name in side] for side in sides]
        new = model.rate(teams, ranks=list(game.places))
        for side, team in zip(sides, new):
            for name, found in zip(side, team):
                ratings[name] = found
                counts[name] = counts.get(name, 0) + 1
                history.setdefault(name, []).append(RatingPoint(rated, game.date, found.mu, found.sigma))
    rows = sorted((RatingRow(name, r.mu, r.sigma, counts[name]) for name, r in ratings.items()),
                  key=lambda row: (-row.ordinal, row.player))
    return Ratings("Plackett-Luce (openskill)", rated, tuple(skipped), tuple(rows),
                   {name: tuple(points) for name, points in history.items()})
