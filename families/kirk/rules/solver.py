"""Kirk's solver key: what of a state decides the rest of its hand, for the end-of-round solver's memo.

Two states of one hand with equal keys have the same future under every play
(the same legal moves, in the same order, up to cards that play alike, and
the same scores at the hand's end), so the solver may share their values.
Without it the memo merges almost nothing: the scoring piles keep the order
of the cards won (K5, K6). What the key keeps, and why that is enough:

- A card counts only by its value (K3: ties and the tie-break compare
  values) and its points (K7); suits mean nothing else (K3). So cards are
  keyed as (value, points), hands in display order, which is `legal_moves`'
  order (K4), so that the solver's tie-break (the first move) is kept too.
- A pile scores only its points' sum (K7). Its order matters only to break
  ties (K5): a comparison of the tied players' piles, top card first, by
  value, a player with no card at a depth dropping out. So each pile is
  keyed by its points and by its values from the top down to the deepest
  card a tie-break can still reveal (`_depths`), and whether that is all of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from diamonds.core.cards import Card, sort_cards

from .rules import card_points, card_value
from .state import Phase, State

__all__ = ["solver_key"]


def _class(card: Card) -> tuple[int, int]:
    return card_value(card), card_points(card)


def solver_key(state: State) -> Hashable:
    """See the module. Outside play (a deal due, the game over) the state itself."""
    if state.phase is not Phase.PLAY:
        return state
    hands = tuple(tuple(_class(card) for card in sort_cards(hand)) for hand in state.hands)
    trick = tuple(_class(card) for _, card in state.trick)
    tops = [tuple(card_value(card) for card in reversed(pile)) for pile in state.piles]
    depths = _depths(state, tops)
    piles = tuple((sum(card_points(card) for card in pile), top[:depth], depth == len(top))
                  for pile, top, depth in zip(state.piles, tops, depths))
    return state.hand_no, state.totals, state.trick_no, state.leader, hands, trick, piles


def _common(a: Sequence[int], b: Sequence[int]) -> int:
    """The length of the longest common prefix."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _depths(state: State, tops: list[tuple[int, ...]]) -> list[int]:
    """Per seat, how deep (from the top) a tie-break of the rest of the hand may read its pile (K5).

    Only players who may still tie (both hold, or one has played to this
    trick, a card of one value) are compared. Two piles a tie-break compares
    are the old piles under the tricks each wins from now on; where both win
    as many, the old piles are read alike, down to where they first differ;
    where one wins k more, its new cards are read against the other's old
    top 4k cards, which therefore must be values still to be played (those
    cards are at most the hands and the trick), and then the old piles, 4k
    apart. An upper bound, and one read off the keyed prefixes alone, so that
    equal keys give equal tie-breaks."""
    n = len(tops)
    per_trick = state.config.plays_per_trick
    seats_of: dict[int, set[int]] = {}
    remaining: Counter[int] = Counter()
    for seat, hand in enumerate(state.hands):
        for card in hand:
            value = card_value(card)
            seats_of.setdefault(value, set()).add(seat)
            remaining[value] += 1
    for seat, card in state.trick:
        value = card_value(card)
        seats_of.setdefault(value, set()).add(seat)
        remaining[value] += 1
    tricks = sum(remaining.values()) // per_trick  # still to be won, this one included
    pairs = {(i, j) for seats in seats_of.values() for i in seats for j in seats if i < j}
    # how many of a pile's top values could be matched by cards still to be played
    matchable = []
    for top in tops:
        left = Counter(remaining)
        m = 0
        for value in top:
            if left[value] <= 0:
                break
            left[value] -= 1
            m += 1
        matchable.append(m)
    depths = [0] * n
    for i, j in pairs:
        for seat in (i, j):  # enough to tell which shifts `matchable` allows
            depths[seat] = max(depths[seat], min(matchable[seat] + 1, per_trick * tricks))
        a, b = tops[i], tops[j]
        common = _common(a, b)
        depths[i] = max(depths[i], common + 1)
        depths[j] = max(depths[j], common + 1)
        for k in range(1, tricks + 1):
            shift = per_trick * k
            if shift <= matchable[i]:  # i wins k fewer: i's old top against j's new cards, then j's old pile
                common = _common(a[shift:], b)
                depths[i] = max(depths[i], shift + common + 1)
                depths[j] = max(depths[j], common + 1)
            if shift <= matchable[j]:
                common = _common(b[shift:], a)
                depths[j] = max(depths[j], shift + common + 1)
                depths[i] = max(depths[i], common + 1)
    return [min(depth, len(top)) for depth, top in zip(depths, tops)]
