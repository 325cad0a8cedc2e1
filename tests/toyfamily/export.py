"""The toy parts of the export (its configuration, who played and won each trick, the hands, the round totals) and
of the analysis tables (a row per card played, per trick won, T5 and T6, and per round scored)."""

from __future__ import annotations

from typing import Any

from diamonds.replay.export import Export
from diamonds.replay.tables import FamilyRows, Tables, family_columns

from .rules import CardPlayed, CardsDealt, RoundScored, RoundStarted, State, ToyConfig, TrickWon


def config_dict(config: ToyConfig) -> dict[str, Any]:
    return {"first_dealer": config.players[config.first_dealer], "rounds": config.rounds}


def state_dict(state: State) -> dict[str, Any]:
    names = state.config.players
    return {"phase": state.phase.value, "round": state.round_no,
            "hands": {names[s]: [str(c) for c in state.hand(s)] for s in range(2)},
            "trick": [str(c) for _, c in state.trick], "totals": dict(zip(names, state.totals))}


def add_replay(rounds: list[dict[str, Any]], replayed: Any, compact: bool = False) -> None:
    names = replayed.config.players
    rnd: dict[str, Any] | None = None
    trick: dict[str, Any] = {}
    for events in replayed.game.events:
        for event in events:
            if isinstance(event, RoundStarted):
                rnd = rounds[event.round_no - 1]
            elif rnd is None:
                continue
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
            elif isinstance(event, CardPlayed):
                trick = rnd["tricks"][event.trick_no - 1]
                if event.leads:
                    trick["leader"] = names[event.seat]
                if not compact:
                    trick["plays"][0 if event.leads else 1]["player"] = names[event.seat]
            elif isinstance(event, TrickWon):
                trick.update(winner=names[event.winner], winning_card=str(event.card))
            elif isinstance(event, RoundScored):
                rnd["totals"] = dict(zip(names, event.totals))


_PER_PLAYER = {"type": "object", "additionalProperties": {"type": "integer"}}

EXPORT = Export(
    config_dict=config_dict,
    add_replay=add_replay,
    state_dict=state_dict,
    schema_defs={
        "config": {"type": "object", "required": ["rules", "first_dealer", "rounds"], "additionalProperties": False,
                   "properties": {"rules": {"const": "toy"}, "first_dealer": {"$ref": "#/$defs/player"},
                                  "rounds": {"const": 2, "description": "T7: two rounds"}}},
        "round": {"properties": {"totals": {**_PER_PLAYER, "description": "toy: the totals after the round (T6)"}}},
        "state": {"type": "object", "additionalProperties": False,
                  "required": ["phase", "round", "hands", "trick", "totals"],
                  "properties": {"phase": {"enum": ["deal", "play", "game over"]}, "round": {"type": "integer"},
                                 "hands": {"type": "object", "additionalProperties": {
                                     "type": "array", "items": {"$ref": "#/$defs/card"}}},
                                 "trick": {"type": "array", "items": {"$ref": "#/$defs/card"}},
                                 "totals": _PER_PLAYER}},
    },
)


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
