"""The picture of a table of Alan Kirk's game: hands, scoring piles, the trick, and how a tie was broken (K5).

Hands are private; the scoring piles lie face down but every card in them
was played face up, so their size and points are shown to everyone, and the
cards a tie-break turned over (K5) are drawn face up beside their piles.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from diamonds.replay.steps import Step
from diamonds.svg import draw

from .rules import DecidedBy
from .steps import Table

__all__ = ["PICTURE"]

PLATE_WIDTH = 184
ROW = 17


def _title(step: Step, table: Table) -> str:
    config = table.config
    length = f" of {config.hands}" if config.hands else ""
    return draw.stop_title(step, f"hand {table.hand_no}{length}", f", trick {table.trick_no} of {config.tricks_per_hand}",
                           table.over, end=", scored")


def _over(table: Table) -> bool:
    return table.over


def _draw(canvas: draw.Canvas, step: Step, table: Table, sight: draw.Sight) -> None:
    config = table.config
    names = config.players
    goal = f"to {config.hands} hands" if config.hands else f"to {config.target} points"
    top = canvas.position_header(
        f"Hand {table.hand_no}" + (f"/{config.hands}" if config.hands else ""),
        (table.trick_no, config.tricks_per_hand) if step.kind == "card" else None, names[table.dealer],
        "kirk", step.label)
    draw.text(top, 10, 44, f"Scores {'with' if table.scored else 'before'} this hand · game {goal}", size=11,
              fill=draw.FAINT)

    height = 26 + 2 * (draw.CARD_H + 3) + 3 * ROW + 10
    boxes = draw.seat_boxes(config.player_count, sight.bottom, PLATE_WIDTH, height)
    revealed = _revealed(table)
    winners = {standing.side for standing in table.standings if standing.winner}
    for seat, box in enumerate(boxes):
        plate = canvas.plate(box, seat, names[seat], highlight=seat == step.actor)
        if seat == table.dealer:
            draw.marker(plate, box.x + box.width - 14, box.y + 13, "D", "dealer")
        y = box.y + 26 + draw.hand(sight, plate, seat, table.hands[seat], box.x + 8, box.y + 26)
        _pile(plate, box, y + 2, seat, table, revealed.get(seat, []))
        total = f"Total {table.totals[seat]}" + ("  ★ winner" if seat in winners else "")
        draw.text(plate, box.x + 8, y + 2 + 2 * ROW + 12, total, size=11, weight="bold", class_="total")

    plays = [draw.Play(seat, played) for seat, played in table.trick]
    result: list[str] = []
    if table.over:
        best = [standing for standing in table.standings if standing.winner]
        caption = draw.game_over([names[standing.side] for standing in best], best[0].score if best else 0)
    elif not table.trick:
        caption = "No cards on the table" if step.kind != "end" else f"Hand {table.hand_no} scored"
    else:
        caption = f"Trick {table.trick_no}"
        if table.trick_winner is not None:
            result = [f"{names[table.trick_winner]} wins", *_tie_words(table)]
    draw.trick(canvas, plays, table.trick_winner, names, sight, caption, result)


def _revealed(table: Table) -> dict[int, list[tuple[int, object]]]:
    """K5: per tied seat, the (depth, card) its pile showed while the tie on the table was broken."""
    shown: dict[int, list[tuple[int, object]]] = {}
    if table.tie is None:
        return shown
    for tie_step in table.tie.steps:
        for seat, revealed in tie_step.revealed:
            shown.setdefault(seat, []).append((tie_step.depth, revealed))
    return shown


def _tie_words(table: Table) -> list[str]:
    """K5 in a line: how the tie on the table was broken."""
    tie = table.tie
    if tie is None:
        return []
    if tie.decided_by is DecidedBy.FIRST_PLAYED:
        return ["tie: played first (K5)"]
    return [f"tie: piles, step {tie.depth} (K5)"]


def _pile(plate: ET.Element, box: draw.Box, y: float, seat: int, table: Table,
          revealed: list[tuple[int, object]]) -> None:
    """K6: the scoring pile, face down, with its tricks and points; cards a tie turned over beside it (K5)."""
    x = box.x + 8
    group = draw.add(plate, "g", class_="pile", data_cards=len(table.piles[seat]))
    if table.piles[seat]:
        draw.card_back(group, x, y, width=14, height=20)
    tricks = table.tricks_won[seat]
    draw.text(group, x + 20, y + 14, f"{tricks} trick{'s' if tricks != 1 else ''} · {table.hand_points[seat]} pts",
              size=10.5, class_="pile-count")
    if revealed:
        reveals = draw.add(plate, "g", class_="reveals", data_seat=seat)
        draw.text(reveals, x, y + ROW + 13, "Tie shows", size=10, fill=draw.FAINT)
        for index, (depth, shown) in enumerate(revealed):
            cx = x + 56 + index * 34
            element = draw.card(reveals, cx, y + ROW, shown, width=19, height=24)  # type: ignore[arg-type]
            element.set("data-depth", str(depth))
            draw.text(reveals, cx + 22, y + ROW + 14, str(depth), size=9, fill=draw.FAINT)


PICTURE = draw.Picture(draw=_draw, over=_over, title=_title)
