"""Alan Kirk's four-player Diamonds (rulings K1-K8): a family behind the engine's `Rules` protocol.

Four players, each for themselves, the standard 52-card pack, 13 cards each,
no passing and no duty to follow suit. The highest value wins a trick
(Diamonds count one rank higher); a tie is broken from the tied players'
scoring piles. Each hand the piles score (179 points in all); the game lasts
a number of hands (`Hands`, default 4) or up to a score (`Target`).

Plain frozen values and pure functions; no lark, rich or json.
"""

from diamonds.core.values import keep_picklable

from . import engine, events, moves, rules, ruleset, state
from .config import DECK, DEFAULT_HANDS, HAND_SIZE, KirkConfig, configure
from .engine import *
from .events import *
from .moves import *
from .rules import *
from .ruleset import *
from .state import *

keep_picklable(events, moves, state)  # compiled, their values pickle and copy only so (diamonds/core/values.py)

# Each module's public names (its __all__), and the config's few that players need.
__all__ = ["KirkConfig", "configure", "DECK", "DEFAULT_HANDS", "HAND_SIZE"]
__all__ += ruleset.__all__ + moves.__all__ + state.__all__ + events.__all__ + rules.__all__ + engine.__all__
