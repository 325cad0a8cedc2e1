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

from typing import TYPE_CHECKING, Final

from diamonds.replay.tables import Column, EventWalk, FamilyRows, Kind, Tables

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

    from .rules import KirkConfig

__all__ = ["TABLES", "rows"]


def rows(replayed: ReplayedGame) -> FamilyRows:
    """Walk the events in order: a row per card played, per trick won, per tie step and per hand score."""
    # The rules are imported by the first game tabled: a table's columns are read from every family's
    # TABLES, and a file of one family has no use for the other families' engines.
    from .rules import CardPlayed, HandScored, HandStarted, TieBroken, TrickWon
    from .rules.rules import pile_points

    config: KirkConfig = replayed.config
    walk = EventWalk(replayed, TABLES)
    names = walk.names
    for event in walk:
        if isinstance(event, CardPlayed):
            index = walk.play(event.trick_no, event.seat, event.card, event.card.suit._value_, event.leads)
            walk.plays.set("value", index, event.value)
        elif isinstance(event, TieBroken):
            for step in event.steps:
                walk.event("tie step", event.trick_no, depth=step.depth,
                           revealed=[str(card) for _, card in step.revealed],
                           dropped=[names[s] for s in step.dropped], tied=[names[s] for s in step.remaining])
        elif isinstance(event, TrickWon):
            walk.won(event.card)
            walk.seat_event("trick won", event.winner, event.trick_no, card=str(event.card),
                            points=pile_points(event.cards), tied=[names[s] for s in event.tied],
                            decided_by=event.decided_by._value_, depth=event.depth)
        elif isinstance(event, HandScored):
            for seat, (points, total) in enumerate(zip(event.points, event.totals)):
                walk.seat_event("hand scored", seat, points=points, total=total)
        elif isinstance(event, HandStarted):
            walk.new_round(event.hand_no)
    return walk.rows({"hands": config.hands, "target": config.target})


TABLES: Final = Tables(
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
