"""The toy part of the analysis tables: a row per card played, per trick won (T5, T6) and per round scored."""

from __future__ import annotations

from typing import Any

from diamonds.replay.tables import FamilyRows, Tables, family_columns

from .rules import CardPlayed, RoundScored, RoundStarted, TrickWon


def rows(replayed: Any) -> FamilyRows:
    names = replayed.config.players
    plays, events = family_columns(TABLES)
    round_no = start = seq = 0
    led = ""
    for move_events in replayed.game.events:
        for event in move_events:
            if isinstance(event, RoundStarted):
                round_no = event.round_no
            elif isinstance(event, CardPlayed):
                suit = event.card.suit.value
                if event.leads:
                    start, led = plays.count, suit
                plays.add_play(round_no, event.trick_no, plays.count - start + 1, event.seat, names[event.seat],
                               event.card, suit, led, suit == led)
            elif isinstance(event, TrickWon):
                plays.mark_winner(start, event.card)
                seq += 1
                events.add({"seq": seq, "round": round_no, "trick": event.trick_no, "kind": "trick won",
                            "seat": event.winner + 1, "player": names[event.winner], "side": names[event.winner],
                            "card": str(event.card), "points": 1})
            elif isinstance(event, RoundScored):
                for seat, (points, total) in enumerate(zip(event.points, event.totals)):
                    seq += 1
                    events.add({"seq": seq, "round": round_no, "trick": None, "kind": "round scored",
                                "seat": seat + 1, "player": names[seat], "side": names[seat], "points": points,
                                "total": total})
    return FamilyRows(plays, events, {})


TABLES = Tables(columns={}, standing_fields=(), rows=rows)
