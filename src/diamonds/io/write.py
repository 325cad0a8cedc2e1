"""THE writer: every file the program writes is replaced whole or not at all.

`replacing(path)` gives a text stream to a temporary file beside the file (beside a symlink's
*target*: a link is written through, as editors do, and stays a link); on leaving the block the
temporary file is flushed and fsynced, renamed over the target (`os.replace`), and the folder is
fsynced. So a crash, a kill or a full disk at any moment leaves the old file or the new one.

- An existing file keeps its mode bits; a new one gets the umask's (0o666 & ~umask).
- A regular file with no write bit is refused (`ReadOnlyFile`) unless `force=True` (checked on the
  mode bits, not by trying: root would be let through).
- Something that is not a regular file (/dev/null, a FIFO, a terminal) is written directly: renaming
  over it would replace the device.
- No room (ENOSPC, EDQUOT, EFBIG): `DiskFull`, one line; the temporary file is removed.

Temporary files are named `.NAME.<pid>.<random><suffix>`: the pid says whose it is, so that a
clean-up of leftovers (`leftovers`) never removes the file of a process still running.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .errors import DiskFull, NotWritable, ReadOnlyFile
from .interrupt import deferred_signals, note_output, register, unregister

__all__ = ["replacing", "write_text", "resolve", "current_umask", "new_file_mode", "temporary_name",
           "leftovers", "pid_alive", "fsync_folder", "FULL_ERRNOS", "TEMPORARY_SUFFIX"]

TEMPORARY_SUFFIX = ".tmp"
FULL_ERRNOS = frozenset(code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG) if code)


def current_umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # the only portable way to read it: set it and put it back
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    return 0o666 & ~current_umask()


def resolve(path: str) -> str:
    """Where writing `path` must go: through every symlink to its target (which may not exist yet)."""
    return os.path.realpath(path)


def temporary_name(target: str, suffix: str = TEMPORARY_SUFFIX) -> str:
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}{suffix}")


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name != "posix":  # Windows' os.kill would end the process: say alive, remove nothing
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def leftovers(path: str, suffix: str = TEMPORARY_SUFFIX, *, dead_only: bool = True) -> list[str]:
    """Temporary files of this writer for `path` (its target) whose owner is gone (all with
    dead_only=False): a kill left them; the target is whole without them."""
    target = resolve(path)
    folder, name = os.path.split(target)
    prefix = f".{name}."
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return []
    found = []
    for entry in names:
        if not (entry.startswith(prefix) and entry.endswith(suffix)):
            continue
        middle = entry[len(prefix):-len(suffix)].split(".")
        pid = int(middle[0]) if len(middle) == 2 and middle[0].isdigit() else 0
        if dead_only and pid and pid_alive(pid):
            continue
        found.append(os.path.join(folder, entry))
    return sorted(found)


def fsync_folder(folder: str) -> None:
    try:
        handle = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _is_full(error: BaseException) -> bool:
    return isinstance(error, OSError) and error.errno in FULL_ERRNOS


@contextmanager
def replacing(path: str, *, encoding: str | None = "utf-8", newline: str | None = "\n", force: bool = False,
              suffix: str = TEMPORARY_SUFFIX, shown: str | None = None, force_option: bool = True) -> Iterator[Any]:
    """A text stream (binary with encoding=None) whose content replaces `path` when the block ends
    without an exception."""
    binary = encoding is None
    kind = "wb" if binary else "w"
    text_options: dict[str, Any] = {} if binary else {"encoding": encoding, "newline": newline}
    shown = shown or path
    target = resolve(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise NotWritable(shown, error.strerror or str(error)) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise NotWritable(shown, "is a folder")
    if info is not None and not stat.S_ISREG(info.st_mode):
        # /dev/null, a FIFO, a terminal: written to as it is.
        try:
            direct = open(target, kind, **text_options)
        except OSError as error:
            raise NotWritable(shown, error.strerror or str(error)) from None
        try:
            with direct:
                yield direct
        except OSError as error:
            if _is_full(error):
                raise DiskFull(shown, error.strerror or str(error)) from None
            raise
        return
    if info is not None and not force and not info.st_mode & 0o222:
        raise ReadOnlyFile(shown, info.st_mode, force_option=force_option)
    mode = stat.S_IMODE(info.st_mode) if info is not None else new_file_mode()
    for leftover in leftovers(target, suffix):  # of a writer killed (SIGKILL) before it could clean up
        try:
            os.unlink(leftover)
        except OSError:
            pass
    temporary = temporary_name(target, suffix)
    register(temporary)
    note_output(shown, "left as it was")
    try:
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as error:
            raise NotWritable(shown, error.strerror or str(error)) from None
        with os.fdopen(handle, kind, **text_options) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
            if hasattr(os, "fchmod"):
                os.fchmod(stream.fileno(), mode)
        if not hasattr(os, "fchmod"):  # pragma: no cover - Windows
            os.chmod(temporary, mode)
        with deferred_signals():  # the rename and the journal agree, whatever signal comes
            os.replace(temporary, target)
            unregister(temporary)
            note_output(shown, "written")
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        unregister(temporary)
        if _is_full(error):
            raise DiskFull(shown, getattr(error, "strerror", None) or str(error)) from None
        raise
    fsync_folder(os.path.dirname(target))


def write_text(path: str, text: str, *, encoding: str = "utf-8", newline: str | None = "",
               force: bool = False, suffix: str = TEMPORARY_SUFFIX, shown: str | None = None,
               force_option: bool = True) -> None:
    """`text` as the whole of `path`, by `replacing` (newline="" writes it exactly as given);
    `force_option=False` where the command has no --force (the refusal then does not suggest it)."""
    with replacing(path, encoding=encoding, newline=newline, force=force, suffix=suffix, shown=shown,
                   force_option=force_option) as out:
        out.write(text)
