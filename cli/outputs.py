"""Writing results: standard output, or a file replaced whole when complete (`diamonds.io.write`)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TextIO, cast

from diamonds.io.escape import visible_lines
from diamonds.io.write import replacing

__all__ = ["open_output", "atomic_write", "refuse_existing"]


@contextmanager
def open_output(path: str | None, *, force: bool = False) -> Iterator[TextIO]:
    """Standard output for None or "-" (`TerminalSafe` where it is a terminal); else the file, replaced when
    the block ends (a device, a FIFO or a terminal named as the file is written to as it is; a symlink is
    written through)."""
    if path is None or path == "-":
        yield cast(TextIO, TerminalSafe(sys.stdout)) if _is_terminal(sys.stdout) else sys.stdout
        return
    with replacing(path, force=force) as stream:
        yield stream


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class TerminalSafe:
    """Standard output when it is a terminal: what a command writes there (DGN or JSON with the input's
    comments and tags) has its control characters shown escaped (ESC as `\\x1b`), so that a file cannot
    drive the terminal. Written to a file or a pipe, the same output is kept byte for byte."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(visible_lines(text))
        return len(text)

    def __getattr__(self, name: str) -> object:  # flush, fileno, encoding, …: the terminal's own
        return getattr(self.stream, name)


def atomic_write(path: str, *, encoding: str = "utf-8", force: bool = False,
                 newline: str = "\n") -> AbstractContextManager[TextIO]:
    """`diamonds.io.write.replacing`: the one writer (`newline`: what each "\n" written becomes)."""
    return replacing(path, encoding=encoding, force=force, newline=newline)


def refuse_existing(paths: list[str]) -> None:
    """`--no-clobber`: an output that exists (a file, a folder, a link) is refused before anything is
    read or written, status 2. A device or a pipe (`-o /dev/null`) is written to, not replaced."""
    from .errors import CommandError

    for path in paths:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            if os.path.islink(path):  # a dangling link: replacing it would change what it is
                raise CommandError(f"{path} exists (a link) and --no-clobber keeps it: left as it was") from None
            continue
        except OSError:
            continue  # not reachable: the writer will say why
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            continue
        what = "a folder" if stat.S_ISDIR(mode) else "a file"
        raise CommandError(f"{path} exists ({what}) and --no-clobber keeps it: left as it was")
