"""Kirk's part of the analysis tables (`kirk`): card values, tricks, tie-breaks and hand scores.

Per card: its value (K3); the led suit and whether the card is of it (Kirk
has no duty to follow, so `followed` is only a fact). Per event: each trick
won (`trick won`: the winner, the winning card, the trick's points towards
the winner's pile, K6/K7, who tied and how it was decided, K5), each step of
a tie-break from the scoring piles (`tie step`: the cards revealed at that
depth, who dropped out, who is still tied, K5), and each player's score at
the end of a hand (`hand scored`: points and total, K7). The games row adds
the game's length: a number of hands or a target score (K8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import CardPlayed, HandScored, HandStarted, KirkConfig, TieBroken, TrickWon
from .rules.rules import pile_points

from diamonds.replay.tables import Column, FamilyRows, Kind, Tables, family_columns

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

__all__ = ["TABLES", "rows"]


def rows(replayed: "ReplayedGame") -> FamilyRows:
    """Walk the events in order: a row per card played, per trick won, per tie step and per hand score."""
    game = replayed.game
    config: KirkConfig = replayed.config
    assert game is not None
    names = config.players
    plays, events = family_columns(TABLES)
    trick_start = 0
    led = ""
    hand_no = 0
    seq = 0
    for move_events in game.events:
        for event in move_events:
            if isinstance(event, CardPlayed):
                suit = event.card.suit._value_
                if event.leads:
                    trick_start = plays.count
                    led = suit
                index = plays.add_play(hand_no, event.trick_no, plays.count - trick_start + 1, event.seat,
                                       names[event.seat], event.card, suit, led, suit == led)
                plays.set("value", index, event.value)
            elif isinstance(event, TieBroken):
                for step in event.steps:
                    seq += 1
                    events.add({
                        "seq": seq, "round": hand_no, "trick": event.trick_no, "kind": "tie step",
                        "depth": step.depth, "revealed": [str(card) for _, card in step.revealed],
                        "dropped": [names[s] for s in step.dropped], "tied": [names[s] for s in step.remaining],
                    })
            elif isinstance(event, TrickWon):
                plays.mark_winner(trick_start, event.card)
                seq += 1
                events.add({
                    "seq": seq, "round": hand_no, "trick": event.trick_no, "kind": "trick won",
                    "seat": event.winner + 1, "player": names[event.winner], "side": names[event.winner],
                    "card": str(event.card), "points": pile_points(event.cards),
                    "tied": [names[s] for s in event.tied], "decided_by": event.decided_by._value_,
                    "depth": event.depth,
                })
            elif isinstance(event, HandScored):
                for seat, (points, total) in enumerate(zip(event.points, event.totals)):
                    seq += 1
                    events.add({
                        "seq": seq, "round": hand_no, "trick": None, "kind": "hand scored", "seat": seat + 1,
                        "player": names[seat], "side": names[seat], "points": points, "total": total,
                    })
            elif isinstance(event, HandStarted):
                hand_no = event.hand_no
                trick_start = plays.count
    return FamilyRows(plays, events, {"hands": config.hands, "target": config.target})


TABLES = Tables(
    columns={
        "games": (
            Column("hands", Kind.INT16, "Kirk: the game lasts this many hands (K8); null: up to `target`"),
            Column("target", Kind.INT16, "Kirk: the game ends at this score (K8); null: after `hands`"),
        ),
        "plays": (
            Column("value", Kind.INT8, "Kirk: the card's value, its rank plus 1 for a Diamond (K3)"),
        ),
        "events": (
            Column("tied", Kind.CATEGORY_LIST, "Kirk: trick won: who played the highest value (K5), the winner "
                                               "alone without a tie; tie step: who is still tied after it"),
            Column("decided_by", Kind.CATEGORY, "Kirk: how the trick was decided: highest, piles, first played "
                                                "(K5)"),
            Column("depth", Kind.INT8, "Kirk: the depth in the scoring piles: the step that decided a trick "
                                       "(0: the highest card), or the step's depth (1: the top card, K5)"),
            Column("revealed", Kind.CATEGORY_LIST, "Kirk: tie step: the cards revealed at this depth, in play "
                                                   "order (K5)"),
            Column("dropped", Kind.CATEGORY_LIST, "Kirk: tie step: who dropped out at it (K5)"),
        ),
    },
    standing_fields=(),
    rows=rows,
)
