"""`diamonds replay`: a game step by step, interactive on a terminal, printed otherwise."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from rich.console import Console, RenderableType
from rich.live import Live

from diamonds.notation.diagnostics import format_problem
from diamonds.replay import ReplayedGame, replay_record

from .errors import CommandError
from .inputs import DEFAULT_ENCODING, display_path, games_in
from diamonds.replay.steps import PositionError, Step, find_position, steps_of
from .views import View, view_for

__all__ = ["run", "Navigator", "run_session", "HELP"]

HELP = ("→/n/space next step · ←/p back · ↓/] next trick · ↑/[ previous trick · "
        "PgDn/r next round · PgUp/R previous round · Home/End · g go to (R2.7) · ? help · q quit")
FOOTER = "→ next  ← back  ↓↑ trick  PgDn/PgUp round  g go to  ? help  q quit"


@dataclass
class Navigator:
    """Where the replay stands among its steps; every move is an index change."""

    steps: Sequence[Step]
    index: int = 0
    message: str = ""
    typing: str | None = None  # the position being typed after `g`
    show_help: bool = False
    done: bool = False
    _keys: dict[str, Callable[[], None]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._keys = {
            "right": self.next_step, "n": self.next_step, "space": self.next_step, "l": self.next_step,
            "left": self.previous_step, "p": self.previous_step, "h": self.previous_step,
            "down": self.next_trick, "]": self.next_trick, "j": self.next_trick,
            "up": self.previous_trick, "[": self.previous_trick, "k": self.previous_trick,
            "pgdn": self.next_round, "r": self.next_round,
            "pgup": self.previous_round, "R": self.previous_round,
            "home": self.start, "0": self.start, "end": self.end, "$": self.end, "G": self.end,
            "g": self.begin_goto, "?": self.toggle_help, "q": self.quit, "escape": self.quit,
        }

    def press(self, key: str) -> None:
        self.message = ""
        if self.typing is not None:
            self._type(key)
            return
        action = self._keys.get(key)
        if action is None:
            self.message = f"unknown key {key!r}: ? for help"
        else:
            action()

    def _type(self, key: str) -> None:
        assert self.typing is not None
        if key == "enter":
            text, self.typing = self.typing, None
            self.goto(text)
        elif key == "escape":
            self.typing = None
        elif key == "backspace":
            self.typing = self.typing[:-1]
        elif len(key) == 1:
            self.typing += key

    def goto(self, text: str) -> None:
        try:
            self.index = find_position(self.steps, text)
        except PositionError as error:
            self.message = str(error)

    def next_step(self) -> None:
        self.index = min(self.index + 1, len(self.steps) - 1)

    def previous_step(self) -> None:
        self.index = max(self.index - 1, 0)

    def _trick_key(self, i: int) -> tuple[int, int, str]:
        step = self.steps[i]
        return (step.round_no, step.trick_no, step.kind)

    def next_trick(self) -> None:
        """To the last card of the next trick (or the next stop that is not a card)."""
        here = self._trick_key(self.index)
        i = self.index
        while i + 1 < len(self.steps) and self._trick_key(i + 1) == here:
            i += 1
        if i + 1 < len(self.steps):
            i += 1
            target = self._trick_key(i)
            while i + 1 < len(self.steps) and self._trick_key(i + 1) == target and self.steps[i].kind == "card":
                i += 1
        self.index = i

    def previous_trick(self) -> None:
        """To the last card of the previous trick."""
        here = self._trick_key(self.index)
        i = self.index
        while i > 0 and self._trick_key(i) == here:
            i -= 1
        self.index = i

    def next_round(self) -> None:
        """To the deal of the next round (from the start: of round 1)."""
        here = self.steps[self.index]
        later = [i for i, s in enumerate(self.steps) if i > self.index and s.kind == "deal"
                 and (s.round_no > here.round_no or here.kind == "start")]
        self.index = later[0] if later else len(self.steps) - 1

    def previous_round(self) -> None:
        here = self.steps[self.index].round_no
        starts = [i for i, s in enumerate(self.steps) if s.kind == "deal" and i < self.index]
        if starts and self.steps[starts[-1]].round_no == here and len(starts) > 1:
            self.index = starts[-2]
        elif starts and self.steps[starts[-1]].round_no < here:
            self.index = starts[-1]
        else:
            self.index = 0

    def start(self) -> None:
        self.index = 0

    def end(self) -> None:
        self.index = len(self.steps) - 1

    def begin_goto(self) -> None:
        self.typing = ""

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def quit(self) -> None:
        self.done = True

    def footer(self) -> str:
        if self.typing is not None:
            return f"go to (R2.7, R2.7.3, R2.end, start, end): {self.typing}▏"
        if self.show_help:
            return HELP
        return self.message or FOOTER


def run_session(view: View, steps: Sequence[Step], keys: Iterable[str], draw: Callable[[RenderableType], None], *,
                as_player: int | None = None, start: int = 0) -> Navigator:
    """Drive a navigator with keys, drawing after each one; returns it when `q` or the keys end."""
    nav = Navigator(steps, start)

    def screen() -> RenderableType:
        return view.screen(steps[nav.index], nav.index, len(steps), as_player, nav.footer())

    draw(screen())
    for key in keys:
        nav.press(key)
        if nav.done:
            break
        draw(screen())
    return nav


# --------------------------------------------------------------------------- the command


def _pick_game(path: str, number: int, encoding: str = DEFAULT_ENCODING) -> ReplayedGame:
    if number < 1:
        raise CommandError("--game counts from 1")
    for record in games_in(path, encoding):
        if record.index == number:
            return replay_record(record)
    raise CommandError(f"{display_path(path)} has fewer than {number} game{'s' if number > 1 else ''}")


def run(args: argparse.Namespace) -> int:
    files = args.file if isinstance(args.file, list) else [args.file]
    if args.html and (len(files) > 1 or args.html.endswith(("/", os.sep)) or os.path.isdir(args.html)):
        from .page_cmd import run_archive  # an index page and a page per file

        return run_archive(args, files)
    if len(files) > 1:
        raise CommandError("replay takes one file; several only with --html DIR/ (an archive of pages)")
    args.file = files[0]
    if args.html:  # the interactive page replays every game of the file
        from .page_cmd import run_page

        return run_page(args)
    replayed = _pick_game(args.file, args.game, args.encoding)
    shown = display_path(args.file)
    for problem in replayed.problems:
        print(format_problem(shown, replayed.record, problem), file=sys.stderr)
    for note in replayed.notes:
        print(f"{shown}: note: {note}", file=sys.stderr)
    status = 0 if replayed.valid else 1
    if replayed.game is None or replayed.config is None:
        return 1
    view = view_for(replayed.config.rules)
    steps = steps_of(replayed)
    as_player = None
    if args.as_player:
        as_player = replayed.config.seat_of(args.as_player)
        if as_player is None:
            raise CommandError(f"--as {args.as_player}: not a player of this game "
                               f"({' '.join(replayed.config.players)})")

    if args.at is not None or args.svg or args.terminal_svg or args.terminal_html:
        try:
            index = find_position(steps, args.at) if args.at is not None else len(steps) - 1
        except PositionError as error:
            raise CommandError(str(error)) from None
        if args.svg:  # a picture of the table (diamonds.svg), not of the terminal
            from diamonds.svg import step_svg

            picture = step_svg(steps[index], as_player=as_player)
            try:
                with open(args.svg, "w", encoding="utf-8") as out:
                    out.write(picture)
            except OSError as error:
                raise CommandError(f"cannot write {args.svg}: {error.strerror or error}") from None
        record = bool(args.terminal_svg or args.terminal_html)
        console = Console(width=args.width, record=record)
        console.print(view.screen(steps[index], index, len(steps), as_player, ""))
        if args.terminal_svg:
            console.save_svg(args.terminal_svg, title=f"diamonds replay {shown} {steps[index].label}", clear=False)
        if args.terminal_html:
            console.save_html(args.terminal_html, clear=False)
        return status

    if args.steps or not (sys.stdout.isatty() and sys.stdin.isatty()):
        print_steps(Console(width=args.width), view, steps, as_player)
        return status

    from .keys import terminal_keys

    console = Console(width=args.width)
    with Live(console=console, screen=True, auto_refresh=False, transient=True) as live:
        run_session(view, steps, terminal_keys(), lambda screen: live.update(screen, refresh=True),
                    as_player=as_player)
    return status


def print_steps(console: Console, view: View, steps: Sequence[Step], as_player: int | None = None) -> None:
    """Every step as its position and what happened; the whole table after each round."""
    width = max(40, console.width) - 10
    for index, step in enumerate(steps):
        if step.kind == "start":
            continue
        lines = view.step_lines(step, as_player)
        label = step.label
        for line in lines:
            for part in textwrap.wrap(line, width) or [""]:
                console.print(f"{label:<9} {part}".rstrip(), highlight=False, markup=False, soft_wrap=True)
                label = ""
        if step.kind == "end":
            console.print(view.screen(step, index, len(steps), as_player, ""))
            console.print()
