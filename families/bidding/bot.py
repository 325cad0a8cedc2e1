"""The bidding game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden cards.

What the viewer cannot place: the others' hands, the kitty (face down, B2,
except while the viewer takes from it), and the others' face-down point cards
(B4). The sampler shares those cards among those places, keeping out of a
hand every suit its player has shown to be out of by not following (B6; the
Joker, which belongs to no suit, proves nothing).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any, Final

from diamonds.bots import FamilyBot, Table, deal_unknown, deck_index
from diamonds.core.cards import AnyCard, Card, Suit, sort_cards
from diamonds.core.sampling import shown_voids, void_refusals

from .rules.config import PLAYERS
from .rules.deck import DECK, TRUMPS, point_value
from .rules.engine import play_choices, playable_unordered, takes_trick, trick_bar
from .rules.fast import BiddingTable
from .rules.moves import Bid, FinalBid, Move, PlayCard, TakeFromKitty
from .rules.state import BiddingState, Phase, Played

__all__ = ["BOT", "greedy", "determinise", "expected_tricks", "rollout"]


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
    if phase is Phase.PLAY:
        return _play(seat, state.hands[seat], state.trick, state.final_bids[seat], state.tricks_won[seat])
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
    return moves[0]


def _strength(card: AnyCard) -> tuple[int, int]:
    if not isinstance(card, Card):
        return (2, 15)
    return (1 if card.suit is TRUMPS else 0, card.rank)


def _rank(move: PlayCard) -> int:
    """How dear a play is to give up: the Joker high dearest, then trumps, then by rank (a low ace and a low
    Joker cheapest). One int, (class + 1) * 32 + rank, ordered as the pair (class, rank) is (ranks are under
    32): `_play` compares it for every play it weighs, and an int compares natively when compiled."""
    card = move.card
    if not isinstance(card, Card):
        return (4 if move.high else 0) * 32
    low_ace = card.is_ace and move.high is False
    return (2 if card.suit is TRUMPS else 1) * 32 + (0 if low_ace else card.rank)


#: Each card's place in display order (`sort_cards`, the order of `legal_moves`).
_PLACE: Final[dict[AnyCard, int]] = {card: place for place, card in enumerate(sort_cards(DECK))}
#: Per seat (B1: three) and card of the pack, its plays in `play_choices`' order, each with its `_rank`, its
#: entry in a trick (B7: the Joker counts in its given suit) and its card's place: made once, looked up by `_play`.
_OPTIONS: Final[tuple[dict[AnyCard, tuple[tuple[PlayCard, int, Played, int], ...]], ...]] = tuple(
    {card: tuple((move, _rank(move), Played(seat, card, move.high, move.suit if move.suit is not None else
                                            (card.suit if isinstance(card, Card) else TRUMPS)), _PLACE[card])
                 for move in play_choices(card))
     for card in DECK} for seat in range(PLAYERS))


def _play(seat: int, hand: Collection[AnyCard], trick: Sequence[Played], final: int | None,
          won: int) -> PlayCard:
    """Short of the final bid, take the trick as cheaply as possible; at it, duck with the highest card
    that does not take the trick; with nothing fit, the lowest card (B8, judged on the trick so far).
    Read from the state's fields or the rollout's table's alike. Of equal ranks the play first in
    `legal_moves`' order is kept (as `min` and `max` keep it): the cards come unsorted, so a card's place in
    display order breaks a tie between cards, and a card's own plays come in `legal_moves`' order."""
    bar = trick_bar(trick)
    options = _OPTIONS[seat]
    lowest: PlayCard | None = None
    cheapest_win: PlayCard | None = None
    dearest_loss: PlayCard | None = None
    low_rank = win_rank = loss_rank = low_place = win_place = loss_place = 0
    for card in playable_unordered(hand, trick[0].suit if trick else None):
        for move, rank, played, place in options[card]:
            if lowest is None or rank < low_rank or (rank == low_rank and place < low_place):
                lowest, low_rank, low_place = move, rank, place
            if takes_trick(bar, played):
                if cheapest_win is None or rank < win_rank or (rank == win_rank and place < win_place):
                    cheapest_win, win_rank, win_place = move, rank, place
            elif dearest_loss is None or rank > loss_rank or (rank == loss_rank and place < loss_place):
                dearest_loss, loss_rank, loss_place = move, rank, place
    assert lowest is not None  # a player to move holds a card (B6)
    if (final or 0) > won:
        return cheapest_win or lowest
    return dearest_loss or lowest


def rollout(rules: Any, state: BiddingState, rng: random.Random, round_no: int,
            first: Move | None = None) -> BiddingState:
    """`playout` with `greedy` for every seat to the hand's end (`greedy` draws no random numbers), played
    on the family's table (`BiddingTable`, the engine's decisions on mutable fields): the cards one by one,
    the few bids and takes by `greedy` on the table's frozen state. `first` is made on the table first."""
    table = BiddingTable(state, record=False)
    if first is not None:
        table.apply(first)
    n = state.config.player_count
    while table.phase is not Phase.DEAL and table.phase is not Phase.GAME_OVER and table.hand_no == round_no:
        if table.phase is Phase.PLAY:
            # The table's lists, changed in place until the hand is scored (which ends the play phase).
            hands, trick, final_bids, tricks_won = table.hands, table.trick, table.final_bids, table.tricks_won
            while table.phase is Phase.PLAY:
                seat = (table.leader + len(trick)) % n
                move = _play(seat, hands[seat], trick, final_bids[seat], tricks_won[seat])
                if not table.play_run((move,), 0):
                    raise AssertionError(f"the table refused greedy's {move}")  # greedy plays a legal move
        else:
            now = table.freeze()
            due = now.to_move
            assert due is not None  # a bid, a take or a final bid is due
            table.apply(greedy(rules, now, due, rng))
    return table.freeze()


