"""Mike Fitzgerald's Diamonds (Stronghold Games 1st and 2nd editions, Board Game Arena): rulings R1–R18.

An off-suit play earns a Suit Action; crystals move between the Supply, the
Showrooms and the Vaults. The editions `1e`, `2e`, `bga` are `Rules`
subclasses differing in class variables; `partnership` and `perfect` are
variants of the configuration.
"""

from diamonds.core.cards import MAX_RANK, SUITS, Card, CardParseError, Suit, format_cards, sort_cards
from diamonds.core.errors import CardNotInDeck
from diamonds.core.seating import ConfigError
from diamonds.core.values import keep_picklable

from . import errors, events, moves, player, rulesets, state
from .config import PASS_COUNTS, TOTAL_POINTS, GameConfig, Variant, deck
from .engine import (
    Table,
    apply,
    first_leader,
    initial_state,
    legal_moves,
    play_cards,
    playable_cards,
    results,
    results_of,
    trick_seats,
    trick_winner,
    victim_candidates,
)
from .errors import *
from .events import *
from .events import SUPPLY
from .moves import *
from .player import *
from .rulesets import *
from .state import Continuation, PendingVictim, Phase, State

keep_picklable(events, moves, state)  # compiled, their values pickle and copy only so (diamonds/core/values.py)

# The modules' public names (their __all__; the engine's and the state's but for `standings` and
# `side_score`, the config's that players need), and the cards and errors of diamonds.core they use.
__all__ = [
    "MAX_RANK", "SUITS", "Card", "CardParseError", "Suit", "format_cards", "sort_cards", "CardNotInDeck", "ConfigError",
    "PASS_COUNTS", "TOTAL_POINTS", "GameConfig", "Variant", "deck", "SUPPLY",
    "Continuation", "PendingVictim", "Phase", "State",
    "Table", "apply", "first_leader", "initial_state", "legal_moves", "play_cards", "playable_cards", "results",
    "results_of", "trick_seats", "trick_winner", "victim_candidates",
]
__all__ += errors.__all__ + events.__all__ + moves.__all__ + player.__all__ + rulesets.__all__
