"""Three-handed bidding Diamonds (RULINGS B1–B10): a family of its own behind the `Rules` protocol.

A 33-card pack (7 to A and a Joker), three players who bid their tricks,
take from a three-card kitty, lay a point card, adjust their bids by one,
and play ten tricks with Diamonds trumps; making the final bid exactly
adds the point card's value, missing it subtracts it. Plain frozen values
and pure functions: `Bidding.apply(state, move)` returns the next state
and the events.
"""

from diamonds.core.values import keep_picklable

from . import engine, errors, events, infer, moves, player, rules, state
from .config import BiddingConfig
from .deck import DECK, point_value
from .engine import *
from .errors import *
from .events import *
from .infer import *
from .moves import *
from .player import *
from .rules import *
from .state import *

keep_picklable(events, moves, state)  # compiled, their values pickle and copy only so (diamonds/core/values.py)

# Each module's public names (its __all__), and the config and the deck's few that players need.
__all__ = ["BiddingConfig", "DECK", "point_value"]
__all__ += rules.__all__ + state.__all__ + moves.__all__ + events.__all__ + errors.__all__ + engine.__all__
__all__ += infer.__all__ + player.__all__
