"""Fitzgerald's game for the bots (docs/bots.md): the greedy rules of thumb and the sampler of hidden hands.

The sampler knows what the viewer has seen this round: their own hand, every
card played, the cards they passed (still held by their receiver unless
played, R6), and the suits a player has shown to be out of by not following
(R8). The Vaults hidden by R2 are left as they are: `mc` judges a move by the
*change* in the score difference, which no Vault held before the move enters.
Before the first card of a round (the pass count and the passes, R6) the viewer
knows only their own hand: the others' hands, and the cards they have already
passed face down, are redrawn from the rest of the deck.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any, Final

from diamonds.bots import FamilyBot, Table, deal_unknown, deck_index
from diamonds.core.cards import MAX_RANK, SUITS, Card, Suit, numbered_cards, standard_cards
from diamonds.core.sampling import shown_voids, void_refusals

from .rules.engine import Table as EngineTable
from .rules.engine import trick_winner
from .rules.moves import ChoosePassCount, ChooseVictim, Move, PassCards, PlayCard
from .rules.state import Phase, State

__all__ = ["BOT", "greedy", "determinise", "rollout"]

_DIAMONDS, _HEARTS, _SPADES, _CLUBS = SUITS
#: What a suit's action is worth to the side taking it, roughly (R11-R14): a Vault point counts twice (R18). By
#: the suit's `index` (D, H, S, C): a rollout ranks every card of a hand by it, and an Enum key is hashed in Python.
SUIT_WORTH: Final = tuple({_DIAMONDS: 4, _CLUBS: 3, _HEARTS: 2, _SPADES: 1}[suit] for suit in SUITS)
_ANY_DECK: Final = (*numbered_cards(1, MAX_RANK), *standard_cards())  # every card of any Fitzgerald deck
#: `_play`'s keys per card, each an int: to lead (the highest rank, the best suit among equals) and out of the
#: suit led (the best suit's action, the lowest card of it). One lookup a card in the rollouts' inner loop.
_LEAD_KEY: Final[dict[Card, int]] = {card: card.rank * 8 + SUIT_WORTH[card.suit.index] for card in _ANY_DECK}
_SHED_KEY: Final[dict[Card, int]] = {card: SUIT_WORTH[card.suit.index] * 64 - card.rank for card in _ANY_DECK}


def greedy(rules: Any, state: State, seat: int, rng: random.Random) -> Any:
    phase = state.phase
    if phase is Phase.PLAY:
        return PlayCard.of(_play(state.hands[seat], state.trick, state.config.side_of, seat))
    if phase is Phase.CHOOSE_VICTIM:
        return _victim(rules, state)
    if phase is Phase.PASS_COUNT:
        return ChoosePassCount(2)
    if phase is Phase.PASSING:
        # R6: give away the lowest cards, the least valuable suit first among equals.
        assert state.pass_count is not None
        cards = sorted(state.hand(seat), key=lambda c: (c.rank, SUIT_WORTH[c.suit.index]))[:state.pass_count]
        return PassCards(seat, tuple(sorted(cards, key=lambda c: c.sort_key)))
    return rules.random_move(state, rng)


def _play(hand: Collection[Card], trick: Sequence[tuple[int, Card]], side_of: Sequence[int], seat: int) -> Card:
    """Lead the highest card, the best suit among equals; follow with the cheapest card that takes the
    trick from the other side, else the lowest; out of the led suit, earn the best suit's action (R9).
    Read from the state's fields or the rollout's table's alike (the hand unsorted: each key below is an
    int, a total order on the cards it compares). Plain loops over int keys, not `max(key=...)`: this is
    the rollouts' inner loop, and compiled it then runs without a call per card."""
    pick: Card | None = None
    best_key = -(1 << 30)
    if not trick:  # the highest rank, the best suit among equals
        lead_key = _LEAD_KEY
        for card in hand:
            key = lead_key[card]
            if key > best_key:
                pick, best_key = card, key
        assert pick is not None
        return pick
    led = trick[0][1].suit
    winner, best = trick_winner(trick)
    beat = -1 if side_of[winner] == side_of[seat] else best.rank  # a partner's trick is let be
    lowest: Card | None = None
    lowest_beater: Card | None = None
    for card in hand:
        if card.suit is not led:
            if lowest is None:  # out of the led suit: the best suit's action, the lowest card of it
                key = _SHED_KEY[card]
                if key > best_key:
                    pick, best_key = card, key
            continue
        if lowest is None or card.rank < lowest.rank:
            lowest = card
        if beat >= 0 and card.rank > beat and (lowest_beater is None or card.rank < lowest_beater.rank):
            lowest_beater = card
    if lowest is None:
        assert pick is not None
        return pick
    return lowest_beater if lowest_beater is not None else lowest


def _victim(rules: Any, state: State) -> ChooseVictim:
    """R14: name the side with the most in its Showroom (public)."""
    moves = rules.legal_moves(state)
    named = [m for m in moves if m.victim is not None]
    if not named:
        return moves[0]
    side_of = state.config.side_of
    return max(named, key=lambda m: (state.showroom[side_of[m.victim]], -m.victim))


