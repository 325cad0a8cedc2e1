"""The bidding game's part of the analysis tables (`bidding`): bids, the kitty, tricks and hand scores.

Per card: the suit it counts as (a Joker's given suit, B7), high or low as
the engine read it (an ace's or the Joker's choice; a bare ace is high),
and whether it followed the led suit (B6). Per event: each bid (`bid`, B3),
each card taken from the kitty with the point card laid (`kitty take`, B4),
each final bid with its change from the bid (`final bid`, B5), each trick
won with why the card won (`trick won`, B8), and each player's result of a
hand (`hand scored`: final bid, tricks, point card, contract made, points
and total, B9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from diamonds.replay.tables import Column, EventWalk, FamilyRows, Kind, Tables

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

__all__ = ["TABLES", "rows"]


def rows(replayed: ReplayedGame) -> FamilyRows:
    """Walk the events in order: a row per card played and per bid, kitty take, trick and hand score."""
    # The rules are imported by the first game tabled: a table's columns are read from every family's
    # TABLES, and a file of one family has no use for the other families' engines.
    from .rules import (
        BidMade,
        CardPlayed,
        CardTaken,
        FinalBidMade,
        HandScored,
        HandStarted,
        TrickWon,
    )

    walk = EventWalk(replayed, TABLES)
    for event in walk:
        if isinstance(event, CardPlayed):
            index = walk.play(event.trick_no, event.seat, event.card, event.suit._value_, event.leads, event.followed)
            walk.plays.set("high", index, event.high)
        elif isinstance(event, TrickWon):
            walk.won(event.card)
            walk.seat_event("trick won", event.winner, event.trick_no, card=str(event.card), why=event.why._value_)
        elif isinstance(event, BidMade):
            walk.seat_event("bid", event.seat, amount=event.amount)
        elif isinstance(event, CardTaken):
            walk.seat_event("kitty take", event.seat, card=str(event.card), point_card=str(event.point))
        elif isinstance(event, FinalBidMade):
            walk.seat_event("final bid", event.seat, amount=event.amount, change=event.change)
        elif isinstance(event, HandScored):
            for score in event.seats:
                walk.seat_event("hand scored", score.seat, final_bid=score.final_bid, tricks=score.tricks,
                                point_card=str(score.point_card), made=score.made, points=score.points,
                                total=score.total)
        elif isinstance(event, HandStarted):
            walk.new_round(event.hand_no)
    return walk.rows({})


TABLES: Final = Tables(
    columns={
        "plays": (
            Column("high", Kind.BOOL, "bidding: an ace or the Joker played high (B7; a bare ace is high); null "
                                      "for other cards"),
        ),
        "events": (
            Column("amount", Kind.INT8, "bidding: the bid (B3) or the final bid (B5)"),
            Column("change", Kind.INT8, "bidding: final bid: -1, 0 or +1 from the bid (B5)"),
            Column("point_card", Kind.CATEGORY, "bidding: kitty take, hand scored: the point card laid (B4, B9)"),
            Column("final_bid", Kind.INT8, "bidding: hand scored: the final bid (B9)"),
            Column("tricks", Kind.INT8, "bidding: hand scored: the tricks won (B9)"),
            Column("made", Kind.BOOL, "bidding: hand scored: tricks equal the final bid, so the point card's "
                                      "value is added, else taken off (B9)"),
            Column("why", Kind.CATEGORY, "bidding: trick won: why the card won: high joker, trump, led suit (B8)"),
        ),
    },
    standing_fields=(),
    rows=rows,
)
