"""Kirk's replay steps: the table folded from the events at each stop.

A step is the deal of a hand, one card played (the fourth with the trick's
winner and, on a tie, how the scoring piles decided it), or the scoring at
the end of a hand. The table at each step is folded from the events: plain
bookkeeping of what the events say (K6: a won trick goes on top of its
winner's pile), the rules themselves stay in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from diamonds.core import Card, sort_cards
from diamonds.replay.steps import marks_of, steps_builder

from .rules import KirkConfig, events, pile_points

__all__ = ["Table", "build_steps"]


@dataclass(frozen=True, slots=True)
class Table:
    """What lies on the table after a step.

    `piles` are the scoring piles of the hand (K6), bottom first, so that
    `pile[-1]` is the top card. `totals` are the scores of the hands scored
    so far: during a hand they leave it out, from its end step on they
    include it (`scored`).
    """

    config: KirkConfig
    hand_no: int
    dealer: int
    trick_no: int  # the trick on the table (0 before the first card of a hand)
    trick: tuple[tuple[int, Card], ...]  # the trick in play, or the one just won: (seat, card)
    trick_winner: int | None  # set once the trick on the table is complete
    tie: events.TieBroken | None  # how a tie on the complete trick was broken (K5)
    hands: tuple[tuple[Card, ...], ...]  # per seat, in display order
    piles: tuple[tuple[Card, ...], ...]  # per seat, bottom first
    totals: tuple[int, ...]
    scored: bool = False  # the hand's points are in `totals`
    standings: tuple[events.KirkResult, ...] = ()  # once the game is over

    @property
    def tricks_won(self) -> tuple[int, ...]:
        per_trick = self.config.plays_per_trick
        return tuple(len(pile) // per_trick for pile in self.piles)

    @property
    def hand_points(self) -> tuple[int, ...]:
        """K7: per seat, what their pile scores (so far, during a hand)."""
        return tuple(pile_points(pile) for pile in self.piles)

    @property
    def over(self) -> bool:
        return bool(self.standings)

    def top(self, seat: int) -> Card | None:
        """The top card of a seat's pile (K6), the first revealed in a tie."""
        pile = self.piles[seat]
        return pile[-1] if pile else None


class _Fold:
    """Mutable bookkeeping while folding events; frozen into a `Table` at each stop."""

    def __init__(self, config: KirkConfig) -> None:
        n = config.player_count
        self.config = config
        self.hand_no, self.dealer = 1, config.first_dealer
        self.trick_no = 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_winner: int | None = None
        self.tie: events.TieBroken | None = None
        self.hands: list[set[Card]] = [set() for _ in range(n)]
        self.piles: list[tuple[Card, ...]] = [() for _ in range(n)]
        self.totals = [0] * n
        self.scored = False
        self.standings: tuple[events.KirkResult, ...] = ()

    def apply(self, event: events.Event) -> None:
        if isinstance(event, events.CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.tie, self.trick_no = [], None, None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append((event.seat, event.card))
        elif isinstance(event, events.TieBroken):
            self.tie = event
        elif isinstance(event, events.TrickWon):
            self.trick_winner = event.winner
            self.piles[event.winner] += event.cards  # K6: on top, in play order
        elif isinstance(event, events.HandStarted):
            n = self.config.player_count
            self.hand_no, self.dealer = event.hand_no, event.dealer
            self.trick_no, self.trick, self.trick_winner, self.tie = 0, [], None, None
            self.piles = [() for _ in range(n)]  # K6: piles start empty every hand
            self.scored = False
        elif isinstance(event, events.CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
        elif isinstance(event, events.HandScored):
            self.totals = list(event.totals)
            self.scored = True
        elif isinstance(event, events.GameEnded):
            self.standings = event.standings

    def freeze(self) -> Table:
        return Table(
            config=self.config, hand_no=self.hand_no, dealer=self.dealer, trick_no=self.trick_no,
            trick=tuple(self.trick), trick_winner=self.trick_winner, tie=self.tie,
            hands=tuple(sort_cards(hand) for hand in self.hands), piles=tuple(self.piles),
            totals=tuple(self.totals), scored=self.scored, standings=self.standings,
        )


MARKS = marks_of(events.HandStarted, events.CardPlayed, events.HandScored, number="hand_no")
build_steps = steps_builder(_Fold, MARKS)
