"""Fitzgerald's part of the export (`1e`, `2e`, `bga`): its configuration, its replay facts, its states.

The generic export (`export.py`) writes what the DGN text says; this adds
what the replay found out: who played each card, whether it followed suit
(R8), the Suit Actions it caused (R9-R17, with the Thief's moves, R13),
trick winners, the passes, the cards each side took, the awards at the end
of a round, and Vault and Showroom in the standings (R18, from `FitzgeraldResult`).
The compact form writes a Suit Action as its move and what its place does
not imply (`_compact_action`, docs/json.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from diamonds.core import Suit
from diamonds.replay.export import DocumentWalk, Export, attach, hands_dict, state_head

from .rules import (
    Area,
    AreaKind,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    GameConfig,
    Reason,
    RoundEnded,
    RoundStarted,
    State,
    SuitAction,
    TrickWon,
)

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

__all__ = ["EXPORT", "config_dict", "add_replay", "state_to_dict", "csv_fields"]

# Enum values looked up in a dict: on Python 3.11 `member.value` is a slow descriptor, and an
# export asks for one per card and per action.
_VALUE: Final[dict[Any, str]] = {member: member.value for kind in (Suit, Reason, AreaKind) for member in kind}
_CLUBS: Final[Suit] = Suit.CLUBS


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


def _area(sides: list[str], area: Area) -> dict[str, Any]:
    return {"area": _VALUE[area.kind], "side": sides[area.side] if area.side is not None else None}


def _action(names: tuple[str, ...], sides: list[str], action: SuitAction) -> dict[str, Any]:
    """One Suit Action in the full form: every field, nulls included."""
    return {
        "actor": names[action.actor] if action.actor is not None else None,
        "side": sides[action.side],
        "suit": _VALUE[action.suit],
        "reason": _VALUE[action.reason],
        "from": _area(sides, action.source),
        "to": _area(sides, action.target),
        "points": action.points,
        "victim": sides[action.victim] if action.victim is not None else None,
        "thief_before": names[action.thief_before] if action.thief_before is not None else None,
        "thief_after": names[action.thief_after] if action.thief_after is not None else None,
    }


def _place(sides: list[str], area: Area, side: int) -> str:
    """An area in a compact `move`: its kind, with `:side` unless it is the action's own side's.

    The supply has no side; a Showroom of no side (a Clubs action with nobody to rob, R14) is `nobody`."""
    if area.side is None:
        return "supply" if area.kind is AreaKind.SUPPLY else "nobody"
    if area.side == side:
        return _VALUE[area.kind]
    return f"{_VALUE[area.kind]}:{sides[area.side]}"


def _compact_action(names: tuple[str, ...], sides: list[str], side_of: tuple[int, ...], action: SuitAction,
                    actor: int | None, suit: Suit | None, reason: Reason | None) -> Any:
    """One Suit Action in the compact form (docs/json.md): what its place does not imply, and its move.

    `actor`, `suit` and `reason` are what the place implies (a card: its player, its suit, off-suit, R9;
    a trick: its winner, the led suit, trick won, R10; the awards: nothing). The actor implies the side
    (their own, their team's in a partnership); a Clubs action's `from` implies its victim (R13, R14);
    a point moved is the rule. An action with nothing else to say is its move alone, `"supply>vault"`.
    """
    side = action.side
    head: dict[str, Any] = {}
    if action.actor != actor:
        head["actor"] = names[action.actor] if action.actor is not None else None
    if action.actor is None or side != side_of[action.actor]:
        head["side"] = sides[side]
    if action.suit is not suit:
        head["suit"] = _VALUE[action.suit]
    if action.reason is not reason:
        head["reason"] = _VALUE[action.reason]
    move = f"{_place(sides, action.source, side)}>{_place(sides, action.target, side)}"
    tail: dict[str, Any] = {}
    if action.points != 1:
        tail["points"] = action.points
    if action.victim != (action.source.side if action.suit is _CLUBS else None):
        tail["victim"] = sides[action.victim] if action.victim is not None else None
    before, after = action.thief_before, action.thief_after
    if before is not None or after is not None:
        tail["thief"] = f"{names[before] if before is not None else ''}>{names[after] if after is not None else ''}"
    if not head and not tail:
        return move
    return {**head, "move": move, **tail}


def state_to_dict(state: State) -> dict[str, Any]:
    config = state.config
    names = config.players
    return {
        **state_head(state, "round", state.round_no),
        "hands": hands_dict(state),
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


def add_replay(rounds: list[dict[str, Any]], replayed: ReplayedGame, compact: bool = False) -> None:
    """Walk the events in order and hang them on the items they belong to (see `Export.add_replay`).

    The compact form leaves out each card's player and `followed` and each trick's `led_suit` (implied
    by the trick, R8), every null or empty field, and of each Suit Action what its place implies
    (`_compact_action`); an off-suit action (R9) makes its card an object.
    """
    config: GameConfig = replayed.config
    walk = DocumentWalk(rounds, replayed, RoundStarted, "round_no")
    names = walk.names
    side_of = config.side_of
    sides = [config.side_name(side) for side in range(config.side_count)]
    play: dict[str, Any] | None = None  # the full form's last card played
    played = -1  # its position in the trick (-1: none since the last trick was won)
    played_seat, played_suit = -1, None  # who played it, its suit: what its off-suit action implies (R9)
    winner, led_suit = -1, None  # of the trick: what its action implies (R10)
    for rnd, events in walk:
        for event in events:
            if isinstance(event, CardPlayed):
                trick, played = walk.card(event.trick_no, event.leads)
                if event.leads:
                    led_suit, winner = event.card.suit, -1
                    if compact:
                        trick["leader"] = names[event.seat]
                    else:
                        trick.update(leader=names[event.seat], led_suit=_VALUE[led_suit], winner=None,
                                     winning_card=None, actions=[])
                played_seat, played_suit = event.seat, event.card.suit
                if not compact:
                    play = trick["plays"][played]
                    play.update(player=names[event.seat], followed=event.followed, actions=[])
            elif isinstance(event, SuitAction):
                open_trick = walk.trick
                if event.reason is Reason.OFF_SUIT and played >= 0:
                    assert open_trick is not None
                    if compact:
                        attach(open_trick["plays"], played).setdefault("actions", []).append(_compact_action(
                            names, sides, side_of, event, played_seat, played_suit, Reason.OFF_SUIT))
                    else:
                        assert play is not None
                        play["actions"].append(_action(names, sides, event))
                elif event.reason is Reason.TRICK_WON and open_trick is not None:
                    open_trick.setdefault("actions", []).append(
                        _compact_action(names, sides, side_of, event, winner, led_suit, Reason.TRICK_WON)
                        if compact else _action(names, sides, event))
                else:
                    rnd.setdefault("awards", []).append(
                        _compact_action(names, sides, side_of, event, None, None, None)
                        if compact else _action(names, sides, event))
            elif isinstance(event, RoundStarted):
                thief = names[event.thief] if event.thief is not None else None
                if compact:
                    if thief is not None:
                        rnd["thief_at_start"] = thief
                else:
                    rnd.update(deals={}, passes=[], awards=[], taken=None, thief_at_start=thief)
                play = None
                played = -1
            elif isinstance(event, TrickWon) and walk.won(event.winner, event.card) is not None:
                winner = event.winner
                play = None
                played = -1
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
            elif isinstance(event, CardsPassed):
                rnd.setdefault("passes", []).append({"player": names[event.giver], "to": names[event.receiver],
                                                     "cards": [str(c) for c in event.cards]})
            elif isinstance(event, RoundEnded):
                rnd["taken"] = {sides[s]: dict(zip("DHSC", row)) for s, row in enumerate(event.taken)}
                walk.end_trick()
                play = None
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
_REASON = {"enum": ["off-suit", "trick won", "suit majority", "no tricks"]}
_POINTS = {"enum": [0, 1]}
_PLAYER = "[A-Za-z][A-Za-z0-9_-]*"
_PLACE = f"(supply|nobody|(showroom|vault)(:{_PLAYER}(\\+{_PLAYER})*)?)"
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
        "description": "a side's showroom or vault, or the supply (side null; absent in documents of the "
                       "first compact form, which also left out null fields of actions)",
        "properties": {
            "area": {"enum": ["supply", "showroom", "vault"]},
            "side": {"anyOf": [{"$ref": "#/$defs/side"}, {"type": "null"}]},
        },
    },
    "move": {
        "type": "string", "pattern": f"^{_PLACE}>{_PLACE}$",
        "description": "compact: `from>to`; an area is supply, showroom or vault, with `:side` when it is not "
                       "the action's side's; `nobody`: the showroom of no side (a Clubs action with no victim, "
                       "R14). A string alone is an action whose place implies everything else (docs/json.md)",
    },
    "action": {
        "description": "a Suit Action: the full form's object, or the compact form's (`move`), or its move alone",
        "if": {"type": "string"}, "then": {"$ref": "#/$defs/move"},
        "else": {"if": {"type": "object", "required": ["move"]},
                 "then": {"$ref": "#/$defs/compact_action"}, "else": {"$ref": "#/$defs/full_action"}},
    },
    "full_action": {
        "type": "object",
        "required": ["side", "suit", "reason", "from", "to", "points"],
        "description": "a Suit Action in the full form; `actor`, `victim`, `thief_before` and `thief_after` "
                       "are null when absent (and left out in documents of the first compact form)",
        "additionalProperties": False,
        "properties": {
            "actor": _NULLABLE_PLAYER,
            "side": {"$ref": "#/$defs/side"},
            "suit": {"$ref": "#/$defs/suit"},
            "reason": _REASON,
            "from": {"$ref": "#/$defs/area"},
            "to": {"$ref": "#/$defs/area"},
            "points": _POINTS,
            "victim": {"anyOf": [{"$ref": "#/$defs/side"}, {"type": "null"}]},
            "thief_before": _NULLABLE_PLAYER,
            "thief_after": _NULLABLE_PLAYER,
        },
    },
    "compact_action": {
        "type": "object", "required": ["move"], "additionalProperties": False,
        "description": "a Suit Action in the compact form: its move, and what its place does not imply "
                       "(an absent field is implied, docs/json.md)",
        "properties": {
            "actor": {**_NULLABLE_PLAYER, "description": "absent: the card's player, the trick's winner; "
                                                         "in `awards`: none (a team's award)"},
            "side": {"$ref": "#/$defs/side", "description": "absent: the actor's side (their team's in a "
                                                            "partnership)"},
            "suit": {"$ref": "#/$defs/suit", "description": "absent: the card's suit, the trick's led suit"},
            "reason": {**_REASON, "description": "absent: off-suit on a card, trick won on a trick"},
            "move": {"$ref": "#/$defs/move"},
            "points": {**_POINTS, "description": "absent: 1"},
            "victim": {"anyOf": [{"$ref": "#/$defs/side"}, {"type": "null"}],
                       "description": "absent: a Clubs action's is the side of the showroom it robs; others "
                                      "have none"},
            "thief": {"type": "string", "pattern": f"^{_PLAYER}?>{_PLAYER}?$",
                      "description": "who held the Thief > who holds it after (R13); absent: it did not move"},
        },
    },
    "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
    "play": {"properties": {
        "followed": {"type": "boolean", "description": "Fitzgerald: of the led suit (R8); true for the lead"},
        "actions": {"$ref": "#/$defs/actions", "description": "Fitzgerald: the off-suit action this card earned (R9)"},
    }},
    "trick": {"properties": {
        "led_suit": {"$ref": "#/$defs/suit",
                     "description": "Fitzgerald: the suit of the first card (R8); absent in the compact form"},
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
    implied_trick_facts=frozenset(("led_suit",)),  # R8: the suit of the trick's first card (no Joker here)
)
