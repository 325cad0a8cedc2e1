"""Where notation meets rules: replaying DGN records through the engine, and writing games as records.

The driver (`validate.py`) is generic; each family's bridge turns its record
items into moves (`fitzgerald.py`, `kirk.py`, …) and its export turns a
replayed game into plain data.
"""

from .record import game_tags, record_from_game
from .validate import Origin, ReplayedGame, replay_record, validate_record

__all__ = ["ReplayedGame", "replay_record", "validate_record", "record_from_game", "game_tags", "Origin"]
