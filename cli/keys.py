"""Keys from a terminal in cbreak mode, as names ("right", "pgdn", "g", …).

The standard library is enough here: the replay only needs single keys and
arrow sequences, and every screen is prepared in advance, so redrawing is
instant without a UI framework.
"""

from __future__ import annotations

import codecs
import os
import re
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["terminal_keys", "split_keys", "partial_sequence", "SEQUENCES"]

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
        # TCSANOW, not tty's default TCSAFLUSH: keys typed while the replay was starting are in the
        # terminal's buffer, and are read as the first keys instead of being thrown away.
        tty.setcbreak(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def terminal_keys() -> Iterator[str]:
    """Yield key names until the input ends."""
    fd = sys.stdin.fileno()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a character may span two reads
    pending = ""
    with _cbreak(fd):
        while True:
            data = os.read(fd, 64)
            if not data:
                yield from split_keys(pending + decoder.decode(b"", final=True))
                return
            text = pending + decoder.decode(data)
            cut = partial_sequence(text)
            if cut and select.select([fd], [], [], 0.05)[0]:
                text, pending = text[:-cut], text[-cut:]  # the rest of an arrow key is on its way
            else:
                pending = ""
            yield from split_keys(text)


def partial_sequence(data: str) -> int:
    """How many characters at the end of `data` begin an escape sequence without finishing it."""
    start = data.rfind("\x1b")
    if start < 0:
        return 0
    tail = data[start:]
    if any(sequence.startswith(tail) and sequence != tail for sequence in SEQUENCES):
        return len(tail)
    return len(tail) if _OTHER_SEQUENCE.fullmatch(tail + "~") and not _OTHER_SEQUENCE.fullmatch(tail) else 0


# Sequences the replay has no use for (F1, Shift+Tab, Ctrl+arrows): read whole, so that
# their tail is not taken for keys ("[" is previous trick, a lone escape quits).
_OTHER_SEQUENCE = re.compile(r"\x1b\[[0-9;]*[@-~]|\x1bO[@-~]")


def split_keys(data: str) -> Iterator[str]:
    """Cut raw input into key names (several keys can arrive in one read).

    A known sequence gives its name ("right", "pgdn"); any other escape
    sequence is one key, named by its text.
    """
    i = 0
    while i < len(data):
        for length in (4, 3):
            chunk = data[i:i + length]
            if chunk in SEQUENCES:
                yield SEQUENCES[chunk]
                i += length
                break
        else:
            other = _OTHER_SEQUENCE.match(data, i)
            if other:
                yield other.group(0)
                i = other.end()
                continue
            ch = data[i]
            yield _NAMED.get(ch, ch)
            i += 1
