"""Kirk's game for the end-of-round solver: its memo key, and the hand's end as a mutable `Endgame`.

`solver_key`: two states of one hand with equal keys have the same future
under every play (the same legal moves, in the same order, up to cards that
play alike, and the same scores at the hand's end), so the solver may share
their values. Without it the memo merges almost nothing: the scoring piles
keep the order of the cards won (K5, K6). What the key keeps, and why that
is enough:

- A card counts only by its value (K3: ties and the tie-break compare
  values) and its points (K7); suits mean nothing else (K3). So cards are
  keyed as (value, points), hands in display order, which is `legal_moves`'
  order (K4), so that the solver's tie-break (the first move) is kept too.
- A pile scores only its points' sum (K7), and nothing leaves it (K5, K6):
  its points are counted in `solver_scores` (the totals and the piles'
  points), so the change from there to the hand's end does not depend on
  them. A pile's order matters only to break ties (K5): a comparison of the
  tied players' piles, top card first, by value, a player with no card at
  a depth dropping out. So each pile is keyed by its values from the top
  down to the deepest card a tie-break can still reveal (`_depths`), and
  whether that is all of it.

`KirkEndgame` plays the same cards as `engine.apply` (K4; a tie decided by
the engine's own `trick_winner`, K5-K6) on lists, and takes them back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

from diamonds.core.cards import Card, sort_cards

from .config import DECK
from .moves import PlayCard
from .rules import card_points, card_value, trick_winner
from .state import Phase, State

__all__ = ["solver_key", "solver_scores", "KirkEndgame"]

_VALUE: Final = {card: card_value(card) for card in DECK}
_POINTS: Final = {card: card_points(card) for card in DECK}
_CLASS: Final = {card: (_VALUE[card], _POINTS[card]) for card in DECK}
_PLAY: Final = {card: PlayCard(card) for card in DECK}

PileKey = tuple[tuple[tuple[int, ...], bool], ...]


def solver_key(state: State) -> Hashable:
    """See the module. Outside play (a deal due, the game over) the state itself."""
    if state.phase is not Phase.PLAY:
        return state
    hands = tuple(tuple(_CLASS[card] for card in sort_cards(hand)) for hand in state.hands)
    trick = tuple(_CLASS[card] for _, card in state.trick)
    values = [[_VALUE[card] for card in pile] for pile in state.piles]
    piles = _pile_key(state.hands, state.trick, values, state.config.plays_per_trick)
    return state.hand_no, state.trick_no, state.leader, hands, trick, piles


def solver_scores(state: State) -> tuple[int, ...]:
    """In play, the totals with each pile's points so far (K7: they are the hand's score once it ends);
    else the standings' totals."""
    if state.phase is not Phase.PLAY:
        return state.totals
    return tuple(total + sum(_POINTS[card] for card in pile) for total, pile in zip(state.totals, state.piles))


def _pile_key(hands: Sequence[Sequence[Card] | frozenset[Card]], trick: Sequence[tuple[int, Card]],
              values: Sequence[list[int]], per_trick: int) -> PileKey:
    """Per seat: the pile's values from the top as deep as a tie-break may read, and whether that is the
    whole pile (`values`: per pile, its cards' values, bottom first). It changes only when a trick is won:
    the hands and the trick together hold the same cards all through a trick."""
    depths = _depths(hands, trick, values, per_trick)
    return tuple((tuple(pile[len(pile) - depth:][::-1]), depth == len(pile)) for pile, depth in zip(values, depths))


def _common(a: Sequence[int], b: Sequence[int], shift: int) -> int:
    """How many values from `shift` cards below the top of pile `a` match those from the top of pile `b`
    (piles bottom first): the common prefix of a's values from the top less `shift`, and b's."""
    i, j, n = len(a) - 1 - shift, len(b) - 1, 0
    while i >= 0 and j >= 0 and a[i] == b[j]:
        i, j, n = i - 1, j - 1, n + 1
    return n


