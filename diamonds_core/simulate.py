"""A seeded random player: complete, legal games for tests, benchmarks and learners.

Every decision is drawn from `legal_moves`, so a simulated game is legal by
construction and explores the corners (empty Showrooms, victims with nothing
to take, unnamed optional victims) that careful players rarely reach.
"""

from __future__ import annotations

import random
from typing import Iterable

from .config import GameConfig, Variant
from .game import Game
from .moves import ChoosePassCount, ChooseVictim, Deal, Move, PassCards, PlayCard
from .state import Phase, State
from .fitzgerald import playable_cards

__all__ = ["random_deal", "random_move", "play_random_game", "simulate"]


def random_deal(config: GameConfig, rng: random.Random) -> Deal:
    cards = list(config.deck)
    rng.shuffle(cards)
    size = config.hand_size
    return Deal(tuple(tuple(cards[i * size:(i + 1) * size]) for i in range(config.player_count)))


def random_move(state: State, rng: random.Random) -> Move:
    """One random legal move (a random deal at a deal) without listing every pass."""
    phase = state.phase
    if phase is Phase.PLAY:
        return PlayCard(rng.choice(playable_cards(state)))
    if phase is Phase.CHOOSE_VICTIM:
        pending = state.pending
        assert pending is not None
        seats = [seat for side in pending.candidates for seat in state.config.sides[side]]
        if not pending.required and rng.random() < 0.5:
            return ChooseVictim(None)
        return ChooseVictim(rng.choice(seats))
    if phase is Phase.PASSING:
        seat = state.to_move
        assert seat is not None and state.pass_count is not None
        return PassCards(seat, tuple(rng.sample(state.hand(seat), state.pass_count)))
    if phase is Phase.PASS_COUNT:
        return ChoosePassCount(rng.randint(1, 3))
    if phase is Phase.DEAL:
        return random_deal(state.config, rng)
    raise ValueError("the game is over")


def play_random_game(config: GameConfig, rng: random.Random, *, stop_after: int | None = None) -> Game:
    """Play a whole game (or `stop_after` moves) at random."""
    game = Game(config)
    while not game.state.is_over and (stop_after is None or len(game) < stop_after):
        game.push(random_move(game.state, rng))
    return game


def simulate(players: int | Iterable[str] = 4, *, rules: str = "2e", variants: Iterable[Variant | str] = (),
             seed: int | None = None, dealer: str | int | None = None) -> Game:
    """A complete random game; `players` is a count (named Ann, Bob, …) or the ids."""
    names = default_names(players) if isinstance(players, int) else tuple(players)
    rng = random.Random(seed)
    if dealer is None:
        dealer = rng.randrange(len(names))
    game = Game.create(names, rules=rules, variants=variants, dealer=dealer)
    return play_random_game(game.config, rng)


DEFAULT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def default_names(count: int) -> tuple[str, ...]:
    if not 2 <= count <= len(DEFAULT_NAMES):
        from .config import ConfigError

        raise ConfigError(f"Diamonds is for 2 to 6 players, not {count}")
    return DEFAULT_NAMES[:count]
