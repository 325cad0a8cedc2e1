"""The bidding game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden cards.

What the viewer cannot place: the others' hands, the kitty (face down, B2,
except while the viewer takes from it), and the others' face-down point cards
(B4). The sampler shares those cards among those places, keeping out of a
hand every suit its player has shown to be out of by not following (B6; the
Joker, which belongs to no suit, proves nothing).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from diamonds.bots import FamilyBot, Table, deal_unknown
from diamonds.core.cards import AnyCard, Card, Suit
from .rules.deck import TRUMPS, point_value
from .rules.engine import trick_winner
from .rules.moves import Bid, FinalBid, PlayCard, TakeFromKitty
from .rules.state import BiddingState, Phase, Played

__all__ = ["BOT", "greedy", "determinise", "expected_tricks"]


def expected_tricks(hand: Any) -> int:
    """A rough count of the tricks a hand takes (B8): aces and the Joker, high trumps, half the kings."""
    count = 0.0
    for card in hand:
        if not isinstance(card, Card):
            count += 1
        elif card.is_ace:
            count += 1
        elif card.suit is TRUMPS and card.rank >= 12:
            count += 0.75
        elif card.rank == 13:
            count += 0.5
        elif card.suit is TRUMPS:
            count += 0.25
    return round(count)


def greedy(rules: Any, state: BiddingState, seat: int, rng: random.Random) -> Any:
    phase = state.phase
    moves = rules.legal_moves(state)
    if phase is Phase.BID:
        want = expected_tricks(state.hands[seat])
        return min(moves, key=lambda m: (abs(m.amount - want), m.amount))
    if phase is Phase.TAKE:
        # Take the kitty's strongest card; lay the lowest-valued card as point card (B9: a small stake).
        take = max((m.card for m in moves), key=_strength)
        laid = min((m.point for m in moves if m.card is take), key=lambda c: (point_value(c), _strength(c)))
        return next(m for m in moves if m.card is take and m.point is laid)
    if phase is Phase.FINAL:
        want = expected_tricks(state.hands[seat])
        return min(moves, key=lambda m: (abs(m.amount - want), m.amount))
    if phase is Phase.PLAY:
        return _play(state, seat, moves)
    return moves[0]


def _strength(card: AnyCard) -> tuple[int, int]:
    if not isinstance(card, Card):
        return (2, 15)
    return (1 if card.suit is TRUMPS else 0, card.rank)


def _play(state: BiddingState, seat: int, moves: Any) -> PlayCard:
    """Short of the final bid, take the trick as cheaply as possible; at it, duck with the highest card
    that does not take the trick; with nothing fit, the lowest card (B8, judged on the trick so far)."""
    final = state.final_bids[seat] or 0
    need = final - state.tricks_won[seat]

    def wins(move: PlayCard) -> bool:
        suit = move.suit if move.suit is not None else (move.card.suit if isinstance(move.card, Card) else TRUMPS)
        plays = state.trick + (Played(seat, move.card, move.high, suit),)
        index, _ = trick_winner(plays)
        return index == len(plays) - 1

    def rank(move: PlayCard) -> tuple[int, int]:
        if not isinstance(move.card, Card):
            return (3 if move.high else -1, 0)
        low_ace = move.card.is_ace and move.high is False
        return (1 if move.card.suit is TRUMPS else 0, 0 if low_ace else move.card.rank)

    winning = [m for m in moves if wins(m)]
    losing = [m for m in moves if m not in winning]
    if need > 0 and winning:
        return min(winning, key=rank)
    if need <= 0 and losing:
        return max(losing, key=rank)
    return min(moves, key=rank)


def determinise(table: Table, rng: random.Random) -> BiddingState:
    """The state now with the hidden cards redrawn (see the module)."""
    state: BiddingState = table.state
    seat = table.seat
    n = state.config.player_count
    played: set[AnyCard] = set()
    voids: list[set[Suit]] = [set() for _ in range(n)]
    for before, move in zip(table.states, table.moves):
        if isinstance(move, PlayCard):
            played.add(move.card)
            if before.trick and isinstance(move.card, Card) and move.card.suit is not before.trick[0].suit:
                voids[before.to_move].add(before.trick[0].suit)  # B6: out of the led suit
    mine = set(state.hands[seat])
    if state.point_cards[seat] is not None:
        mine.add(state.point_cards[seat])
    kitty_seen = state.phase is Phase.TAKE and state.to_move == seat  # the taker sees the kitty
    if kitty_seen:
        mine.update(state.kitty)
    pool = [card for card in state.config.deck if card not in mine and card not in played]
    others = [s for s in range(n) if s != seat]
    sizes = [len(state.hands[s]) for s in others]
    refuses: list[Any] = [(lambda c, out=frozenset(voids[s]): isinstance(c, Card) and c.suit in out)
                          if voids[s] else None for s in others]
    laid = [s for s in others if state.point_cards[s] is not None]
    sizes += [1] * len(laid)
    refuses += [None] * len(laid)
    if not kitty_seen:
        sizes.append(len(state.kitty))
        refuses.append(None)
    buckets = deal_unknown(pool, sizes, refuses, rng)
    hands = list(state.hands)
    for s, cards in zip(others, buckets):
        hands[s] = frozenset(cards)
    point_cards = list(state.point_cards)
    for s, cards in zip(laid, buckets[len(others):]):
        point_cards[s] = cards[0]
    kitty = state.kitty if kitty_seen else tuple(buckets[-1])
    return replace(state, hands=tuple(hands), point_cards=tuple(point_cards), kitty=kitty)


BOT = FamilyBot(greedy=greedy, determinise=determinise)
