"""One view per family: the replay's steps, the screen at a step, and events in words.

The command (`replay_cmd`, `simulate_cmd`) asks the registry for a game's
family and loads its `View` (the `Family.view` name); it never names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import RenderableType

from diamonds.core import family_of
from diamonds.core.viewer import Viewer
from diamonds.replay.steps import Step

from .ask import Ask

__all__ = ["View", "view_for", "view_of"]


@dataclass(frozen=True, slots=True)
class View:
    """What the command needs to show a family's games on a terminal (the stops come from `replay.steps`).

    - `screen(step, index, total, as_player, footer)`: the whole screen at a step, fitting 80×24, as
      `as_player` sees it (`diamonds.core.viewer`: None everyone, a seat, or `NOBODY`, a watcher);
    - `step_lines(step, as_player)`: what the step did, in sentences (the `--steps` log);
    - `describe(config, event)`: one event as a sentence (`simulate --narrate`);
    - `ask(config, moves)`: one seat's legal moves as a question in words (`diamonds play`, `views.ask`);
      None where the family has none (then the move is typed as DGN writes it).
    """

    screen: Callable[[Step, int, int, Viewer, str], RenderableType]
    step_lines: Callable[[Step, Viewer], list[str]]
    describe: Callable[[Any, Any], str]
    ask: Callable[[Any, Sequence[Any]], Ask] | None = None


class StepLines(Protocol):
    def lines(self) -> list[str]: ...


def view_of(position: Callable[[Step, int, int, Viewer, str], RenderableType],
            step_log: Callable[..., StepLines], describe: Callable[[Any, Any], str],
            ask: Callable[[Any, Sequence[Any]], Ask] | None = None) -> View:
    """A family's `View` from its screen class (`Position(step, index, total, as_player, footer)`),
    its log (`StepLog(step, limit=..., as_player=...).lines()`, here without a limit), `describe` and `ask`."""

    def step_lines(step: Step, as_player: Viewer) -> list[str]:
        return step_log(step, limit=10**6, as_player=as_player).lines()

    return View(screen=position, step_lines=step_lines, describe=describe, ask=ask)


def view_for(rules: str) -> View:
    view: View = family_of(rules).part("view")
    return view
