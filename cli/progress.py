"""A progress bar on stderr, shown only when stderr is a terminal and the input is large."""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

from .console import console

__all__ = ["ByteProgress"]

_WORTH_SHOWING = 1 << 20  # bytes: below this a run is over before a bar helps


class ByteProgress:
    """Counts characters of input read against the files' total size."""

    def __init__(self, paths: list[str], label: str = "validating") -> None:
        self.label = label
        total = 0
        for path in paths:
            try:
                total += os.path.getsize(path) if path != "-" else 0
            except OSError:
                pass
        self.enabled = sys.stderr.isatty() and total >= _WORTH_SHOWING
        self.progress: Progress | None = None
        self.task: TaskID | None = None
        self.total = total

    def __enter__(self) -> ByteProgress:
        if self.enabled:  # rich is imported only then: a batch run starts faster without it
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.progress = Progress(
                TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=console(stderr=True), transient=True, redirect_stdout=False, redirect_stderr=False,
            )
            self.progress.start()
            self.task = self.progress.add_task("read", total=self.total)
        return self

    def advance(self, amount: int) -> None:
        if self.progress is not None:
            assert self.task is not None
            self.progress.advance(self.task, amount)

    def print(self, text: str) -> None:
        """To stdout; through the bar's console when both are the same terminal, so lines stay above it."""
        if self.progress is not None and sys.stdout.isatty():
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.progress is not None:
            self.progress.stop()
