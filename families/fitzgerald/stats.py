"""Fitzgerald's own figures for `diamonds stats`: what the Suit Actions were worth.

From the `events` table's Suit Action rows: per rule set and reason
(off-suit R9, trick won R10, suit majority R16, no tricks R17) how many
actions and the points they moved to the actor's side; and the same per
suit (Diamonds to the Vault R11, Hearts to the Showroom R12, Spades from
Showroom to Vault, Clubs robbed from another side R13/R14). An action that
could move nothing (empty Supply, the Thief) counts with 0 points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diamonds.replay.stats import Breakdown, Cell, Chart, FamilyStats, Tally, group_sums, rows_of_kind

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["STATS"]

_SUIT_ACTION = "suit action"  # the events' `kind` (fitzgerald_tables.py)
_REASONS = ("off-suit", "trick won", "suit majority", "no tricks")  # in the order a round earns them
_SUITS = ("D", "H", "S", "C")


def tally(events: pa.Table) -> Tally:
    actions = rows_of_kind(events, _SUIT_ACTION, ["rules", "reason", "suit", "points"])
    return {"by_reason": group_sums(actions, ["rules", "reason"], ["points"]),
            "by_suit": group_sums(actions, ["rules", "suit"], ["points"])}


def _rows(counts: dict[tuple[Cell, ...], list[int]], order: tuple[str, ...]) -> tuple[tuple[Cell, ...], ...]:
    rank: dict[Cell, int] = {value: i for i, value in enumerate(order)}
    rows: list[tuple[Cell, ...]] = []
    for (rules, what), (actions, points) in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), rank.get(kv[0][1], 9))):
        rows.append((rules, what, actions, points, points / actions if actions else None))
    return tuple(rows)


def breakdowns(counts: Tally) -> tuple[Breakdown, ...]:
    return (
        Breakdown("suit_actions_by_reason", "Suit Actions by reason (R9, R10, R16, R17)",
                  ("rules", "reason", "actions", "points", "per action"),
                  _rows(counts.get("by_reason", {}), _REASONS), Chart(("rules", "reason"), "points")),
        Breakdown("suit_actions_by_suit", "Suit Actions by suit (R11-R14)",
                  ("rules", "suit", "actions", "points", "per action"),
                  _rows(counts.get("by_suit", {}), _SUITS), Chart(("rules", "suit"), "per action")),
    )


STATS = FamilyStats(title="Fitzgerald's Diamonds: Suit Actions", tally=tally, breakdowns=breakdowns)
