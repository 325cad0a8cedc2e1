"""The bidding game's own figures for `diamonds stats`: bids, contracts made, and why tricks were won.

From the `events` table: per amount, how often it was bid (B3) and kept as
a final bid, and how often a final bid of that amount was made (B9: tricks
equal to it, so the point card counts for, not against) with the points it
brought on average; how often a final bid went down, stayed or went up
(B5); and why tricks were won (B8: a high Joker, a trump, the led suit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diamonds.replay.stats import Breakdown, Cell, Chart, FamilyStats, Tally, group_sums, rows_of_kind

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["STATS"]

# The events' `kind`s (bidding_tables.py).
_BID, _FINAL, _SCORED, _TRICK_WON = "bid", "final bid", "hand scored", "trick won"
_WHY = ("high joker", "trump", "led suit")  # B8, in the order they are tried


def tally(events: pa.Table) -> Tally:
    import pyarrow as pa

    scored = rows_of_kind(events, _SCORED, ["final_bid", "made", "points"])
    scored = scored.append_column("made_count", scored["made"].cast(pa.int64()))
    return {
        "bids": group_sums(rows_of_kind(events, _BID, ["amount"]), ["amount"], []),
        "changes": group_sums(rows_of_kind(events, _FINAL, ["change"]), ["change"], []),
        "contracts": group_sums(scored, ["final_bid"], ["made_count", "points"]),
        "why": group_sums(rows_of_kind(events, _TRICK_WON, ["why"]), ["why"], []),
    }


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def breakdowns(counts: Tally) -> tuple[Breakdown, ...]:
    bids = {key[0]: sums[0] for key, sums in counts.get("bids", {}).items()}
    contracts = {key[0]: sums for key, sums in counts.get("contracts", {}).items()}
    contract_rows: list[tuple[Cell, ...]] = []
    for amount in sorted(set(bids) | set(contracts), key=lambda a: (a is None, a)):
        hands, made, points = contracts.get(amount, [0, 0, 0])
        contract_rows.append((amount, bids.get(amount, 0), hands, made, _share(made, hands),
                              points / hands if hands else None))
    changes = counts.get("changes", {})
    finals = sum(sums[0] for sums in changes.values())
    change_rows = tuple((key[0], sums[0], _share(sums[0], finals))
                        for key, sums in sorted(changes.items(), key=lambda kv: (kv[0][0] is None, kv[0][0])))
    why = counts.get("why", {})
    tricks = sum(sums[0] for sums in why.values())
    order: dict[Cell, int] = {value: i for i, value in enumerate(_WHY)}
    why_rows = tuple((key[0], sums[0], _share(sums[0], tricks))
                     for key, sums in sorted(why.items(), key=lambda kv: order.get(kv[0][0], 9)))
    return (
        Breakdown("contracts_by_final_bid", "Bids and contracts made (B3, B5, B9)",
                  ("amount", "bids", "final bids", "made", "made rate", "points per hand"), tuple(contract_rows),
                  Chart(("amount",), "made rate")),
        Breakdown("final_bid_changes", "Final bids against bids (B5)", ("change", "final bids", "share"),
                  change_rows),
        Breakdown("tricks_by_reason", "Why tricks were won (B8)", ("why", "tricks", "share"), why_rows),
    )


STATS = FamilyStats(title="Bidding Diamonds: bids and contracts", tally=tally, breakdowns=breakdowns)
