"""Writing results: standard output, or a file replaced whole when complete (`diamonds.io.write`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TextIO

from diamonds.io.write import replacing

__all__ = ["open_output", "atomic_write"]


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
