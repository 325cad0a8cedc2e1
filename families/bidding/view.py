"""The bidding game's view: the steps folded from its events, its screen, and its events in words."""

from __future__ import annotations

from rich.console import RenderableType

from diamonds.replay.steps import Step
from diamonds.views import View
from .narrate import describe
from .render import Position, StepLog

__all__ = ["VIEW"]


def _screen(step: Step, index: int, total: int, as_player: int | None, footer: str) -> RenderableType:
    return Position(step, index, total, as_player, footer)


def _step_lines(step: Step, as_player: int | None) -> list[str]:
    return StepLog(step, limit=10**6, as_player=as_player).lines()


VIEW = View(screen=_screen, step_lines=_step_lines, describe=describe)
