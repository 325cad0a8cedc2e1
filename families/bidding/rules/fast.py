"""The bidding game's fast table: the game as a mutable object, for `Game` and the replay's check path.

The pure `engine.apply` stays the definition of the rules; this table makes
the same decisions without a frozen state per move. It makes the common
case of every move itself: the deal (B2: the hands and the kitty of the
right sizes, cards of the pack, none twice), a bid (B3) and a final bid (B5)
in turn within range and not the dealer's forbidden total, a take in turn
of a kitty card with a point card held or taken (B4), and the cards of the
tricks (a card the mover holds, with the choices `choices_needed` asks for,
following suit when it must: B6, B7; the trick decided by the same
`trick_winner`, B8). It hands the rest to the pure path on a snapshot: the
scoring of a hand (`_score_hand`, B9-B10, once a hand; a quiet table whose
game goes on takes only its `hand_points` and `_fresh_hand`) and every move
the fast checks do not pass, so that an illegal move raises exactly the
pure path's `IllegalMove`. While nothing has changed since the last
snapshot, that snapshot is kept and `freeze` returns it.

`play_run` is the hot loop of checking a record: a run of plays in one call,
stopping before a play it would refuse (the caller then pushes that play,
which raises) or after the last card of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from diamonds.core.cards import SUITS, AnyCard, Card, Suit, sort_cards, spellings
from diamonds.core.family import SideResult
from diamonds.core.snapshot import SnapshotTable

from .config import MAX_BID, PLAYERS, BiddingConfig
from .deck import DECK, choices_needed
from .engine import (
    _fresh_hand,
    _score_hand,
    apply,
    forbidden_amount,
    game_ends,
    hand_points,
    legal_moves,
    play_moves,
    standings,
    trick_winner,
)
from .events import BidMade, CardPlayed, CardsDealt, CardTaken, Event, FinalBidMade, HandStarted, TrickWon
from .moves import Bid, Deal, FinalBid, PlayCard, TakeFromKitty
from .state import BiddingState, Phase, Played

__all__ = ["BiddingTable"]

_PLAY: Final[Phase] = Phase.PLAY
_DEAL: Final[Phase] = Phase.DEAL
_BID: Final[Phase] = Phase.BID
_TAKE: Final[Phase] = Phase.TAKE
_FINAL: Final[Phase] = Phase.FINAL
_DECK_SET: Final[frozenset[AnyCard]] = frozenset(DECK)
_NEEDS: Final[dict[AnyCard, tuple[bool, bool]]] = {card: choices_needed(card) for card in DECK}  # B7, looked up
#: B6: every card of each suit (of any deck: a table may load any state), by `Suit.index`: whether a hand
#: holds the led suit is one set test.
_OF_SUIT: Final[tuple[frozenset[Card], ...]] = tuple(
    frozenset(card for card in spellings().values() if isinstance(card, Card) and card.suit is suit) for suit in SUITS)
#: The trick's entries already made, by (seat, card, high, given suit): `Played` values recur (3 seats, 33
#: cards, an ace's or the Joker's few choices), and making one costs more than checking the play.
_PLAYED: Final[dict[tuple[int, AnyCard, bool | None, Suit | None], Played]] = {}
#: B7: the cards of the pack played with no choice (all but the aces and the Joker), and their entries by
#: seat (B1: three; a table of more seats makes its own) and card: the common case, looked up without a key
#: to build.
_PLAIN: Final[frozenset[AnyCard]] = frozenset(card for card in DECK if choices_needed(card) == (False, False))
_PLAIN_PLAYED: Final[tuple[dict[AnyCard, Played], ...]] = tuple({} for _ in range(PLAYERS))


class BiddingTable(SnapshotTable[BiddingState, Event, BiddingConfig]):
    """A game of three-handed bidding Diamonds being played (the `Table` protocol); see the module's docstring."""

    __slots__ = ("hand_no", "dealer", "scores", "order", "hands", "kitty", "bids", "taken", "point_cards",
                 "final_bids", "trick_no", "leader", "trick", "tricks_won")

    play_phase: ClassVar[Phase] = _PLAY
    over_phase: ClassVar[Phase] = Phase.GAME_OVER
    card_move: ClassVar[type] = PlayCard
    answers_turns: ClassVar[bool] = True  # seat_to_act, moves_to_act: a playout's questions

    def seat_to_act(self) -> int | None:
        """`BiddingState.to_move` of the state the table is at: without a snapshot while cards are played (B6:
        clockwise from the leader), else on the snapshot (the calls are a few moves a hand)."""
        if self.phase is _PLAY:
            return (self.leader + len(self.trick)) % len(self.hands)
        return self.freeze().to_move

    def moves_to_act(self) -> list[Any]:
        """`engine.legal_moves` of the state the table is at (every decision is one seat's), in its order."""
        if self.phase is _PLAY:
            hand = self.hands[(self.leader + len(self.trick)) % len(self.hands)]
            return list(play_moves(hand, self.trick[0].suit if self.trick else None))
        return list(legal_moves(self.freeze()))

    # Methods rather than `pure_apply = staticmethod(apply)`: mypyc compiles no such class attribute.
    def pure_apply(self, state: BiddingState, move: Any) -> tuple[BiddingState, tuple[Event, ...]]:
        return apply(state, move)

    def pure_standings(self, state: BiddingState) -> tuple[SideResult, ...]:
        return standings(state)

    def load(self, state: BiddingState) -> None:
        """Take `state` as the table's position (it stays the snapshot until a move changes it), unpacked
        into mutable fields."""
        self.snapshot = state
        self.phase = state.phase
        self.hand_no = state.hand_no
        self.dealer = state.dealer
        self.scores = state.scores
        self.order = state.turn_order  # B3-B5: the dealer's left first
        self.hands: list[set[AnyCard]] = [set(hand) for hand in state.hands]
        self.kitty = state.kitty
        self.bids: list[int | None] = list(state.bids)
        self.taken: list[AnyCard | None] = list(state.taken)
        self.point_cards: list[AnyCard | None] = list(state.point_cards)
        self.final_bids: list[int | None] = list(state.final_bids)
        self.trick_no = state.trick_no
        self.leader = state.leader
        self.trick: list[Played] = list(state.trick)
        self.tricks_won: list[int] = list(state.tricks_won)

    def freeze(self) -> BiddingState:
        if self.snapshot is None:
            self.snapshot = BiddingState(
                config=self.config,
                phase=self.phase,
                hand_no=self.hand_no,
                dealer=self.dealer,
                scores=self.scores,
                hands=tuple([frozenset(hand) for hand in self.hands]),
                kitty=self.kitty,
                bids=tuple(self.bids),
                taken=tuple(self.taken),
                point_cards=tuple(self.point_cards),
                final_bids=tuple(self.final_bids),
                trick_no=self.trick_no,
                leader=self.leader,
                trick=tuple(self.trick),
                tricks_won=tuple(self.tricks_won),
            )
        return self.snapshot

    def apply(self, move: Any) -> tuple[Event, ...]:
        """Check and make one move; the events it caused (none when not recording)."""
        kind = type(move)
        if kind is PlayCard:
            if self.phase is _PLAY:
                if self.record:
                    self.events = []
                if self.play_run((move,), 0):
                    return tuple(self.events) if self.events else ()
        elif self.made(kind, move):
            return tuple(self.events) if self.events else ()
        return self.pure(move)

    def made(self, kind: type, move: Any) -> bool:
        """The deal, a bid, a take or a final bid made here when the fast checks pass it (True); else
        nothing changes and the pure path decides (False)."""
        phase = self.phase
        if kind is Bid:
            return phase is _BID and self.bid(move.seat, move.amount)
        if kind is TakeFromKitty:
            return phase is _TAKE and self.take(move.seat, move.card, move.point)
        if kind is FinalBid:
            return phase is _FINAL and self.final_bid(move.seat, move.amount)
        if kind is Deal:
            return phase is _DEAL and self.deal(move.hands, move.kitty)
        return False

    def due(self, decided: list[Any]) -> int | None:
        """The first seat in turn order without its decision (the state's `to_move` in B3-B5)."""
        for seat in self.order:
            if decided[seat] is None:
                return seat
        return None

    def allowed(self, seat: int, amount: int, bids: list[int | None]) -> bool:
        """B3, B5: a whole number 0..10, and not the dealer's amount that makes the total exactly 10."""
        if type(amount) is not int or not 0 <= amount <= MAX_BID:
            return False
        return amount != forbidden_amount(self.dealer, seat, bids)

    def deal(self, hands: tuple[tuple[AnyCard, ...], ...], kitty: tuple[AnyCard, ...]) -> bool:
        """B2: the hands and the kitty of their sizes, cards of the pack, none twice."""
        config = self.config
        if len(hands) != config.player_count or len(kitty) != config.kitty_size:
            return False
        size = config.hand_size
        seen = set(kitty)
        for hand in hands:
            if len(hand) != size:
                return False
            seen.update(hand)
        if len(seen) != size * len(hands) + len(kitty) or not seen <= _DECK_SET:
            return False
        self.snapshot = None
        self.hands = [set(hand) for hand in hands]
        self.kitty = tuple(kitty)
        self.phase = _BID
        events = self.events
        if events is not None:
            self.events = [HandStarted(self.hand_no, self.dealer),
                           CardsDealt(self.hand_no, tuple(sort_cards(hand) for hand in self.hands), self.kitty)]
        return True

    def bid(self, seat: int, amount: int) -> bool:
        """B3: in turn, within range, not the dealer's forbidden total."""
        bids = self.bids
        if seat != self.due(bids) or not self.allowed(seat, amount, bids):
            return False
        self.snapshot = None
        bids[seat] = amount
        if None not in bids:
            self.phase = _TAKE
        if self.events is not None:
            self.events = [BidMade(seat, amount)]
        return True

    def take(self, seat: int, card: AnyCard, point: AnyCard) -> bool:
        """B4: in turn, a card of the kitty, then a point card of the hand (or the card taken)."""
        hand = self.hands[seat] if seat == self.due(self.point_cards) else None
        if (hand is None or card not in _DECK_SET or point not in _DECK_SET or card not in self.kitty
                or (point is not card and point not in hand)):
            return False
        self.snapshot = None
        hand.add(card)
        hand.discard(point)
        self.kitty = tuple([c for c in self.kitty if c is not card])
        self.taken[seat] = card
        self.point_cards[seat] = point
        if None not in self.point_cards:
            self.phase = _FINAL
        if self.events is not None:
            self.events = [CardTaken(seat, card, point)]
        return True

    def final_bid(self, seat: int, amount: int) -> bool:
        """B5: in turn, the bid or one more or one less, within range, not the dealer's forbidden total."""
        final_bids = self.final_bids
        if seat != self.due(final_bids):
            return False
        bid = self.bids[seat]
        if bid is None or not self.allowed(seat, amount, final_bids) or abs(amount - bid) > 1:
            return False
        self.snapshot = None
        final_bids[seat] = amount
        if None not in final_bids:
            # B6: the dealer's left neighbour leads the first trick.
            self.phase = _PLAY
            self.trick_no = 1
            self.leader = self.config.left_of(self.dealer)
            self.trick.clear()
        if self.events is not None:
            self.events = [FinalBidMade(seat, amount, amount - bid)]
        return True

    def play_run(self, moves: Sequence[PlayCard], start: int) -> int:
        """Play `moves[start:]` while each is legal and the hand goes on; the index it stopped at.

        Never raises: it stops before a play the rules refuse (`apply` with it
        raises why) and after the last card of a hand (B9: scored; the next
        hand needs a deal). The check path calls it on a table that records
        no events."""
        index, end = start, len(moves)
        if self.phase is not _PLAY or index >= end:
            return index
        events = self.events
        config = self.config
        n = len(self.hands)  # a seat each (not config.player_count: a property of the pure Seating, a call a card)
        per_trick = config.plays_per_trick
        last_trick = config.tricks_per_hand
        hands, trick, tricks_won = self.hands, self.trick, self.tricks_won
        leader = self.leader
        made = _PLAYED
        plain = _PLAIN_PLAYED if n <= len(_PLAIN_PLAYED) else tuple({} for _ in range(n))
        led = trick[0].suit if trick else None
        following = _OF_SUIT[led.index] if led is not None else None
        count = len(trick)  # the cards in the trick
        while index < end:
            move = moves[index]
            card, high, given = move.card, move.high, move.suit
            seat = (leader + count) % n
            hand = hands[seat]
            # B2, B6: a card held (so of the pack); B7: exactly the choices the card needs.
            if card not in hand:
                break
            if high is None and given is None and card in _PLAIN:  # B7: no choice needed, none given
                suit = card.suit  # type: ignore[union-attr]  # a suited card
                if following is not None and suit is not led and not following.isdisjoint(hand):
                    break  # B6: it must follow the led suit
                played = plain[seat].get(card)
                if played is None:
                    played = plain[seat][card] = Played(seat, card, None, suit)
            else:
                needs = _NEEDS.get(card) or choices_needed(card)
                if needs[0] is (high is None) or needs[1] is (given is None):
                    break
                if isinstance(card, Card):
                    suit = card.suit
                    if following is not None and suit is not led and not following.isdisjoint(hand):
                        break  # B6: it must follow the led suit
                else:
                    assert given is not None
                    suit = given  # B7: the Joker's given suit; led, it is the led suit
                key = (seat, card, high, given)
                played = made.get(key)
                if played is None:
                    played = made[key] = Played(seat, card, high, suit)
            self.snapshot = None
            if events is not None:
                events.append(CardPlayed(seat, card, self.trick_no, led is None, high, suit,
                                         led is None or suit is led))
            hand.remove(card)
            trick.append(played)
            index += 1
            count += 1
            if led is None:
                led = suit
                following = _OF_SUIT[suit.index]
            if count < per_trick:
                continue
            # B8: the winner takes the trick and leads the next.
            won, why = trick_winner(trick)
            winner = trick[won].seat
            if events is not None:
                events.append(TrickWon(self.trick_no, winner, trick[won].card, tuple([p.card for p in trick]), why))
            tricks_won[winner] += 1
            trick.clear()
            count = 0
            led = following = None
            leader = self.leader = winner
            if self.trick_no < last_trick:
                self.trick_no += 1
                continue
            self.score_hand(events)
            break
        return index

    def score_hand(self, events: list[Event] | None) -> None:
        """B9, B10: by the pure path's `_score_hand`, on the hand's last position; when no events are
        asked for and the game goes on, the totals by the same `hand_points`, and the next hand set up
        by the pure path's `_fresh_hand` (B2: the deal moves one seat left)."""
        if events is None:
            points = hand_points(self.final_bids, self.point_cards, self.tricks_won)
            totals = tuple(score + p for score, p in zip(self.scores, points))
            if not game_ends(totals):
                config = self.config
                self.load(_fresh_hand(config, hand_no=self.hand_no + 1, dealer=config.left_of(self.dealer),
                                      scores=totals))
                return
        after, scored = _score_hand(self.freeze(), [])
        if events is not None:
            events.extend(scored)
        self.load(after)
