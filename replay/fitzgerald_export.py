"""Fitzgerald's part of the export (`1e`, `2e`, `bga`): its configuration, its replay facts, its states.

The generic export (`export.py`) writes what the DGN text says; this adds
what the replay found out: who played each card, whether it followed suit
(R8), the Suit Actions it caused (R9-R17, with the Thief's moves, R13),
trick winners, the passes, the cards each side took, the awards at the end
of a round, and Vault and Showroom in the standings (R18, from `SideResult`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from diamonds.core import Suit
from diamonds.core.fitzgerald import (
    Area, AreaKind, CardPlayed, CardsDealt, CardsPassed, GameConfig, Reason, RoundEnded, RoundStarted, State,
    SuitAction, TrickWon,
)

from .export import Export, attach

if TYPE_CHECKING:
    from .validate import ReplayedGame

__all__ = ["EXPORT", "config_dict", "add_replay", "state_to_dict", "csv_fields"]

# Enum values looked up in a dict: on Python 3.11 `member.value` is a slow descriptor, and an
# export asks for one per card and per action.
_VALUE: dict[Any, str] = {member: member.value for kind in (Suit, Reason, AreaKind) for member in kind}


def config_dict(config: GameConfig) -> dict[str, Any]:
    return {
        "rules": config.rules,
        "variants": sorted(v.value for v in config.variants),
        "teams": [config.side_name(s) for s in range(config.side_count)] if config.partnership else None,
        "first_dealer": config.players[config.first_dealer],
        "rounds": config.rounds,
        "hand_size": config.hand_size,
        "tricks_per_round": config.tricks_per_round,
        "plays_per_trick": config.plays_per_trick,
        "thief": config.uses_thief,
    }


def _area(sides: list[str], area: Area, compact: bool) -> dict[str, Any]:
    if area.side is not None:
        return {"area": _VALUE[area.kind], "side": sides[area.side]}
    return {"area": _VALUE[area.kind]} if compact else {"area": _VALUE[area.kind], "side": None}


def _action(names: tuple[str, ...], sides: list[str], action: SuitAction, compact: bool) -> dict[str, Any]:
    """One Suit Action; in the compact form without its null fields (no actor, victim or Thief)."""
    out: dict[str, Any] = {
        "actor": names[action.actor] if action.actor is not None else None,
        "side": sides[action.side],
        "suit": _VALUE[action.suit],
        "reason": _VALUE[action.reason],
        "from": _area(sides, action.source, compact),
        "to": _area(sides, action.target, compact),
        "points": action.points,
        "victim": sides[action.victim] if action.victim is not None else None,
        "thief_before": names[action.thief_before] if action.thief_before is not None else None,
        "thief_after": names[action.thief_after] if action.thief_after is not None else None,
    }
    if compact:
        if action.actor is None:
            del out["actor"]
        for key in ("victim", "thief_before", "thief_after"):
            if out[key] is None:
                del out[key]
    return out


def state_to_dict(state: State) -> dict[str, Any]:
    config = state.config
    names = config.players
    return {
        "phase": state.phase.value,
        "round": state.round_no,
        "dealer": names[state.dealer],
        "to_move": names[state.to_move] if state.to_move is not None else None,
        "hands": {names[s]: [str(c) for c in state.hand(s)] for s in range(config.player_count)},
        "trick": [{"player": names[s], "card": str(c)} for s, c in state.trick],
        "supply": state.supply,
        "sides": [
            {"side": config.side_name(side), "showroom": state.showroom[side], "vault": state.vault[side],
             "score": state.score(side), "taken": dict(zip("DHSC", state.taken[side]))}
            for side in range(config.side_count)
        ],
        "tricks_won": {names[s]: state.tricks_won[s] for s in range(config.player_count)},
        "thief": names[state.thief] if state.thief is not None else None,
    }


def add_replay(rounds: list[dict[str, Any]], replayed: "ReplayedGame", compact: bool = False) -> None:
    """Walk the events in order and hang them on the items they belong to (see `Export.add_replay`).

    The compact form leaves out each card's player and `followed` (implied by the trick, R8) and every
    null or empty field; an off-suit action (R9) makes its card an object.
    """
    game = replayed.game
    config: GameConfig = replayed.config
    assert game is not None
    names = config.players
    sides = [config.side_name(side) for side in range(config.side_count)]
    rnd: dict[str, Any] | None = None
    trick: dict[str, Any] | None = None
    play: dict[str, Any] | None = None  # the full form's last card played
    played = -1  # the compact form's: its position in the trick (-1: none)
    position = 0  # of the next card in the trick
    for events in game.events:
        for event in events:
            if isinstance(event, CardPlayed):
                if rnd is None:
                    continue
                trick = rnd["tricks"][event.trick_no - 1]
                if event.leads:
                    if compact:
                        trick.update(leader=names[event.seat], led_suit=_VALUE[event.card.suit])
                    else:
                        trick.update(leader=names[event.seat], led_suit=_VALUE[event.card.suit], winner=None,
                                     winning_card=None, actions=[])
                    position = 0
                if compact:
                    played = position
                else:
                    play = trick["plays"][position]
                    play.update(player=names[event.seat], followed=event.followed, actions=[])
                position += 1
            elif isinstance(event, SuitAction):
                if rnd is None:
                    continue
                action = _action(names, sides, event, compact)
                if event.reason is Reason.OFF_SUIT and (play is not None or played >= 0):
                    if compact:
                        assert trick is not None
                        attach(trick["plays"], played).setdefault("actions", []).append(action)
                    else:
                        assert play is not None
                        play["actions"].append(action)
                elif event.reason is Reason.TRICK_WON and trick is not None:
                    trick.setdefault("actions", []).append(action)
                else:
                    rnd.setdefault("awards", []).append(action)
            elif isinstance(event, RoundStarted):
                rnd = rounds[event.round_no - 1]
                thief = names[event.thief] if event.thief is not None else None
                if compact:
                    if thief is not None:
                        rnd["thief_at_start"] = thief
                else:
                    rnd.update(deals={}, passes=[], awards=[], taken=None, thief_at_start=thief)
                trick = play = None
                played = -1
            elif rnd is None:
                continue
            elif isinstance(event, TrickWon) and trick is not None:
                trick["winner"] = names[event.winner]
                trick["winning_card"] = str(event.card)
                play = None
                played = -1
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
            elif isinstance(event, CardsPassed):
                rnd.setdefault("passes", []).append({"player": names[event.giver], "to": names[event.receiver],
                                                     "cards": [str(c) for c in event.cards]})
            elif isinstance(event, RoundEnded):
                rnd["taken"] = {sides[s]: dict(zip("DHSC", row)) for s, row in enumerate(event.taken)}
                trick = play = None
                played = -1


def csv_fields(trick: dict[str, Any], play: dict[str, Any]) -> Mapping[str, Any]:
    """The led suit, whether the card followed it, and the actions it earned (with the trick's, if it won)."""
    actions = list(play.get("actions", ()))
    if trick.get("winning_card") == play["card"]:
        actions += trick.get("actions", [])
    return {
        "led_suit": trick.get("led_suit"),
        "followed": play.get("followed"),
        "actions": ";".join(f"{a['reason']}:{a['suit']}:{a['points']}" for a in actions),
    }


_NULLABLE_PLAYER = {"anyOf": [{"$ref": "#/$defs/player"}, {"type": "null"}]}
_COUNT = {"type": "integer", "minimum": 0}

SCHEMA_DEFS: dict[str, Any] = {
    "config": {
        "type": "object",
        "required": ["rules", "variants", "teams", "first_dealer", "rounds", "hand_size", "tricks_per_round",
                     "plays_per_trick", "thief"],
        "additionalProperties": False,
        "properties": {
            "rules": {"enum": ["1e", "2e", "bga"]},
            "variants": {"type": "array", "items": {"enum": ["partnership", "perfect"]}},
            "teams": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/side"}}, {"type": "null"}]},
            "first_dealer": {"$ref": "#/$defs/player"},
            "rounds": {"type": "integer"}, "hand_size": {"type": "integer"},
            "tricks_per_round": {"type": "integer"}, "plays_per_trick": {"type": "integer"},
            "thief": {"type": "boolean",
                      "description": "Clubs robs the Thief's holder (R13) rather than a chosen side (R14)"},
        },
    },
    "area": {
        "type": "object", "required": ["area"], "additionalProperties": False,
        "description": "a side's showroom or vault, or the supply (no side; the compact form leaves out the null)",
        "properties": {
            "area": {"enum": ["supply", "showroom", "vault"]},
            "side": {"anyOf": [{"$ref": "#/$defs/side"}, {"type": "null"}]},
        },
    },
    "action": {
        "type": "object",
        "required": ["side", "suit", "reason", "from", "to", "points"],
        "description": "a Suit Action; `actor`, `victim`, `thief_before` and `thief_after` are null when absent",
        "additionalProperties": False,
        "properties": {
            "actor": _NULLABLE_PLAYER,
            "side": {"$ref": "#/$defs/side"},
            "suit": {"$ref": "#/$defs/suit"},
            "reason": {"enum": ["off-suit", "trick won", "suit majority", "no tricks"]},
            "from": {"$ref": "#/$defs/area"},
            "to": {"$ref": "#/$defs/area"},
            "points": {"enum": [0, 1]},
            "victim": {"anyOf": [{"$ref": "#/$defs/side"}, {"type": "null"}]},
            "thief_before": _NULLABLE_PLAYER,
            "thief_after": _NULLABLE_PLAYER,
        },
    },
    "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
    "play": {"properties": {
        "followed": {"type": "boolean", "description": "Fitzgerald: of the led suit (R8); true for the lead"},
        "actions": {"$ref": "#/$defs/actions", "description": "Fitzgerald: the off-suit action this card earned (R9)"},
    }},
    "trick": {"properties": {
        "led_suit": {"$ref": "#/$defs/suit"},
        "actions": {"$ref": "#/$defs/actions", "description": "Fitzgerald: the winner's led-suit action (R10)"},
    }},
    "round": {"properties": {
        "passes": {"type": "array", "description": "Fitzgerald: the passes, written or inferred (R6)", "items": {
            "type": "object", "required": ["player", "to", "cards"], "additionalProperties": False,
            "properties": {"player": {"$ref": "#/$defs/player"}, "to": {"$ref": "#/$defs/player"},
                           "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}}}}},
        "awards": {"$ref": "#/$defs/actions",
                   "description": "Fitzgerald: end-of-round actions (majorities R16, no tricks R17)"},
        "taken": {"anyOf": [{"type": "null"}, {"type": "object", "additionalProperties": {
            "type": "object", "required": ["D", "H", "S", "C"], "additionalProperties": False,
            "properties": {"D": _COUNT, "H": _COUNT, "S": _COUNT, "C": _COUNT}}}],
            "description": "Fitzgerald: the cards each side took, per suit (R16)"},
        "thief_at_start": {**_NULLABLE_PLAYER, "description": "Fitzgerald: who holds the Thief (R15)"},
    }},
    "standing": {"properties": {
        "vault": {"type": "integer", "minimum": 0, "description": "Fitzgerald: R18"},
        "showroom": {"type": "integer", "minimum": 0, "description": "Fitzgerald: R18"},
    }},
    "state": {
        "type": "object",
        "required": ["phase", "round", "dealer", "to_move", "hands", "trick", "supply", "sides", "tricks_won",
                     "thief"],
        "additionalProperties": False,
        "properties": {
            "phase": {"enum": ["deal", "pass count", "passing", "play", "choose victim", "game over"]},
            "round": {"type": "integer"},
            "dealer": {"$ref": "#/$defs/player"},
            "to_move": _NULLABLE_PLAYER,
            "hands": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/card"}}},
            "trick": {"type": "array", "items": {
                "type": "object", "required": ["player", "card"], "additionalProperties": False,
                "properties": {"player": {"$ref": "#/$defs/player"}, "card": {"$ref": "#/$defs/card"}}}},
            "supply": {"type": "integer", "minimum": 0},
            "sides": {"type": "array", "items": {
                "type": "object", "required": ["side", "showroom", "vault", "score", "taken"],
                "additionalProperties": False,
                "properties": {"side": {"$ref": "#/$defs/side"}, "showroom": {"type": "integer", "minimum": 0},
                               "vault": {"type": "integer", "minimum": 0},
                               "score": {"type": "integer", "minimum": 0},
                               "taken": {"type": "object", "additionalProperties": {"type": "integer"}}}}},
            "tricks_won": {"type": "object", "additionalProperties": {"type": "integer"}},
            "thief": _NULLABLE_PLAYER,
        },
    },
}

EXPORT = Export(
    config_dict=config_dict,
    add_replay=add_replay,
    state_dict=state_to_dict,
    schema_defs=SCHEMA_DEFS,
    csv_fields=csv_fields,
    implied_play_facts=frozenset(("followed",)),  # R8: the card's suit is the trick's led suit
)
