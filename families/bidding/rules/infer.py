"""The deal a complete hand implies: DGN lets a record leave out its deal and kitty lines.

Nothing enters or leaves a hand but the card taken from the kitty, the
point card laid (B4) and the cards played, so a seat's ten dealt cards are
the cards it played, plus its point card, less the card it took. Who played
which card follows from the trick lines alone: the dealer's left leads the
first trick (B6), and each trick's winner (B8, which needs only the plays)
leads the next.
"""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core.cards import AnyCard, Card, sort_cards
from diamonds.core.errors import InvalidDeal

from .config import BiddingConfig
from .engine import trick_winner
from .errors import MissingChoice
from .moves import Deal, PlayCard, TakeFromKitty
from .state import Played

__all__ = ["infer_deal"]


def infer_deal(config: BiddingConfig, dealer: int, takes: Sequence[TakeFromKitty],
               tricks: Sequence[Sequence[PlayCard]]) -> Deal:
    """The hands and kitty dealt, from a hand's three takes and its ten tricks (each in play order).

    The kitty is the three cards taken, in turn order. Raises `InvalidDeal`
    (B2) when the hand is not complete, and `MissingChoice` (B7) for a
    Joker without a suit (the winner of its trick would be unknown). The
    result is not checked: `apply` checks it like any deal.
    """
    n = config.player_count
    by_seat = {take.seat: take for take in takes}
    if len(takes) != n or sorted(by_seat) != list(range(n)):
        raise InvalidDeal(f"a deal is inferred from {n} takes, one per player; the hand has {len(takes)}",
                          rule="B2", expected=n, found=len(takes))
    if len(tricks) != config.tricks_per_hand:
        raise InvalidDeal(f"a deal is inferred from a complete hand of {config.tricks_per_hand} tricks; "
                          f"the hand has {len(tricks)}", rule="B2", expected=config.tricks_per_hand,
                          found=len(tricks))
    played: list[list[AnyCard]] = [[] for _ in range(n)]
    leader = config.left_of(dealer)
    for trick in tricks:
        if len(trick) != config.plays_per_trick:
            raise InvalidDeal(f"a trick has {config.plays_per_trick} cards, not {len(trick)}", rule="B2",
                              expected=config.plays_per_trick, found=len(trick))
        plays = []
        for position, move in enumerate(trick):
            seat = (leader + position) % n
            suit = move.card.suit if isinstance(move.card, Card) else move.suit
            if suit is None:
                raise MissingChoice("the Joker must be given a suit", seat=seat, card=move.card)
            plays.append(Played(seat, move.card, move.high, suit))
            played[seat].append(move.card)
        leader = plays[trick_winner(plays)[0]].seat
    hands = []
    for seat in range(n):
        take = by_seat[seat]
        cards = [*played[seat], take.point]
        if take.card in cards:
            cards.remove(take.card)
        hands.append(sort_cards(cards))
    kitty = tuple(by_seat[seat].card for seat in config.turn_order(dealer))
    return Deal(tuple(hands), kitty)
