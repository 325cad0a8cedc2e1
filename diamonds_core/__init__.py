"""The Diamonds rules engine: plain values, legal moves, and the events each move causes.

It knows nothing of text formats, terminals or JSON (see `notation` and `cli`).
"""

from .cards import MAX_RANK, SUITS, Card, CardParseError, Suit, deck, format_cards, sort_cards
from .config import ConfigError, GameConfig, Variant
from .errors import (
    CardNotHeld, GameOver, IllegalMove, InvalidDeal, InvalidPass, MustFollowSuit, OutOfTurn,
    VictimNotAllowed, VictimRequired, WrongPassCount, WrongPhase,
)
from .events import (
    Area, AreaKind, CardPlayed, CardsDealt, CardsPassed, Event, GameEnded, PassCountChosen,
    PassesDelivered, Reason, RoundEnded, RoundStarted, SideResult, SuitAction, TrickWon,
)
from .fitzgerald import (
    apply, first_leader, initial_state, legal_moves, playable_cards, results, results_of, trick_seats, trick_winner,
    victim_candidates,
)
from .game import Game
from .moves import ChoosePassCount, ChooseVictim, Deal, Move, PassCards, PlayCard
from .rulesets import RULE_SETS, BoardGameArena, FirstEdition, Fitzgerald, RuleSet, SecondEdition, rule_set
from .simulate import play_random_game, random_move, simulate
from .state import Continuation, PendingVictim, Phase, State

__all__ = [name for name in dir() if not name.startswith("_")]
