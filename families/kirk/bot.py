"""Kirk's game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden hands.

No duty to follow (K4), so a hand shows no voids: the unknown cards are
simply the pack less the viewer's hand and every card played this hand,
shared among the others by the number of cards each still holds.
"""

from __future__ import annotations

import random
from typing import Any, Final

from diamonds.bots import FamilyBot, Table, deal_unknown, deck_index
from diamonds.core.cards import Card

from .rules.config import DECK
from .rules.engine import _end_of_hand, apply
from .rules.moves import Move, PlayCard
from .rules.rules import card_points, card_value, trick_winner
from .rules.state import Phase, State

__all__ = ["BOT", "greedy", "determinise", "rollout"]


def greedy(rules: Any, state: State, seat: int, rng: random.Random) -> PlayCard:
    """Win a trick worth having with the cheapest card that wins it; otherwise throw the cheapest card.

    Cheap means few points (K7), then low value (K3). A trick is worth having
    when it already holds points, or when the player is last to play. A lead
    is the lowest-value card, keeping the high ones to win tricks with.
    A tie (K5) counts as a loss here."""
    index = _INDEX
    hand = [index[card] for card in state.hands[seat]]
    trick = [index[card] for _, card in state.trick]
    return _PLAYS[_pick(hand, trick, state.config.plays_per_trick)]


#: The pack by index, and per index what `_pick` and the rollout read (K3's value, K7's points), and the
#: card's place in greedy's two orders: a lead's and a winner's (value, then points) and a throw's (points,
#: then value), each ending in the card's own sort key, so that no two cards tie. `Final`, so that the
#: compiled build reads them as constants rather than through the module's dict.
_INDEX: Final[dict[Card, int]] = {card: i for i, card in enumerate(DECK)}
_CARDS: Final[list[Card]] = list(DECK)
_VALUE_AT: Final[list[int]] = [card_value(card) for card in DECK]
_POINTS_AT: Final[list[int]] = [card_points(card) for card in DECK]


def _places(key: Any) -> list[int]:
    order = sorted(range(len(DECK)), key=lambda i: key(DECK[i]))
    places = [0] * len(DECK)
    for place, i in enumerate(order):
        places[i] = place
    return places


_CHEAP_WIN_AT: Final[list[int]] = _places(lambda card: (card_value(card), card_points(card), card.sort_key))
_CHEAP_THROW_AT: Final[list[int]] = _places(lambda card: (card_points(card), card_value(card), card.sort_key))
_PLAYS: Final[list[PlayCard]] = [PlayCard(card) for card in DECK]


def _pick(hand: list[int], trick: list[int], per_trick: int) -> int:
    """`greedy`'s card (an index of the pack), from the hand's indices (in any order: the places leave no
    ties) and the trick's so far: for the state's greedy and the rollout alike."""
    if trick:
        best = 0
        points = 0
        for i in trick:
            if _VALUE_AT[i] > best:
                best = _VALUE_AT[i]
            points += _POINTS_AT[i]
        if len(trick) == per_trick - 1 or points >= 5:
            win, win_place = -1, 1 << 30
            for i in hand:
                if _VALUE_AT[i] > best and _CHEAP_WIN_AT[i] < win_place:
                    win, win_place = i, _CHEAP_WIN_AT[i]
            if win >= 0:
                return win
        places = _CHEAP_THROW_AT
    else:
        places = _CHEAP_WIN_AT
    pick, pick_place = -1, 1 << 30
    for i in hand:
        if places[i] < pick_place:
            pick, pick_place = i, places[i]
    return pick


def rollout(rules: Any, state: State, rng: random.Random, round_no: int, first: Move | None = None) -> State:
    """`playout` with `greedy` for every seat to the hand's end (`greedy` draws no random numbers), card by
    card on lists of the pack's indices; a trick's winner is its one highest card (K5), or `trick_winner` on
    the piles when several tie; the hand's end is the engine's own (`_end_of_hand`, K7-K8). `first` is made
    first, by the rules (`apply`)."""
    if first is not None:
        state = apply(state, first)[0]
    if state.phase is not Phase.PLAY or state.hand_no != round_no:
        return state
    config = state.config
    index = _INDEX
    n = len(state.hands)  # a seat each (not config.player_count: a property of the pure Seating)
    per_trick = config.plays_per_trick
    last_trick = config.tricks_per_hand
    hands = [[index[card] for card in hand] for hand in state.hands]
    piles = [list(pile) for pile in state.piles]
    seats = [seat for seat, _ in state.trick]
    trick = [index[card] for _, card in state.trick]
    leader, trick_no = state.leader, state.trick_no
    while True:
        while len(trick) < per_trick:
            seat = (leader + len(trick)) % n
            card = _pick(hands[seat], trick, per_trick)
            hands[seat].remove(card)
            seats.append(seat)
            trick.append(card)
        best, winner, ties = -1, -1, 0
        for place in range(per_trick):
            value = _VALUE_AT[trick[place]]
            if value > best:
                best, winner, ties = value, seats[place], 1
            elif value == best:
                ties += 1
        won = [_CARDS[i] for i in trick]
        if ties > 1:  # K5: broken from the piles, before this trick joins one
            winner = trick_winner(list(zip(seats, won)), piles)[0]
        piles[winner].extend(won)  # K6: in play order, on top of the winner's pile
        seats.clear()
        trick.clear()
        leader = winner  # K4: the winner leads the next trick
        if trick_no == last_trick:
            break
        trick_no += 1
    empty: frozenset[Card] = frozenset()
    last = State(config=config, phase=Phase.PLAY, hand_no=state.hand_no, dealer=state.dealer,
                 hands=(empty,) * n, trick_no=trick_no, leader=leader, trick=(),
                 piles=tuple(tuple(pile) for pile in piles), totals=state.totals)
    return _end_of_hand(last, [])[0]


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
    return state.with_trick(tuple(hands), state.trick_no, state.leader, state.trick, state.piles)


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
