"""Progress on stderr, on a terminal only: games counted as they are done, then one summary line.

A batch run (stderr a file or a pipe) gets neither: its stderr is for problems. Small inputs get
neither either: a run of under a megabyte is over before a bar helps."""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

from .console import console

__all__ = ["GameProgress", "summary_line"]

_WORTH_SHOWING = 1 << 20  # bytes of input: below this a run is over before a bar helps


def summary_line(done: str, games: int, seconds: float) -> str:
    """`validated 3,000 games in 4.2 s (714 games/s)`: what the run did, how long it took, how fast."""
    rate = f"{games / seconds:,.0f}" if seconds > 0 else "-"
    return f"{done} {games:,} game{'s' if games != 1 else ''} in {seconds:,.1f} s ({rate} games/s)"


class GameProgress:
    """Games done, shown beside a bar of the input read (its bytes, the one size known in advance;
    with `games`, the games to play); on leaving, the summary line in the bar's place."""

    def __init__(self, paths: list[str], label: str = "validating", done: str = "validated", *,
                 games: int | None = None, stream: TextIO | None = None) -> None:
        self.label, self.done = label, done
        self.stream = stream if stream is not None else sys.stderr
        total = 0
        for path in paths:
            try:
                total += os.path.getsize(path) if path != "-" else 0
            except OSError:
                pass
        self.total = games if games is not None else total
        self.by_games = games is not None
        terminal = getattr(self.stream, "isatty", lambda: False)()
        self.enabled = terminal and (self.by_games or total >= _WORTH_SHOWING)
        self.games = 0
        self.started = time.monotonic()
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> GameProgress:
        self.started = time.monotonic()
        if self.enabled:  # rich is imported only then: a batch run starts faster without it
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self.progress = Progress(
                TextColumn(self.label), BarColumn(), TextColumn("{task.fields[games]} games"),
                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                console=console(file=self.stream, force_terminal=True), transient=True,
                redirect_stdout=False, redirect_stderr=False,
            )
            self.progress.start()
            self.task = self.progress.add_task("read", total=self.total or None, games="0", rate="")
        return self

    def advance(self, size: int, games: int = 1) -> None:
        """`games` more done, having read `size` more characters of input."""
        self.games += games
        if self.progress is not None:
            assert self.task is not None
            seconds = time.monotonic() - self.started
            rate = f"{self.games / seconds:,.0f} games/s" if seconds > 0 else ""
            self.progress.update(self.task, advance=games if self.by_games else size, games=f"{self.games:,}",
                                 rate=rate)

    def print(self, text: str) -> None:
        """To stdout; through the bar's console when both are the same terminal, so lines stay above it."""
        if self.progress is not None and sys.stdout.isatty():
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.progress is None:
            return
        self.progress.stop()
        if kind is None:  # an interrupted run says so in its own line (main._run)
            print(summary_line(self.done, self.games, time.monotonic() - self.started), file=self.stream)
