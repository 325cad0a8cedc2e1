"""A replayed game as plain data (for JSON, JSON Lines and CSV), and back to a record.

The document keeps everything the DGN text says (tags, comments, choices,
annotations, which deal and pass lines were written), so it converts back to
the same canonical DGN, and adds what the replay found out (who played each
card, whether it followed, the actions it caused, trick winners, awards,
standings). The JSON Schema in `game.schema.json` describes it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

from diamonds.core import (
    Area, AreaKind, Card, CardPlayed, CardsDealt, CardsPassed, GameConfig, RoundEnded, RoundStarted, State, SuitAction,
    Reason, Suit, TrickWon, results,
)
from diamonds.notation.records import (
    Choice, Comment, EndLine, GameRecord, HandLine, Play, Problem, Round, RoundHeader, Tag, Trick,
)

from .validate import ReplayedGame

__all__ = ["game_to_dict", "record_from_dict", "game_schema", "csv_rows", "CSV_COLUMNS", "state_to_dict"]

# Enum values looked up in a dict: on Python 3.11 `member.value` is a slow descriptor, and an
# export asks for one per card and per action.
_VALUE: dict[Any, str] = {member: member.value for kind in (Suit, Reason, AreaKind) for member in kind}

SCHEMA_ID = "https://diamonds.invalid/schema/game-export.schema.json"


@lru_cache(maxsize=1)
def game_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of `{"games": [...]}` documents."""
    text = resources.files("diamonds.replay").joinpath("game.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- record → data


def _comments(comments: tuple[Comment, ...]) -> list[dict[str, Any]]:
    return [{"text": c.text, "braced": c.braced} for c in comments]


def _problem(problem: Problem) -> dict[str, Any]:
    return {"line": problem.line, "column": problem.column, "code": problem.code, "rule": problem.rule,
            "message": problem.message}


def _area(config: GameConfig, area: Area) -> dict[str, Any]:
    side = config.side_name(area.side) if area.side is not None else None
    return {"area": _VALUE[area.kind], "side": side}


def _action(config: GameConfig, action: SuitAction) -> dict[str, Any]:
    names = config.players
    return {
        "actor": names[action.actor] if action.actor is not None else None,
        "side": config.side_name(action.side),
        "suit": _VALUE[action.suit],
        "reason": _VALUE[action.reason],
        "from": _area(config, action.source),
        "to": _area(config, action.target),
        "points": action.points,
        "victim": config.side_name(action.victim) if action.victim is not None else None,
        "thief_before": names[action.thief_before] if action.thief_before is not None else None,
        "thief_after": names[action.thief_after] if action.thief_after is not None else None,
    }


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


def game_to_dict(replayed: ReplayedGame, *, states: bool = False) -> dict[str, Any]:
    record = replayed.record
    config = replayed.config
    rounds = [_round_dict(rnd) for rnd in record.rounds]
    if config is not None and replayed.game is not None:
        _add_replay(rounds, replayed, config)
    doc: dict[str, Any] = {
        "index": record.index,
        "tags": [{"name": t.name, "value": t.value} for t in record.tags],
        "comments": _comments(record.comments),
        "players": list(config.players) if config else None,
        "config": _config_dict(config) if config else None,
        "rounds": rounds,
        "valid": replayed.valid,
        "problems": [_problem(p) for p in replayed.problems],
        "notes": list(replayed.notes),
        "result": _result(replayed),
    }
    if states and replayed.game is not None:
        game = replayed.game
        doc["states"] = [state_to_dict(game.state_at(ply)) for ply in range(1, len(game) + 1)]
    return doc


def _config_dict(config: GameConfig) -> dict[str, Any]:
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


def _result(replayed: ReplayedGame) -> dict[str, Any]:
    game, config = replayed.game, replayed.config
    if game is None or config is None:
        return {"complete": False, "standings": []}
    return {
        "complete": replayed.complete,
        "standings": [
            {"side": config.side_name(r.side), "vault": r.vault, "showroom": r.showroom, "score": r.score,
             "winner": r.winner and replayed.complete}
            for r in results(game.state)
        ],
    }


def _play_dict(play: Play) -> dict[str, Any]:
    return {
        "card": str(play.card),
        "choice": play.choice.player if play.choice else None,
        "annotation": play.annotation,
        "comments": _comments(play.comments),
    }


def _round_dict(rnd: Round) -> dict[str, Any]:
    header = rnd.header
    return {
        "number": header.number,
        "dealer": header.dealer,
        "pass_count": header.pass_count,
        "comments": _comments(header.comments),
        "lines": [
            {"kind": line.kind, "player": line.player, "cards": [_play_dict(p) for p in line.cards],
             "comments": _comments(line.comments)}
            for line in rnd.hand_lines
        ],
        "tricks": [
            {"number": trick.number, "comments": _comments(trick.comments),
             "plays": [_play_dict(p) for p in trick.plays]}
            for trick in rnd.tricks
        ],
        "end": None if rnd.end is None else {
            "choices": [c.player for c in rnd.end.choices], "comments": _comments(rnd.end.comments)},
    }


def _add_replay(rounds: list[dict[str, Any]], replayed: ReplayedGame, config: GameConfig) -> None:
    """Walk the events in order and hang them on the items they belong to."""
    assert replayed.game is not None
    names = config.players
    rnd: dict[str, Any] | None = None
    trick: dict[str, Any] | None = None
    play: dict[str, Any] | None = None
    for events in replayed.game.events:
        for event in events:
            if isinstance(event, RoundStarted):
                rnd = rounds[event.round_no - 1]
                rnd.update(deals={}, passes=[], awards=[], taken=None, thief_at_start=(
                    names[event.thief] if event.thief is not None else None))
                trick = play = None
            elif rnd is None:
                continue
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
            elif isinstance(event, CardsPassed):
                rnd["passes"].append({"player": names[event.giver], "to": names[event.receiver],
                                      "cards": [str(c) for c in event.cards]})
            elif isinstance(event, CardPlayed):
                trick = rnd["tricks"][event.trick_no - 1]
                if event.leads:
                    trick.update(leader=names[event.seat], led_suit=_VALUE[event.card.suit], winner=None,
                                 winning_card=None, actions=[])
                play = trick["plays"][len([p for p in trick["plays"] if "player" in p])]
                play.update(player=names[event.seat], followed=event.followed, actions=[])
            elif isinstance(event, TrickWon) and trick is not None:
                trick["winner"] = names[event.winner]
                trick["winning_card"] = str(event.card)
                play = None
            elif isinstance(event, SuitAction):
                action = _action(config, event)
                if event.reason is Reason.OFF_SUIT and play is not None:
                    play["actions"].append(action)
                elif event.reason is Reason.TRICK_WON and trick is not None:
                    trick["actions"].append(action)
                else:
                    rnd["awards"].append(action)
            elif isinstance(event, RoundEnded):
                rnd["taken"] = {config.side_name(s): dict(zip("DHSC", row)) for s, row in enumerate(event.taken)}
                trick = play = None


# --------------------------------------------------------------------------- data → record


def _comments_of(items: list[dict[str, Any]]) -> tuple[Comment, ...]:
    return tuple(Comment(c["text"], c["braced"]) for c in items)


def _play_of(item: dict[str, Any]) -> Play:
    choice = Choice(item["choice"]) if item.get("choice") else None
    return Play(Card.parse(item["card"]), choice, item.get("annotation"), _comments_of(item.get("comments", [])))


def record_from_dict(doc: dict[str, Any]) -> GameRecord:
    """The record a (schema-valid) game document describes."""
    rounds = []
    for item in doc["rounds"]:
        header = RoundHeader(item["number"], item["dealer"], item["pass_count"], _comments_of(item["comments"]))
        lines = tuple(
            HandLine(line["kind"], line["player"], tuple(_play_of(p) for p in line["cards"]),
                     _comments_of(line["comments"]))
            for line in item["lines"]
        )
        tricks = tuple(
            Trick(t["number"], tuple(_play_of(p) for p in t["plays"]), _comments_of(t["comments"]))
            for t in item["tricks"]
        )
        end = None
        if item.get("end") is not None:
            end = EndLine(tuple(Choice(c) for c in item["end"]["choices"]), _comments_of(item["end"]["comments"]))
        rounds.append(Round(header, lines, tricks, end))
    return GameRecord(
        tuple(Tag(t["name"], t["value"]) for t in doc["tags"]),
        tuple(rounds),
        _comments_of(doc.get("comments", [])),
        index=doc.get("index", 1),
    )


# --------------------------------------------------------------------------- CSV

CSV_COLUMNS = (
    "file", "game", "round", "trick", "seat", "player", "card", "suit", "rank", "led_suit", "followed",
    "won_trick", "actions",
)


def csv_rows(path: str, doc: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """One row per card played, from a game document."""
    players = doc["players"] or []
    seat = {name: i + 1 for i, name in enumerate(players)}
    for rnd in doc["rounds"]:
        for trick in rnd["tricks"]:
            for play in trick["plays"]:
                if "player" not in play:
                    continue  # not replayed
                card = Card.parse(play["card"])
                won = play["card"] == trick.get("winning_card")
                actions = list(play["actions"])
                if won:
                    actions += trick.get("actions", [])
                earned = ";".join(f"{a['reason']}:{a['suit']}:{a['points']}" for a in actions)
                yield (path, doc["index"], rnd["number"], trick["number"], seat.get(play["player"]), play["player"],
                       play["card"], _VALUE[card.suit], card.rank, trick.get("led_suit"), play["followed"], won, earned)
