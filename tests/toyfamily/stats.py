"""The toy figures of `diamonds stats`: tricks won by the winning card (T5)."""

from __future__ import annotations

from typing import Any

from diamonds.replay.stats import Breakdown, Chart, FamilyStats, Tally, group_sums, rows_of_kind


def tally(events: Any) -> Tally:
    return {"by_card": group_sums(rows_of_kind(events, "trick won", ["card"]), ["card"], [])}


def breakdowns(counts: Tally) -> tuple[Breakdown, ...]:
    rows = tuple((card, sums[0]) for (card,), sums in sorted(counts.get("by_card", {}).items(), key=str))
    return (Breakdown("tricks_by_winning_card", "Tricks by the winning card (T5)", ("card", "tricks"), rows,
                      Chart(("card",), "tricks")),)


STATS = FamilyStats(title="The toy game: tricks by winning card", tally=tally, breakdowns=breakdowns)
