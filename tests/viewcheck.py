"""What the families' terminal-view tests share: the stops of an engine game, a renderable drawn as
plain text, and the checks every family's screens must pass (80×24, every hand whole)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from rich.cells import cell_len
from rich.console import Console

from diamonds.cli.replay_cmd import FOOTER, HELP
from diamonds.core import Engine
from diamonds.notation.records import GameRecord
from diamonds.replay import ReplayedGame
from diamonds.replay.steps import Step, find_position
from diamonds.replay.steps import steps_of as replay_steps_of

__all__ = ["WIDTH", "HEIGHT", "steps_of", "render", "lines_of", "footer_at", "assert_fits", "assert_every_screen_fits",
           "assert_hands_whole", "wide_screen", "assert_card_steps", "assert_step_at", "assert_replay_gives_the_steps",
           "replay_command_lines"]

WIDTH, HEIGHT = 80, 24
TYPING = "go to (R2.7, R2.7.3, R2.end, start, end): R2.▏"  # what a status line shows while a stop is typed


def steps_of(game: Engine) -> list[Step]:
    return replay_steps_of(ReplayedGame(record=GameRecord(), config=game.config, game=game))


def render(renderable: Any, width: int = WIDTH, height: int = HEIGHT) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, color_system=None, force_terminal=False)
    console.print(renderable)
    return out.getvalue()


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").split("\n")]


def footer_at(index: int) -> str:
    """A status line, in turn the help, a stop being typed and the usual footer."""
    return (HELP, TYPING, FOOTER)[index % 3]


def assert_fits(text: str, step: Step, footer: str, where: str) -> None:
    """A screen fits 80×24 with a line spare for the prompt, shows where it is, and its status line whole."""
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= HEIGHT - 1, f"{where}: {len(lines)} lines\n{text}"  # a line spare for the prompt
    assert max(cell_len(line) for line in lines) <= WIDTH, f"{where}: too wide\n{text}"
    assert step.label in " ".join(lines[:2]), where  # the title always shows where we are
    assert footer.endswith(lines[-1].strip()), f"{where}: the status line is cut off\n{text}"


def assert_every_screen_fits(game: str, steps: list[Step], screen: Callable[[int, int | None, str], str], *,
                             as_player: int, every_card: bool = True) -> None:
    """`assert_fits` at every stop (`screen(index, as_player, footer)`), every other one as `as_player`;
    without `every_card`, only a spread of the cards besides every deal, end and complete trick."""
    for index, step in enumerate(steps):
        if not every_card and step.kind == "card" and not step.trick_complete and index % 5:
            continue
        footer = footer_at(index)
        assert_fits(screen(index, None if index % 2 else as_player, footer), step, footer, f"{game} {step.label}")


def wide_screen(steps: list[Step], screen_text: Callable[..., str]) -> str:
    """The screen at R1.5 of a game of long names: cut short at 80 columns, whole at 120 (returned)."""
    assert "Alexandra…" in screen_text(steps, "R1.5")
    wide = screen_text(steps, "R1.5", width=120)
    assert "Alexandra_Smith1" in wide.split("\n")[3]
    assert max(cell_len(line) for line in wide.split("\n")) <= 120
    return wide


def assert_hands_whole(games: Iterable[tuple[str, list[Step]]], screen_text: Callable[[list[Step], str], str],
                       shown_cards: Callable[[str], set[Any]]) -> None:
    """Hands may wrap (long names), but every card of every hand is on the screen, unbroken."""
    for game, steps in games:
        for position in ("R1.0", "R2.0", "R3.1.1"):
            table = steps[find_position(steps, position)].table
            shown = shown_cards(screen_text(steps, position))
            assert all(set(hand) <= shown for hand in table.hands), (game, position)


def assert_card_steps(steps: list[Step], hands: int, tricks: int, players: int) -> list[Step]:
    """The stops of a game of `hands` hands, of `tricks` tricks of a card from each of `players`: a start,
    then each hand's deal, its cards and its end, labelled alike in every family. The card stops."""
    assert steps[0].kind == "start" and steps[0].label == "start"
    assert [s.label for s in steps if s.kind == "deal"] == [f"R{k}.0" for k in range(1, hands + 1)]
    assert [s.label for s in steps if s.kind == "end"] == [f"R{k}.end" for k in range(1, hands + 1)]
    card_steps = [s for s in steps if s.kind == "card"]
    assert len(card_steps) == hands * tricks * players
    assert card_steps[0].label == "R1.1.1" and card_steps[-1].label == f"R{hands}.{tricks}.{players}"
    complete = [s for s in card_steps if s.trick_complete]
    assert len(complete) == hands * tricks and all(s.card_no == players for s in complete)
    return card_steps


def assert_step_at(steps: list[Step], position: str, label: str, kind: str) -> None:
    """`find_position` finds the stop of this label and kind at `position`."""
    step = steps[find_position(steps, position)]
    assert (step.label, step.kind) == (label, kind)


def assert_replay_gives_the_steps(game: Engine, steps: list[Step]) -> None:
    """The game's record, replayed, gives the same stops as the engine game."""
    from diamonds.replay import record_from_game, replay_record

    replayed = replay_record(record_from_game(game))
    assert replayed.valid and replayed.complete
    again = replay_steps_of(replayed)
    assert [(s.label, s.table) for s in again] == [(s.label, s.table) for s in steps]


def replay_command_lines(sample: Any, position: str, out: Callable[[], str]) -> list[str]:
    """The lines `diamonds replay SAMPLE --at POSITION --width 80` prints (read by `out()`): it succeeds
    and its screen fits 80×24 with a line spare."""
    from diamonds.cli.main import main

    status = main(["replay", str(sample), "--at", position, "--width", "80"])
    text = out()
    lines = text.rstrip("\n").split("\n")
    assert status == 0, text
    assert len(lines) <= HEIGHT - 1 and max(cell_len(line) for line in lines) <= WIDTH
    return lines
