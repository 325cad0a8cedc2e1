"""The I/O layer's failures: exception classes with data fields, never parsed from their messages.

`UserError` is what a command reports in one line (the CLI's `CommandError` is this class);
`Interrupted` is a signal turned into an exception, so that every `with` block cleans up."""

from __future__ import annotations

import signal

__all__ = ["UserError", "NotWritable", "ReadOnlyFile", "DiskFull", "Locked", "ChangedBehind", "Interrupted"]


class UserError(Exception):
    """A failure the user can act on: one line, and the exit status (2 unless said). `shown`: lines to print
    under it, already made safe for a terminal (a quoted source line and its caret, `format_problem`'s)."""

    def __init__(self, message: str, status: int = 2, *, shown: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.shown = shown


class NotWritable(UserError):
    """`path` cannot be written (`reason`, the system's words); it is left as it was."""

    def __init__(self, path: str, reason: str, message: str | None = None) -> None:
        super().__init__(message or f"{path}: cannot write here ({reason}); left as it was")
        self.path, self.reason = path, reason


class ReadOnlyFile(NotWritable):
    """`path` is a regular file without a write bit (`mode`): replaced only with --force."""

    def __init__(self, path: str, mode: int, *, force_option: bool = True) -> None:
        hint = " (--force replaces it, keeping its mode)" if force_option else ""
        super().__init__(path, "read-only", f"{path} is read-only (mode {mode & 0o7777:04o}); left as it was{hint}")
        self.mode = mode


class DiskFull(NotWritable):
    """No room for `path` (ENOSPC, EDQUOT, EFBIG): the temporary file is removed, `path` is as it was."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason, f"{path}: cannot write: {reason}; left as it was")


class Locked(UserError):
    """`path` is held by another process (`pid`, since `since`, a local "HH:MM")."""

    def __init__(self, path: str, pid: int | None, since: str | None, what: str = "recorded") -> None:
        who = f"pid {pid}" if pid else "another process"
        when = f", since {since}" if since else ""
        super().__init__(f"{path} is being {what} ({who}{when})")
        self.path, self.pid, self.since = path, pid, since


class ChangedBehind(UserError):
    """`path` was changed by someone else since this process last wrote it; ours is in `kept`."""

    def __init__(self, path: str, kept: str | None) -> None:
        ours = f"; this recording is saved as {kept}" if kept else ""
        super().__init__(f"{path} was changed by another program since it was last saved here; "
                         f"it is left as that program wrote it{ours}")
        self.path, self.kept = path, kept


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP, raised where the program was so that cleanup runs; the exit
    status is 128 + `signum` (130, 143, 129)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        try:
            self.name = signal.Signals(signum).name
        except ValueError:  # pragma: no cover
            self.name = f"signal {signum}"
        super().__init__(self.name)

    @property
    def status(self) -> int:
        return 128 + self.signum
