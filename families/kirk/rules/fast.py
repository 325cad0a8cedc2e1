"""Kirk's fast table: the game as a mutable object, for `Game` and the replay's check path.

The pure `engine.apply` stays the definition of the rules; this table makes
the same decisions without a frozen state per card. It plays the common
case itself (a deal of 13 different cards of the pack to each seat: K2; a
card the mover holds: K4, the trick decided by the same `trick_winner`,
K5-K6, or, when no events are asked for, by its one highest card when no
other card equals it) and hands everything else to the pure path on a
snapshot: the end of a hand (`_end_of_hand`, K7-K8), and every refusal, so
that an illegal move raises exactly the pure path's `IllegalMove`. While
nothing has changed since the last snapshot, that snapshot is kept and
`freeze` returns it.

`play_run` is the hot loop of checking a record: a run of cards in one call,
stopping before a card it would refuse (the caller then pushes that card,
which raises) or after the last card of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from diamonds.core.cards import AnyCard, Card, sort_cards
from diamonds.core.family import SideResult
from diamonds.core.snapshot import SnapshotTable
from diamonds.core.trick import CARD_MOVES

from .config import KirkConfig
from .engine import _end_of_hand, apply, standings
from .events import CardPlayed, CardsDealt, DecidedBy, Event, HandStarted, TieBroken, TrickWon
from .moves import Deal, PlayCard
from .rules import card_value, first_leader, trick_winner
from .state import Phase, State

__all__ = ["KirkTable"]

_PLAY: Final[Phase] = Phase.PLAY
_DEAL: Final[Phase] = Phase.DEAL
_HIGHEST: Final[DecidedBy] = DecidedBy.HIGHEST
_VALUES: Final[dict[AnyCard, int]] = {}  # K3: card_value of each card played (cards are interned)


class KirkTable(SnapshotTable[State, Event, KirkConfig]):
    """A game of Kirk's Diamonds being played (the `Table` protocol); see the module's docstring."""

    __slots__ = ("hand_no", "dealer", "hands", "ordered", "trick_no", "leader", "trick", "piles", "totals")

    play_phase: ClassVar[Phase] = _PLAY
    over_phase: ClassVar[Phase] = Phase.GAME_OVER
    card_move: ClassVar[type] = PlayCard
    played_event: ClassVar[type] = CardPlayed  # the event a card's move opens with (the replay's runs: `play_run`)
    answers_turns: ClassVar[bool] = True  # seat_to_act, moves_to_act: a playout's questions, without a snapshot

    # Methods rather than `pure_apply = staticmethod(apply)`: mypyc compiles no such class attribute.
    def pure_apply(self, state: State, move: Any) -> tuple[State, tuple[Event, ...]]:
        return apply(state, move)

    def pure_standings(self, state: State) -> tuple[SideResult, ...]:
        return standings(state)

    def run_item(self, move: PlayCard) -> AnyCard:
        return move.card

    def load(self, state: State) -> None:
        """Take `state` as the table's position (it stays the snapshot until a card is played)."""
        self.snapshot = state
        self.phase = state.phase
        self.hand_no = state.hand_no
        self.dealer = state.dealer
        #: Each seat's hand (a list of 13 at most: `in` and `remove` cost about what a set's do), put in display
        #: order the first time its legal moves are asked for (`ordered`), which playing a card keeps: a
        #: playout sorts a hand once, and checking a record never.
        self.hands: list[list[Card]] = [list(hand) for hand in state.hands]
        self.ordered = [False] * len(self.hands)
        self.trick_no = state.trick_no
        self.leader = state.leader
        self.trick: list[tuple[int, Card]] = list(state.trick)
        self.piles: list[list[Card]] = [list(pile) for pile in state.piles]
        self.totals = state.totals

    def freeze(self) -> State:
        if self.snapshot is None:
            self.snapshot = State(
                config=self.config,
                phase=self.phase,
                hand_no=self.hand_no,
                dealer=self.dealer,
                hands=tuple([frozenset(hand) for hand in self.hands]),
                trick_no=self.trick_no,
                leader=self.leader,
                trick=tuple(self.trick),
                piles=tuple([tuple(pile) for pile in self.piles]),
                totals=self.totals,
            )
        return self.snapshot

    def apply(self, move: Any) -> tuple[Event, ...]:
        """Check and make one move; the events it caused (none when not recording)."""
        if type(move) is Deal and self.phase is _DEAL and self.deal(move.hands):
            return tuple(self.events) if self.events else ()
        return super().apply(move)

    def deal(self, hands: tuple[tuple[AnyCard, ...], ...]) -> bool:
        """K2: a hand of `hand_size` cards to each seat, all of the pack, none twice (True: dealt); else
        nothing changes and the pure path decides. K4: the dealer's left neighbour leads; K6: empty piles."""
        config = self.config
        size = config.hand_size
        if len(hands) != config.player_count or any(len(hand) != size for hand in hands):
            return False
        dealt = {card for hand in hands for card in hand}
        if len(dealt) != size * len(hands) or not dealt <= frozenset(config.deck):
            return False  # a card twice, or of no pack (the pack holds only suited cards)
        self.snapshot = None
        self.phase = _PLAY
        self.hands = [list(hand) for hand in hands]  # type: ignore[arg-type]  # every card is in the pack
        self.ordered = [False] * len(hands)
        self.trick_no = 1
        self.leader = first_leader(config, self.dealer)
        self.trick.clear()
        self.piles = [[] for _ in hands]
        if self.events is not None:
            self.events = [HandStarted(self.hand_no, self.dealer),
                           CardsDealt(self.hand_no, tuple([sort_cards(hand) for hand in self.hands]))]
        return True

    def seat_to_act(self) -> int | None:
        """`State.to_move` of the state the table is at (K4: clockwise from the leader), without a snapshot."""
        if self.phase is _PLAY:
            return (self.leader + len(self.trick)) % len(self.hands)
        return None

    def moves_to_act(self) -> list[Any]:
        """`engine.legal_moves` of the state the table is at (K4: any card held), in display order."""
        if self.phase is not _PLAY:
            return []
        seat = (self.leader + len(self.trick)) % len(self.hands)
        hand = self.hands[seat]
        if not self.ordered[seat]:
            hand[:] = sort_cards(hand)
            self.ordered[seat] = True
        return [CARD_MOVES[card] for card in hand]

    def play_run(self, cards: Sequence[AnyCard], start: int) -> int:
        """Play `cards[start:]` while each is legal and the hand goes on; the index it stopped at.

        Never raises: it stops before a card the rules refuse (the mover does
        not hold it; `apply` with that card raises why) and after the last
        card of a hand (K7, K8: the next hand needs a deal). The check path
        calls it on a table that records no events."""
        index, end = start, len(cards)
        if self.phase is not _PLAY or index >= end:
            return index
        events = self.events
        n = len(self.hands)  # a seat each (not config.player_count: a property of the pure Seating, a call a card)
        per_trick = self.config.plays_per_trick
        last_trick = self.config.tricks_per_hand
        hands, trick, piles = self.hands, self.trick, self.piles
        leader = self.leader
        values = _VALUES
        # K5: the highest value so far in the trick, its seat, and how many cards have it.
        best, best_seat, ties = -1, -1, 0
        for seat, played in trick:
            value = card_value(played)
            if value > best:
                best, best_seat, ties = value, seat, 1
            elif value == best:
                ties += 1
        while index < end:
            card = cards[index]
            seat = (leader + len(trick)) % n
            hand = hands[seat]
            if card not in hand:  # K2, K4: the pure path says why (not in the pack, not held)
                break
            self.snapshot = None
            hand.remove(card)
            worth = values.get(card)
            if worth is None:
                worth = values[card] = card_value(card)
            if events is not None:
                events.append(CardPlayed(seat, card, self.trick_no, not trick, worth))
            trick.append((seat, card))
            index += 1
            if worth > best:
                best, best_seat, ties = worth, seat, 1
            elif worth == best:
                ties += 1
            if len(trick) < per_trick:
                continue
            # K5: the trick is complete; K6: its cards go on top of the winner's pile, in play order.
            won = tuple([c for _, c in trick])
            if events is None and ties == 1:  # K5: one card of the highest value wins: no tie to break
                winner = best_seat
            else:
                winner, tie = trick_winner(trick, piles)
                if events is not None:
                    if tie.decided_by is not _HIGHEST:
                        events.append(TieBroken(self.trick_no, winner, tie.tied, tie.decided_by, tie.depth,
                                                tie.steps))
                    events.append(TrickWon(self.trick_no, winner, dict(trick)[winner], won, tie.tied,
                                           tie.decided_by, tie.depth))
            best, best_seat, ties = -1, -1, 0
            piles[winner].extend(won)
            trick.clear()
            leader = self.leader = winner
            if self.trick_no < last_trick:
                self.trick_no += 1  # K4: the winner leads the next trick
                continue
            self.end_of_hand(events)
            break
        return index

    def end_of_hand(self, events: list[Event] | None) -> None:
        """K7, K8: by the pure path's `_end_of_hand`, on the hand's last position."""
        after, scored = _end_of_hand(self.freeze(), [])
        if events is not None:
            events.extend(scored)
        self.load(after)
