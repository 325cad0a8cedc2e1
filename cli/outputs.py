"""Writing results: standard output, or a file replaced whole when complete (`diamonds.io.write`)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TextIO

from diamonds.io.write import replacing

__all__ = ["open_output", "atomic_write", "refuse_existing"]


@contextmanager
def open_output(path: str | None, *, force: bool = False) -> Iterator[TextIO]:
    """Standard output for None or "-"; else the file, replaced when the block ends (a device, a FIFO
    or a terminal is written to as it is; a symlink is written through)."""
    if path is None or path == "-":
        yield sys.stdout
        return
    with replacing(path, force=force) as stream:
        yield stream


def atomic_write(path: str, *, encoding: str = "utf-8", force: bool = False) -> AbstractContextManager[TextIO]:
    """`diamonds.io.write.replacing`: the one writer."""
    return replacing(path, encoding=encoding, force=force)


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
