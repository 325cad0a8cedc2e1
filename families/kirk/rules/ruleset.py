"""`Kirk`: Alan Kirk's game behind the engine's family protocol, over the functions of `engine.py`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import ClassVar

from diamonds.core import AnyCard, Card
from diamonds.core.family import EngineFunctions, EngineRules, MoveTextFunctions, PlayerFunctions
from diamonds.core.seating import names_text
from diamonds.core.trick import TrickRulings

from . import engine, movetext, solver
from .config import KirkConfig, configure
from .fast import KirkTable
from .rules import first_leader, trick_winner
from .state import Phase, State

__all__ = ["Kirk"]


class Kirk(EngineRules):
    """Alan Kirk's four-player Diamonds (rulings K1-K8)."""

    id: ClassVar[str] = "kirk"
    family: ClassVar[str] = "kirk"
    title: ClassVar[str] = "Alan Kirk's four-player Diamonds"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_players: ClassVar[int] = 4
    variants: ClassVar[tuple[str, ...]] = ()
    option_tags: ClassVar[tuple[str, ...]] = ("Hands", "Target")
    rounds_word: ClassVar[str] = "hand"
    seats_rule: ClassVar[str | None] = "K1"
    #: Its rulings as the house's replay of a plain trick game cites them (diamonds.replay.trickgame): K2 says what
    #: a hand is (the pack, the deal, who deals), K3 that a card's value is fixed, K4 how tricks are played.
    rulings: ClassVar[TrickRulings] = TrickRulings(deal="K2", items="K2", tricks="K4", play="K3", winner="K5",
                                                   score="K7", length="K8")
    #: K4: any card held may be played, so a card of another suit shows no void.
    follows_suit: ClassVar[bool] = False
    #: K4: one seat plays at a time.
    decides_at_once: ClassVar[bool] = False

    engine_module: ClassVar[EngineFunctions] = engine
    player_module: ClassVar[PlayerFunctions] = engine  # random_move
    movetext_module: ClassVar[MoveTextFunctions] = movetext

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> KirkConfig:
        return configure(players, variants=variants, dealer=dealer, options=options)

    @classmethod
    def table(cls, state: State, *, record: bool = True) -> KirkTable:
        """The mutable table (`fast.KirkTable`): the same decisions as `apply`, without a state per card."""
        return KirkTable(state, record=record)

    @classmethod
    def pack_text(cls, config: KirkConfig) -> str:
        """The pack in words, for a card of no pack (K2)."""
        return engine.deck_text(config)

    @classmethod
    def over_text(cls, config: KirkConfig, state: State, tags: Mapping[str, str]) -> str:
        """Why no hand follows (K8): the target reached, or the hands played (as the record's `tags` set them)."""
        if config.target is not None:
            reached = [config.players[seat] for seat, total in enumerate(state.totals) if total >= config.target]
            return (f"the game is over: {names_text(reached)} reached the target of {config.target} in hand {state.hand_no}, so "
                    "no hand follows")
        hands = config.hands
        why = "as the Hands tag says" if "Hands" in tags else \
            f"without a Hands or Target tag, the game lasts {hands} hands"
        return f"the game is over after {hands} hand{'s' if hands != 1 else ''} ({why})"

    @classmethod
    def trick_seats(cls, config: KirkConfig, dealer: int,
                    tricks: Sequence[Sequence[AnyCard]]) -> tuple[list[tuple[int, ...]], int]:
        """Who played each card of a hand's first `tricks` (from the cards alone), and who leads the trick after
        them: the dealer's left neighbour leads first (K4), each whole trick's winner next, ties broken by the
        piles of the cards won before in the hand (K5, K6)."""
        n, per_trick = config.player_count, config.plays_per_trick
        leader = first_leader(config, dealer)
        piles: list[list[Card]] = [[] for _ in range(n)]
        seats_by_trick = []
        for written in tricks:
            cards = written[:per_trick]
            seats = tuple((leader + i) % n for i in range(len(cards)))
            seats_by_trick.append(seats)
            if len(cards) == per_trick:
                leader, _ = trick_winner(tuple(zip(seats, cards)), piles)  # type: ignore[arg-type]
                piles[leader].extend(cards)  # type: ignore[arg-type]
        return seats_by_trick, leader

    @classmethod
    def solver_key(cls, state: State) -> Hashable:
        """Cards as value and points, piles as the top values a tie-break may still read (`solver`)."""
        return solver.solver_key(state)

    @classmethod
    def solver_scores(cls, state: State) -> tuple[int, ...]:
        """In play, the totals with the piles' points so far (K7), so that the key can leave those out."""
        return solver.solver_scores(state)

    @classmethod
    def endgame(cls, state: State) -> solver.KirkEndgame | None:
        """The hand in play as a `KirkEndgame` (cards played and taken back in place); None outside play."""
        return solver.KirkEndgame(state) if state.phase is Phase.PLAY else None