def determinise(table: Table, rng: random.Random) -> BiddingState:
    """The state now with the hidden cards redrawn (see the module)."""
    state: BiddingState = table.state
    seat = table.seat
    n = state.config.player_count
    played: set[AnyCard] = set()
    plays: list[tuple[int, AnyCard, Suit | None]] = []
    for before, move in zip(table.states, table.moves):
        if isinstance(move, PlayCard):
            played.add(move.card)
            plays.append((before.to_move, move.card, before.trick[0].suit if before.trick else None))
    voids = shown_voids(plays, n)  # B6: out of the led suit (a Joker shows nothing)
    mine = set(state.hands[seat])
    point = state.point_cards[seat]
    if point is not None:
        mine.add(point)
    kitty_seen = state.phase is Phase.TAKE and state.to_move == seat  # the taker sees the kitty
    if kitty_seen:
        mine.update(state.kitty)
    pool = [card for card in state.config.deck if card not in mine and card not in played]
    others = [s for s in range(n) if s != seat]
    sizes = [len(state.hands[s]) for s in others]
    refuses: list[Any] = void_refusals([voids[s] for s in others])
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
    return state.with_hidden(tuple(hands), tuple(point_cards), kitty)


# ---------------------------------------------------------------- the environment's actions and features
# Ids, D = 33 (the pack in `config.deck` order): [0, D) play a card (an ace high); [D, 2D) play an ace low;
# 2D + 2 * suit + (0 high, 1 low) the Joker given a suit (D, H, S, C); then D ids "take this kitty card",
# D ids "lay this point card" (a take is two actions), 11 bids 0-10 and 11 final bids 0-10.
# Features: the phase (one-hot), the trick's cards, each seat's bid, final bid and tricks won from the
# viewer round (/ 10, -0.1 where none yet), the viewer's own point card, the dealer from the viewer round.

_PHASES: Final = tuple(Phase)


def action_count(config: Any) -> int:
    return 4 * len(config.deck) + 8 + 22


def encode(config: Any, move: Any) -> tuple[int, ...]:
    index = deck_index(config)
    d = len(config.deck)
    if isinstance(move, PlayCard):
        if not isinstance(move.card, Card):
            assert move.suit is not None
            return (2 * d + 2 * move.suit.index + (0 if move.high else 1),)
        return (index[move.card] + (d if move.high is False else 0),)
    if isinstance(move, TakeFromKitty):
        return (2 * d + 8 + index[move.card], 3 * d + 8 + index[move.point])
    if isinstance(move, Bid):
        return (4 * d + 8 + move.amount,)
    if isinstance(move, FinalBid):
        return (4 * d + 19 + move.amount,)
    raise TypeError(f"no action id for {move!r}")


def feature_count(config: Any) -> int:
    return len(_PHASES) + 2 * len(config.deck) + 4 * config.player_count


def features(state: BiddingState, seat: int) -> list[float]:
    config = state.config
    index = deck_index(config)
    n, d = config.player_count, len(config.deck)
    out = [0.0] * feature_count(config)
    out[_PHASES.index(state.phase)] = 1.0
    at = len(_PHASES)
    for played in state.trick:
        out[at + index[played.card]] = 1.0
    at += d
    for s in range(n):
        r = (s - seat) % n
        bid, final = state.bids[s], state.final_bids[s]
        out[at + r] = -0.1 if bid is None else bid / 10.0
        out[at + n + r] = -0.1 if final is None else final / 10.0
        out[at + 2 * n + r] = state.tricks_won[s] / 10.0
    at += 3 * n
    if state.point_cards[seat] is not None:
        out[at + index[state.point_cards[seat]]] = 1.0
    at += d
    out[at + (state.dealer - seat) % n] = 1.0
    return out




# A hand wins or loses a point card's value whole (7 to 20, B9): 5 is a mistake, 15 a blunder.
BOT = FamilyBot(greedy=greedy, determinise=determinise, action_count=action_count, encode=encode,
                feature_count=feature_count, features=features,
                thresholds=(5.0, 15.0), rollout=rollout)
