"""Three-handed bidding Diamonds (RULINGS B1–B10): a family of its own behind the `Rules` protocol.

A 33-card pack (7 to A and a Joker), three players who bid their tricks,
take from a three-card kitty, lay a point card, adjust their bids by one,
and play ten tricks with Diamonds trumps; making the final bid exactly
adds the point card's value, missing it subtracts it. Plain frozen values
and pure functions: `Bidding.apply(state, move)` returns the next state
and the events.
"""

from .config import BiddingConfig
from .deck import DECK, point_value
from .engine import (
    apply,
    bid_range,
    final_bid_range,
    game_ends,
    initial_state,
    legal_moves,
    play_choices,
    playable_cards,
    standings,
    standings_of,
    trick_winner,
)
from .errors import BadBid, ChoiceNotAllowed, FinalBidMove, ForbiddenTotal, MissingChoice, NotInKitty
from .events import (
    BiddingStanding,
    BidMade,
    CardPlayed,
    CardsDealt,
    CardTaken,
    Event,
    FinalBidMade,
    GameEnded,
    HandScored,
    HandStarted,
    SeatScore,
    TrickWon,
    WinReason,
)
from .infer import infer_deal
from .moves import Bid, Deal, FinalBid, Move, PlayCard, TakeFromKitty
from .player import random_deal, random_move
from .rules import Bidding
from .state import BiddingState, Phase, Played

__all__ = [
    "Bidding", "BiddingConfig", "BiddingState", "Phase", "Played", "DECK", "point_value",
    "Move", "Deal", "Bid", "TakeFromKitty", "FinalBid", "PlayCard",
    "Event", "HandStarted", "CardsDealt", "BidMade", "CardTaken", "FinalBidMade", "CardPlayed", "WinReason",
    "TrickWon", "SeatScore", "HandScored", "BiddingStanding", "GameEnded",
    "BadBid", "ForbiddenTotal", "FinalBidMove", "MissingChoice", "ChoiceNotAllowed", "NotInKitty",
    "initial_state", "legal_moves", "apply", "standings", "standings_of", "trick_winner", "playable_cards",
    "play_choices", "bid_range", "final_bid_range", "game_ends", "infer_deal", "random_deal", "random_move",
]
