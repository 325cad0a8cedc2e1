"""Alan Kirk's four-player Diamonds (rulings K1-K8): a family behind the engine's `Rules` protocol.

Four players, each for themselves, the standard 52-card pack, 13 cards each,
no passing and no duty to follow suit. The highest value wins a trick
(Diamonds count one rank higher); a tie is broken from the tied players'
scoring piles. Each hand the piles score (179 points in all); the game lasts
a number of hands (`Hands`, default 4) or up to a score (`Target`).

Plain frozen values and pure functions; no lark, rich or json.
"""

from .config import DECK, DEFAULT_HANDS, HAND_SIZE, KirkConfig, configure
from .engine import apply, initial_state, legal_moves, random_deal, random_move, standings
from .events import (
    CardPlayed,
    CardsDealt,
    DecidedBy,
    Event,
    GameEnded,
    HandScored,
    HandStarted,
    KirkStanding,
    TieBreak,
    TieBroken,
    TieStep,
    TrickWon,
)
from .moves import Deal, Move, PlayCard
from .rules import card_points, card_value, first_leader, pile_points, trick_winner
from .ruleset import Kirk
from .state import Phase, State

__all__ = [
    "Kirk", "KirkConfig", "configure", "DECK", "DEFAULT_HANDS", "HAND_SIZE",
    "Deal", "PlayCard", "Move",
    "Phase", "State",
    "Event", "HandStarted", "CardsDealt", "CardPlayed", "TieBroken", "TrickWon", "HandScored", "GameEnded",
    "DecidedBy", "TieStep", "TieBreak", "KirkStanding",
    "card_value", "card_points", "pile_points", "first_leader", "trick_winner",
    "initial_state", "legal_moves", "apply", "standings", "random_move", "random_deal",
]
