"""DGN, the Diamonds Game Notation: text ↔ typed game records.

The notation knows the words of a game, not its rules: whether a record is a
legal game is decided by replaying it (`replay`).
"""

from .reader import game_texts, grammar_text, parse_game, parse_games, read_games, split_games
from .records import (
    NOWHERE,
    Choice,
    Comment,
    EndLine,
    GameRecord,
    HandLine,
    Play,
    Pos,
    Problem,
    ResultEntry,
    Round,
    RoundHeader,
    Tag,
    Trick,
)

__all__ = [name for name in dir() if not name.startswith("_")]
