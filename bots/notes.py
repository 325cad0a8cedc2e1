"""The analysis's words in a DGN record: a marked decision's comment, and the game's summary comment.

`diamonds analyse` writes them (`mark_comment` on each marked item, `summary_comment` among the
game's comments); the replay page reads them back (`read_mark`, `read_summary`) from the records'
comments. So a page of an annotated game shows its marks, its loss chart and each player's
accuracy without judging anything again, and a page of an unannotated game has none of them.
The writer and the reader of each form are here, side by side, and the tests hold one to the other.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from diamonds.notation.records import Comment, GameRecord

if TYPE_CHECKING:
    from .analyse import Judgement

__all__ = ["PlayerSummary", "NotedMark", "mark_comment", "read_mark", "summary_comment", "read_summary", "SUMMARY_HEAD",
           "with_summary"]

_HOW = {"est": "{samples} worlds from {player}'s view", "exact": "exact: {player}'s view fixes every hand",
        "double dummy": "double dummy: every hand seen, {player}'s move"}


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's analysis in sum (`analyse.accuracy` makes it; the summary comment holds it)."""

    player: str
    judged: int
    inaccuracies: int
    mistakes: int
    blunders: int
    mean_loss: float
    accuracy: float  # percent

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class NotedMark:
    """A marked decision as its comment tells it: the mark, the move played and the best, the loss in the
    family's points with its 95% interval (low == high for an exact or double-dummy verdict)."""

    glyph: str  # "?!", "?" or "??"
    played: str
    best: str
    played_value: float
    best_value: float
    loss: float
    low: float
    high: float
    method: str  # "est", "exact", "double dummy"
    player: str  # "" where the comment does not name them (an older double-dummy comment): the move's player stands


def mark_comment(j: Judgement) -> Comment:
    """The comment a marked decision gets: the best move, the loss and its interval, and how it was found."""
    how = _HOW[j.method].format(samples=j.samples, player=j.player)
    of = f", {j.considered} of {j.legal} moves considered" if j.considered < j.legal else ""
    if j.method == "est":
        loss = f"loses {j.loss:.1f} [{max(0.0, j.loss_low):.1f}, {j.loss_high:.1f}]"
    else:
        loss = f"loses {j.loss:.1f}"
    return Comment(f"{j.glyph} best: {j.best} ({j.best_estimate:+.1f}) vs {j.played} ({j.played_estimate:+.1f}), "
                   f"{loss} pts; {how}{of}", True)


_NUMBER = r"[+-]?\d+(?:\.\d+)?"
_MARK = re.compile(rf"^(\?\?|\?!|\?) best: (.+?) \(({_NUMBER})\) vs (.+?) \(({_NUMBER})\), loses ({_NUMBER})"
                   rf"(?: \[({_NUMBER}), ({_NUMBER})\])? pts; (.*)$", re.S)
# Whose decision it was, as each of `_HOW`'s forms names them. An older double-dummy comment ("double dummy:
# every hand seen") named no one, and is still read.
_WHO = re.compile("^(?:" + "|".join(re.escape(form).replace(re.escape("{samples}"), r"\d+")
                                    .replace(re.escape("{player}"), r"(\S+)") for form in _HOW.values()) + ")")


def read_mark(text: str) -> NotedMark | None:
    """The mark a comment written by `mark_comment` carries, or None for any other comment."""
    found = _MARK.match(text.strip())
    if found is None:
        return None
    glyph, best, best_value, played, played_value, loss, low, high, how = found.groups()
    who = _WHO.match(how)
    method = "est" if low is not None else "double dummy" if how.startswith("double dummy") else "exact"
    return NotedMark(glyph, played, best, float(played_value), float(best_value), float(loss),
                     float(low if low is not None else loss), float(high if high is not None else loss),
                     method, next((name for name in who.groups() if name), "") if who else "")


SUMMARY_HEAD = "analysis per player:"
_PLAYER = re.compile(r"^(\S+) (\d+) judged, (\d+) \?!, (\d+) \?, (\d+) \?\?, mean loss (\d+\.\d+), "
                     r"accuracy (\d+(?:\.\d+)?)%$")


def summary_comment(rows: list[PlayerSummary]) -> Comment:
    """The game's comment that sums the analysis up, per player (see `accuracy`): what the page's summary shows."""
    parts = [f"{r.player} {r.judged} judged, {r.inaccuracies} ?!, {r.mistakes} ?, {r.blunders} ??, "
             f"mean loss {r.mean_loss:.2f}, accuracy {r.accuracy:.1f}%" for r in rows]
    return Comment(f"{SUMMARY_HEAD} " + "; ".join(parts), True)


def read_summary(text: str) -> list[PlayerSummary] | None:
    """The rows a comment written by `summary_comment` holds, or None for any other comment."""
    text = text.strip()
    if not text.startswith(SUMMARY_HEAD):
        return None
    rows = []
    for part in text[len(SUMMARY_HEAD):].split(";"):
        found = _PLAYER.match(part.strip())
        if found is None:
            return None
        player, judged, inaccuracies, mistakes, blunders, mean_loss, accuracy = found.groups()
        rows.append(PlayerSummary(player, int(judged), int(inaccuracies), int(mistakes), int(blunders),
                                  float(mean_loss), float(accuracy)))
    return rows


def with_summary(record: GameRecord, rows: list[PlayerSummary]) -> GameRecord:
    """The record with its summary comment among the game's comments (an older one replaced)."""
    kept = tuple(c for c in record.comments if read_summary(c.text) is None)
    return dataclasses.replace(record, comments=kept + (summary_comment(rows),))
