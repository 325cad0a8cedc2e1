"""`diamonds replay`: a game step by step, interactive on a terminal, printed otherwise."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, RenderableType
from rich.live import Live
from rich.segment import Segment

from diamonds.io.errors import NotWritable
from diamonds.io.escape import visible, visible_lines
from diamonds.io.write import write_text
from diamonds.notation import game_texts, parse_game
from diamonds.notation.diagnostics import format_problem
from diamonds.replay import ReplayedGame, replay_record
from diamonds.replay.steps import PositionError, Step, find_position, steps_of
from diamonds.views import View, view_for

from .console import console as make_console
from .errors import CommandError
from .inputs import DEFAULT_ENCODING, display_path, open_text, warn_no_game
from .navigator import FOOTER, HELP, Navigator, opening_step  # noqa: F401  (the page and the tests use them here too)

__all__ = ["run", "Navigator", "run_session", "HELP"]

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


@dataclass(frozen=True, slots=True)
class Picked:
    """The game `--game` chose, and how many games its file holds (to say so when there are others)."""

    replayed: ReplayedGame
    games: int


def _pick_game(path: str, number: int, encoding: str = DEFAULT_ENCODING) -> Picked | None:
    """Game `number` of the file, replayed; the other games are counted, not parsed. None: no game at all."""
    if number < 1:
        raise CommandError("--game counts from 1")
    chosen: ReplayedGame | None = None
    games = 0
    with open_text(path, encoding) as stream:
        for index, first_line, text in game_texts(stream):
            games += 1
            if index == number:
                chosen = replay_record(parse_game(text, first_line=first_line, index=index))
    if games == 0:
        return None
    if chosen is None:
        raise CommandError(f"{display_path(path)} has fewer than {number} games: {games} (--game 1 to {games})")
    return Picked(chosen, games)


_SUFFIXES = {".svg": "svg", ".html": "html", ".htm": "html"}


def output_kind(path: str) -> str:
    """What `-o PATH` writes, by its name: a folder (DIR/, or one that exists) gets an archive of pages
    (`--html DIR/`); FILE.svg a picture of the table (`--svg`); FILE.html a replay page (`--html`)."""
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        return "html"
    kind = _SUFFIXES.get(os.path.splitext(path)[1].lower())
    if kind is None:
        raise CommandError(f"-o {path}: the name must end in .svg (a picture of the table) or .html (a replay "
                           "page), or be a folder DIR/ (an archive of pages); --terminal-svg and --terminal-html "
                           "save the terminal's screen")
    return kind


def run(args: argparse.Namespace) -> int:
    files = args.file if isinstance(args.file, list) else [args.file]
    if args.output:  # -o FILE is --svg FILE or --html FILE, by the name
        kind = output_kind(args.output)
        if getattr(args, kind):
            raise CommandError(f"-o {args.output} and --{kind} {getattr(args, kind)}: name the output once")
        setattr(args, kind, args.output)
    if args.html and (len(files) > 1 or args.html.endswith(("/", os.sep)) or os.path.isdir(args.html)):
        from .page_cmd import run_archive  # an index page and a page per file

        return run_archive(args, files)
    if len(files) > 1:
        raise CommandError(f"replay takes one file, not {len(files)}; several only with --html DIR/ or -o DIR/ "
                           "(an archive of pages)")
    args.file = files[0]
    if args.html:  # the interactive page replays every game of the file
        from .page_cmd import run_page

        return run_page(args)
    shown = display_path(args.file)
    picked = _pick_game(args.file, 1 if args.game is None else args.game, args.encoding)
    if picked is None:
        warn_no_game("replay", args.file)
        return 1
    replayed = picked.replayed
    interactive = not (args.at is not None or args.svg or args.terminal_svg or args.terminal_html or args.steps) \
        and sys.stdout.isatty() and sys.stdin.isatty()
    if picked.games > 1 and args.game is None and not interactive:  # stdout is the game: the others said here
        print(visible(f"diamonds replay: {shown} holds {picked.games} games; this is game 1 (choose another "
                      f"with --game N, 1 to {picked.games})"), file=sys.stderr)
    for problem in replayed.problems:
        print(format_problem(shown, replayed.record, problem), file=sys.stderr)
    for note in replayed.notes:
        print(visible(f"{shown}: note: {note}"), file=sys.stderr)
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
                write_text(args.svg, picture, newline="\n", force_option=False)
            except NotWritable:
                raise
            except OSError as error:
                raise CommandError(f"cannot write {args.svg}: {error.strerror or error}") from None
        record = bool(args.terminal_svg or args.terminal_html)
        console = make_console(width=args.width, record=record)
        console.print(Escaped(view.screen(steps[index], index, len(steps), as_player, "")))
        if args.terminal_svg:  # offline: no font fetched from a CDN (the viewer's monospace font)
            picture = console.export_svg(title=f"diamonds replay {shown} {steps[index].label}", clear=False,
                                         code_format=offline_svg_format())
            write_text(args.terminal_svg, picture, newline="\n", force_option=False)
        if args.terminal_html:
            write_text(args.terminal_html, console.export_html(clear=False), newline="\n", force_option=False)
        return status

    if not interactive:
        print_steps(make_console(width=args.width), view, steps, as_player)
        return status

    from .keys import terminal_keys

    console = make_console(width=args.width)
    with Live(console=console, screen=True, auto_refresh=False, transient=True) as live:
        nav = run_session(view, steps, terminal_keys(), lambda screen: live.update(Escaped(screen), refresh=True),
                          as_player=as_player, start=opening_step(steps))
    # The alternate screen is gone with the session: the position it ended at stays in the scrollback.
    console.print(Escaped(view.screen(steps[nav.index], nav.index, len(steps), as_player, "")))
    return status


def offline_svg_format() -> str:
    """rich's SVG template without its web fonts: rich names Fira Code on a public CDN (cdnjs), which a
    viewer would fetch when the picture is opened. The local Fira Code is still used where installed,
    else the viewer's monospace font (the template's own fallback)."""
    import re

    from rich._export_format import CONSOLE_SVG_FORMAT  # noqa: PLC2701  (rich's template, not re-exported)

    return re.sub(r',\s*url\("https?://[^"]*"\)\s*format\("[^"]*"\)', "", CONSOLE_SVG_FORMAT)


class Escaped:
    """A family's screen with the control characters of its text made visible (`diamonds.io.escape`):
    names, tags and comments come from the file and must not drive the terminal. The styles (colours)
    are rich's own and stay."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: Any) -> Iterator[Segment]:
        for segment in console.render(self.inner, options):
            if segment.control or not segment.text:
                yield segment
            else:
                yield Segment(visible_lines(segment.text), segment.style)


def print_steps(console: Console, view: View, steps: Sequence[Step], as_player: int | None = None) -> None:
    """Every step as its position and what happened; the whole table after each round."""
    width = max(40, console.width) - 10
    for index, step in enumerate(steps):
        if step.kind == "start":
            continue
        lines = [visible(line) for line in view.step_lines(step, as_player)]  # names, comments: input text
        label = step.label
        for line in lines:
            for part in textwrap.wrap(line, width) or [""]:
                console.print(f"{label:<9} {part}".rstrip(), highlight=False, markup=False, soft_wrap=True)
                label = ""
        if step.kind == "end":
            console.print(Escaped(view.screen(step, index, len(steps), as_player, "")))
            console.print()
