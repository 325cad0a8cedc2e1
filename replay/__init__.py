"""Where notation meets rules: replaying DGN records through the engine, and writing games as records."""

from .record import game_tags, record_from_game
from .validate import Origin, ReplayedGame, replay_record, validate_record

__all__ = ["ReplayedGame", "replay_record", "validate_record", "record_from_game", "game_tags", "Origin"]