def _depths(hands: Sequence[Sequence[Card] | frozenset[Card]], trick: Sequence[tuple[int, Card]],
            values: Sequence[list[int]], per_trick: int) -> list[int]:
    """Per seat, how deep (from the top) a tie-break of the rest of the hand may read its pile (K5).

    Only players who may still tie (both hold, or one has played to this
    trick, a card of one value: the same all through a trick, as the key
    is) are compared, and a tie-break among several
    is decided by the same comparisons two at a time. Two piles compared are
    the old piles under the tricks each wins from now on. Where both win as
    many, the old piles are read alike, down to where they first differ (or
    one ends). Where one wins k more, its new cards are read against the
    other's old top 4k cards, which therefore must be values still to be
    played (the hands and the trick: `matchable`), and then the old piles,
    4k apart. Every bound is read off the keyed prefixes alone (each pile is
    keyed past the first value no card still to be played can match), so
    equal keys give equal tie-breaks."""
    seats_of: dict[int, set[int]] = {}
    remaining: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        for card in hand:
            value = _VALUE[card]
            seats_of.setdefault(value, set()).add(seat)
            remaining[value] = remaining.get(value, 0) + 1
    for seat, card in trick:
        value = _VALUE[card]
        seats_of.setdefault(value, set()).add(seat)
        remaining[value] = remaining.get(value, 0) + 1
    depths = [0] * len(values)
    pairs = {(i, j) for seats in seats_of.values() if len(seats) > 1 for i in seats for j in seats if i < j}
    if not pairs:
        return depths
    tricks = sum(remaining.values()) // per_trick  # still to be won, this one included
    most = per_trick * tricks
    matchable = {}  # per pile compared, how many of its top values cards still to be played could match
    for seat in {seat for pair in pairs for seat in pair}:
        left = dict(remaining)
        pile = values[seat]
        m = 0
        for index in range(len(pile) - 1, max(len(pile) - 1 - most, -1), -1):
            value = pile[index]
            if left.get(value, 0) <= 0:
                break
            left[value] -= 1
            m += 1
        matchable[seat] = m
        depths[seat] = min(m + 1, most)  # enough to tell which shifts `matchable` allows
    for i, j in pairs:
        a, b = values[i], values[j]
        common = _common(a, b, 0)
        depths[i] = max(depths[i], common + 1)
        depths[j] = max(depths[j], common + 1)
        for k in range(1, tricks + 1):
            shift = per_trick * k
            if shift <= matchable[i]:  # i wins k fewer: i's old top against j's new cards, then j's old pile
                common = _common(a, b, shift)
                depths[i] = max(depths[i], shift + common + 1)
                depths[j] = max(depths[j], common + 1)
            if shift <= matchable[j]:
                common = _common(b, a, shift)
                depths[j] = max(depths[j], shift + common + 1)
                depths[i] = max(depths[i], common + 1)
    return [min(depth, len(pile)) for depth, pile in zip(depths, values)]


