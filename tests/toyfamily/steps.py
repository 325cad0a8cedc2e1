"""The toy replay stops: the table folded from the events, cut by the generic `cut_steps`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diamonds.core import Card, Standing, sort_cards
from diamonds.replay.steps import Step, cut_steps, marks_of

from .rules import CardPlayed, CardsDealt, GameEnded, RoundScored, RoundStarted, ToyConfig, TrickWon


@dataclass(frozen=True, slots=True)
class Table:
    config: ToyConfig
    round_no: int
    dealer: int
    trick_no: int
    trick: tuple[tuple[int, Card], ...]
    trick_winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    won: tuple[int, ...]
    totals: tuple[int, ...]
    standings: tuple[Standing, ...] = ()


class _Fold:
    def __init__(self, config: ToyConfig) -> None:
        self.config = config
        self.round_no, self.dealer, self.trick_no = 1, config.first_dealer, 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_winner: int | None = None
        self.hands: list[set[Card]] = [set(), set()]
        self.won, self.totals = [0, 0], [0, 0]
        self.standings: tuple[Standing, ...] = ()

    def apply(self, event: Any) -> None:
        if isinstance(event, RoundStarted):
            self.round_no, self.dealer, self.trick_no, self.trick, self.trick_winner = event.round_no, event.dealer, 0, [], None
            self.won = [0, 0]
        elif isinstance(event, CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
        elif isinstance(event, CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.trick_no = [], None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            self.trick_winner = event.winner
            self.won[event.winner] += 1
        elif isinstance(event, RoundScored):
            self.totals = list(event.totals)
        elif isinstance(event, GameEnded):
            self.standings = event.standings

    def freeze(self) -> Table:
        return Table(self.config, self.round_no, self.dealer, self.trick_no, tuple(self.trick), self.trick_winner,
                     tuple(sort_cards(hand) for hand in self.hands), tuple(self.won), tuple(self.totals),
                     self.standings)


MARKS = marks_of(RoundStarted, CardPlayed, RoundScored)


def build_steps(replayed: Any) -> list[Step]:
    return cut_steps(replayed.game.events, _Fold(replayed.config), MARKS)
