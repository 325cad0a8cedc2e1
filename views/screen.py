"""What every family's screen does alike: the players' grid, a title with its counter, and the
screen cut to the terminal's height, the log given the lines that are left."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text

__all__ = ["NAME_WIDTH", "players_grid", "seat_cells", "screen"]

NAME_WIDTH = 10  # below a view's WIDE, the Player column is at most this wide


def players_grid(wide: bool, *, compact: bool) -> RichTable:
    """The players' table with its first two columns: the marks (dealer, winner ...) and the name.

    Long ids (up to 16 characters) are cut short below `wide`, so that the hands still fit."""
    grid = RichTable(box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=compact, pad_edge=False,
                     expand=False, show_edge=False)
    grid.add_column("", no_wrap=True)
    grid.add_column("Player", no_wrap=True, overflow="ellipsis", max_width=None if wide else NAME_WIDTH)
    return grid


def seat_cells(marks: str, name: str, highlighted: bool) -> tuple[Text, Text]:
    """A player's first two cells: their marks, and their name (reversed when it is their step)."""
    return Text(marks, style="yellow"), Text(name, style="bold reverse" if highlighted else "bold")


def screen(console: Console, options: ConsoleOptions, *, title: Text, index: int, total: int,
           parts: Sequence[RenderableType], log: Callable[[int], RenderableType], footer: str = "",
           compact_parts: Sequence[RenderableType] | None = None) -> RenderResult:
    """The whole screen: `title` (with `(index+1/total)` where it fits), `parts`, the log and `footer`.

    What is drawn is measured (names, hands and long lines wrap) and the log (`log(limit)`, at most
    `limit` lines) is given what is left, keeping one line spare (for the prompt after `--at`); the
    log shows its last lines. Where that leaves under three lines, `compact_parts` stand for `parts`."""
    counter = f" ({index + 1}/{total})"
    if title.cell_len + len(counter) <= options.max_width:  # the first thing to go when room is short
        title.append(counter, style="dim")
    height = options.height or console.size.height
    free = options.reset_height()
    head = console.render_lines(Group(title, *parts), free, pad=False)
    foot = console.render_lines(Text(footer, style="dim"), free, pad=False) if footer else []
    if compact_parts is not None and height - len(head) - len(foot) - 1 < 3:
        head = console.render_lines(Group(title, *compact_parts), free, pad=False)
    room = max(2, height - len(head) - len(foot) - 1)
    limit = room
    lines = console.render_lines(log(limit), free, pad=False)
    while len(lines) > room and limit > 2:
        limit -= 1
        lines = console.render_lines(log(limit), free, pad=False)
    lines = lines[-room:]  # very long names: even the last sentence wraps; keep its end
    new_line = Segment.line()
    for line in (*head, *lines, *foot):
        yield from line
        yield new_line
