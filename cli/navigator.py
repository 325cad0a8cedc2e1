"""Where a replay stands among its steps, and the keys that move it: shared by the terminal replay and the page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from diamonds.replay.steps import PositionError, Step, find_position

__all__ = ["Navigator", "HELP", "FOOTER", "opening_step"]

HELP = ("→/n/space next step · ←/p back · ↓/] next trick · ↑/[ previous trick · "
        "PgDn/r next round · PgUp/R previous round · Home/End · g go to (R2.7) · ? help · q quit")
FOOTER = "→ next  ← back  ↓↑ trick  PgDn/PgUp round  g go to  ? help  q quit"


def opening_step(steps: Sequence[Step]) -> int:
    """Where an interactive replay opens: the first card played, so that the first screen has cards on
    the table (the start, "Before the first deal", shows none; the deal and passes are one key back).
    A record without a card opens at its first deal, or at the start."""
    for kinds in (("card",), ("deal", "end")):
        for index, step in enumerate(steps):
            if step.kind in kinds:
                return index
    return 0


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
        """To the last card of the trick under way, if it is not there yet (how it ends is not skipped);
        else to the last card of the next trick (or the next stop that is not a card)."""
        here = self._trick_key(self.index)
        i = self.index
        while i + 1 < len(self.steps) and self._trick_key(i + 1) == here:
            i += 1
        if i > self.index and self.steps[self.index].kind == "card":
            self.index = i
            return
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
        """To the deal of the next round (from the start: of round 1); else to the end."""
        here = self.steps[self.index]
        for i in range(self.index + 1, len(self.steps)):  # (from here on only: a page asks at every stop)
            step = self.steps[i]
            if step.kind == "deal" and (step.round_no > here.round_no or here.kind == "start"):
                self.index = i
                return
        self.index = len(self.steps) - 1

    def previous_round(self) -> None:
        """To the deal of this round, or of the one before when at (or in) a round's deal already; else the start."""
        here = self.steps[self.index].round_no
        deals = []  # the last two deals before here, the nearest first
        for i in range(self.index - 1, -1, -1):
            if self.steps[i].kind == "deal":
                deals.append(i)
                if len(deals) == 2:
                    break
        if deals and self.steps[deals[0]].round_no == here and len(deals) > 1:
            self.index = deals[1]
        elif deals and self.steps[deals[0]].round_no < here:
            self.index = deals[0]
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
