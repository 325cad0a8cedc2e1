"""Bots against bots: seats rotated game by game, every game a DGN record, standings per bot.

Everything random in game `g` comes from `random.Random(f"{seed}:{g}")` (the
deals, then one seed per seat for its bot), so the games and the standings
depend on the seed only, never on how many processes play them.

With `duplicate`, the deals are shared as in duplicate bridge: each deal is
played once per rotation of the bots (`len(bots)` games in a row), so that every
bot holds every seat's cards of it and the luck of the cards cancels out of a
comparison made deal by deal. The cards and the dealer of game `g` then come from
`random.Random(f"{seed}:deal {g // len(bots)}")`, the bots' seeds still from game `g`'s own.

A game's record names its bots in a `Bots` tag, one `player=bot` word per seat
in seat order (`[Bots "Ann=mc Bob=greedy Cat=greedy Dan=random"]`).

Beside the standings, `paired_leads` compares each bot with the others game by game: in each game, the
mean score of its seats less the mean score of the other bots' seats, averaged over the games of a deal,
with Student's t interval over the deals. The cards' luck is the same on both sides of each difference,
so this says at 95% whether one bot beats the others, where two means' separate intervals may overlap.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import diamonds
from diamonds.core.simulate import default_names
from diamonds.replay.intervals import t_point, wilson

from . import make_bot

__all__ = ["ArenaSetup", "GameResult", "BotStanding", "PairedLead", "play_game", "seat_bots", "deal_of", "standings",
           "paired_leads", "bots_tag", "format_standings", "format_leads"]


@dataclass(frozen=True)
class ArenaSetup:
    rules: str
    players: int
    bots: tuple[str, ...]  # one bot spec per seat of game 0; rotated one seat per game
    seed: int
    variants: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    names: tuple[str, ...] = ()  # the players' names in seat order (default: Ann, Bob, …)
    duplicate: bool = False  # each deal played once per rotation of the bots (see the module)


@dataclass(frozen=True)
class GameResult:
    number: int
    bots: tuple[str, ...]  # per seat
    scores: tuple[int, ...]  # per seat: their side's final score
    winners: tuple[bool, ...]  # per seat
    text: str  # the game's DGN


def seat_bots(setup: ArenaSetup, number: int) -> tuple[str, ...]:
    """Game `number`'s bot per seat: the list rotated `number` seats, so each bot sits everywhere in turn."""
    shift = number % len(setup.bots)
    return tuple(setup.bots[(seat - shift) % len(setup.bots)] for seat in range(setup.players))


def deal_of(setup: ArenaSetup, number: int) -> int:
    """The deal game `number` plays: its own, or with `duplicate` the one its rotation of the bots shares."""
    return number // len(setup.bots) if setup.duplicate else number


def bots_tag(players: Sequence[str], bots: Sequence[str]) -> str:
    return " ".join(f"{name}={bot}" for name, bot in zip(players, bots))


def play_game(setup: ArenaSetup, number: int) -> GameResult:
    """Game `number` of the arena, played from its own seed (see the module)."""
    rng = random.Random(f"{setup.seed}:{number}")
    names = setup.names or default_names(setup.players)
    bots = seat_bots(setup, number)
    players = [make_bot(spec, seed=rng.randrange(2**63)) for spec in bots]
    if setup.duplicate:  # the cards and the dealer of the deal, alike in each of its rotations
        rng = random.Random(f"{setup.seed}:deal {deal_of(setup, number)}")
    dealer = rng.randrange(setup.players)
    position = diamonds.Position(setup.rules, names, dealer=dealer, variants=setup.variants,
                                 options=dict(setup.options) or None)
    while not position.is_over:
        if position.is_chance:
            position.deal(rng)
            continue
        seat = position.to_move_seat
        assert seat is not None  # not a chance move, not over
        position.push(players[seat].choose(position.view(seat)))
    scores = [0] * setup.players
    winners = [False] * setup.players
    for standing in position.standings:
        for name in standing.players:
            seat = position.seat(name)
            assert standing.score is not None  # the whole position's standings hide nothing
            scores[seat], winners[seat] = standing.score, bool(standing.winner)
    tags = {"Event": "Diamonds bots arena", "Round": str(number + 1), "Seed": f"{setup.seed}:{number}",
            "Bots": bots_tag(names, bots)}
    return GameResult(number, bots, tuple(scores), tuple(winners), str(position.game(tags)))


