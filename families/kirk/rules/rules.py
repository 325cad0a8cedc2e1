"""The rulings of Kirk's Diamonds as pure functions: card values, points, who leads, who wins a trick."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from diamonds.core.cards import Card, Suit
from diamonds.core.seating import Seating

from .events import DecidedBy, TieBreak, TieStep

__all__ = ["card_value", "card_points", "pile_points", "first_leader", "trick_winner"]


def card_value(card: Card) -> int:
    """K3: the rank (J 11, Q 12, K 13, A 14), plus 1 for a Diamond (10D 11, AD 15)."""
    return card.rank + 1 if card.suit is Suit.DIAMONDS else card.rank


def card_points(card: Card) -> int:
    """K7: 2-10 score 1, J/Q/K 5, A 10; Diamonds 2-10 score 3, J/Q/K 10, AD 20."""
    if card.rank <= 10:
        points = 1
    elif card.rank < 14:
        points = 5
    else:
        points = 10
    if card.suit is Suit.DIAMONDS:
        return 3 if points == 1 else 2 * points
    return points


def pile_points(pile: Iterable[Card]) -> int:
    """K7: the points of a scoring pile (a loop, not `map`: compiled, each call is then a native one)."""
    points = 0
    for card in pile:
        points += card_points(card)
    return points


def first_leader(config: Seating, dealer: int) -> int:
    """K4: the dealer's left neighbour leads the first trick of a hand."""
    return config.left_of(dealer)


def trick_winner(plays: Sequence[tuple[int, Card]], piles: Sequence[Sequence[Card]]) -> tuple[int, TieBreak]:
    """K5: the seat that wins a complete trick, and the record of how.

    `plays` are (seat, card) in play order; `piles` the scoring piles per
    seat, bottom first (K6), before this trick is added. Nothing is taken
    from the piles: revealed cards stay where they are.
    """
    values = [card_value(card) for _, card in plays]
    best = max(values)
    tied = tuple([seat for (seat, _), value in zip(plays, values) if value == best])
    if len(tied) == 1:
        return tied[0], TieBreak(tied[0], tied, DecidedBy.HIGHEST, 0, ())
    still = tied
    steps: list[TieStep] = []
    depth = 0
    while True:
        depth += 1
        with_card = tuple([seat for seat in still if len(piles[seat]) >= depth])
        if not with_card:
            # Nobody still tied has a card at this depth: the first of them to play wins.
            steps.append(TieStep(depth, (), still, (), still))
            winner = still[0]  # `still` keeps play order
            return winner, TieBreak(winner, tied, DecidedBy.FIRST_PLAYED, depth, tuple(steps))
        no_card = tuple([seat for seat in still if seat not in with_card])
        revealed = tuple([(seat, piles[seat][-depth]) for seat in with_card])
        top = max([card_value(card) for _, card in revealed])
        remaining = tuple([seat for seat, card in revealed if card_value(card) == top])
        outvalued = tuple([seat for seat, card in revealed if card_value(card) < top])
        steps.append(TieStep(depth, revealed, no_card, outvalued, remaining))
        if len(remaining) == 1:
            winner = remaining[0]
            return winner, TieBreak(winner, tied, DecidedBy.PILES, depth, tuple(steps))
        still = remaining
