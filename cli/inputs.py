"""Opening what the user named: files or standard input, as streams of games."""

from __future__ import annotations

import io
import os
import sys
from contextlib import contextmanager
from typing import Iterator, TextIO

from diamonds.notation import GameRecord, read_games

from .errors import CommandError

__all__ = ["open_text", "games_in", "display_path"]


def display_path(path: str) -> str:
    return "<stdin>" if path == "-" else path


@contextmanager
def open_text(path: str) -> Iterator[TextIO]:
    """A text stream; undecodable bytes become U+FFFD so they surface as parse errors, not crashes."""
    if path == "-":
        yield io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline=None)
        return
    if os.path.isdir(path):
        raise CommandError(f"{path}: is a directory")
    try:
        stream = open(path, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except OSError as error:
        raise CommandError(f"{path}: {error.strerror}") from None
    with stream:
        yield stream


def games_in(path: str) -> Iterator[GameRecord]:
    with open_text(path) as stream:
        yield from read_games(stream)
