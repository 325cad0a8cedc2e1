"""The bidding game's fast table: the game as a mutable object, for `Game` and the replay's check path.

The pure `engine.apply` stays the definition of the rules; this table makes
the same decisions without a frozen state per card. It plays the common
case of the tricks itself (a card the mover holds, with the choices
`choices_needed` asks for, following suit when it must: B6, B7; the trick
decided by the same `trick_winner`, B8) and hands everything else to the
pure path on a snapshot: the deal, the bids, takes and final bids (a few a
hand, B2-B5), the scoring of a hand (`_score_hand`, B9-B10), and every
refusal, so that an illegal move raises exactly the pure path's
`IllegalMove`. While nothing has changed since the last snapshot, that
snapshot is kept and `freeze` returns it.

`play_run` is the hot loop of checking a record: a run of plays in one call,
stopping before a play it would refuse (the caller then pushes that play,
which raises) or after the last card of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core.cards import AnyCard, Card
from diamonds.core.snapshot import SnapshotTable

from .config import BiddingConfig
from .deck import choices_needed
from .engine import _score_hand, apply, standings, trick_winner
from .events import CardPlayed, Event, TrickWon
from .moves import PlayCard
from .state import BiddingState, Phase, Played

__all__ = ["BiddingTable"]

_PLAY = Phase.PLAY


class BiddingTable(SnapshotTable[BiddingState, Event]):
    """A game of three-handed bidding Diamonds being played (the `Table` protocol); see the module's docstring."""

    __slots__ = ("base", "hands", "trick_no", "leader", "trick", "tricks_won")

    config: BiddingConfig
    play_phase = _PLAY
    over_phase = Phase.GAME_OVER
    card_move = PlayCard
    pure_apply = staticmethod(apply)
    pure_standings = staticmethod(standings)

    def load(self, state: BiddingState) -> None:
        """Take `state` as the table's position (it stays the snapshot until a card is played).

        `base` keeps what play does not change (scores, bids, the kitty…); in the
        play phase the hands and the trick are unpacked into mutable fields."""
        self.snapshot: BiddingState | None = state
        self.base = state
        self.phase = state.phase
        if state.phase is _PLAY:
            self.hands: list[set[AnyCard]] = [set(hand) for hand in state.hands]
            self.trick_no = state.trick_no
            self.leader = state.leader
            self.trick: list[Played] = list(state.trick)
            self.tricks_won: list[int] = list(state.tricks_won)

    def freeze(self) -> BiddingState:
        if self.snapshot is None:
            base = self.base
            self.snapshot = BiddingState(
                config=base.config,
                phase=self.phase,
                hand_no=base.hand_no,
                dealer=base.dealer,
                scores=base.scores,
                hands=tuple(frozenset(hand) for hand in self.hands),
                kitty=base.kitty,
                bids=base.bids,
                taken=base.taken,
                point_cards=base.point_cards,
                final_bids=base.final_bids,
                trick_no=self.trick_no,
                leader=self.leader,
                trick=tuple(self.trick),
                tricks_won=tuple(self.tricks_won),
            )
        return self.snapshot

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
        n = config.player_count
        per_trick = config.plays_per_trick
        last_trick = config.tricks_per_hand
        hands, trick, tricks_won = self.hands, self.trick, self.tricks_won
        leader = self.leader
        led = trick[0].suit if trick else None
        while index < end:
            move = moves[index]
            card, high, given = move.card, move.high, move.suit
            seat = (leader + len(trick)) % n
            hand = hands[seat]
            # B2, B6: a card held (so of the pack); B7: exactly the choices the card needs.
            if card not in hand or choices_needed(card) != (high is not None, given is not None):
                break
            if isinstance(card, Card):
                suit = card.suit
                if led is not None and suit is not led and any(
                        isinstance(held, Card) and held.suit is led for held in hand):
                    break  # B6: it must follow the led suit
            else:
                assert given is not None
                suit = given  # B7: the Joker's given suit; led, it is the led suit
            self.snapshot = None
            if events is not None:
                events.append(CardPlayed(seat, card, self.trick_no, led is None, high, suit,
                                         led is None or suit is led))
            hand.remove(card)
            trick.append(Played(seat, card, high, suit))
            index += 1
            if led is None:
                led = suit
            if len(trick) < per_trick:
                continue
            # B8: the winner takes the trick and leads the next.
            won, why = trick_winner(trick)
            winner = trick[won].seat
            if events is not None:
                events.append(TrickWon(self.trick_no, winner, trick[won].card, tuple(p.card for p in trick), why))
            tricks_won[winner] += 1
            trick.clear()
            led = None
            leader = self.leader = winner
            if self.trick_no < last_trick:
                self.trick_no += 1
                continue
            self.score_hand(events)
            break
        return index

    def score_hand(self, events: list[Event] | None) -> None:
        """B9, B10: by the pure path's `_score_hand`, on the hand's last position."""
        after, scored = _score_hand(self.freeze(), [])
        if events is not None:
            events.extend(scored)
        self.load(after)
