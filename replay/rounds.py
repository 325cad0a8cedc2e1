"""The `rounds` table: every side's score after every round (hand), built from a game's events.

Generic: no family is named here. Two ways a family's events say a score,
and a game uses the one its columns carry:

* a running `total` (Kirk's and the bidding game's `hand scored` events):
  the side's score after the round is its last total in that round;
* points moved between areas (`from_area`/`from_side` → `to_area`/`to_side`,
  Fitzgerald's `start` and `suit action` events): the family declares the
  weight of each area in the score (`Tables.area_weights`, Fitzgerald's
  R18: 2 × Vault + Showroom), and its `rounds` columns named after the areas
  hold the points in each (its crystals) after the round.

One row per side and per round begun (1 to the games row's `rounds`); a
round without a scoring event repeats the score before it, and the last row
of an unfinished game is the score so far. In a complete valid game the
last round's `score` is the side's final score in `standings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import TableColumns

__all__ = ["round_rows"]


def round_rows(events: TableColumns, standings: list[Mapping[str, Any]], rounds: int | None,
               area_weights: Mapping[str, int] | None, rows: TableColumns) -> None:
    """Append to `rows` (the rounds table's columns for one game) each side's score after each round."""
    if not standings:
        return
    sides = [item["side"] for item in standings]
    seats = {item["side"]: list(item["seats"]) for item in standings}
    data = events.data
    count = events.count
    round_of = data["round"]
    last_round = max([rounds or 0] + [r for r in round_of if r is not None])
    areas: dict[str, dict[str, int]] = {side: {area: 0 for area in (area_weights or {})} for side in sides}
    totals: dict[str, int] = {side: 0 for side in sides}
    # Per round, the events' contributions, applied in order; a snapshot at each round's end.
    by_round: dict[int, list[int]] = {}
    for i in range(count):
        by_round.setdefault(round_of[i] or 0, []).append(i)  # round null: before round 1 (a `start`)

    def apply(i: int) -> None:
        points = data["points"][i] or 0
        if area_weights:
            to_side, to_area = data["to_side"][i], data["to_area"][i]
            if to_side in areas and to_area in area_weights:
                areas[to_side][to_area] += points
            from_side, from_area = data["from_side"][i], data["from_area"][i]
            if from_side in areas and from_area in area_weights:
                areas[from_side][from_area] -= points
        else:
            total, side = data["total"][i], data["side"][i]
            if total is not None and side in totals:
                totals[side] = total

    def score(side: str) -> int:
        if area_weights:
            return sum(weight * areas[side][area] for area, weight in area_weights.items())
        return totals[side]

    for i in by_round.get(0, ()):
        apply(i)
    before = {side: score(side) for side in sides}
    for round_no in range(1, last_round + 1):
        for i in by_round.get(round_no, ()):
            apply(i)
        for side in sides:
            now = score(side)
            values: dict[str, Any] = {"round": round_no, "side": side, "seats": seats[side], "score": now,
                                      "points": now - before[side]}
            for area in area_weights or {}:
                values[area] = areas[side][area]
            rows.add(values)
            before[side] = now
