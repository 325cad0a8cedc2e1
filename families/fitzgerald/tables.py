"""Fitzgerald's part of the analysis tables (`1e`, `2e`, `bga`): its plays and its Suit Actions.

Per card: the led suit and whether it followed (R8), the points its Suit
Actions moved (the off-suit one, R9, and the trick-won one if it won, R10)
and the side a Clubs action robbed (R13/R14). Per event: what each side starts with in its Showroom (`kind` "start",
R3), then every Suit Action
(`kind` "suit action"), with actor, suit, reason (off-suit R9, trick won
R10, suit majority R16, no tricks R17), the areas it moved points from and
to, the points, the victim, and the Thief before and after (R13, R15).
Standings add Vault and Showroom (R18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from diamonds.replay.tables import Column, FamilyRows, Kind, Tables, family_columns

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

    from .rules import GameConfig

__all__ = ["TABLES", "rows"]

# Enum values read as `_value_`, a plain attribute: `member.value` is a slow descriptor on Python 3.11 and
# hashing a member for a dict look-up is a Python call; a conversion reads several per card.
_SUIT_ACTION: Final = "suit action"
_START: Final = "start"
_ACTION_COLUMNS: Final = ("seq", "round", "trick", "kind", "seat", "player", "side", "suit", "points", "reason",
                   "from_area", "from_side", "to_area", "to_side", "victim", "thief_before", "thief_after",
                   "card", "total")


def rows(replayed: ReplayedGame) -> FamilyRows:
    """Walk the events in order: a row per card played and per Suit Action."""
    # The rules are imported by the first game tabled: a table's columns are read from every family's
    # TABLES, and a file of one family has no use for the other families' engines.
    from .rules import CardPlayed, Reason, RoundStarted, SuitAction, TrickWon

    game = replayed.game
    config: GameConfig = replayed.config
    assert game is not None
    names = config.players
    side_names = [config.side_name(s) for s in range(config.side_count)]
    plays, events = family_columns(TABLES)
    trick_start = 0  # the index of the current trick's lead in `plays`
    last: int | None = None  # the last card played (an off-suit action follows it)
    winner: int | None = None  # the trick's winning card (its trick-won action follows)
    round_no = 0
    trick_no: int | None = None
    seq = 0
    # A Suit Action fills every events column: appended straight to the columns (the hot loop).
    append_action = events.appenders(*_ACTION_COLUMNS)
    for side, name in enumerate(side_names):  # what each side starts with (R3): the events then add up to R18
        seq += 1
        events.add({"seq": seq, "kind": _START, "side": name, "points": config.start_showroom(side),
                    "to_area": "showroom", "to_side": name})
    for move_events in game.events:
        for event in move_events:
            kind = type(event)
            if kind is CardPlayed:
                if event.leads:
                    trick_start = plays.count
                trick_no = event.trick_no
                last = plays.add_play(round_no, trick_no, plays.count - trick_start + 1, event.seat,
                                      names[event.seat], event.card, event.card.suit._value_,
                                      event.led_suit._value_, event.followed)
                winner = None
            elif kind is SuitAction:
                seq += 1
                actor = event.actor
                source, target = event.source, event.target
                reason = event.reason
                round_level = reason is Reason.SUIT_MAJORITY or reason is Reason.NO_TRICKS
                victim = side_names[event.victim] if event.victim is not None else None
                thief_before, thief_after = event.thief_before, event.thief_after
                for append, value in zip(append_action, (
                        seq, round_no, None if round_level else trick_no, _SUIT_ACTION,
                        actor + 1 if actor is not None else None, names[actor] if actor is not None else None,
                        side_names[event.side], event.suit._value_, event.points, reason._value_,
                        source.kind._value_, side_names[source.side] if source.side is not None else None,
                        target.kind._value_, side_names[target.side] if target.side is not None else None,
                        victim, names[thief_before] if thief_before is not None else None,
                        names[thief_after] if thief_after is not None else None, None, None)):
                    append(value)
                events.added()
                earned = last if reason is Reason.OFF_SUIT else winner if reason is Reason.TRICK_WON else None
                if earned is not None:
                    plays.set("action_points", earned, (plays.get("action_points", earned) or 0) + event.points)
                    if victim is not None:
                        plays.set("victim", earned, victim)
            elif kind is TrickWon:
                winner = plays.mark_winner(trick_start, event.card)
                last = None
            elif kind is RoundStarted:
                round_no = event.round_no
                trick_no = last = winner = None
                trick_start = plays.count
    return FamilyRows(plays, events, {})


_PLAYS = (
    Column("action_points", Kind.INT8, "Fitzgerald: points moved by the Suit Actions this card earned "
                                       "(off-suit R9; trick won R10 on the winning card); null: none earned"),
    Column("victim", Kind.CATEGORY, "Fitzgerald: the side a Clubs action this card earned robbed (R13/R14)"),
)

_EVENTS = (
    Column("reason", Kind.CATEGORY, "Fitzgerald: why the Suit Action was earned: off-suit (R9), trick won "
                                    "(R10), suit majority (R16), no tricks (R17)"),
    Column("from_area", Kind.CATEGORY, "Fitzgerald: where the points came from: supply, showroom, vault"),
    Column("from_side", Kind.CATEGORY, "Fitzgerald: whose showroom or vault they came from"),
    Column("to_area", Kind.CATEGORY, "Fitzgerald: where they went: showroom or vault"),
    Column("to_side", Kind.CATEGORY, "Fitzgerald: whose showroom or vault"),
    Column("victim", Kind.CATEGORY, "Fitzgerald: the side a Clubs action robbed (R13/R14)"),
    Column("thief_before", Kind.CATEGORY, "Fitzgerald: who held the Thief before the action (R13, R15)"),
    Column("thief_after", Kind.CATEGORY, "Fitzgerald: who holds it after"),
)

TABLES: Final = Tables(
    columns={"plays": _PLAYS, "events": _EVENTS, "rounds": (
        Column("vault", Kind.INT16, "Fitzgerald: the side's crystals in its Vault after the round (R18)"),
        Column("showroom", Kind.INT16, "Fitzgerald: its crystals in its Showroom after the round (R18)"))},
    area_weights={"vault": 2, "showroom": 1},  # R18: score = 2 x Vault + Showroom (the rounds table)
    standing_fields=(
        Column("vault", Kind.INT16, "Fitzgerald: points in the side's Vault (R18)"),
        Column("showroom", Kind.INT16, "Fitzgerald: points in its Showroom (R18)"),
    ),
    rows=rows,
)
