"""Fitzgerald's game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden hands.

The sampler knows what the viewer has seen this round: their own hand, every
card played, the cards they passed (still held by their receiver unless
played, R6), and the suits a player has shown to be out of by not following
(R8). The Vaults hidden by R2 are left as they are: `mc` judges a move by the
*change* in the score difference, which no Vault held before the move enters.
It samples only during play and a Clubs victim's choice; the pass count and
the passes themselves are greedy's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from diamonds.bots import FamilyBot, Table, deal_unknown
from diamonds.core.cards import SUITS, Card, Suit
from .rules.engine import trick_winner
from .rules.moves import ChoosePassCount, ChooseVictim, PassCards, PlayCard
from .rules.state import Phase, State

__all__ = ["BOT", "greedy", "determinise"]

_DIAMONDS, _HEARTS, _SPADES, _CLUBS = SUITS
#: What a suit's action is worth to the side taking it, roughly (R11-R14): a Vault point counts twice (R18).
SUIT_WORTH = {_DIAMONDS: 4, _CLUBS: 3, _HEARTS: 2, _SPADES: 1}


def greedy(rules: Any, state: State, seat: int, rng: random.Random) -> Any:
    phase = state.phase
    if phase is Phase.PLAY:
        return PlayCard.of(_play(state, seat))
    if phase is Phase.CHOOSE_VICTIM:
        return _victim(rules, state)
    if phase is Phase.PASS_COUNT:
        return ChoosePassCount(2)
    if phase is Phase.PASSING:
        # R6: give away the lowest cards, the least valuable suit first among equals.
        assert state.pass_count is not None
        cards = sorted(state.hand(seat), key=lambda c: (c.rank, SUIT_WORTH[c.suit]))[:state.pass_count]
        return PassCards(seat, tuple(sorted(cards, key=lambda c: c.sort_key)))
    return rules.random_move(state, rng)


def _play(state: State, seat: int) -> Card:
    """Lead the highest card, the best suit among equals; follow with the cheapest card that takes the
    trick from the other side, else the lowest; out of the led suit, earn the best suit's action (R9)."""
    hand = state.hand(seat)
    if not state.trick:
        return max(hand, key=lambda c: (c.rank, SUIT_WORTH[c.suit]))
    led = state.trick[0][1].suit
    following = [c for c in hand if c.suit is led]
    if not following:
        return max(hand, key=lambda c: (SUIT_WORTH[c.suit], -c.rank))
    winner, best = trick_winner(state.trick)
    side_of = state.config.side_of
    if side_of[winner] == side_of[seat]:
        return min(following, key=lambda c: c.rank)
    beating = [c for c in following if c.rank > best.rank]
    return min(beating or following, key=lambda c: c.rank)


def _victim(rules: Any, state: State) -> ChooseVictim:
    """R14: name the side with the most in its Showroom (public)."""
    moves = rules.legal_moves(state)
    named = [m for m in moves if m.victim is not None]
    if not named:
        return moves[0]
    side_of = state.config.side_of
    return max(named, key=lambda m: (state.showroom[side_of[m.victim]], -m.victim))


def determinise(table: Table, rng: random.Random) -> State | None:
    """The state now with the others' hands redrawn from what the viewer cannot place (see the module)."""
    state: State = table.state
    if state.phase not in (Phase.PLAY, Phase.CHOOSE_VICTIM):
        return None
    seat = table.seat
    config = state.config
    n = config.player_count
    played: set[Card] = set()
    voids: list[set[Suit]] = [set() for _ in range(n)]
    for before, move in zip(table.states, table.moves):
        if isinstance(move, PlayCard):
            played.add(move.card)
            if before.trick and move.card.suit is not before.trick[0][1].suit:
                voids[before.to_move].add(before.trick[0][1].suit)  # R8: out of the led suit
    known: list[set[Card]] = [set() for _ in range(n)]
    passed = state.passed[seat]
    if passed:
        target = config.pass_target(seat)
        if target != seat:
            known[target] = set(passed) - played
    own = state.hands[seat]
    placed = set().union(*known)
    pool = [card for card in config.deck if card not in own and card not in played and card not in placed]
    others = [s for s in range(n) if s != seat]
    sizes = [len(state.hands[s]) - len(known[s]) for s in others]
    refuses = [(lambda card, out=frozenset(voids[s]): card.suit in out) if voids[s] else None for s in others]
    buckets = deal_unknown(pool, sizes, refuses, rng)
    hands = list(state.hands)
    for s, cards in zip(others, buckets):
        hands[s] = frozenset(known[s].union(cards))
    return replace(state, hands=tuple(hands))


BOT = FamilyBot(greedy=greedy, determinise=determinise)