class KirkEndgame:
    """A hand being played, for the solver (`diamonds.core.family.Endgame`): cards played and taken back
    in place. Hands are lists in display order (so `moves` is `legal_moves`' order, K4); the piles are
    lists of cards (K6) with their points (K7), and the pile key is kept once per trick reached, as it
    changes only when a trick is won."""

    cost = 1  # the cheapest endgame: about 30,000-40,000 decisions a second on a loaded 2-core machine
    __slots__ = ("n", "per_trick", "last_trick", "hand_no", "totals", "trick_no", "leader", "hands", "trick",
                 "piles", "points", "history", "pile_keys")

    def __init__(self, state: State) -> None:
        config = state.config
        self.n = config.player_count
        self.per_trick = config.plays_per_trick
        self.last_trick = config.tricks_per_hand
        self.hand_no = state.hand_no
        self.totals = state.totals
        self.trick_no = state.trick_no
        self.leader = state.leader
        self.hands: list[list[Card]] = [list(sort_cards(hand)) for hand in state.hands]
        self.trick: list[tuple[int, Card]] = list(state.trick)
        self.piles: list[list[Card]] = [list(pile) for pile in state.piles]  # bottom first (K6)
        self.points = [sum(_POINTS[card] for card in pile) for pile in state.piles]
        # per card played: its seat, its place in the hand, and (when it completed a trick) what it changed
        self.history: list[tuple[int, int, tuple[int, int, int, tuple[tuple[int, Card], ...]] | None]] = []
        self.pile_keys: list[PileKey | None] = [None]  # per trick reached, worked out when first asked

    def to_move(self) -> int | None:
        """The seat to play; None once the hand's last trick is won (K4)."""
        if not self.trick and not self.hands[self.leader]:
            return None
        return (self.leader + len(self.trick)) % self.n

    def moves(self) -> list[PlayCard]:
        """K4: any card held, in display order; of cards next to each other there that play alike (the
        same value and points) only the first: either leaves the same hand to play on, in the same order."""
        moves, last = [], None
        for card in self.hands[(self.leader + len(self.trick)) % self.n]:
            kind = _CLASS[card]
            if kind != last:
                moves.append(_PLAY[card])
                last = kind
        return moves

    def play(self, move: PlayCard) -> None:
        card = move.card
        assert isinstance(card, Card)  # moves come from `moves`
        seat = (self.leader + len(self.trick)) % self.n
        hand = self.hands[seat]
        index = hand.index(card)
        del hand[index]
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.per_trick:
            self.history.append((seat, index, None))
            return
        # K5: the trick is complete: the engine's rule decides who wins it;
        # K6: its cards go on top of the winner's pile, in play order.
        winner = _winner(trick, self.piles)
        won = 0
        for _, played in trick:
            self.piles[winner].append(played)
            won += _POINTS[played]
        self.points[winner] += won
        self.history.append((seat, index, (self.leader, self.trick_no, won, tuple(trick))))
        trick.clear()
        self.leader = winner  # K4: the winner leads the next trick
        if self.trick_no < self.last_trick:
            self.trick_no += 1
        self.pile_keys.append(None)

    def undo(self) -> None:
        seat, index, done = self.history.pop()
        if done is not None:
            winner = self.leader
            self.leader, self.trick_no, won, cards = done
            del self.piles[winner][-self.per_trick:]
            self.points[winner] -= won
            self.trick[:] = cards
            self.pile_keys.pop()
        _, card = self.trick.pop()
        self.hands[seat].insert(index, card)

    def finish(self) -> tuple[int, ...] | None:
        """In the hand's last trick (every card left forced, K4), the scores at the hand's end; else None."""
        if self.trick_no < self.last_trick:
            return None
        n, trick = self.n, list(self.trick)
        for offset in range(len(trick), self.per_trick):
            seat = (self.leader + offset) % n
            trick.append((seat, self.hands[seat][0]))
        winner = _winner(trick, self.piles)
        scores = [total + points for total, points in zip(self.totals, self.points)]
        scores[winner] += sum(_POINTS[card] for _, card in trick)
        return tuple(scores)

    def key(self) -> Hashable:
        """`solver_key` of the state this stands for."""
        piles = self.pile_keys[-1]
        if piles is None:
            values = [[_VALUE[card] for card in pile] for pile in self.piles]
            piles = self.pile_keys[-1] = _pile_key(self.hands, self.trick, values, self.per_trick)
        hands = tuple(tuple(_CLASS[card] for card in hand) for hand in self.hands)
        trick = tuple(_CLASS[card] for _, card in self.trick)
        return self.hand_no, self.trick_no, self.leader, hands, trick, piles

    def scores(self) -> tuple[int, ...]:
        """`solver_scores`: the totals with each pile's points (K7), which at the hand's end are its standings."""
        return tuple(total + points for total, points in zip(self.totals, self.points))


def _winner(trick: Sequence[tuple[int, Card]], piles: Sequence[list[Card]]) -> int:
    """K5: the single highest value wins; a tie goes to the engine's `trick_winner` (its piles walk)."""
    values = [_VALUE[card] for _, card in trick]
    best = max(values)
    if values.count(best) == 1:
        return trick[values.index(best)][0]
    return trick_winner(trick, piles)[0]
