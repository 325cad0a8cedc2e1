"""Kirk's game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden hands.

No duty to follow (K4), so a hand shows no voids: the unknown cards are
simply the pack less the viewer's hand and every card played this hand,
shared among the others by the number of cards each still holds.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from diamonds.bots import FamilyBot, Table, deal_unknown, deck_index

from .rules.moves import PlayCard
from .rules.rules import card_points, card_value
from .rules.state import State

__all__ = ["BOT", "greedy", "determinise"]


def greedy(rules: Any, state: State, seat: int, rng: random.Random) -> PlayCard:
    """Win a trick worth having with the cheapest card that wins it; otherwise throw the cheapest card.

    Cheap means few points (K7), then low value (K3). A trick is worth having
    when it already holds points, or when the player is last to play. A lead
    is the lowest-value card, keeping the high ones to win tricks with.
    A tie (K5) counts as a loss here."""
    hand = state.hands[seat]  # unsorted: every key below ends in the card's own sort key, so ties cannot depend on order
    if not state.trick:
        return PlayCard(min(hand, key=lambda card: (card_value(card), card_points(card), card.sort_key)))
    best = max(card_value(card) for _, card in state.trick)
    at_stake = sum(card_points(card) for _, card in state.trick)
    last = len(state.trick) == state.config.plays_per_trick - 1
    winners = [card for card in hand if card_value(card) > best]
    if winners and (at_stake >= 5 or last):
        return PlayCard(min(winners, key=lambda card: (card_value(card), card_points(card), card.sort_key)))
    return PlayCard(min(hand, key=lambda card: (card_points(card), card_value(card), card.sort_key)))


def determinise(table: Table, rng: random.Random) -> State:
    """The state now with the other players' hands redrawn from the cards the viewer cannot place."""
    state: State = table.state
    seat = table.seat
    seen = set(state.hands[seat])
    for pile in state.piles:
        seen.update(pile)
    seen.update(card for _, card in state.trick)
    pool = [card for card in state.config.deck if card not in seen]
    others = [s for s in range(state.config.player_count) if s != seat]
    sizes = [len(state.hands[s]) for s in others]
    buckets = deal_unknown(pool, sizes, [None] * len(others), rng)
    hands = list(state.hands)
    for s, cards in zip(others, buckets):
        hands[s] = frozenset(cards)
    return replace(state, hands=tuple(hands))


# ---------------------------------------------------------------- the environment's actions and features
# One action per card of the pack (its index in `config.deck`); the features: the current trick's cards,
# and the viewer's place in the trick (one-hot, 0 = leading).


def action_count(config: Any) -> int:
    return len(config.deck)


def encode(config: Any, move: Any) -> tuple[int, ...]:
    return (deck_index(config)[move.card],)


def feature_count(config: Any) -> int:
    return len(config.deck) + config.player_count


def features(state: State, seat: int) -> list[float]:
    config = state.config
    index = deck_index(config)
    out = [0.0] * feature_count(config)
    for _, card in state.trick:
        out[index[card]] = 1.0
    out[len(config.deck) + len(state.trick) % config.player_count] = 1.0
    return out




# A trick holds tens of points (K7): a card that costs 10 is a mistake, 25 a blunder.
BOT = FamilyBot(greedy=greedy, determinise=determinise, action_count=action_count, encode=encode,
                feature_count=feature_count, features=features,
                thresholds=(10.0, 25.0))
