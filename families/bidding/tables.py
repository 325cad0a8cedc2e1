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

from typing import TYPE_CHECKING, Any

from .rules import (
    BidMade, BiddingConfig, CardPlayed, CardTaken, FinalBidMade, HandScored, HandStarted, TrickWon,
)

from diamonds.replay.tables import Column, FamilyRows, Kind, Tables, family_columns

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

__all__ = ["TABLES", "rows"]


def rows(replayed: "ReplayedGame") -> FamilyRows:
    """Walk the events in order: a row per card played and per bid, kitty take, trick and hand score."""
    game = replayed.game
    config: BiddingConfig = replayed.config
    assert game is not None
    names = config.players
    plays, events = family_columns(TABLES)
    trick_start = 0
    led = ""
    hand_no = 0
    seq = 0

    def event_row(kind: str, seat: int, trick: int | None = None, **values: Any) -> None:
        nonlocal seq
        seq += 1
        events.add({"seq": seq, "round": hand_no, "trick": trick, "kind": kind, "seat": seat + 1,
                    "player": names[seat], "side": names[seat], **values})

    for move_events in game.events:
        for event in move_events:
            if isinstance(event, CardPlayed):
                suit = event.suit._value_
                if event.leads:
                    trick_start = plays.count
                    led = suit
                index = plays.add_play(hand_no, event.trick_no, plays.count - trick_start + 1, event.seat,
                                       names[event.seat], event.card, suit, led, event.followed)
                plays.set("high", index, event.high)
            elif isinstance(event, TrickWon):
                plays.mark_winner(trick_start, event.card)
                event_row("trick won", event.winner, event.trick_no, card=str(event.card), why=event.why._value_)
            elif isinstance(event, BidMade):
                event_row("bid", event.seat, amount=event.amount)
            elif isinstance(event, CardTaken):
                event_row("kitty take", event.seat, card=str(event.card), point_card=str(event.point))
            elif isinstance(event, FinalBidMade):
                event_row("final bid", event.seat, amount=event.amount, change=event.change)
            elif isinstance(event, HandScored):
                for score in event.seats:
                    event_row("hand scored", score.seat, final_bid=score.final_bid, tricks=score.tricks,
                              point_card=str(score.point_card), made=score.made, points=score.points,
                              total=score.total)
            elif isinstance(event, HandStarted):
                hand_no = event.hand_no
                trick_start = plays.count
    return FamilyRows(plays, events, {})


TABLES = Tables(
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
