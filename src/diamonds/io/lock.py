"""One writer per file: `FileLock(FILE)` holds an OS lock (fcntl.flock, non-blocking) on a sidecar
file beside FILE's target, `.NAME.lock`, holding the owner's pid and start time. The kernel drops
the lock when its process dies however it dies, so a killed recorder never leaves FILE locked.
A second taker gets `Locked(path, pid, since)`. `Snapshot` says whether FILE is still what this
process last wrote (content, size, mtime), so that an edit made behind its back is never overwritten.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from types import TracebackType

from .errors import Locked, NotWritable
from .write import new_file_mode, resolve

__all__ = ["FileLock", "Snapshot", "lock_path"]

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; the lock is then advisory by pid only
    fcntl = None  # type: ignore[assignment]


def lock_path(path: str) -> str:
    folder, name = os.path.split(resolve(path))
    return os.path.join(folder, f".{name}.lock")


class FileLock:
    """Exclusive, non-blocking; `what` words the refusal (`FILE is being recorded (pid N, since HH:MM)`)."""

    def __init__(self, path: str, *, what: str = "recorded", shown: str | None = None) -> None:
        self.path = path
        self.shown = shown or path
        self.what = what
        self.lock_file = lock_path(path)
        self.handle: int | None = None

    def acquire(self) -> FileLock:
        for _ in range(10):  # the file may be removed by its releasing owner between open and flock
            try:
                handle = os.open(self.lock_file, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                                 new_file_mode())
            except OSError as error:
                raise NotWritable(self.shown, error.strerror or str(error)) from None
            try:
                if fcntl is not None:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid, since = self._owner(handle)
                os.close(handle)
                raise Locked(self.shown, pid, since, self.what) from None
            try:
                same = os.fstat(handle).st_ino == os.stat(self.lock_file).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # locked a file its owner had just removed: take the new one
                os.close(handle)
                continue
            os.ftruncate(handle, 0)
            os.write(handle, f"{os.getpid()} {time.strftime('%H:%M')} {int(time.time())}\n".encode("ascii"))
            self.handle = handle
            return self
        raise Locked(self.shown, None, None, self.what)  # pragma: no cover

    @staticmethod
    def _owner(handle: int) -> tuple[int | None, str | None]:
        try:
            words = os.pread(handle, 200, 0).decode("ascii", "replace").split()
            return int(words[0]), words[1]
        except (OSError, ValueError, IndexError):
            return None, None

    def release(self) -> None:
        if self.handle is None:
            return
        try:
            os.unlink(self.lock_file)  # while still held: the next taker makes a new one (see acquire)
        except OSError:
            pass
        os.close(self.handle)
        self.handle = None

    def __enter__(self) -> FileLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a file was when this process last wrote or read it: size, mtime and content."""

    size: int
    mtime_ns: int
    content: bytes | None

    @classmethod
    def of(cls, path: str) -> Snapshot:
        try:
            with open(path, "rb") as stream:
                info = os.fstat(stream.fileno())
                return cls(info.st_size, info.st_mtime_ns, stream.read())
        except FileNotFoundError:
            return cls(-1, 0, None)

    def still(self, path: str) -> bool:
        """Whether `path` holds the same bytes (a different mtime with the same bytes is the same)."""
        now = Snapshot.of(path)
        return now.content == self.content
