"""Keys from a terminal in cbreak mode, as names ("right", "pgdn", "g", …).

The standard library is enough here: the replay only needs single keys and
arrow sequences, and every screen is prepared in advance, so redrawing is
instant without a UI framework.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

__all__ = ["terminal_keys", "SEQUENCES"]

SEQUENCES = {
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left",
    "\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left",
    "\x1b[5~": "pgup", "\x1b[6~": "pgdn",
    "\x1b[H": "home", "\x1b[F": "end", "\x1bOH": "home", "\x1bOF": "end",
    "\x1b[1~": "home", "\x1b[4~": "end", "\x1b[7~": "home", "\x1b[8~": "end",
}
_NAMED = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace", " ": "space",
          "\x1b": "escape", "\x03": "q", "\x04": "q"}


@contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def terminal_keys() -> Iterator[str]:
    """Yield key names until the input ends."""
    fd = sys.stdin.fileno()
    with _cbreak(fd):
        while True:
            data = os.read(fd, 32).decode("utf-8", errors="replace")
            if not data:
                return
            yield from split_keys(data)


def split_keys(data: str) -> Iterator[str]:
    """Cut raw input into key names (several keys can arrive in one read)."""
    i = 0
    while i < len(data):
        for length in (4, 3):
            chunk = data[i:i + length]
            if chunk in SEQUENCES:
                yield SEQUENCES[chunk]
                i += length
                break
        else:
            ch = data[i]
            yield _NAMED.get(ch, ch)
            i += 1
