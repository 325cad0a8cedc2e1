"""Mike Fitzgerald's Diamonds (Stronghold Games 1st and 2nd editions, Board Game Arena): rulings R1–R18.

An off-suit play earns a Suit Action; crystals move between the Supply, the
Showrooms and the Vaults. The editions `1e`, `2e`, `bga` are `Rules`
subclasses differing in class variables; `partnership` and `perfect` are
variants of the configuration.
"""

from diamonds.core.cards import MAX_RANK, SUITS, Card, CardParseError, Suit, format_cards, sort_cards
from diamonds.core.errors import CardNotInDeck, IllegalMove, WrongPhase
from diamonds.core.seating import ConfigError

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
from .errors import (
    CardNotHeld,
    GameOver,
    InvalidDeal,
    InvalidPass,
    MustFollowSuit,
    OutOfTurn,
    VictimNotAllowed,
    VictimRequired,
    WrongPassCount,
)
from .events import (
    SUPPLY,
    Area,
    AreaKind,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    Event,
    GameEnded,
    PassCountChosen,
    PassesDelivered,
    Reason,
    RoundEnded,
    RoundStarted,
    SideResult,
    SuitAction,
    TrickWon,
)
from .moves import ChoosePassCount, ChooseVictim, Deal, Move, PassCards, PlayCard
from .player import random_deal, random_move
from .rulesets import EDITIONS, RULE_SETS, BoardGameArena, FirstEdition, Fitzgerald, SecondEdition, configure, rule_set
from .state import Continuation, PendingVictim, Phase, State

__all__ = [
    "Area", "AreaKind", "BoardGameArena", "Card", "CardNotHeld", "CardNotInDeck", "CardParseError", "CardPlayed",
    "CardsDealt", "CardsPassed", "ChoosePassCount", "ChooseVictim", "ConfigError", "Continuation", "Deal",
    "EDITIONS", "Event", "FirstEdition", "Fitzgerald", "GameConfig", "GameEnded", "GameOver", "IllegalMove",
    "InvalidDeal", "InvalidPass", "MAX_RANK", "Move", "MustFollowSuit", "OutOfTurn", "PASS_COUNTS", "PassCards",
    "PassCountChosen", "PassesDelivered", "PendingVictim", "Phase", "PlayCard", "RULE_SETS", "Reason",
    "RoundEnded", "RoundStarted", "SUITS", "SUPPLY", "SecondEdition", "SideResult", "State", "Suit", "SuitAction",
    "TOTAL_POINTS", "Table", "TrickWon", "Variant", "VictimNotAllowed", "VictimRequired", "WrongPassCount",
    "WrongPhase", "apply", "configure", "deck", "first_leader", "format_cards", "initial_state", "legal_moves",
    "play_cards", "playable_cards", "random_deal", "random_move", "results", "results_of", "rule_set",
    "sort_cards", "trick_seats", "trick_winner", "victim_candidates",
]
