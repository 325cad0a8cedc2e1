"""Clean interrupts: SIGINT, SIGTERM and SIGHUP raised as `Interrupted` where the program is, so that
every `with` block removes its temporary file or folder; a registry of the temporary paths still
alive, removed at exit whatever happened; and a journal of the outputs, so that the command can say
in one line what an interruption kept (`interrupted (SIGTERM): out.csv left as it was`)."""

from __future__ import annotations

import atexit
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .errors import Interrupted

__all__ = ["deferred_signals", "install_handlers", "restore_handlers", "worker_signals", "register",
    "unregister", "remove_live", "live_paths", "note_output", "outputs_summary", "reset_journal", "SIGNALS"]

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))

_LIVE: dict[str, int] = {}  # temporary path -> the pid that made it
_JOURNAL: dict[str, str] = {}  # output as the user named it -> "left as it was", "written", "kept partial"…
_state = {"installed": False, "raised": False}


def _raise(signum: int, frame: Any) -> None:
    if _state["raised"]:  # already unwinding: a second ^C must not cut the cleanup short
        return
    _state["raised"] = True
    raise Interrupted(signum)


def install_handlers() -> dict[int, Any]:
    """Turn SIGINT, SIGTERM and SIGHUP into `Interrupted` in this (main) thread; removes the live
    temporary paths at exit. Returns the handlers it replaced (for `restore_handlers`); does nothing
    outside the main thread."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    _state["raised"] = False
    for signum in SIGNALS:
        if signum == signal.SIGHUP and signal.getsignal(signum) == signal.SIG_IGN:
            continue  # started under nohup: keep running as asked
        previous[signum] = signal.signal(signum, _raise)
    if not _state["installed"]:
        atexit.register(remove_live)
        _state["installed"] = True
    return previous


def restore_handlers(previous: dict[int, Any]) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    for signum, handler in previous.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def worker_signals() -> None:
    """For a worker process of the parallel map: the parent handles ^C (and then stops its workers);
    a worker told to stop simply ends (it writes no file)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in SIGNALS:
        if signum != signal.SIGINT:
            signal.signal(signum, signal.SIG_DFL)
    _LIVE.clear()


@contextmanager
def deferred_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP held back for a few system calls that must happen together (a rename
    and noting it; a folder renamed aside and the new one renamed in); delivered right after."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = mask(signal.SIG_BLOCK, set(SIGNALS))
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


def register(path: str) -> None:
    _LIVE[path] = os.getpid()


def unregister(path: str) -> None:
    _LIVE.pop(path, None)


def live_paths() -> list[str]:
    return [path for path, pid in _LIVE.items() if pid == os.getpid()]


def remove_live() -> None:
    """Remove every temporary file or folder this process made and has not yet renamed into place."""
    for path in live_paths():
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                import shutil  # here, not at start-up: only an interrupted folder output needs it

                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:  # pragma: no cover - nothing more to do at exit
            pass
        _LIVE.pop(path, None)


def note_output(shown: str, state: str) -> None:
    """What became of an output (as the user named it): "left as it was", "written", "kept partial…"."""
    _JOURNAL[shown] = state


def reset_journal() -> None:
    _JOURNAL.clear()
    _state["raised"] = False


def outputs_summary() -> str:
    """`out.csv left as it was`, `a.dgn written; b.dgn left as it was`, or `nothing written`."""
    if not _JOURNAL:
        return "nothing written"
    return "; ".join(f"{shown} {state}" for shown, state in _JOURNAL.items())
