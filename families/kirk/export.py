"""Kirk's part of the export (`kirk`): its configuration, its replay facts, its states.

The generic export (`export.py`) writes what the DGN text says; this adds
what the replay found out: who played each card and its value (K3), who led
and won each trick with which card, how a tie was broken from the scoring
piles (K5: the tied players, how it was decided, at what depth, and per step
the cards revealed and who dropped out), the hands dealt, and per hand each
player's points and the totals after it (K7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from diamonds.replay.export import DocumentWalk, Export, hands_dict, state_head

from .rules import (
    CardPlayed,
    CardsDealt,
    HandScored,
    HandStarted,
    KirkConfig,
    State,
    TieBroken,
    TieStep,
    TrickWon,
)

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

__all__ = ["EXPORT", "config_dict", "add_replay", "state_dict"]


def config_dict(config: KirkConfig) -> dict[str, Any]:
    return {
        "rules": config.rules,
        "first_dealer": config.players[config.first_dealer],
        "hands": config.hands,
        "target": config.target,
        "hand_size": config.hand_size,
        "tricks_per_hand": config.tricks_per_hand,
        "plays_per_trick": config.plays_per_trick,
    }


def state_dict(state: State) -> dict[str, Any]:
    config = state.config
    names = config.players
    seats = range(config.player_count)
    return {
        **state_head(state, "hand", state.hand_no),
        "hands": hands_dict(state),
        "trick": [{"player": names[s], "card": str(c)} for s, c in state.trick],
        "piles": {names[s]: [str(c) for c in state.piles[s]] for s in seats},
        "tricks_won": dict(zip(names, state.tricks_won)),
        "hand_points": dict(zip(names, state.hand_points)),
        "totals": dict(zip(names, state.totals)),
    }


def _step(names: tuple[str, ...], step: TieStep, compact: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "depth": step.depth,
        "revealed": [{"player": names[seat], "card": str(card)} for seat, card in step.revealed],
        "no_card": [names[seat] for seat in step.no_card],
        "outvalued": [names[seat] for seat in step.outvalued],
        "dropped": [names[seat] for seat in step.dropped],
        "remaining": [names[seat] for seat in step.remaining],
    }
    return {key: value for key, value in out.items() if value != []} if compact else out


def add_replay(rounds: list[dict[str, Any]], replayed: ReplayedGame, compact: bool = False) -> None:
    """Walk the events in order and hang them on the items they belong to (see `Export.add_replay`).

    The compact form leaves out each card's player and value (implied by the trick and K3) and every
    null or empty field.
    """
    walk = DocumentWalk(rounds, replayed, HandStarted, "hand_no")
    names = walk.names
    steps: list[dict[str, Any]] = []  # of the tie being broken
    for rnd, events in walk:
        for event in events:
            if isinstance(event, CardPlayed):
                trick, position = walk.card(event.trick_no, event.leads)
                if event.leads:
                    if compact:
                        trick["leader"] = names[event.seat]
                    else:
                        trick.update(leader=names[event.seat], winner=None, winning_card=None, tie_break=None)
                if not compact:
                    trick["plays"][position].update(player=names[event.seat], value=event.value)
            elif isinstance(event, HandStarted):
                if not compact:
                    rnd.update(deals={}, points=None, totals=None)
            elif isinstance(event, TieBroken):
                steps = [_step(names, step, compact) for step in event.steps]
            elif isinstance(event, TrickWon) and (won := walk.won(event.winner, event.card)) is not None:
                tie_break: dict[str, Any] = {
                    "tied": [names[seat] for seat in event.tied],
                    "decided_by": event.decided_by.value,
                    "depth": event.depth,
                    "steps": steps if len(event.tied) > 1 else [],
                }
                if compact and not tie_break["steps"]:
                    del tie_break["steps"]
                won["tie_break"] = tie_break
                steps = []
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
            elif isinstance(event, HandScored):
                rnd["points"] = dict(zip(names, event.points))
                rnd["totals"] = dict(zip(names, event.totals))
                walk.end_trick()


_PER_PLAYER = {"type": "object", "additionalProperties": {"type": "integer"}}
_PLAYERS = {"type": "array", "items": {"$ref": "#/$defs/player"}}

SCHEMA_DEFS: dict[str, Any] = {
    "config": {
        "type": "object",
        "required": ["rules", "first_dealer", "hands", "target", "hand_size", "tricks_per_hand", "plays_per_trick"],
        "additionalProperties": False,
        "properties": {
            "rules": {"const": "kirk"},
            "first_dealer": {"$ref": "#/$defs/player"},
            "hands": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
                      "description": "K8: the number of hands (null: the game lasts up to `target`)"},
            "target": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
                       "description": "K8: the score that ends the game (null: it lasts `hands` hands)"},
            "hand_size": {"type": "integer"},
            "tricks_per_hand": {"type": "integer"},
            "plays_per_trick": {"type": "integer"},
        },
    },
    "tie_step": {
        "type": "object", "required": ["depth"],
        "additionalProperties": False,
        "description": "K5: one step of a tie-break, the cards at one depth of the tied players' piles (an absent "
                       "list is empty)",
        "properties": {
            "depth": {"type": "integer", "minimum": 1, "description": "1: the top card of the pile, 2: under it, ..."},
            "revealed": {"type": "array", "items": {
                "type": "object", "required": ["player", "card"], "additionalProperties": False,
                "properties": {"player": {"$ref": "#/$defs/player"}, "card": {"$ref": "#/$defs/card"}}}},
            "no_card": {**_PLAYERS, "description": "still tied, with no card at this depth"},
            "outvalued": {**_PLAYERS, "description": "whose revealed card is below the highest revealed"},
            "dropped": {**_PLAYERS, "description": "who dropped out at this step"},
            "remaining": {**_PLAYERS, "description": "still tied after the step, in play order"},
        },
    },
    "tie_break": {
        "type": "object", "required": ["tied", "decided_by", "depth"], "additionalProperties": False,
        "description": "K5: how the trick was decided (absent `steps`: none)",
        "properties": {
            "tied": {**_PLAYERS, "description": "who played the highest value, in play order (the winner alone "
                                                "without a tie)"},
            "decided_by": {"enum": ["highest", "piles", "first played"]},
            "depth": {"type": "integer", "minimum": 0,
                      "description": "0: the highest card; else the step that decided it"},
            "steps": {"type": "array", "items": {"$ref": "#/$defs/tie_step"}},
        },
    },
    "play": {"properties": {
        "value": {"type": "integer", "description": "Kirk: the card's value (K3)"},
    }},
    "trick": {"properties": {
        "tie_break": {"anyOf": [{"$ref": "#/$defs/tie_break"}, {"type": "null"}],
                      "description": "Kirk: how the trick was decided (K5; null: unfinished)"},
    }},
    "round": {"properties": {
        "points": {"anyOf": [_PER_PLAYER, {"type": "null"}],
                   "description": "Kirk: each player's points in this hand (K7; null: unfinished)"},
        "totals": {"anyOf": [_PER_PLAYER, {"type": "null"}],
                   "description": "Kirk: each player's total after this hand (K7; null: unfinished)"},
    }},
    "state": {
        "type": "object",
        "required": ["phase", "hand", "dealer", "to_move", "hands", "trick", "piles", "tricks_won", "hand_points",
                     "totals"],
        "additionalProperties": False,
        "properties": {
            "phase": {"enum": ["deal", "play", "game over"]},
            "hand": {"type": "integer", "minimum": 1},
            "dealer": {"$ref": "#/$defs/player"},
            "to_move": {"anyOf": [{"$ref": "#/$defs/player"}, {"type": "null"}]},
            "hands": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/card"}}},
            "trick": {"type": "array", "items": {
                "type": "object", "required": ["player", "card"], "additionalProperties": False,
                "properties": {"player": {"$ref": "#/$defs/player"}, "card": {"$ref": "#/$defs/card"}}}},
            "piles": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/card"}},
                      "description": "K6: each scoring pile, bottom first (its top card last)"},
            "tricks_won": _PER_PLAYER,
            "hand_points": _PER_PLAYER,
            "totals": {**_PER_PLAYER, "description": "K7: the totals of the hands before this one (after the last, "
                                                     "once the game is over)"},
        },
    },
}

EXPORT = Export(
    config_dict=config_dict,
    add_replay=add_replay,
    state_dict=state_dict,
    schema_defs=SCHEMA_DEFS,
    implied_play_facts=frozenset(("value",)),  # K3: the card's rank, Diamonds one higher
)
