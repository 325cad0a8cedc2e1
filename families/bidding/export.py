"""The bidding game's part of the export (`bidding`): its configuration, its replay facts, its states.

The generic export (`export.py`) writes what the DGN text says; this adds
what the replay found out:

* per hand: the hands dealt and the kitty (B2), each player's bid (B3), the
  card they took from the kitty and the point card they laid (B4), their
  final bid (B5), and at the hand's end, per player, the final bid, the
  tricks won, the point card, the points added or taken off and the total
  after the hand (B9, from the engine's `HandScored`);
* per trick: who led, the led suit, who won with which card, and why that
  card won (B8: a high Joker, a trump, or the highest of the led suit);
* per play: who played it, the suit it counted as (a Joker's given suit,
  B7), high or low as the engine read it (a bare ace is high), and whether
  it followed the led suit (B6; the lead always does).

Events are matched to the record's items by card, so a card the replay
refused (reported at its token) does not shift the facts onto its
neighbours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from diamonds.core import Suit
from diamonds.replay.export import DocumentWalk, Export, hands_dict, state_head

from .rules import (
    BiddingConfig,
    BiddingState,
    BidMade,
    CardPlayed,
    CardsDealt,
    CardTaken,
    FinalBidMade,
    HandScored,
    HandStarted,
    TrickWon,
    WinReason,
)
from .rules.config import GAME_END_HIGH, GAME_END_LOW

if TYPE_CHECKING:
    from diamonds.replay.validate import ReplayedGame

__all__ = ["EXPORT", "SCHEMA_DEFS", "config_dict", "add_replay", "state_dict", "csv_fields"]

_VALUE: Final[dict[Any, str]] = {member: member.value for kind in (Suit, WinReason) for member in kind}


def config_dict(config: BiddingConfig) -> dict[str, Any]:
    return {
        "rules": config.rules,
        "first_dealer": config.players[config.first_dealer],
        "hand_size": config.hand_size,
        "kitty_size": config.kitty_size,
        "tricks_per_hand": config.tricks_per_hand,
        "plays_per_trick": config.plays_per_trick,
        "game_end_high": GAME_END_HIGH,
        "game_end_low": GAME_END_LOW,
    }


def _card(card: Any) -> str | None:
    return None if card is None else str(card)


def state_dict(state: BiddingState) -> dict[str, Any]:
    config = state.config
    names = config.players
    seats = range(config.player_count)
    led = state.led_suit
    return {
        **state_head(state, "hand", state.hand_no),
        "totals": dict(zip(names, state.scores)),
        "hands": hands_dict(state),
        "kitty": [str(c) for c in state.kitty],
        "bids": dict(zip(names, state.bids)),
        "taken": {names[s]: _card(state.taken[s]) for s in seats},
        "point_cards": {names[s]: _card(state.point_cards[s]) for s in seats},
        "final_bids": dict(zip(names, state.final_bids)),
        "trick_no": state.trick_no,
        "leader": names[state.leader],
        "led_suit": _VALUE[led] if led is not None else None,
        "trick": [{"player": names[p.seat], "card": str(p.card), "high": p.high, "counts_as": _VALUE[p.suit]}
                  for p in state.trick],
        "tricks_won": dict(zip(names, state.tricks_won)),
    }


def _card_places(rnd: dict[str, Any]) -> dict[str, tuple[dict[str, Any], Any]]:
    """Each card written in the hand's tricks: the trick and the play it stands in (its first place;
    in the compact form a card with nothing attached is its text)."""
    places: dict[str, tuple[dict[str, Any], Any]] = {}
    for trick in rnd.get("tricks", ()):
        for play in trick["plays"]:
            places.setdefault(play if type(play) is str else play["card"], (trick, play))
    return places


def add_replay(rounds: list[dict[str, Any]], replayed: ReplayedGame, compact: bool = False) -> None:
    """Walk the events in order and hang them on the items they belong to (see `Export.add_replay`).

    The compact form leaves out each card's player, the suit it counted as, high or low and whether it
    followed (implied by the trick, B6 and B7) and every null or empty field. A card is found by its
    text in the hand's tricks (`_card_places`): a hand plays each card once.
    """
    walk = DocumentWalk(rounds, replayed, HandStarted, "hand_no")
    names = walk.names
    places: dict[str, tuple[dict[str, Any], Any]] = {}
    tricks: dict[int, dict[str, Any]] = {}  # trick number -> the record's trick it was led in
    for rnd, events in walk:
        for event in events:
            if isinstance(event, CardPlayed):
                place = places.get(str(event.card))
                if place is None:
                    continue
                trick, play = place
                if event.leads:
                    if compact:
                        trick.update(leader=names[event.seat], led_suit=_VALUE[event.suit])
                    else:
                        trick.update(leader=names[event.seat], led_suit=_VALUE[event.suit], winner=None,
                                     winning_card=None, why=None)
                    tricks[event.trick_no] = trick
                if not compact:
                    play.update(player=names[event.seat], counts_as=_VALUE[event.suit], high=event.high,
                                followed=event.followed)
            elif isinstance(event, HandStarted):
                if not compact:
                    rnd.update(deals={}, kitty=[], bids={}, taken={}, point_cards={}, final_bids={}, scores=None)
                places = _card_places(rnd)
                tricks = {}
            elif isinstance(event, TrickWon):
                won = tricks.get(event.trick_no)
                if won is not None:
                    won.update(winner=names[event.winner], winning_card=str(event.card), why=_VALUE[event.why])
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
                if event.kitty or not compact:
                    rnd["kitty"] = [str(c) for c in event.kitty]
            elif isinstance(event, BidMade):
                rnd.setdefault("bids", {})[names[event.seat]] = event.amount
            elif isinstance(event, CardTaken):
                rnd.setdefault("taken", {})[names[event.seat]] = str(event.card)
                rnd.setdefault("point_cards", {})[names[event.seat]] = str(event.point)
            elif isinstance(event, FinalBidMade):
                rnd.setdefault("final_bids", {})[names[event.seat]] = event.amount
            elif isinstance(event, HandScored):
                rnd["scores"] = {
                    names[s.seat]: {"final_bid": s.final_bid, "tricks": s.tricks, "point_card": str(s.point_card),
                                    "made": s.made, "points": s.points, "total": s.total}
                    for s in event.seats
                }


def csv_fields(trick: dict[str, Any], play: dict[str, Any]) -> Mapping[str, Any]:
    """The led suit and whether the card followed it (B6)."""
    return {"led_suit": trick.get("led_suit"), "followed": play.get("followed")}


_BID = {"type": "integer", "minimum": 0, "maximum": 10}
_CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}}
_NULLABLE_PLAYER = {"anyOf": [{"$ref": "#/$defs/player"}, {"type": "null"}]}
_NULLABLE_CARD = {"anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]}
_NULLABLE_BID = {"anyOf": [_BID, {"type": "null"}]}

SCHEMA_DEFS: dict[str, Any] = {
    "config": {
        "type": "object",
        "required": ["rules", "first_dealer", "hand_size", "kitty_size", "tricks_per_hand", "plays_per_trick",
                     "game_end_high", "game_end_low"],
        "additionalProperties": False,
        "properties": {
            "rules": {"const": "bidding"},
            "first_dealer": {"$ref": "#/$defs/player"},
            "hand_size": {"type": "integer", "description": "B2: cards dealt to each player"},
            "kitty_size": {"type": "integer", "description": "B2: cards dealt to the kitty"},
            "tricks_per_hand": {"type": "integer", "description": "B6"},
            "plays_per_trick": {"type": "integer"},
            "game_end_high": {"type": "integer", "description": "B10: a total this high or higher ends the game"},
            "game_end_low": {"type": "integer", "description": "B10: a total this low or lower ends the game"},
        },
    },
    "seat_score": {
        "type": "object",
        "required": ["final_bid", "tricks", "point_card", "made", "points", "total"],
        "additionalProperties": False,
        "description": "B9: one player's result for a hand",
        "properties": {
            "final_bid": _BID,
            "tricks": {"type": "integer", "minimum": 0, "maximum": 10, "description": "tricks won in the hand"},
            "point_card": {"$ref": "#/$defs/card"},
            "made": {"type": "boolean", "description": "whether the tricks won are exactly the final bid"},
            "points": {"type": "integer", "description": "+ the point card's value if made, else - it"},
            "total": {"type": "integer", "description": "the total after the hand (may be negative)"},
        },
    },
    "play": {"properties": {
        "followed": {"type": "boolean", "description": "of the led suit (a Joker: given it); true for the lead"},
        "counts_as": {"$ref": "#/$defs/suit",
                      "description": "bidding: the suit the card counted as, its own or the Joker's given one (B7)"},
        "high": {"enum": [True, False, None],
                 "description": "bidding: an ace or the Joker played high (true) or low (false), as the engine "
                                "read it (a bare ace is high); null for other cards (B7)"},
    }},
    "trick": {"properties": {
        "led_suit": {"$ref": "#/$defs/suit"},
        "why": {"enum": ["high joker", "trump", "led suit", None],
                "description": "bidding: why the winning card won (B8; null: the trick is unfinished)"},
    }},
    "round": {"properties": {
        "kitty": {**_CARDS, "description": "bidding: the kitty as dealt (B2)"},
        "bids": {"type": "object", "additionalProperties": _BID, "description": "bidding: each player's bid (B3)"},
        "taken": {"type": "object", "additionalProperties": {"$ref": "#/$defs/card"},
                  "description": "bidding: the card each player took from the kitty (B4)"},
        "point_cards": {"type": "object", "additionalProperties": {"$ref": "#/$defs/card"},
                        "description": "bidding: each player's point card (B4)"},
        "final_bids": {"type": "object", "additionalProperties": _BID,
                       "description": "bidding: each player's final bid (B5)"},
        "scores": {"anyOf": [{"type": "object", "additionalProperties": {"$ref": "#/$defs/seat_score"}},
                             {"type": "null"}],
                   "description": "bidding: each player's result for the hand (B9; null: unfinished)"},
    }},
    "state": {
        "type": "object",
        "required": ["phase", "hand", "dealer", "to_move", "totals", "hands", "kitty", "bids", "taken",
                     "point_cards", "final_bids", "trick_no", "leader", "led_suit", "trick", "tricks_won"],
        "additionalProperties": False,
        "properties": {
            "phase": {"enum": ["deal", "bid", "take", "final", "play", "game over"]},
            "hand": {"type": "integer", "minimum": 1},
            "dealer": {"$ref": "#/$defs/player"},
            "to_move": _NULLABLE_PLAYER,
            "totals": {"type": "object", "additionalProperties": {"type": "integer"},
                       "description": "B9: the totals (may be negative)"},
            "hands": {"type": "object", "additionalProperties": _CARDS},
            "kitty": {**_CARDS, "description": "what is left of the kitty"},
            "bids": {"type": "object", "additionalProperties": _NULLABLE_BID},
            "taken": {"type": "object", "additionalProperties": _NULLABLE_CARD},
            "point_cards": {"type": "object", "additionalProperties": _NULLABLE_CARD},
            "final_bids": {"type": "object", "additionalProperties": _NULLABLE_BID},
            "trick_no": {"type": "integer", "minimum": 1},
            "leader": {"$ref": "#/$defs/player"},
            "led_suit": {"anyOf": [{"$ref": "#/$defs/suit"}, {"type": "null"}]},
            "trick": {"type": "array", "items": {
                "type": "object", "required": ["player", "card", "high", "counts_as"], "additionalProperties": False,
                "properties": {"player": {"$ref": "#/$defs/player"}, "card": {"$ref": "#/$defs/card"},
                               "high": {"enum": [True, False, None]}, "counts_as": {"$ref": "#/$defs/suit"}}}},
            "tricks_won": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        },
    },
}

EXPORT = Export(
    config_dict=config_dict,
    add_replay=add_replay,
    state_dict=state_dict,
    schema_defs=SCHEMA_DEFS,
    csv_fields=csv_fields,
    # B7: the suit a card counts as (a Joker's is written after it), high or low (written, else an ace is high);
    # B6: followed is whether it counts as the led suit.
    implied_play_facts=frozenset(("counts_as", "high", "followed")),
)
