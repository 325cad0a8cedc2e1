"""What every family's screen does alike: the players' grid, a title with its counter, and the
screen cut to the terminal's height, the log given the lines that are left."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text

from diamonds.core.viewer import Viewer, sees
from diamonds.replay.steps import Step

from .cards import cards_text, log_text

__all__ = [
    "NAME_WIDTH", "players_grid", "seat_cells", "screen", "title_start", "SeatsPanel", "StepScreen", "EventLog",
]

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


def title_start(step: Step, heading: str, tricks: int, dealer: str) -> Text:
    """A screen's title up to the dealer: `Hand 2 · trick 7/13 · Ann deals` (the trick at a card)."""
    title = Text(heading, style="bold")
    if step.kind == "card":
        title.append(f" · trick {step.trick_no}/{tricks}")
    title.append(f" · {dealer} deals")
    return title


@dataclass(frozen=True, slots=True)
class SeatsPanel:
    """Every player, a row each of a `players_grid` (a family's `fill`), wide from `WIDE` columns on.

    `highlight` is the seat whose step it is; `as_player`, whose view it is (`diamonds.core.viewer`: None everyone's,
    a seat's, `NOBODY` a watcher's)."""

    WIDE: ClassVar[int] = 100

    table: Any
    as_player: Viewer = None
    highlight: int | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = options.max_width >= self.WIDE
        grid = players_grid(wide, compact=self.compact_grid(wide))
        caption = self.caption(wide)
        if caption:
            grid.caption, grid.caption_justify, grid.caption_style = caption, "left", "dim"
        self.fill(grid, wide)
        yield grid

    def caption(self, wide: bool) -> str | None:
        """A line under the grid (a legend of what it draws), or None."""
        return None

    def compact_grid(self, wide: bool) -> bool:
        """Collapse the padding between columns (by default, when not wide)."""
        return not wide

    def fill(self, grid: RichTable, wide: bool) -> None:
        raise NotImplementedError

    def hand_cell(self, seat: int, hand: Collection[Any], *, shown: bool = False) -> Text:
        """A player's hand: its cards; in another player's view or a watcher's, only how many (unless `shown`,
        e.g. at the game's end)."""
        if hand and not sees(self.as_player, (seat,), shown):
            return Text(f"{len(hand)} card{'s' if len(hand) != 1 else ''}", style="dim")
        return cards_text(hand)

    def dealer_winner_marks(self) -> list[str]:
        """Each seat's marks: `D` for the dealer, `W` for a winner."""
        table = self.table
        winners = {standing.side for standing in table.standings if standing.winner}
        return [("D" if seat == table.dealer else "") + ("W" if seat in winners else "")
                for seat in range(len(table.config.players))]


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


@dataclass(frozen=True, slots=True)
class StepScreen:
    """The whole screen for one step (`screen`): a family says its `title`, `parts` and `log`."""

    step: Step
    index: int
    total: int
    as_player: Viewer = None
    footer: str = ""

    def title(self) -> Text:
        """`Hand 2 · trick 7/13 · Ann deals`, the family's facts (`add_to_title`), and the stop's label."""
        step, table = self.step, self.step.table
        heading, tricks = self.heading()
        title = title_start(step, heading, tricks, table.config.players[table.dealer])
        self.add_to_title(title)
        title.append(f" · {step.label}", style="dim")
        return title

    def heading(self) -> tuple[str, int]:
        """The round's heading (`Hand 2`) and how many tricks it has."""
        raise NotImplementedError

    def add_to_title(self, title: Text) -> None:
        """What the family's title says after the dealer (who is to play, the game's end ...)."""

    def parts(self) -> Sequence[RenderableType]:
        """What stands between the title and the log (the players, the trick ...)."""
        raise NotImplementedError

    def compact_parts(self) -> Sequence[RenderableType] | None:
        """Narrower `parts`, for when those leave the log under three lines; None: there are none."""
        return None

    def log(self, limit: int) -> RenderableType:
        raise NotImplementedError

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from screen(console, options, title=self.title(), index=self.index, total=self.total,
                          parts=self.parts(), compact_parts=self.compact_parts(), footer=self.footer, log=self.log)


@dataclass(frozen=True, slots=True)
class EventLog:
    """What the step did, in words (a family's `_line` per event, empty ones left out); at most
    `limit` lines, the last ones."""

    step: Step
    limit: int = 8
    as_player: Viewer = None

    def __rich__(self) -> Text:
        return log_text(self.sentences(), self.limit)

    def sentences(self) -> list[str]:
        return [line for line in (self._line(event) for event in self.step.events) if line]

    def lines(self) -> list[str]:
        """The step's sentences for `--steps`."""
        return self.sentences()

    def _line(self, event: Any) -> str:
        raise NotImplementedError
