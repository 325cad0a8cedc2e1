"""Kirk's game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden hands.

No duty to follow (K4), so a hand shows no voids: the unknown cards are
simply the pack less the viewer's hand and every card played this hand,
shared among the others by the number of cards each still holds.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

from diamonds.bots import FamilyBot, Table, deal_unknown, deck_index
from diamonds.core.cards import Card

from .rules.config import DECK
from .rules.fast import KirkTable
from .rules.moves import PlayCard
from .rules.rules import card_points, card_value
from .rules.state import Phase, State

__all__ = ["BOT", "greedy", "determinise", "rollout"]


def greedy(rules: Any, state: State, seat: int, rng: random.Random) -> PlayCard:
    """Win a trick worth having with the cheapest card that wins it; otherwise throw the cheapest card.

    Cheap means few points (K7), then low value (K3). A trick is worth having
    when it already holds points, or when the player is last to play. A lead
    is the lowest-value card, keeping the high ones to win tricks with.
    A tie (K5) counts as a loss here."""
    return _PLAYS[_choose(state.hands[seat], state.trick, state.config.plays_per_trick)]


#: Per card of the pack, the keys `_choose` ranks by: a lead's and a winner's (value, then points, K3, K7)
#: and a throw's (points, then value), each ending in the card's own sort key, so that no two cards tie.
_VALUE = {card: card_value(card) for card in DECK}
_BY_VALUE = {card: (card_value(card), card_points(card), card.sort_key) for card in DECK}
_BY_POINTS = {card: (card_points(card), card_value(card), card.sort_key) for card in DECK}
_POINTS = {card: card_points(card) for card in DECK}
_PLAYS = {card: PlayCard(card) for card in DECK}


def _choose(hand: Collection[Card], trick: Sequence[tuple[int, Card]], per_trick: int) -> Card:
    """`greedy`'s card, from the hand (in any order: the keys leave no ties) and the trick so far; the
    state's and the rollout's table's alike."""
    if not trick:
        return min(hand, key=_BY_VALUE.__getitem__)
    value = _VALUE
    best = max(value[card] for _, card in trick)
    if len(trick) == per_trick - 1 or sum(_POINTS[card] for _, card in trick) >= 5:
        winners = [card for card in hand if value[card] > best]
        if winners:
            return min(winners, key=_BY_VALUE.__getitem__)
    return min(hand, key=_BY_POINTS.__getitem__)


def rollout(rules: Any, state: State, rng: random.Random, round_no: int) -> State:
    """`playout` with `greedy` for every seat to the hand's end (`greedy` draws no random numbers), played
    on the family's table (`KirkTable`, the engine's decisions on mutable lists), card by card."""
    if state.phase is not Phase.PLAY or state.hand_no != round_no:
        return state
    table = KirkTable(state, record=False)
    n = state.config.player_count
    per_trick = state.config.plays_per_trick
    hands, trick = table.hands, table.trick  # the table keeps these lists for the whole hand
    while table.phase is Phase.PLAY:
        card = _choose(hands[(table.leader + len(trick)) % n], trick, per_trick)
        if not table.play_run((card,), 0):
            raise AssertionError(f"the table refused greedy's {card}")  # greedy plays a card it holds (K4)
    return table.freeze()


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
                thresholds=(10.0, 25.0), rollout=rollout)
