"""The house's picture of a plain trick game's table (diamonds.core.trick), for a family that names it as its
`picture` part (`diamonds.svg.plain:PICTURE`): each seat's plate with its hand, tricks won and total, and the
trick on the table (a `replay.plain.TrickTable`)."""

from __future__ import annotations

from typing import Any

from .draw import Canvas, Picture, Play, Sight, game_over, hand, marker, seat_boxes, text, trick

__all__ = ["PICTURE"]


def _title(step: Any, table: Any) -> str:
    return f"{step.label} (round {table.round_no} of {table.config.rounds})"


def _draw(canvas: Canvas, step: Any, table: Any, sight: Sight) -> None:
    names = table.config.players
    canvas.header(f"Round {table.round_no}/{table.config.rounds} · {names[table.dealer]} deals",
                  f"{table.config.rules} · {step.label}")
    for seat, box in enumerate(seat_boxes(len(names), sight.bottom, 184, 96)):
        plate = canvas.plate(box, seat, names[seat], highlight=seat == step.actor)
        if seat == table.dealer:
            marker(plate, box.x + box.width - 14, box.y + 13, "D", "dealer")
        y = box.y + 26 + hand(sight, plate, seat, table.hands[seat], box.x + 8, box.y + 26)
        text(plate, box.x + 8, y + 14, f"Tricks {table.won[seat]} · total {table.totals[seat]}", size=11,
             class_="total")
    if table.standings:
        best = [s for s in table.standings if s.winner]
        caption = game_over([names[s.side] for s in best], best[0].score)
    else:
        caption = f"Trick {table.trick_no}" if table.trick else "No cards on the table"
    result = [f"{names[table.trick_winner]} wins"] if table.trick_winner is not None and table.trick else []
    trick(canvas, [Play(seat, card) for seat, card in table.trick], table.trick_winner, names, sight, caption, result)


PICTURE = Picture(draw=_draw, over=lambda table: bool(table.standings), title=_title)
