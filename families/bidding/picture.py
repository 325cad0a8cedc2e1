"""The picture of a table of the three-handed bidding game: hands, bids, point cards, the kitty, the trick.

Hands are private; so is each point card (laid face down, B4) until the
hand is scored (B9), and each card of the kitty (dealt face down, B2) but
to the player who took it. Bids, final bids, tricks and totals are open.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from diamonds.core import AnyCard, Joker
from diamonds.replay.steps import Step
from diamonds.svg import draw

from .rules import CardPlayed
from .steps import Table

__all__ = ["PICTURE"]

PLATE_WIDTH = 184
ROW = 17
REASONS = {"high joker": "a high Joker (B8)", "trump": "the highest Diamond (B8)", "led suit": "the led suit (B8)"}


def _title(step: Step, table: Table) -> str:
    return draw.stop_title(step, f"hand {table.hand_no}", f", trick {table.trick_no} of {table.config.tricks_per_hand}",
                           table.over, end=", scored", deal=", deal and bids")


def _over(table: Table) -> bool:
    return table.over


def _note(play: CardPlayed) -> str:
    """B7: an ace's or the Joker's choice, and the suit a Joker was given."""
    if isinstance(play.card, Joker):
        return f"{'high' if play.high else 'low'} {play.suit.symbol}"
    if play.high is not None:
        return "high" if play.high else "low"
    return ""


def _draw(canvas: draw.Canvas, step: Step, table: Table, sight: draw.Sight) -> None:
    config = table.config
    names = config.players
    top = canvas.position_header(
        f"Hand {table.hand_no}", (table.trick_no, config.tricks_per_hand) if step.kind == "card" else None,
        names[table.dealer], "bidding", step.label)
    draw.text(top, 10, 44, f"Diamonds are trumps · the game ends at 100 or -100 (B10) · "
                      f"totals {'with' if table.scored else 'before'} this hand", size=11, fill=draw.FAINT)

    height = 26 + (draw.CARD_H + 3) + 4 * ROW + 20
    boxes = draw.seat_boxes(config.player_count, sight.bottom, PLATE_WIDTH, height)
    winners = {standing.side for standing in table.standings if standing.winner}
    results = {score.seat: score for score in table.scored}
    for seat, box in enumerate(boxes):
        plate = canvas.plate(box, seat, names[seat], highlight=seat == step.actor)
        if seat == table.dealer:
            draw.marker(plate, box.x + box.width - 14, box.y + 13, "D", "dealer")
        cards = table.hands[seat] if table.hands else ()
        y = box.y + 26 + draw.hand(sight, plate, seat, cards, box.x + 8, box.y + 26, per_row=11)
        x = box.x + 8
        bid, final = table.bids[seat], table.final_bids[seat]
        bids = "Bid " + ("–" if bid is None else str(bid)) + (f" · final {final}" if final is not None else "")
        draw.text(plate, x, y + 12, bids, size=11, class_="bids")
        _point_card(plate, box, y + ROW, seat, table, sight)
        draw.text(plate, x, y + 3 * ROW + 12, f"Tricks {table.tricks_won[seat]}", size=10.5, class_="tricks")
        if seat in results:  # the hand's score on the tricks' line, right: on the total's it ran out of the plate
            score = results[seat]
            draw.text(plate, box.x + box.width - 8, y + 3 * ROW + 12,
                      f"{score.points:+d}, {'made' if score.made else 'missed'} B9", size=10.5, anchor="end",
                      class_="hand-score")
        total = f"Total {table.totals[seat]}" + ("  ★ winner" if seat in winners else "")
        draw.text(plate, x, y + 4 * ROW + 12, total, size=11, weight="bold", class_="total")

    plays = [draw.Play(play.seat, play.card, _note(play)) for play in table.trick]
    result: list[str] = []
    if table.over:
        best = [standing for standing in table.standings if standing.winner]
        caption = draw.game_over([names[standing.side] for standing in best], best[0].score if best else 0)
    elif table.trick:
        caption = f"Trick {table.trick_no} · led {table.trick[0].suit.symbol}"
        if table.trick_winner is not None and table.why is not None:
            result = [f"{names[table.trick_winner]} wins", f"with {REASONS.get(table.why.value, table.why.value)}"]
    elif step.kind == "end":
        caption = f"Hand {table.hand_no} scored"
    else:
        caption = "No cards on the table"
    draw.trick(canvas, plays, table.trick_winner, names, sight, caption, result)
    if table.kitty and table.trick_no == 0 and not table.scored:
        _kitty(canvas, table, sight)


def _point_card(plate: ET.Element, box: draw.Box, y: float, seat: int, table: Table, sight: draw.Sight) -> None:
    """B4: the point card lies face down before its player until the hand is scored (B9)."""
    x = box.x + 8
    draw.text(plate, x, y + 13, "Point card", size=10.5)
    laid = table.point_cards[seat]
    if laid is None:
        draw.text(plate, x + 66, y + 13, "not laid yet", size=10, fill=draw.FAINT)
        return
    group = draw.add(plate, "g", class_="point-card", data_seat=seat)

    def face(parent: ET.Element) -> None:
        draw.card(parent, x + 66, y - 2, laid, width=19, height=24)

    def back(parent: ET.Element) -> None:
        draw.card_back(parent, x + 66, y - 2, width=19, height=24)

    if table.scored:
        face(group)
    else:
        sight.private(group, (seat,), face, back)


def _kitty(canvas: draw.Canvas, table: Table, sight: draw.Sight) -> None:
    """B2/B4: the kitty as dealt, face down; each card face up to whoever took it (to everyone when no one looks)."""
    names = table.config.players
    group = canvas.layer("kitty")
    taken_by: dict[AnyCard, int] = {taken: seat for seat, taken in enumerate(table.taken) if taken is not None}
    x0, y = draw.TABLE_CX - 87, draw.TABLE_CY + 30
    draw.text(group, draw.TABLE_CX, y - 6, "Kitty", size=11, anchor="middle", fill="#ffffff")
    for index, dealt in enumerate(table.kitty):
        x = x0 + index * 60
        taker = taken_by.get(dealt)
        slot = draw.add(group, "g", class_="kitty-card")

        def face(parent: ET.Element, x: float = x, dealt: AnyCard = dealt) -> None:
            draw.card(parent, x, y, dealt, width=38, height=52)

        def back(parent: ET.Element, x: float = x) -> None:
            draw.card_back(parent, x, y, width=38, height=52)

        sight.private(slot, () if taker is None else (taker,), face, back)
        if taker is not None:
            draw.text(slot, x + 19, y + 64, f"to {names[taker]}", size=10, anchor="middle", fill="#ffffff")


PICTURE = draw.Picture(draw=_draw, over=_over, title=_title)
