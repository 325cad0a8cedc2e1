"""Replay steps: a replayed game cut where a person wants to stop, with the table at each stop.

A step is the deal of a round (with its passes, bids…), one card played
(with what it caused), or the end of a round. What lies on the table at each
step is the family's view's business (`Step.table`); how steps are labelled
and found (R2.7, R2.7.3, R2.end) is the same for every family.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

__all__ = ["Step", "find_position", "PositionError"]


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
        raise PositionError(f"trick {trick} of round {round_no} has {len(in_trick)} cards")
    return in_trick[int(card) - 1]

