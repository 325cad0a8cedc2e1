"""The house's parts for a plain trick game (diamonds.core.trick): its records replayed, its stops, its data.

A family that plays with the plain trick game's moves and announces its events names these as its parts
(`Family(parts={"bridge": "diamonds.replay.plain:BRIDGE", ...})`) instead of writing its own:

- `BRIDGE`: a record's rounds pushed as moves, each refusal at its token with the family's own rulings
  (`Rules.rulings`); the hands of a finished round written without deal lines are the cards each seat
  played, who played what following from the family's `first_leader` and `trick_winner` (it lives in
  `diamonds.replay.trickgame`, which a family that needs only the replay imports without the rest);
- `MARKS` and `build_steps`: the replay's stops, over a `TrickTable` folded from the events;
- `EXPORT` and `TABLES`: the game as plain data (with its JSON Schema part) and as rows of the analysis tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diamonds.core import Card, SideResult, rules_for, sort_cards
from diamonds.core.trick import CardPlayed, CardsDealt, GameEnded, RoundScored, RoundStarted, TrickWon

from .export import Export
from .steps import marks_of, steps_builder
from .tables import FamilyRows, Tables, family_columns
from .trickgame import BRIDGE, PlainReplayer

__all__ = ["PlainReplayer", "BRIDGE", "TrickTable", "TrickFold", "MARKS", "build_steps", "EXPORT", "TABLES"]


# --------------------------------------------------------------------------- the replay's stops


@dataclass(frozen=True, slots=True)
class TrickTable:
    """What lies on a plain trick game's table at a replay stop (the house's picture and view draw it)."""

    config: Any
    round_no: int
    dealer: int
    trick_no: int
    trick: tuple[tuple[int, Card], ...]
    trick_winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    won: tuple[int, ...]  # per seat, the tricks won this round
    totals: tuple[int, ...]
    standings: tuple[SideResult, ...] = ()


class TrickFold:
    """The table, fed the events in order."""

    def __init__(self, config: Any) -> None:
        self.config = config
        seats = len(config.players)
        self.round_no, self.dealer, self.trick_no = 1, config.first_dealer, 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_winner: int | None = None
        self.hands: list[set[Card]] = [set() for _ in range(seats)]
        self.won, self.totals = [0] * seats, [0] * seats
        self.standings: tuple[SideResult, ...] = ()

    def apply(self, event: Any) -> None:
        if isinstance(event, RoundStarted):
            self.round_no, self.dealer, self.trick_no, self.trick, self.trick_winner = \
                event.round_no, event.dealer, 0, [], None
            self.won = [0] * len(self.won)
        elif isinstance(event, CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
        elif isinstance(event, CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.trick_no = [], None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            self.trick_winner = event.winner
            self.won[event.winner] += 1
        elif isinstance(event, RoundScored):
            self.totals = list(event.totals)
        elif isinstance(event, GameEnded):
            self.standings = event.standings

    def freeze(self) -> TrickTable:
        return TrickTable(self.config, self.round_no, self.dealer, self.trick_no, tuple(self.trick),
                          self.trick_winner, tuple(sort_cards(hand) for hand in self.hands), tuple(self.won),
                          tuple(self.totals), self.standings)


MARKS = marks_of(RoundStarted, CardPlayed, RoundScored)
build_steps = steps_builder(TrickFold, MARKS)


# --------------------------------------------------------------------------- the export and the tables


def config_dict(config: Any) -> dict[str, Any]:
    return {"first_dealer": config.players[config.first_dealer], "rounds": config.rounds}


def state_dict(state: Any) -> dict[str, Any]:
    rules, names = rules_for(state.config.rules), state.config.players
    phase = "game over" if rules.is_over(state) else "deal" if rules.is_chance(state) else "play"
    return {"phase": phase, "round": state.round_no,
            "hands": {name: [str(c) for c in rules.hand(state, seat)] for seat, name in enumerate(names)},
            "trick": [str(c) for _, c in state.trick], "totals": dict(zip(names, state.totals))}


def add_replay(rounds: list[dict[str, Any]], replayed: Any, compact: bool = False) -> None:
    names = replayed.config.players
    rnd: dict[str, Any] | None = None
    trick: dict[str, Any] = {}
    order = 0  # the card's place in its trick
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
                    order = 0
                if not compact:
                    trick["plays"][order]["player"] = names[event.seat]
                order += 1
            elif isinstance(event, TrickWon):
                trick.update(winner=names[event.winner], winning_card=str(event.card))
            elif isinstance(event, RoundScored):
                rnd["totals"] = dict(zip(names, event.totals))


_PER_PLAYER = {"type": "object", "additionalProperties": {"type": "integer"}}
_CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}}

EXPORT = Export(
    config_dict=config_dict,
    add_replay=add_replay,
    state_dict=state_dict,
    schema_defs={
        "config": {"type": "object", "required": ["rules", "first_dealer", "rounds"], "additionalProperties": False,
                   "properties": {"rules": {"type": "string"}, "first_dealer": {"$ref": "#/$defs/player"},
                                  "rounds": {"type": "integer", "minimum": 1}}},
        "round": {"properties": {"totals": {**_PER_PLAYER, "description": "a plain trick game: the totals after "
                                            "the round"}}},
        "state": {"type": "object", "additionalProperties": False,
                  "required": ["phase", "round", "hands", "trick", "totals"],
                  "properties": {"phase": {"enum": ["deal", "play", "game over"]}, "round": {"type": "integer"},
                                 "hands": {"type": "object", "additionalProperties": _CARDS}, "trick": _CARDS,
                                 "totals": _PER_PLAYER}},
    },
)


def rows(replayed: Any) -> FamilyRows:
    """A row per card played, per trick won and per seat at each round's scoring."""
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
                            "card": str(event.card)})
            elif isinstance(event, RoundScored):
                for seat, (points, total) in enumerate(zip(event.points, event.totals)):
                    seq += 1
                    events.add({"seq": seq, "round": round_no, "trick": None, "kind": "round scored",
                                "seat": seat + 1, "player": names[seat], "side": names[seat], "points": points,
                                "total": total})
    return FamilyRows(plays, events, {})


TABLES = Tables(columns={}, standing_fields=(), rows=rows)
