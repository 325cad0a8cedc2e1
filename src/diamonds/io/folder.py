"""An output folder replaced whole: `StagedFolder(DIR)` gives a fresh temporary folder beside DIR;
files are written there, and `commit()` swaps it into place (renameat2 RENAME_EXCHANGE where the
system has it, else DIR renamed aside, the new one renamed in, the old one removed). A reader sees
the old folder or the complete new one; nothing is ever written through a symlink planted inside
DIR (the files are new files in a new folder, and the old folder's entries are removed, not followed).

On an exception the temporary folder is removed and DIR is as it was; with `keep_partial=True` what
was written is swapped in instead, marked by a file named `PARTIAL` in it.
"""

from __future__ import annotations

import os
import shutil
import stat
from types import TracebackType

from .errors import NotWritable
from .interrupt import deferred_signals, note_output, register, unregister
from .write import current_umask, fsync_folder, leftovers, resolve

__all__ = ["StagedFolder", "PARTIAL_MARKER", "exchange", "is_partial"]

PARTIAL_MARKER = "PARTIAL"
STAGE_SUFFIX = ".tmp-dir"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def is_partial(folder: str) -> bool:
    """A folder an interrupted `convert --keep-partial` left: it holds the PARTIAL marker."""
    return os.path.lexists(os.path.join(folder, PARTIAL_MARKER))


def _renameat2() -> object | None:
    import ctypes  # only for an output folder: ctypes costs every command's start-up otherwise
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def exchange(first: str, second: str) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where that cannot be done."""
    function = _renameat2()
    if function is None:
        return False
    result = function(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE)  # type: ignore[operator]
    if result != 0:
        return False
    return True


class StagedFolder:
    """The folder `target` replaced whole on `commit()` (or by leaving the `with` block normally)."""

    def __init__(self, target: str, *, keep_partial: bool = False, shown: str | None = None,
                 allowed: frozenset[str] | None = None) -> None:
        self.shown = shown or target
        self.target = resolve(target)
        self.keep_partial = keep_partial
        self.allowed = allowed
        self.stage: str | None = None
        self.outcome = "left as it was"

    def __enter__(self) -> StagedFolder:
        mode = 0o777 & ~current_umask()
        if os.path.lexists(self.target):
            info = os.stat(self.target)
            if not stat.S_ISDIR(info.st_mode):
                raise NotWritable(self.shown, "not a folder")
            mode = stat.S_IMODE(info.st_mode)
            if self.allowed is not None:
                others = sorted(set(os.listdir(self.target)) - self.allowed - {PARTIAL_MARKER})
                if others:
                    raise NotWritable(self.shown, "it holds other files", f"{self.shown}: holds files this command "
                                      f"did not write ({', '.join(others[:3])}{'…' if len(others) > 3 else ''}); "
                                      "the whole folder would be replaced: name a new or empty folder")
        parent, name = os.path.split(self.target)
        for leftover in leftovers(self.target, STAGE_SUFFIX) + leftovers(self.target, STAGE_SUFFIX + ".old"):
            shutil.rmtree(leftover, ignore_errors=True)  # of a conversion killed (SIGKILL) before it cleaned up
        self.stage = os.path.join(parent, f".{name}.{os.getpid()}.{os.urandom(4).hex()}{STAGE_SUFFIX}")
        register(self.stage)
        note_output(self.shown, "left as it was")
        try:
            os.mkdir(self.stage, 0o700)
            os.chmod(self.stage, mode)
        except OSError as error:
            unregister(self.stage)
            raise NotWritable(self.shown, error.strerror or str(error)) from None
        return self

    def path(self, name: str) -> str:
        """Where to write the file `name` of the folder (inside the stage)."""
        assert self.stage is not None and os.sep not in name
        return os.path.join(self.stage, name)

    def commit(self, partial: bool = False) -> None:
        assert self.stage is not None
        stage = self.stage
        if partial:
            with open(os.path.join(stage, PARTIAL_MARKER), "w", encoding="utf-8") as marker:
                marker.write("This folder is incomplete: the conversion that wrote it was interrupted.\n")
        for entry in os.listdir(stage):
            try:
                handle = os.open(os.path.join(stage, entry), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                continue
            try:
                os.fsync(handle)
            finally:
                os.close(handle)
        fsync_folder(stage)
        old: str | None = None
        with deferred_signals():  # the swap, whichever way, is not cut in the middle by ^C
            if not os.path.lexists(self.target):
                os.rename(stage, self.target)
            elif exchange(stage, self.target):
                old = stage  # the old folder, now at the stage's name
            else:
                old = stage + ".old"
                register(old)
                os.rename(self.target, old)
                os.rename(stage, self.target)
            unregister(stage)
            self.stage = None
            self.outcome = "kept partial (marked by its PARTIAL file)" if partial else "written"
            note_output(self.shown, self.outcome)
        if old is not None:
            register(old)
            shutil.rmtree(old, ignore_errors=True)
            unregister(old)
        fsync_folder(os.path.dirname(self.target))

    def discard(self) -> None:
        if self.stage is not None:
            shutil.rmtree(self.stage, ignore_errors=True)
            unregister(self.stage)
            self.stage = None

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.stage is None:
            return
        if kind is None:
            self.commit()
        elif self.keep_partial and isinstance(value, KeyboardInterrupt):
            try:
                self.commit(partial=True)
            except BaseException:
                self.discard()
                raise
        else:
            self.discard()
