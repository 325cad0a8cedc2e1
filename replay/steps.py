"""Replay steps: a replayed game cut where a person wants to stop, with the table at each stop.

A step is the deal of a round (with its passes, bids…), one card played
(with what it caused), or the end of a round. What lies on the table at each
step is the family's view's business (`Step.table`); how steps are labelled
and found (R2.7, R2.7.3, R2.end) is the same for every family.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "Step", "Fold", "StepMarks", "Mark", "next_mark", "marks_of", "steps_builder", "cut_steps", "steps_of",
    "find_position", "PositionError",
]


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "start", "deal", "card", "end"
    label: str  # its position: R2.0, R2.7.3, R2.end
    round_no: int
    trick_no: int  # 0 for deal / end steps
    card_no: int  # 1-based within the trick; 0 for others
    events: tuple[Any, ...]
    table: Any  # what lies on the table after the step, as the family's view folds it
    trick_complete: bool = False
    actor: int | None = None  # the seat that played, for highlighting
    ply: int = 0  # how many moves of the game lie behind the table at this stop (a Position's length)

    def _repr_svg_(self) -> str:
        """Jupyter shows a stop as the picture of its table (diamonds.svg), as python-chess shows a board."""
        from diamonds.svg import step_svg

        return step_svg(self)


class Fold(Protocol):
    """A family's bookkeeping of the table, fed every event in order; `freeze` is the table at a stop."""

    trick_winner: int | None  # set once the trick on the table is complete

    def apply(self, event: Any) -> None: ...

    def freeze(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class StepMarks:
    """Which of a family's events open a stop: a round's deal, a card, a round's end."""

    round_started: Callable[[Any], int | None]  # the round's number, for the event that starts one
    card_played: Callable[[Any], tuple[int, bool, int] | None]  # (trick number, leads, seat) of a card
    round_ended: Callable[[Any], bool]


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a game stands, as the stops name it: the kind of the last stop opened and its label."""

    kind: str  # "start", "deal", "card", "end"
    label: str  # R2.0, R2.7.3, R2.end
    round_no: int
    trick_no: int  # 0 at a deal or an end
    card_no: int  # 1-based within the trick; 0 at a deal or an end
    actor: int | None  # the seat that played the card


START = Mark("start", "start", 1, 0, 0, None)


def next_mark(mark: Mark, event: Any, marks: StepMarks) -> Mark | None:
    """The stop `event` opens after `mark`, or None if it opens none.

    The one walk that names positions: the replay's stops (`cut_steps`) and a
    `Position`'s label both follow it, so R2.7.3 means the same thing in both."""
    started = marks.round_started(event)
    if started is not None:
        return Mark("deal", f"R{started}.0", started, 0, 0, None)
    card = marks.card_played(event)
    if card is not None:
        trick_no, leads, actor = card
        card_no = 1 if leads else mark.card_no + 1
        return Mark("card", f"R{mark.round_no}.{trick_no}.{card_no}", mark.round_no, trick_no, card_no, actor)
    if marks.round_ended(event):
        return Mark("end", f"R{mark.round_no}.end", mark.round_no, 0, 0, None)
    return None


def marks_of(round_started: type[Any], card_played: type[Any], round_ended: type[Any], *,
             number: str = "round_no") -> StepMarks:
    """The marks of a family whose events say them alike: the round's `number` on `round_started`,
    `trick_no`, `leads` and `seat` on `card_played`, and `round_ended` events."""
    return StepMarks(
        round_started=lambda event: getattr(event, number) if isinstance(event, round_started) else None,
        card_played=lambda event: (event.trick_no, event.leads, event.seat) if isinstance(event, card_played) else None,
        round_ended=lambda event: isinstance(event, round_ended),
    )


def steps_builder(new_fold: Callable[[Any], Fold], marks: StepMarks) -> Callable[[Any], list[Step]]:
    """A family's `steps` part: the stops of a replayed game, folded from its events by a fold that
    `new_fold(config)` makes, cut where `marks` say."""

    def build_steps(replayed: Any) -> list[Step]:
        """All the stops of a replayed game, the first being the table before its first round."""
        config, game = replayed.config, replayed.game
        assert config is not None and game is not None
        return cut_steps(game.events, new_fold(config), marks)

    return build_steps


def steps_of(replayed: Any) -> list[Step]:
    """The stops of a replayed game (a `ReplayedGame` with a game), cut by its family's `steps` part."""
    from diamonds.core import family_of

    build: Callable[[Any], list[Step]] = family_of(replayed.config.rules).part("steps")
    return build(replayed)


def cut_steps(events: Iterable[tuple[Any, ...]], fold: Fold, marks: StepMarks) -> list[Step]:
    """The stops of a game, from its events move by move; the first stop is the table before round 1.

    Every family's view cuts its steps here, so that the same positions (R2.0, R2.7.3, R2.end)
    mean the same thing in every game."""
    steps = [Step("start", "start", 1, 0, 0, (), fold.freeze())]
    pending: list[Any] = []
    mark = Mark("deal", "", 1, 0, 0, None)  # events before any stop's mark (none in a valid game) join a deal
    ply = 0  # moves whose events have been folded so far

    def close() -> None:
        if pending:
            complete = fold.trick_winner is not None and mark.kind == "card"
            steps.append(Step(mark.kind, mark.label, mark.round_no, mark.trick_no, mark.card_no, tuple(pending),
                              fold.freeze(), complete, mark.actor, ply))
            pending.clear()

    for move_events in events:
        for index, event in enumerate(move_events):
            opened = next_mark(mark, event, marks)
            if opened is not None:
                ply_before = ply
                ply = ply if index == 0 else ply + 1  # a stop cut inside a move ends after that move
                close()
                ply = ply_before
                mark = opened
            fold.apply(event)
            pending.append(event)
        ply += 1
    close()
    return steps


class PositionError(ValueError):
    pass


_POSITION = re.compile(r"R(\d+)(?:\.(end|\d+)(?:\.(\d+))?)?\Z", re.IGNORECASE)


def find_position(steps: Sequence[Step], text: str) -> int:
    """The index of the step a position names: R2.7 (after trick 7 of round 2), R2.7.3, R2.0, R2.end, R2."""
    text = text.strip()
    if text.lower() == "start":
        return 0
    if text.lower() == "end":
        return len(steps) - 1
    match = _POSITION.match(text)
    if not match:
        raise PositionError(f'"{text}" is not a position (try R2.7, R2.7.3, R2.0, R2.end, start or end)')
    round_no = int(match.group(1))
    trick = match.group(2)
    card = match.group(3)
    if card is not None and (trick.lower() == "end" or trick == "0"):  # no trick there to count cards in
        raise PositionError(f'"{text}" is not a position: a card is counted within a trick, as in '
                            f"R{round_no}.1.{card} (card {card} of trick 1)")
    found = [i for i, s in enumerate(steps) if s.round_no == round_no and s.kind != "start"]
    if not found:
        raise PositionError(f"round {round_no} is not in this game's replay")
    if trick is None or trick == "0":
        deal = [i for i in found if steps[i].kind == "deal"]
        return deal[0] if deal else found[0]
    if trick.lower() == "end":
        end = [i for i in found if steps[i].kind == "end"]
        if not end:
            raise PositionError(f"round {round_no} does not reach its end in this record")
        return end[0]
    in_trick = [i for i in found if steps[i].kind == "card" and steps[i].trick_no == int(trick)]
    if not in_trick:
        raise PositionError(f"trick {trick} of round {round_no} is not in this game's replay")
    if card is None:
        return in_trick[-1]
    if not 1 <= int(card) <= len(in_trick):
        count = len(in_trick)
        raise PositionError(f"trick {trick} of round {round_no} has {count} card{'s' if count != 1 else ''}, "
                            f"R{round_no}.{int(trick)}.1 to R{round_no}.{int(trick)}.{count}: there is no card {card}")
    return in_trick[int(card) - 1]

