"""The picture of a Fitzgerald table (1e, 2e, bga): seats with hands, Showrooms and Vaults, the Supply, the trick.

Vaults are secret (the rules: "should remain secret to the other players"),
so with a viewer another side's Vault and score (2 × Vault + Showroom, R18)
are drawn closed; Showrooms, the Supply and tricks are open to all. At the
game's end everything is shown.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from diamonds.core import SUITS
from diamonds.replay.steps import Step
from diamonds.svg import draw

from .rules.config import GameConfig
from .rules.visibility import hides_vault
from .steps import Table

__all__ = ["PICTURE"]

PLATE_WIDTH = 184
ROW = 17  # one line of a plate: Showroom, Vault, score, cards taken


def _title(step: Step, table: Table) -> str:
    config = table.config
    return draw.stop_title(step, f"round {table.round_no} of {config.rounds}",
                           f", trick {table.trick_no} of {config.tricks_per_round}", bool(table.results),
                           end=", end of round")


def _over(table: Table) -> bool:
    return bool(table.results)


def _hand_rows(config: GameConfig) -> int:
    return 1 if config.hand_size <= 10 else 2


def _draw(canvas: draw.Canvas, step: Step, table: Table, sight: draw.Sight) -> None:
    config = table.config
    names = config.players
    n = config.player_count
    top = canvas.position_header(
        f"Round {table.round_no}/{config.rounds}",
        (table.trick_no, config.tricks_per_round) if step.kind == "card" else None, names[table.dealer],
        f"{config.rules} {config.variant_text}".strip(), step.label,
        *([f"pass {table.pass_count}"] if table.pass_count else []))
    draw.text(top, 10, 44, f"Supply {table.supply}", size=12, weight="bold", class_="supply")
    draw.crystals(top, 92, 43, table.supply, per_row=60, scale=0.6)

    rows = _hand_rows(config)
    height = 26 + rows * (draw.CARD_H + 3) + 4 * ROW + 8
    boxes = draw.seat_boxes(n, sight.bottom, PLATE_WIDTH, height)
    first_of_side = {config.sides[side][0]: side for side in range(config.side_count)}
    for seat, box in enumerate(boxes):
        plate = canvas.plate(box, seat, names[seat], highlight=seat == step.actor)
        _marks(plate, box, seat, table)
        y = box.y + 26
        y += draw.hand(sight, plate, seat, table.hands[seat], box.x + 8, y)
        side = config.side_of[seat]
        if seat in first_of_side:
            _side_areas(plate, box, y + 4, side, table, sight)
        else:
            lead = names[config.sides[side][0]]
            draw.text(plate, box.x + 8, y + 14, f"Team {side + 1}: Showroom and Vault", size=10, fill=draw.FAINT)
            draw.text(plate, box.x + 8, y + 14 + ROW, f"with {lead}", size=10, fill=draw.FAINT)
        draw.text(plate, box.x + box.width - 8, y + 4 + 3 * ROW + 11, f"tricks {table.tricks_won[seat]}", size=10,
                  anchor="end", fill=draw.INK, class_="tricks")

    plays = [draw.Play(seat, card) for seat, card in table.trick]
    result: list[str]
    if table.results:
        caption, result = _results_line(table), []
    elif not table.trick:
        caption, result = ("No cards on the table" if step.kind != "end" else f"End of round {table.round_no}"), []
    else:
        led = table.trick[0][1].suit
        caption = f"Trick {table.trick_no} · led {led.symbol}"
        result = [f"{names[table.trick_winner]} wins (R10)"] if table.trick_winner is not None else []
    draw.trick(canvas, plays, table.trick_winner, names, sight, caption, result)


def _marks(plate: ET.Element, box: draw.Box, seat: int, table: Table) -> None:
    x = box.x + box.width - 14
    if seat == table.dealer:
        draw.marker(plate, x, box.y + 13, "D", "dealer")
        x -= 20
    if seat == table.thief:
        draw.marker(plate, x, box.y + 13, "T", "Thief", fill="#b9b2e6")  # R13/R15


def _side_areas(plate: ET.Element, box: draw.Box, y: float, side: int, table: Table, sight: draw.Sight) -> None:
    """A side's Showroom (open), Vault and score (secret to the side until the game ends), and cards taken."""
    config = table.config
    x = box.x + 8
    # who may see this Vault: the rules' answer (R2), asked for every seat while the game goes on
    members = tuple(seat for seat in range(len(config.players)) if not hides_vault(config.side_of[seat], side, False))
    group = draw.add(plate, "g", class_="side", data_side=side)
    showroom = table.showroom[side]
    draw.text(group, x, y + 11, f"Showroom {showroom}", size=10.5, class_="showroom")
    draw.crystals(draw.add(group, "g", class_="showroom-crystals"), x + 80, y + 7, showroom, per_row=9)
    y += ROW
    vault, score = table.vault[side], table.score(side)

    def open_vault(parent: ET.Element) -> None:
        draw.text(parent, x, y + 11, f"Vault {vault}", size=10.5, class_="vault")
        draw.crystals(draw.add(parent, "g", class_="vault-crystals"), x + 80, y + 7, vault, per_row=9)
        draw.text(parent, x, y + 11 + ROW, f"Score {score}", size=10.5, weight="bold", class_="score")

    def closed_vault(parent: ET.Element) -> None:
        draw.text(parent, x, y + 11, "Vault ?", size=10.5, class_="vault")
        draw.add(parent, "rect", x=x + 76, y=y + 1, width=40, height=12, rx=2, fill="#8a8a8a", stroke=draw.INK,
                 stroke_width=0.6, class_="safe")
        draw.text(parent, x + 96, y + 11, "?", size=10, anchor="middle", fill="#ffffff")
        draw.text(parent, x, y + 11 + ROW, "Score ?", size=10.5, weight="bold", class_="score")

    sight.private(group, members, open_vault, closed_vault)
    y += 2 * ROW
    taken = "  ".join(f"{suit.symbol}{count}" for suit, count in zip(SUITS, table.taken[side]))
    draw.text(group, x, y + 11, f"Taken {taken}", size=10, fill=draw.FAINT, class_="taken")


def _results_line(table: Table) -> str:
    """R18: the winners, with their score."""
    config = table.config
    best = [result for result in table.results if result.winner]
    return draw.game_over([config.side_name(result.side) for result in best], best[0].score if best else 0)


PICTURE = draw.Picture(draw=_draw, over=_over, title=_title)
