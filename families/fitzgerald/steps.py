"""Fitzgerald's replay steps: the table folded from the events at each stop.

A step is the deal and passes of a round, one card played (with the Suit
Actions it caused), or the end-of-round awards. The engine's states fall
between moves, and the last card of a round is one move that also runs the
awards, so the table shown at each step is folded from the events instead:
plain bookkeeping of what the events say, no rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from diamonds.core import Card, sort_cards
from diamonds.replay.steps import marks_of, steps_builder

from .rules import TOTAL_POINTS, GameConfig, events, initial_state

__all__ = ["Table", "build_steps"]


@dataclass(frozen=True, slots=True)
class Table:
    """What lies on the table after a step."""

    config: GameConfig
    round_no: int
    dealer: int
    thief: int | None
    pass_count: int | None
    trick_no: int
    trick: tuple[tuple[int, Card], ...]  # the trick in play, or the one just won
    trick_winner: int | None  # set once the trick on the table is complete
    hands: tuple[tuple[Card, ...], ...]
    showroom: tuple[int, ...]
    vault: tuple[int, ...]
    supply: int
    tricks_won: tuple[int, ...]
    taken: tuple[tuple[int, int, int, int], ...]
    passes: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()  # this round: giver, receiver, cards
    results: tuple[events.FitzgeraldResult, ...] = ()  # once the game is over

    @property
    def leader(self) -> int | None:
        return self.trick[0][0] if self.trick else None

    @property
    def led_suit(self):  # type: ignore[no-untyped-def]
        return self.trick[0][1].suit if self.trick else None

    def score(self, side: int) -> int:
        return 2 * self.vault[side] + self.showroom[side]


class _Fold:
    """Mutable bookkeeping while folding events; frozen into a `Table` at each stop."""

    def __init__(self, config: GameConfig) -> None:
        n, sides = config.player_count, config.side_count
        self.config = config
        self.round_no, self.dealer = 1, config.first_dealer
        self.thief: int | None = None
        self.pass_count: int | None = None
        self.trick_no = 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_winner: int | None = None
        self.hands: list[set[Card]] = [set() for _ in range(n)]
        self.showroom = [config.start_showroom(s) for s in range(sides)]
        self.vault = [0] * sides
        self.supply = TOTAL_POINTS - sum(self.showroom)
        self.tricks_won = [0] * n
        self.taken = [[0, 0, 0, 0] for _ in range(sides)]
        self.passes: list[tuple[int, int, tuple[Card, ...]]] = []
        self.results: tuple[events.FitzgeraldResult, ...] = ()

    def apply(self, event: events.Event) -> None:
        if isinstance(event, events.CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.trick_no = [], None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append((event.seat, event.card))
        elif isinstance(event, events.SuitAction):
            self._move(event)
        elif isinstance(event, events.TrickWon):
            self.trick_winner = event.winner
            self.tricks_won[event.winner] += 1
            row = self.taken[self.config.side_of[event.winner]]
            for card in event.cards:
                row[card.suit.index] += 1
        elif isinstance(event, events.RoundStarted):
            n = self.config.player_count
            self.round_no, self.dealer, self.thief = event.round_no, event.dealer, event.thief
            self.pass_count, self.trick_no, self.trick, self.trick_winner = None, 0, [], None
            self.tricks_won = [0] * n
            self.taken = [[0, 0, 0, 0] for _ in range(self.config.side_count)]
            self.passes = []
        elif isinstance(event, events.CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
        elif isinstance(event, events.PassCountChosen):
            self.pass_count = event.count
        elif isinstance(event, events.CardsPassed):
            self.hands[event.giver].difference_update(event.cards)
            self.passes.append((event.giver, event.receiver, event.cards))
        elif isinstance(event, events.PassesDelivered):
            for _, receiver, cards in self.passes:
                self.hands[receiver].update(cards)
        elif isinstance(event, events.GameEnded):
            self.results = event.results
        elif isinstance(event, events.RoundEnded):
            pass

    def _move(self, action: events.SuitAction) -> None:
        if action.thief_after is not None:
            self.thief = action.thief_after
        if not action.points:
            return
        for area, sign in ((action.source, -1), (action.target, +1)):
            if area.kind is events.AreaKind.SUPPLY:
                self.supply += sign * action.points
            elif area.kind is events.AreaKind.SHOWROOM:
                self.showroom[area.side] += sign * action.points  # type: ignore[index]
            else:
                self.vault[area.side] += sign * action.points  # type: ignore[index]

    def freeze(self) -> Table:
        return Table(
            config=self.config, round_no=self.round_no, dealer=self.dealer, thief=self.thief,
            pass_count=self.pass_count, trick_no=self.trick_no, trick=tuple(self.trick),
            trick_winner=self.trick_winner, hands=tuple(sort_cards(h) for h in self.hands),
            showroom=tuple(self.showroom), vault=tuple(self.vault), supply=self.supply,
            tricks_won=tuple(self.tricks_won), taken=tuple(tuple(r) for r in self.taken),  # type: ignore[misc]
            passes=tuple(self.passes), results=self.results,
        )


def _new_fold(config: GameConfig) -> _Fold:
    fold = _Fold(config)
    fold.thief = initial_state(config).thief
    return fold


MARKS = marks_of(events.RoundStarted, events.CardPlayed, events.RoundEnded)
build_steps = steps_builder(_new_fold, MARKS)