@dataclass
class BotStanding:
    bot: str
    games: int = 0  # seat-games: a bot in two seats of one game plays two
    wins: int = 0
    scores: list[float] = field(default_factory=list)
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def interval(self) -> float:
        """Half the width of the mean's 95% interval (normal approximation)."""
        n = len(self.scores)
        if n < 2:
            return math.inf
        mean = self.mean
        variance = sum((x - mean) ** 2 for x in self.scores) / (n - 1)
        return 1.96 * math.sqrt(variance / n)

    @property
    def rating(self) -> float:
        """openskill's conservative rating, mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def standings(results: Iterable[GameResult]) -> list[BotStanding]:
    """Per bot: seat-games, wins, scores, and an openskill (Plackett-Luce) rating from every game's order
    of scores, games taken in order (so the ratings too depend on the seed only). A bot in several
    seats of one game is rated once per seat, and keeps the mean of its updated ratings."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table: dict[str, BotStanding] = {}
    for result in results:
        for bot, score, won in zip(result.bots, result.scores, result.winners):
            entry = table.setdefault(bot, BotStanding(bot))
            entry.games += 1
            entry.wins += won
            entry.scores.append(score)
        teams = [[model.rating(mu=table[bot].mu, sigma=table[bot].sigma)] for bot in result.bots]
        rated = model.rate(teams, scores=list(result.scores))
        updates: dict[str, list[Any]] = {}
        for bot, (rating,) in zip(result.bots, rated):
            updates.setdefault(bot, []).append(rating)
        for bot, ratings in updates.items():
            table[bot].mu = sum(r.mu for r in ratings) / len(ratings)
            table[bot].sigma = sum(r.sigma for r in ratings) / len(ratings)
    return sorted(table.values(), key=lambda s: -s.rating)


def format_standings(rows: Sequence[BotStanding]) -> str:
    """The standings as a table: per bot its seat-games, wins, share of wins with its 95% interval (Wilson's, over
    the bot's seats), mean score with its 95% interval, and rating."""
    lines = [f"{'bot':<10} {'games':>6} {'wins':>6} {'win%':>6} {'win% 95%':>13} {'mean score':>18} {'rating':>8}"]
    for row in rows:
        share = 100.0 * row.wins / row.games if row.games else 0.0
        low, high = wilson(row.wins, row.games) or (0.0, 1.0)
        shares = f"{100 * low:.1f}-{100 * high:.1f}"
        mean = f"{row.mean:.1f} ± {row.interval:.1f}"
        lines.append(f"{row.bot:<10} {row.games:>6} {row.wins:>6} {share:>5.1f}% {shares:>13} {mean:>18} "
                     f"{row.rating:>8.2f}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class PairedLead:
    """One bot against the others' seats, deal by deal (`paired_leads`): the mean lead per deal in points, and
    half the width of its 95% interval (Student's t over the deals; infinite below 3 deals)."""

    bot: str
    deals: int
    lead: float
    interval: float

    @property
    def low(self) -> float:
        return self.lead - self.interval

    @property
    def high(self) -> float:
        return self.lead + self.interval


def paired_leads(games_by_deal: Iterable[tuple[Hashable, GameResult]]) -> list[PairedLead]:
    """Per bot, its lead over the other bots' seats (see the module), from each game with its deal (the games
    that share a deal share its key): in each game where it sits beside another bot, the mean score of its seats
    less the mean of the others'; per deal, the mean of its games; over the deals, the mean and its 95% interval.
    Bots in the order they first sit."""
    games: dict[str, dict[Hashable, list[float]]] = {}
    for deal, result in games_by_deal:
        for bot in dict.fromkeys(result.bots):
            mine = [score for seat_bot, score in zip(result.bots, result.scores) if seat_bot == bot]
            others = [score for seat_bot, score in zip(result.bots, result.scores) if seat_bot != bot]
            if others:
                games.setdefault(bot, {}).setdefault(deal, []).append(
                    statistics.fmean(mine) - statistics.fmean(others))
    leads = []
    for bot, by_deal in games.items():
        per_deal = [statistics.fmean(values) for values in by_deal.values()]
        count = len(per_deal)
        half = (t_point(count - 1) * statistics.stdev(per_deal) / math.sqrt(count)) if count > 2 else math.inf
        leads.append(PairedLead(bot, count, statistics.fmean(per_deal), half))
    return leads


def format_leads(rows: Sequence[PairedLead], unit: str) -> str:
    """The leads as a table: per bot its `unit`s (deals, or games), its lead per one and the 95% interval."""
    lines = [f"lead over the other bots' seats, per {unit} (95%, Student's t over the {unit}s):",
             f"{'bot':<10} {unit + 's':>6} {'lead':>8} {'95% interval':>20}"]
    for row in rows:
        interval = f"[{row.low:+.2f}, {row.high:+.2f}]" if math.isfinite(row.interval) else "(too few)"
        lines.append(f"{row.bot:<10} {row.deals:>6} {row.lead:>+8.2f} {interval:>20}")
    return "\n".join(lines)
