"""The bidding game's replay steps: the table folded from the events at each stop.

A step is the deal and auction of a hand (the deal, the bids, the takes from
the kitty with the point cards laid, the final bids: `R<k>.0`), one card
played (the third with the trick's winner and why it won), or the scoring
at the end of a hand. The table at each step is plain bookkeeping of what
the events say; the rules themselves (who wins, what scores) stay in the
engine, whose events carry them.
"""

from __future__ import annotations

from dataclasses import dataclass

from diamonds.core import AnyCard, sort_cards
from diamonds.replay.steps import marks_of, steps_builder

from .rules import BiddingConfig, events

__all__ = ["Table", "build_steps"]


@dataclass(frozen=True, slots=True)
class Table:
    """What lies on the table after a step.

    `bids`, `taken`, `point_cards` and `final_bids` are None for a seat that
    has not made that decision in this hand. `kitty` is the kitty as dealt
    (it is empty once every seat has taken, B4; a view shows it while the
    takes matter). `totals` leave the current hand out until its end step
    (`scored`, the engine's per-seat results), which includes them.
    """

    config: BiddingConfig
    hand_no: int
    dealer: int
    trick_no: int  # the trick on the table (0 before the first card of a hand)
    trick: tuple[events.CardPlayed, ...]  # the trick in play, or the one just won, with each play's choice (B7)
    trick_winner: int | None  # set once the trick on the table is complete
    why: events.WinReason | None  # B8: why the winner won
    hands: tuple[tuple[AnyCard, ...], ...]  # per seat, in display order
    kitty: tuple[AnyCard, ...]  # as dealt (B2)
    taken: tuple[AnyCard | None, ...]  # per seat, the card taken from the kitty (B4)
    point_cards: tuple[AnyCard | None, ...]  # per seat (B4)
    bids: tuple[int | None, ...]  # B3
    final_bids: tuple[int | None, ...]  # B5
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    scored: tuple[events.SeatScore, ...] = ()  # B9: the hand's results, from its end step on
    standings: tuple[events.BiddingResult, ...] = ()  # once the game is over

    @property
    def over(self) -> bool:
        return bool(self.standings)

    @property
    def leader(self) -> int:
        """B6: the dealer's left neighbour leads the first trick."""
        return (self.dealer + 1) % self.config.player_count

    def winning_play(self) -> events.CardPlayed | None:
        """The play that won the trick on the table, once it is complete."""
        if self.trick_winner is None:
            return None
        return next((play for play in self.trick if play.seat == self.trick_winner), None)

    def to_act(self) -> tuple[int, str] | None:
        """Who is to act next and how (`deal`, `bid`, `take`, `final bid`, `lead`, `play`); None at the end."""
        n = self.config.player_count
        if self.over:
            return None
        if self.scored:
            return (self.dealer + 1) % n, "deal"
        if not self.hands:  # before the first deal
            return self.dealer, "deal"
        order = self.config.turn_order(self.dealer)
        for values, doing in ((self.bids, "bid"), (self.taken, "take"), (self.final_bids, "final bid")):
            missing = [seat for seat in order if values[seat] is None]
            if missing:
                return missing[0], doing
        if not self.trick:
            return self.leader, "lead"
        if self.trick_winner is not None:
            if self.trick_no >= self.config.tricks_per_hand:
                return None  # the hand is scored next
            return self.trick_winner, "lead"
        return (self.trick[-1].seat + 1) % n, "play"


class _Fold:
    """Mutable bookkeeping while folding events; frozen into a `Table` at each stop."""

    def __init__(self, config: BiddingConfig) -> None:
        self.config = config
        self.hand_no, self.dealer = 1, config.first_dealer
        self.totals = [0] * config.player_count
        self.standings: tuple[events.BiddingResult, ...] = ()
        self.hands: list[set[AnyCard]] = []
        self._new_hand()

    def _new_hand(self) -> None:
        n = self.config.player_count
        self.trick_no = 0
        self.trick: list[events.CardPlayed] = []
        self.trick_winner: int | None = None
        self.why: events.WinReason | None = None
        self.kitty: tuple[AnyCard, ...] = ()
        self.taken: list[AnyCard | None] = [None] * n
        self.point_cards: list[AnyCard | None] = [None] * n
        self.bids: list[int | None] = [None] * n
        self.final_bids: list[int | None] = [None] * n
        self.tricks_won = [0] * n
        self.scored: tuple[events.SeatScore, ...] = ()

    def apply(self, event: events.Event) -> None:
        if isinstance(event, events.CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.why, self.trick_no = [], None, None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append(event)
        elif isinstance(event, events.TrickWon):
            self.trick_winner, self.why = event.winner, event.why
            self.tricks_won[event.winner] += 1
        elif isinstance(event, events.HandStarted):
            self.hand_no, self.dealer = event.hand_no, event.dealer
            self._new_hand()
        elif isinstance(event, events.CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
            self.kitty = event.kitty
        elif isinstance(event, events.BidMade):
            self.bids[event.seat] = event.amount
        elif isinstance(event, events.CardTaken):
            hand = self.hands[event.seat]
            hand.add(event.card)
            hand.discard(event.point)  # B4: it may be the card just taken
            self.taken[event.seat], self.point_cards[event.seat] = event.card, event.point
        elif isinstance(event, events.FinalBidMade):
            self.final_bids[event.seat] = event.amount
        elif isinstance(event, events.HandScored):
            self.totals = list(event.totals)
            self.scored = event.seats
        elif isinstance(event, events.GameEnded):
            self.standings = event.standings

    def freeze(self) -> Table:
        return Table(
            config=self.config, hand_no=self.hand_no, dealer=self.dealer, trick_no=self.trick_no,
            trick=tuple(self.trick), trick_winner=self.trick_winner, why=self.why,
            hands=tuple(sort_cards(hand) for hand in self.hands), kitty=self.kitty, taken=tuple(self.taken),
            point_cards=tuple(self.point_cards), bids=tuple(self.bids), final_bids=tuple(self.final_bids),
            tricks_won=tuple(self.tricks_won), totals=tuple(self.totals), scored=self.scored,
            standings=self.standings,
        )


MARKS = marks_of(events.HandStarted, events.CardPlayed, events.HandScored, number="hand_no")
build_steps = steps_builder(_Fold, MARKS)
