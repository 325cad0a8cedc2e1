"""Writing results: standard output, or a file replaced atomically when complete."""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from typing import Iterator, TextIO

from .errors import CommandError

__all__ = ["open_output", "atomic_write"]


@contextmanager
def open_output(path: str | None) -> Iterator[TextIO]:
    if path is None or path == "-":
        yield sys.stdout
        return
    if os.path.exists(path) and not os.path.isfile(path):
        # /dev/null, a FIFO, a terminal: written to as it is. Renaming a file over it would
        # replace the device itself (and first fill the disk with what it was meant to swallow).
        try:
            stream: TextIO = open(path, "w", encoding="utf-8", newline="\n")
        except OSError as error:
            raise CommandError(f"{path}: cannot write here ({error.strerror})") from None
        with stream:
            yield stream
        return
    with atomic_write(path) as stream:
        yield stream


@contextmanager
def atomic_write(path: str) -> Iterator[TextIO]:
    """Write to a temporary file beside `path`, then rename it over `path`: never half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=".diamonds-", suffix=".tmp", dir=folder)
    except OSError as error:
        raise CommandError(f"{path}: cannot write here ({error.strerror})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        if os.path.exists(path):
            os.chmod(temporary, os.stat(path).st_mode & 0o7777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
