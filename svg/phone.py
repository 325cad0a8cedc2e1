"""The house's picture of a table for a phone: the trick and the sides, in type a phone can read.

A family's picture (`Picture`) is laid out in 600 units around a round felt and shown 344 px wide on a
360 px phone, where its text is 6 to 9 px. This one is laid out in 344 units for 344 px, and no text in it
is under 12 px (issue 31). It shows what a scorer or a watcher at the table looks for between two taps: the
cards of the trick in the order played, each with its player; and each side with its score (or "hidden",
as the viewer's standings say) and who is due. Everything else (hands, Showrooms, piles, bids) is the
family's picture, one tap away on the page. It is drawn from plain data, so it needs nothing of a family.

Its height depends only on the cards a trick holds and the number of sides, never on the position: the
page's card grid below it stays where it is from tap to tap.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from diamonds.core import AnyCard

from .draw import FELT, FELT_EDGE, GOLD, PLATE, PLATE_EDGE, TRICK_W, Canvas, add, card, text, text_width

__all__ = ["PHONE_WIDTH", "SMALLEST", "PhoneTable", "PhoneSide", "phone_svg", "sides_of"]

PHONE_WIDTH = 344  # units and pixels: the page's width on a 360 px phone, less its margins
SMALLEST = 12  # no text is smaller (px, at PHONE_WIDTH)
_PAD, _GAP, _ROW = 8, 6, 28
_NAME_SIZE, _ROW_SIZE, _CAPTION_SIZE = 12, 14, 14


@dataclass(frozen=True, slots=True)
class PhoneSide:
    """One side of the standings: its players, its score (None: hidden from this viewer), a winner (at the end)."""

    players: tuple[str, ...]
    score: int | None
    winner: bool = False


@dataclass(frozen=True, slots=True)
class PhoneTable:
    """What the phone's picture shows. `trick`: the cards on the table in the order played, each with its
    player where known (None: the cards alone say not whose they are); `per_trick`: the most cards a trick
    holds (the band is as wide); `to_move`: the player due, if known; `caption`: the band's words when no
    card lies on it (the game's end, or none yet)."""

    trick: tuple[tuple[str | None, AnyCard], ...]
    per_trick: int
    sides: tuple[PhoneSide, ...]
    to_move: str | None
    caption: str
    title: str


def phone_svg(table: PhoneTable) -> str:
    """The SVG text of `table`, 344 units wide for 344 px."""
    slots = max(table.per_trick, len(table.trick), 3)
    # Cards at least TRICK_W wide, whose rank and suit are drawn in 15 and 22 units: rows of up to 7.
    per_row = min(slots, int((PHONE_WIDTH - 2 * _PAD + _GAP) // (TRICK_W + _GAP)))
    card_w = min(52.0, (PHONE_WIDTH - 2 * _PAD - (per_row - 1) * _GAP) / per_row)
    card_h = round(card_w * 1.4, 1)
    line = card_h + 6 + _NAME_SIZE + 4  # a row of cards with their players' names
    band = _PAD + math.ceil(slots / per_row) * line + _PAD - 4
    height = band + _PAD + len(table.sides) * _ROW + _PAD
    canvas = Canvas(table.title, "", size=PHONE_WIDTH, view=(PHONE_WIDTH, height), felt=False)
    add(canvas.root, "rect", x=0, y=0, width=PHONE_WIDTH, height=band, rx=10, fill=FELT, stroke=FELT_EDGE,
        stroke_width=2, class_="felt")
    trick = canvas.layer("trick")
    for start in range(0, len(table.trick), per_row):
        row = table.trick[start:start + per_row]
        left = (PHONE_WIDTH - len(row) * card_w - (len(row) - 1) * _GAP) / 2
        top = _PAD + start // per_row * line
        for index, (player, shown) in enumerate(row, start):
            x = left + (index - start) * (card_w + _GAP)
            card(trick, x, top, shown, width=card_w, height=card_h).set("data-order", str(index + 1))
            if player is not None:
                text(trick, x + card_w / 2, top + card_h + 4 + _NAME_SIZE, _fit(player, card_w + _GAP, _NAME_SIZE),
                     size=_NAME_SIZE, anchor="middle", fill="#ffffff", class_="player")
    if not table.trick:
        text(trick, PHONE_WIDTH / 2, band / 2 + _CAPTION_SIZE / 3, _fit(table.caption, PHONE_WIDTH - 2 * _PAD, _CAPTION_SIZE),
             size=_CAPTION_SIZE, anchor="middle", fill="#ffffff", class_="caption")
    sides = canvas.layer("sides")
    for index, side in enumerate(table.sides):
        _side_row(sides, side, band + _PAD + index * _ROW, table.to_move in side.players)
    return canvas.tostring()


def _side_row(parent: ET.Element, side: PhoneSide, top: float, due: bool) -> None:
    group = add(parent, "g", class_="side due" if due else "side")
    add(group, "rect", x=1, y=top, width=PHONE_WIDTH - 2, height=_ROW - 4, rx=6, fill=PLATE,
        stroke=GOLD if due else PLATE_EDGE, stroke_width=2.5 if due else 1)
    baseline = top + (_ROW - 4) / 2 + _ROW_SIZE / 3
    score = "hidden" if side.score is None else str(side.score)
    right = score + ("  \u2605 winner" if side.winner else "")
    right_width = text_width(right, _ROW_SIZE, "bold")
    names = " & ".join(side.players)
    marker = "\u25b6 " if due else ""
    room = PHONE_WIDTH - 2 * _PAD - right_width - 12
    text(group, _PAD, baseline, marker + _fit(names, room - text_width(marker, _ROW_SIZE, "bold"), _ROW_SIZE, "bold"),
         size=_ROW_SIZE, weight="bold" if due else None, class_="name")
    text(group, PHONE_WIDTH - _PAD, baseline, right, size=_ROW_SIZE, anchor="end", weight="bold", class_="score")


def _fit(content: str, room: float, size: float, weight: str = "normal") -> str:
    """`content`, cut with an ellipsis where it would be wider than `room` (names in full are on the page)."""
    if text_width(content, size, weight) <= room:
        return content
    keep = len(content)
    while keep > 1 and text_width(content[:keep] + "\u2026", size, weight) > room:
        keep -= 1
    return content[:keep] + "\u2026"


def sides_of(standings: Sequence[Mapping[str, Any]]) -> tuple[PhoneSide, ...]:
    """The sides from a table state's standings (`{"players", "score", "winner"}`, the score None where hidden)."""
    return tuple(PhoneSide(tuple(map(str, s["players"])), s["score"], bool(s["winner"])) for s in standings)