def rollout(rules: Any, state: State, rng: random.Random, round_no: int, first: Move | None = None) -> State:
    """`playout` with `greedy` for every seat to the round's end, on the engine's own mutable `Table`: the
    cards played on it one by one (`greedy` draws no random numbers for a card), every other decision by
    `greedy` on its frozen state, with the playout's test for the round's end. `first` is made on the table
    first (a world's move: no state made for the position after it)."""
    table = EngineTable(state, record=False)
    if first is not None:
        table.apply(first)
    n = len(state.config.players)
    side_of = state.config.side_of
    while True:
        if table.phase is Phase.PLAY and table.round_no == round_no:
            trick = table.trick  # a new list each trick
            seat = (table.leader + len(trick)) % n
            table.play(_play(table.hands[seat], trick, side_of, seat))
            continue
        now = table.freeze()
        if rules.is_over(now) or rules.is_chance(now) or now.round_no != round_no:
            return now
        table.apply(greedy(rules, now, rules.to_move(now), rng))


def determinise(table: Table, rng: random.Random) -> State | None:
    """The state now with the others' hands redrawn from what the viewer cannot place (see the module)."""
    state: State = table.state
    if state.phase in (Phase.PASS_COUNT, Phase.PASSING):
        return _determinise_passing(state, table.seat, rng)
    if state.phase not in (Phase.PLAY, Phase.CHOOSE_VICTIM):
        return None
    seat = table.seat
    config = state.config
    n = config.player_count
    played: set[Card] = set()
    plays: list[tuple[int, Card, Suit | None]] = []
    for before, move in zip(table.states, table.moves):
        if isinstance(move, PlayCard) and isinstance(card := move.card, Card):  # a card played is of the deck (R5)
            played.add(card)
            plays.append((before.to_move, card, before.trick[0][1].suit if before.trick else None))
    voids = shown_voids(plays, n)  # R8: out of the led suit
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
    buckets = deal_unknown(pool, sizes, void_refusals([voids[s] for s in others]), rng)
    hands = list(state.hands)
    for s, cards in zip(others, buckets):
        hands[s] = frozenset(known[s].union(cards))
    return state.with_hands(tuple(hands))


def _determinise_passing(state: State, seat: int, rng: random.Random) -> State:
    """Before the round's first card: every other hand, with what its player has already passed face down
    (R6: passes are made at once, so no pass is seen before the cards change hands), redrawn from the cards
    the viewer does not hold; the cards out of play (unused ranks) may land anywhere among the unknown."""
    n = state.config.player_count
    own = set(state.hands[seat]).union(state.passed[seat] or ())
    pool = [card for card in state.config.deck if card not in own]
    others = [s for s in range(n) if s != seat]
    sizes = [len(state.hands[s]) + len(state.passed[s] or ()) for s in others]
    buckets = deal_unknown(pool, sizes, [None] * len(others), rng)
    hands, passed = list(state.hands), list(state.passed)
    for s, cards in zip(others, buckets):
        gone = state.passed[s]
        if gone is None:
            hands[s] = frozenset(cards)
        else:
            passed[s] = tuple(sorted(cards[:len(gone)], key=lambda c: c.sort_key))
            hands[s] = frozenset(cards[len(gone):])
    return state.with_hands(tuple(hands), tuple(passed))


# ---------------------------------------------------------------- the environment's actions and features
# Ids, D = len(config.deck), n players: [0, D) play a card; [D, 2D) pass a card (a pass of k cards is k
# actions, its cards in deck order); 2D + k - 1 the dealer's pass count k (1-3); 2D + 3 + s name seat s's
# side as Clubs victim; 2D + 3 + n name none. Features: the phase (one-hot), the trick's cards, the pass
# count (one-hot), each side's Showroom from the viewer's side round (/ 20), the Supply (/ 235), the
# Thief's seat from the viewer round (one-hot, last: none).

_PHASES: Final = tuple(Phase)


def action_count(config: Any) -> int:
    return 2 * len(config.deck) + 4 + config.player_count


def encode(config: Any, move: Any) -> tuple[int, ...]:
    index = deck_index(config)
    d = len(config.deck)
    if isinstance(move, PlayCard):
        return (index[move.card],)
    if isinstance(move, PassCards):
        return tuple(sorted(d + index[card] for card in move.cards))
    if isinstance(move, ChoosePassCount):
        return (2 * d + move.count - 1,)
    if isinstance(move, ChooseVictim):
        return (2 * d + 3 + (config.player_count if move.victim is None else move.victim),)
    raise TypeError(f"no action id for {move!r}")


def feature_count(config: Any) -> int:
    return len(_PHASES) + len(config.deck) + 3 + config.side_count + 1 + config.player_count + 1


def features(state: State, seat: int) -> list[float]:
    config = state.config
    index = deck_index(config)
    n, sides = config.player_count, config.side_count
    out = [0.0] * feature_count(config)
    out[_PHASES.index(state.phase)] = 1.0
    at = len(_PHASES)
    for _, card in state.trick:
        out[at + index[card]] = 1.0
    at += len(config.deck)
    if state.pass_count:
        out[at + state.pass_count - 1] = 1.0
    at += 3
    own = config.side_of[seat]
    for side in range(sides):
        out[at + (side - own) % sides] = state.showroom[side] / 20.0
    at += sides
    out[at] = state.supply / 235.0
    at += 1
    out[at + (n if state.thief is None else (state.thief - seat) % n)] = 1.0
    return out




BOT = FamilyBot(greedy=greedy, determinise=determinise, action_count=action_count, encode=encode,
                feature_count=feature_count, features=features, rollout=rollout)
