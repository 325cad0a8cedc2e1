"""The bidding game's view: its screen, its step log and its events in words."""

from diamonds.views import view_of

from .narrate import ask, describe
from .render import Position, StepLog

__all__ = ["VIEW"]

VIEW = view_of(Position, StepLog, describe, ask)
