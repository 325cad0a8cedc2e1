"""Kirk's own figures for `diamonds stats`: how tricks were decided, and what the winning cards brought in.

From the `events` table's `trick won` rows: per way of deciding (K5: the
single highest value, a tie broken from the scoring piles at some depth, or
a tie no pile could break, given to the first of the tied to play) how many
tricks and the points they carried (K7); and per value of the winning card
(K3: the rank, one more for a Diamond) the tricks it won and their points.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from diamonds.core import Card
from diamonds.replay.stats import Breakdown, Cell, Chart, FamilyStats, Tally, group_sums, rows_of_kind

from .rules.rules import card_value

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["STATS"]

_TRICK_WON = "trick won"  # the events' `kind` (kirk_tables.py)
_DECIDED = ("highest", "piles", "first played")  # K5, the order a tie goes deeper


def tally(events: pa.Table) -> Tally:
    tricks = rows_of_kind(events, _TRICK_WON, ["decided_by", "depth", "card", "points"])
    return {"decided": group_sums(tricks, ["decided_by", "depth"], ["points"]),
            "by_card": group_sums(tricks, ["card"], ["points"])}


def breakdowns(counts: Tally) -> tuple[Breakdown, ...]:
    decided = counts.get("decided", {})
    total = sum(sums[0] for sums in decided.values())
    rank: dict[Cell, int] = {value: i for i, value in enumerate(_DECIDED)}
    rows: list[tuple[Cell, ...]] = []
    for (how, depth), (tricks, points) in sorted(decided.items(),
                                                 key=lambda kv: (rank.get(kv[0][0], 9), int(kv[0][1] or 0))):
        rows.append((how, depth, tricks, tricks / total if total else None, points / tricks if tricks else None))
    by_value: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for (card,), (tricks, points) in counts.get("by_card", {}).items():
        sums = by_value[card_value(Card.parse(str(card)))]
        sums[0] += tricks
        sums[1] += points
    value_rows: tuple[tuple[Cell, ...], ...] = tuple(
        (value, tricks, points, points / tricks if tricks else None)
        for value, (tricks, points) in sorted(by_value.items()))
    return (
        Breakdown("tricks_by_decision", "How tricks were decided (K5)",
                  ("decided by", "depth", "tricks", "share", "points per trick"), tuple(rows),
                  Chart(("decided by", "depth"), "tricks")),
        Breakdown("tricks_by_winning_value", "Tricks by the winning card's value (K3, K7)",
                  ("value", "tricks", "points", "points per trick"), value_rows, Chart(("value",), "points")),
    )


STATS = FamilyStats(title="Kirk's Diamonds: tricks and tie-breaks", tally=tally, breakdowns=breakdowns)
