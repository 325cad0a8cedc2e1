"""A replayed game of any family as plain data (JSON, JSON Lines, CSV), and back to a record.

The document has two layers. The *record* layer is generic: it keeps
everything the DGN text says (tags, comments, every item with its comments:
round headers, deal, pass and kitty lines, bids, takes, tricks, `end` lines,
and on each card its given suit, sign, choice and annotation), so that
`record_from_dict(game_to_dict(r))` writes back the same canonical DGN. The
*replay* layer is each family's: its `Export` (the family's "export" part,
found through the registry) hangs what the replay found out on the items'
dicts (who played each card, trick winners, Suit Actions, tie-breaks, hand
scores), describes the configuration and, with `--states`, every state.

Every family's `result` has one shape: `complete`, and per side `side`
(as DGN writes it: `Ann`, `Ann+Cat`), `score`, `winner`, then the fields
the family's `SideResult` subclass adds (Fitzgerald's `vault`, `showroom`).

The JSON Schema is `game.schema.json` (the generic part) with every
registered family's part merged in (`game_schema`). This module names no
family.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from importlib import resources
from itertools import chain
from typing import TYPE_CHECKING, Any, Final

from diamonds.core import SideResult, family_named, family_of
from diamonds.core import families as registered_families
from diamonds.core.cards import JOKER, AnyCard, Card, Suit, card_text, card_texts
from diamonds.core.game import split_before
from diamonds.core.registry import registry_version
from diamonds.notation.records import (
    Call,
    Choice,
    Comment,
    EndLine,
    GameRecord,
    HandLine,
    Play,
    Plays,
    Problem,
    Round,
    RoundHeader,
    Tag,
    Take,
    Trick,
)
from diamonds.notation.tags import is_tag_name
from diamonds.notation.words import Shape, vocabulary

if TYPE_CHECKING:
    from .validate import ReplayedGame

__all__ = [
    "state_head", "hands_dict",
    "Export", "DocumentError", "game_to_dict", "record_from_dict", "game_schema", "csv_rows", "CSV_COLUMNS",
    "export_of", "SCHEMA_ID", "attach", "DocumentWalk",
]

SCHEMA_ID = "https://diamonds.invalid/schema/game-export.schema.json"

Dict = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Export:
    """What a family provides to the export (its `Family.export` part, usually named `EXPORT`).

    `config_dict(config)`: the family's configuration as plain data (the
    document's `config`; the generic part puts `rules` first).

    `add_replay(rounds, replayed, compact=False)`: hangs the replay's facts
    on the record's items, in place. `rounds` are the round dicts of the
    document, in record order, each with its `lines`, `calls` and `tricks`
    dicts (and the `plays` of each trick); the events are
    `replayed.game.events`. With `compact` the rounds are in the compact
    form (see `game_to_dict`): a card with nothing attached is its text (use
    `attach` to hang something on it), and the family writes no null or
    empty field and none of its `implied_play_facts`.
    The generic schema knows these facts: `player` on a play, `leader`,
    `winner`, `winning_card` on a trick, `deals` on a round; anything else
    the family adds must be in its `schema_defs`.

    `state_dict(state)`: one engine state as plain data (`--states`).

    `schema_defs`: the family's part of the JSON Schema, as `$defs` entries:
      * `config`: the schema of its `config_dict` (required);
      * `state`: the schema of its `state_dict`;
      * `round`, `trick`, `play`, `standing`: `{"properties": {...}}`,
        the fields it adds to those objects (merged into the generic ones);
      * any other name: a helper of its own. Inside the family's part,
        `#/$defs/<name>` refers to its own entries (they are stored as
        `<family>.<name>`) or, for names it does not define, to the generic
        ones (`card`, `player`, `side`, `suit`, `comments`, …).

    `csv_fields(trick, play)`: the family's CSV columns for one played card
    (of `CSV_COLUMNS`: `led_suit`, `followed`, `actions`), from the dicts
    `add_replay` filled; the columns it leaves out stay empty.

    `implied_play_facts`: the facts `add_replay` puts on a played card that
    follow from its trick and the rules (Fitzgerald's `followed`: the card's
    suit is the led suit); the compact form leaves them out, as it leaves
    out every card's `player` (the trick's `leader`, then seat order).
    `implied_trick_facts`: likewise on a trick, from its cards (Fitzgerald's
    `led_suit`: the first card's suit). The family may leave out more in
    the compact form (Fitzgerald's Suit Actions); docs/json.md says what.
    """

    config_dict: Callable[[Any], Dict]
    add_replay: Callable[..., None]  # (rounds, replayed, compact=False)
    state_dict: Callable[[Any], Dict]
    schema_defs: Mapping[str, Any]
    csv_fields: Callable[[Dict, Dict], Mapping[str, Any]] | None = None
    implied_play_facts: frozenset[str] = frozenset()
    implied_trick_facts: frozenset[str] = frozenset()


@cache
def state_head(state: Any, round_key: str, number: int) -> Dict:
    """The first fields of a family's state as data: its phase, round (`round_key`: "hand", "round"),
    dealer and who is to move."""
    names = state.config.players
    return {
        "phase": state.phase.value,
        round_key: number,
        "dealer": names[state.dealer],
        "to_move": names[state.to_move] if state.to_move is not None else None,
    }


def hands_dict(state: Any) -> Dict:
    """Each player's hand, by name, in display order."""
    names = state.config.players
    return {names[s]: [str(c) for c in state.hand(s)] for s in range(state.config.player_count)}


def _export_of_family(name: str) -> Export:
    return family_named(name).typed_part("export", Export)


def export_of(rule_id: str) -> Export:
    """The export of the family a `Rules` tag's value belongs to (`ConfigError` for an unknown one)."""
    return _export_of_family(family_of(rule_id).name)


# --------------------------------------------------------------------------- record → data


def _comments(comments: tuple[Comment, ...]) -> list[Dict]:
    return [{"text": c.text, "braced": c.braced} for c in comments] if comments else []


def _problem(problem: Problem) -> Dict:
    return {"line": problem.line, "column": problem.column, "code": problem.code, "rule": problem.rule,
            "message": problem.message}


def _play_dict(play: Play) -> Dict:
    return {
        "card": str(play.card),
        "suit": play.suit.value if play.suit is not None else None,
        "sign": play.sign,
        "choice": play.choice.player if play.choice is not None else None,
        "annotation": play.annotation,
        "comments": _comments(play.comments),
    }


def _plays_list(plays: Plays) -> list[Dict]:
    if plays.plain:  # the card alone: no `Play` need be made (the fast reader keeps only the cards)
        return [{"card": str(card), "suit": None, "sign": None, "choice": None, "annotation": None, "comments": []}
                for card in plays.cards]
    return [_play_dict(play) for play in plays]


def _call_dict(call: Call | Take) -> Dict:
    if isinstance(call, Take):
        return {"kind": call.kind or vocabulary().words(Shape.EXCHANGE)[0], "player": call.player,
                "card": _play_dict(call.card),
                "point": _play_dict(call.point), "comments": _comments(call.comments)}
    return {"kind": call.kind, "player": call.player, "amount": call.amount, "comments": _comments(call.comments)}


def _round_dict(rnd: Round) -> Dict:
    header = rnd.header
    return {
        "number": header.number,
        "dealer": header.dealer,
        "pass_count": header.pass_count,
        "comments": _comments(header.comments),
        "lines": [
            {"kind": line.kind, "player": line.player, "cards": _plays_list(line.cards),
             "comments": _comments(line.comments)}
            for line in rnd.hand_lines
        ],
        "calls": [_call_dict(call) for call in rnd.calls],
        "tricks": [
            {"number": trick.number, "comments": _comments(trick.comments), "plays": _plays_list(trick.plays)}
            for trick in rnd.tricks
        ],
        "end": None if rnd.end is None else {
            "choices": [c.player for c in rnd.end.choices], "comments": _comments(rnd.end.comments)},
    }


def _compact_played(play: Play) -> Any:
    """A card's compact form: its text alone when nothing stands on it, else an object without nulls."""
    if play.suit is None and play.sign is None and play.choice is None and play.annotation is None \
            and not play.comments:
        return str(play.card)
    out: Dict = {"card": str(play.card)}
    if play.suit is not None:
        out["suit"] = play.suit.value
    if play.sign is not None:
        out["sign"] = play.sign
    if play.choice is not None:
        out["choice"] = play.choice.player
    if play.annotation is not None:
        out["annotation"] = play.annotation
    if play.comments:
        out["comments"] = _comments(play.comments)
    return out


def _compact_plays(plays: Plays) -> list[Any]:
    if plays.plain:
        return card_texts(plays.cards)
    return [_compact_played(play) for play in plays]


def _with_comments(out: Dict, comments: tuple[Comment, ...]) -> Dict:
    if comments:
        out["comments"] = _comments(comments)
    return out


def _compact_round_dict(rnd: Round) -> Dict:
    """`_round_dict` in the compact form: no null or empty field, cards with nothing attached as text."""
    header = rnd.header
    out: Dict = {"number": header.number, "dealer": header.dealer}
    if header.pass_count is not None:
        out["pass_count"] = header.pass_count
    _with_comments(out, header.comments)
    if rnd.hand_lines:
        out["lines"] = [_with_comments({"kind": line.kind, "player": line.player,
                                        "cards": _compact_plays(line.cards)}, line.comments)
                        for line in rnd.hand_lines]
    if rnd.calls:
        calls = []
        for call in rnd.calls:
            if isinstance(call, Take):
                item = {"kind": call.kind or vocabulary().words(Shape.EXCHANGE)[0], "player": call.player,
                        "card": _compact_played(call.card),
                        "point": _compact_played(call.point)}
            else:
                item = {"kind": call.kind, "player": call.player, "amount": call.amount}
            calls.append(_with_comments(item, call.comments))
        out["calls"] = calls
    if rnd.tricks:
        out["tricks"] = [_with_comments({"number": trick.number, "plays": _compact_plays(trick.plays)},
                                        trick.comments) for trick in rnd.tricks]
    if rnd.end is not None:
        out["end"] = _with_comments({"choices": [c.player for c in rnd.end.choices]}, rnd.end.comments)
    return out


class DocumentWalk:
    """A family's `add_replay`, written while it walks a replayed game's events in order
    (`for rnd, events in walk`: each of the document's rounds with its events).

    It keeps what every family's walk keeps: the rounds (each begun by an event of the `starts` type,
    numbered by its `number` field), and within one the trick and place of each card played (`card`).
    A round the document does not have is passed over, and so are events before the first round.
    """

    def __init__(self, rounds: list[Dict], replayed: ReplayedGame, starts: type[Any], number: str) -> None:
        game = replayed.game
        assert game is not None
        self.game = game
        self.rounds = rounds
        self.names: tuple[str, ...] = tuple(replayed.config.players)
        self.starts = starts
        self.number = number
        self.round: Dict | None = None
        self.trick: Dict | None = None  # of the last card played, until a new round or `end_trick`
        self.position = 0  # of the next card in the trick

    def __iter__(self) -> Iterator[tuple[Dict, tuple[Any, ...]]]:
        """Each round the document has, with its events in order, the first being the one that starts it.
        (A round at a time, not an event at a time: an export walks every event of a game.)"""
        _, by_round = split_before(list(chain.from_iterable(self.game.events)), self.starts)
        rounds, number = self.rounds, self.number
        for events in by_round:
            index = getattr(events[0], number) - 1
            if index < len(rounds):
                self.round = rounds[index]
                self.trick = None
                yield self.round, events

    def card(self, trick_no: int, leads: bool) -> tuple[Dict, int]:
        """A card played in trick `trick_no` of the round: that trick (now `trick`) and the card's place in it."""
        assert self.round is not None
        trick = self.trick = self.round["tricks"][trick_no - 1]
        if leads:
            self.position = 0
        self.position += 1
        return trick, self.position - 1

    def won(self, seat: int, card: Any) -> Dict | None:
        """The open trick is won by `seat` with `card`, written on it; the trick (None: no trick is open)."""
        trick = self.trick
        if trick is not None:
            trick["winner"] = self.names[seat]
            trick["winning_card"] = str(card)
        return trick

    def end_trick(self) -> None:
        """The round's last trick is closed: what follows belongs to the round, not to a trick."""
        self.trick = None


def attach(plays: list[Any], position: int) -> Dict:
    """The object of the card at `position` of a compact `plays` list, made from its text if need be."""
    play = plays[position]
    if type(play) is str:
        play = plays[position] = {"card": play}
    return play  # type: ignore[no-any-return]


def _dealt_as_written(rnd: Dict) -> Dict | None:
    """The hands a compact round's deal lines write, by player (None if it has none): its `deals` when equal."""
    lines = rnd.get("lines")
    if not lines:
        return None
    hands = {line["player"]: [card if type(card) is str else card["card"] for card in line["cards"]]
             for line in lines if line["kind"] == "deal"}
    return hands or None


def game_to_dict(replayed: ReplayedGame, *, states: bool = False, compact: bool = False) -> Dict:
    """The document of one replayed game (see the module's docstring); `states` needs a replay with history.

    `compact`: the compact form, what `diamonds convert` writes unless given `--full` (docs/json.md).
    The same facts in fewer bytes: a field whose value is null, `[]` or `{}`
    is left out (absent means that value); a card with nothing attached (no
    given suit, sign, choice, annotation or comment, no fact of its own) is
    its text alone, `"7D"`; the facts a card's trick implies are left out:
    its `player` (the trick's `leader`, then seat order) and the family's
    `implied_play_facts` and `implied_trick_facts`; a round's `deals` is
    left out when its deal lines write the same hands (a line per player,
    the same cards in the same order); the family writes its own facts
    short (Fitzgerald's Suit Actions). `config`, `result` and `states` are
    as in the full form. Both forms read back to the same record
    (`record_from_dict`).
    """
    record = replayed.record
    config = replayed.config
    export = export_of(config.rules) if config is not None else None
    rounds = [_compact_round_dict(rnd) if compact else _round_dict(rnd) for rnd in record.rounds]
    game = replayed.game
    if export is not None and game is not None:
        if compact:
            export.add_replay(rounds, replayed, compact=True)
            for rnd in rounds:
                if "deals" in rnd and rnd["deals"] == _dealt_as_written(rnd):
                    del rnd["deals"]
        else:
            export.add_replay(rounds, replayed)
    doc: Dict = {
        "index": record.index,
        "rules": config.rules if config is not None else None,
        "family": replayed.family,
        "tags": [{"name": t.name, "value": t.value} for t in record.tags],
        "comments": _comments(record.comments),
        "players": list(config.players) if config is not None else None,
        "config": {"rules": config.rules, **export.config_dict(config)} if export is not None else None,
        "rounds": rounds,
        "valid": replayed.valid,
        "problems": [_problem(p) for p in replayed.problems],
        "notes": list(replayed.notes),
        "result": _result(replayed),
    }
    if compact:
        for key in _GAME_OPTIONAL:
            if doc[key] is None or doc[key] == []:
                del doc[key]
    if states and game is not None and export is not None:
        doc["states"] = [export.state_dict(game.state_at(ply)) for ply in range(1, len(game) + 1)]
    return doc


#: The game's fields the compact form leaves out when null or empty (the rest are always written).
_GAME_OPTIONAL: Final = ("rules", "family", "comments", "players", "config", "problems", "notes")


_BASE_FIELDS: Final = frozenset(f.name for f in fields(SideResult))


_EXTRA_FIELDS: Final[dict[type, tuple[str, ...]]] = {}


def _extra_fields(kind: type) -> tuple[str, ...]:
    """The fields a family's `SideResult` subclass adds, in declaration order."""
    found = _EXTRA_FIELDS.get(kind)
    if found is None:
        found = _EXTRA_FIELDS[kind] = tuple(f.name for f in fields(kind) if f.name not in _BASE_FIELDS)
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _result(replayed: ReplayedGame) -> Dict:
    game, config = replayed.game, replayed.config
    if game is None or config is None:
        return {"complete": False, "standings": []}
    complete = replayed.complete
    standings = []
    for standing in game.standings():
        item: Dict = {"side": config.side_name(standing.side), "score": standing.score,
                      "winner": standing.winner and complete}
        for name in _extra_fields(type(standing)):
            item[name] = _plain(getattr(standing, name))
        standings.append(item)
    return {"complete": complete, "standings": standings}


# --------------------------------------------------------------------------- data → record


class DocumentError(ValueError):
    """A game document that holds what DGN cannot write (or is not a game document at all).

    `path` leads from the game document to the value at fault (`("tags", 2, "value")`);
    `json_path(root)` writes it as a JSON path from `root` (`$.games[0]` for a game in a file).
    """

    def __init__(self, path: Sequence[str | int], reason: str) -> None:
        self.path = tuple(path)
        self.reason = reason
        super().__init__(f"{self.json_path()}: {reason}")

    def json_path(self, root: str = "$") -> str:
        return root + "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in self.path)


_LINE_BREAK: Final = re.compile(r"[\r\n]")
_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")
_PLAYER: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_ANNOTATIONS: Final = frozenset(("!", "?", "!!", "??", "!?", "?!"))
_SIGNS: Final = frozenset(("+", "-"))
_SUIT_LETTERS: Final = {suit.value: suit for suit in Suit}


class _Reader:
    """Builds a record from a game document, saying where anything DGN cannot write stands."""

    def __init__(self) -> None:
        self.path: list[str | int] = []

    def fail(self, reason: str, *more: str | int) -> DocumentError:
        return DocumentError((*self.path, *more), reason)

    def get(self, obj: Any, key: str, default: Any = ...) -> Any:
        if not isinstance(obj, dict):
            raise self.fail("expected an object")
        if key not in obj:
            if default is ...:
                raise self.fail(f"{key!r} is missing")
            return default
        return obj[key]

    def text(self, value: Any, *at: str | int) -> str:
        if not isinstance(value, str):
            raise self.fail("expected a string", *at)
        if not value.isascii() and _SURROGATE.search(value):
            raise self.fail("a text cannot hold a lone surrogate (DGN is UTF-8 text)", *at)
        return value

    def number(self, value: Any, *at: str | int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail("expected a whole number, 0 or more (DGN writes no other)", *at)
        return value

    def items(self, value: Any, *at: str | int) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail("expected an array", *at)
        return value

    def player(self, value: Any, *at: str | int) -> str:
        if not isinstance(value, str) or not _PLAYER.match(value):
            raise self.fail("not a player id (a letter, then letters, digits, _ or -)", *at)
        return value

    def comments(self, obj: Any, key: str = "comments") -> tuple[Comment, ...]:
        items = self.items(self.get(obj, key, []), key)
        if not items:
            return ()
        out = []
        for index, item in enumerate(items):
            self.at(item, key, index)
            text = self.text(self.get(item, "text"), "text")
            braced = self.get(item, "braced")
            if not isinstance(braced, bool):
                raise self.fail("expected true or false", "braced")
            if braced and ("}" in text or "\r" in text):
                raise self.fail("a {...} comment cannot hold a \"}\" (it would end there) or a carriage return "
                                "(DGN reads it as a line break)", "text")
            if not braced and _LINE_BREAK.search(text):
                raise self.fail("a ; comment cannot hold a line break (it ends at the end of its line)", "text")
            out.append(Comment(text, braced))
            self.leave(2)
        return tuple(out)

    def at(self, item: Any, *steps: str | int) -> Any:
        """Enter `item`, found at `steps` below the current place (`leave(len(steps))` goes back)."""
        self.path.extend(steps)
        if not isinstance(item, dict):
            raise self.fail("expected an object")
        return item

    def leave(self, steps: int) -> None:
        del self.path[len(self.path) - steps:]

    def card(self, value: Any, *at: str | int) -> AnyCard:
        card = card_text(value) if isinstance(value, str) else None
        if card is None or str(card) != value:
            raise self.fail("not a card as DGN writes one (7D, 15C, 10H, JD, QS, KH, AC, Jo)", *at)
        return card

    def play(self, item: Any, *steps: str | int) -> Play:
        if isinstance(item, str):  # the compact form: a card with nothing attached
            self.path.extend(steps)
            made = Play(self.card(item))
            self.leave(len(steps))
            return made
        self.at(item, *steps)
        card = self.card(self.get(item, "card"), "card")
        suit_text = self.get(item, "suit", None)
        suit = None
        if suit_text is not None:
            suit = _SUIT_LETTERS.get(suit_text) if isinstance(suit_text, str) else None
            if suit is None:
                raise self.fail("expected a suit letter, D, H, S or C", "suit")
            if card is not JOKER:
                raise self.fail(f"only the Joker is given a suit: DGN cannot write one on {card}", "suit")
        sign = self.get(item, "sign", None)
        if sign is not None and sign not in _SIGNS:
            raise self.fail('expected "+" (high) or "-" (low)', "sign")
        choice = self.get(item, "choice", None)
        annotation = self.get(item, "annotation", None)
        if annotation is not None and annotation not in _ANNOTATIONS:
            raise self.fail("not an annotation (!, ?, !!, ??, !?, ?!)", "annotation")
        made = Play(card, Choice(self.player(choice, "choice")) if choice is not None else None, annotation,
                    self.comments(item), sign=sign, suit=suit)
        self.leave(len(steps))
        return made

    def plays(self, value: Any, key: str) -> tuple[Play, ...]:
        return tuple(self.play(item, key, index) for index, item in enumerate(self.items(value, key)))

    def round(self, item: Any, index: int) -> Round:
        self.at(item, "rounds", index)
        pass_count = self.get(item, "pass_count", None)
        header = RoundHeader(
            self.number(self.get(item, "number"), "number"),
            self.player(self.get(item, "dealer"), "dealer"),
            None if pass_count is None else self.number(pass_count, "pass_count"),
            self.comments(item),
        )
        lines = []
        for number, line in enumerate(self.items(self.get(item, "lines", []), "lines")):
            self.at(line, "lines", number)
            kind = self.get(line, "kind")
            words = vocabulary()
            if kind not in words.words(Shape.HAND, Shape.CARDS):
                raise self.fail("expected " + " or ".join(words.words(Shape.HAND, Shape.CARDS)), "kind")
            player = self.get(line, "player")
            if kind in words.words(Shape.CARDS):
                if player != "":
                    raise self.fail('a kitty line names no player: its "player" is ""', "player")
            else:
                self.player(player, "player")
            lines.append(HandLine(kind, player, Plays(self.plays(self.get(line, "cards"), "cards")),
                                  self.comments(line)))
            self.leave(2)
        calls: list[Call | Take] = []
        for number, call in enumerate(self.items(self.get(item, "calls", []), "calls")):
            self.at(call, "calls", number)
            kind = self.get(call, "kind")
            player = self.player(self.get(call, "player"), "player")
            if kind in vocabulary().words(Shape.EXCHANGE):
                calls.append(Take(player, self.play(self.get(call, "card"), "card"),
                                  self.play(self.get(call, "point"), "point"), self.comments(call),
                                  kind=kind, second=vocabulary().second_of(kind)))
            elif kind in vocabulary().words(Shape.CALL):
                calls.append(Call(kind, player, self.number(self.get(call, "amount"), "amount"), self.comments(call)))
            else:
                raise self.fail("expected bid, take or final", "kind")
            self.leave(2)
        tricks = []
        for number, trick in enumerate(self.items(self.get(item, "tricks", []), "tricks")):
            self.at(trick, "tricks", number)
            tricks.append(Trick(self.number(self.get(trick, "number"), "number"),
                                Plays(self.plays(self.get(trick, "plays"), "plays")), self.comments(trick)))
            self.leave(2)
        end = None
        end_item = self.get(item, "end", None)
        if end_item is not None:
            self.at(end_item, "end")
            choices = self.items(self.get(end_item, "choices"), "choices")
            end = EndLine(tuple(Choice(self.player(c, "choices", n)) for n, c in enumerate(choices)),
                          self.comments(end_item))
            self.leave(1)
        self.leave(2)
        return Round(header, tuple(lines), tuple(tricks), end, tuple(calls))

    def record(self, doc: Any) -> GameRecord:
        if not isinstance(doc, dict):
            raise self.fail("expected an object (a game)")
        tags = []
        for index, tag in enumerate(self.items(self.get(doc, "tags"), "tags")):
            self.at(tag, "tags", index)
            name = self.get(tag, "name")
            if not is_tag_name(name):
                raise self.fail("not a tag name (a letter, then letters, digits or _)", "name")
            value = self.text(self.get(tag, "value"), "value")
            if _LINE_BREAK.search(value):
                raise self.fail("a tag value cannot hold a line break (DGN has no way to write one)", "value")
            tags.append(Tag(name, value))
            self.leave(2)
        rounds = tuple(self.round(item, index) for index, item in enumerate(self.items(self.get(doc, "rounds"),
                                                                                        "rounds")))
        index = self.get(doc, "index", 1)
        if not isinstance(index, int) or isinstance(index, bool) or index < 1:
            raise self.fail("expected a whole number, 1 or more", "index")
        return GameRecord(tuple(tags), rounds, self.comments(doc), index=index)


def record_from_dict(doc: Any) -> GameRecord:
    """The record a game document describes; `DocumentError` (with the path) for what DGN cannot write.

    It checks what the schema says a document can hold where DGN cannot write
    it: a line break in a tag value or a `;` comment, a `}` in a `{...}`
    comment, a player id or card DGN would not read back, a suit on a card
    other than the Joker. Facts of the replay in the document are ignored.
    Both forms are read: the full one and the compact one (`game_to_dict(..., compact=True)`).
    """
    return _Reader().record(doc)


# --------------------------------------------------------------------------- the schema

#: The generic objects a family may add fields to (`Export.schema_defs`).
_EXTENDED: Final = ("round", "trick", "play", "standing")
#: The parts of a family's `schema_defs` with a role (the rest are its helpers).
_ROLES: Final = ("config", "state", *_EXTENDED)


def _generic_schema() -> Dict:
    text = resources.files("diamonds.replay").joinpath("game.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _relink(node: Any, names: Mapping[str, str]) -> Any:
    """A family's schema part with its `#/$defs/<name>` references pointed at the stored names."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                name = value[len("#/$defs/"):]
                out[key] = "#/$defs/" + names.get(name, name)
            else:
                out[key] = _relink(value, names)
        return out
    if isinstance(node, list):
        return [_relink(item, names) for item in node]
    return node


@lru_cache(maxsize=1)
def _schema(_registry: object) -> Dict:
    """The merged schema, kept per registry (`registry_version()`): a family registered in-process is in
    the next `game_schema()`, with no cache to clear by hand."""
    schema = _generic_schema()
    defs: Dict = schema["$defs"]
    generic_names = set(defs)
    config = defs["config"]
    game = defs["game"]
    all_rules: list[Any] = []
    family_names: list[Any] = []
    for family in registered_families():
        export = _export_of_family(family.name)
        part = dict(export.schema_defs)
        if "config" not in part:
            raise ValueError(f"the {family.name} family's schema part has no config")
        names = {name: f"{family.name}.{name}" for name in part if name not in _EXTENDED}
        for name in part:
            if name not in _ROLES and name in generic_names:
                raise ValueError(f"the {family.name} family's schema part redefines the generic {name!r}")
        part = _relink(part, names)
        for name in _EXTENDED:
            if name in part:
                properties = defs[name]["properties"]
                for key, value in part[name].get("properties", {}).items():
                    if key in properties and properties[key] != value:
                        earlier = properties[key]
                        choices = earlier["anyOf"] if set(earlier) == {"anyOf"} else [earlier]
                        properties[key] = {"anyOf": [*choices, value]}
                    else:
                        properties[key] = value
        for name, value in part.items():
            if name not in _EXTENDED:
                defs[names[name]] = value
        ids = list(family.rule_ids)
        all_rules += ids
        family_names.append(family.name)
        config.setdefault("allOf", []).append({
            "if": {"type": "object", "required": ["rules"], "properties": {"rules": {"enum": ids}}},
            "then": {"$ref": f"#/$defs/{names['config']}"},
        })
        # A game of this family: its rules, its config's and its states' are the family's.
        then: Dict = {"properties": {"rules": {"enum": ids}, "config": {"properties": {"rules": {"enum": ids}}}}}
        if "state" in part:
            then["properties"]["states"] = {"items": {"$ref": f"#/$defs/{names['state']}"}}
        game.setdefault("allOf", []).append({
            "if": {"required": ["family"], "properties": {"family": {"const": family.name}}},
            "then": then,
        })
    config["properties"]["rules"]["enum"] = all_rules
    defs["rule_set"]["enum"] = [*all_rules, None]
    defs["family"]["enum"] = [*family_names, None]
    return schema


def game_schema() -> Dict:
    """The JSON Schema (draft 2020-12) of `{"games": [...]}` documents, every registered family merged in.

    Built once per registry (`registry_version()`); each call returns a copy, so that a caller may change it.
    """
    return copy.deepcopy(_schema(registry_version()))


# --------------------------------------------------------------------------- CSV

CSV_COLUMNS = (
    "file", "game", "round", "trick", "seat", "player", "card", "suit", "rank", "led_suit", "followed",
    "won_trick", "actions", "rules", "sign",
)
_FAMILY_COLUMNS = ("led_suit", "followed", "actions")


def csv_rows(path: str, doc: Dict) -> Iterator[tuple[Any, ...]]:
    """One row per card played (those the replay reached), from a game document.

    `suit` is the card's suit (a Joker's: the suit its player gave it), `rank`
    its rank (J 11, Q 12, K 13, A 14; empty for the Joker); `led_suit`,
    `followed` and `actions` are the family's (empty where it has none).
    """
    players = doc["players"] or []
    seat = {name: i + 1 for i, name in enumerate(players)}
    rules = doc.get("rules")
    export = export_of(rules) if rules is not None else None
    extra = export.csv_fields if export is not None else None
    for rnd in doc["rounds"]:
        for trick in rnd["tricks"]:
            winning = trick.get("winning_card")
            for play in trick["plays"]:
                player = play.get("player")
                if player is None:
                    continue  # not replayed
                card = card_text(play["card"])
                suit: str = play.get("suit") or ""
                rank: int | str = ""
                if isinstance(card, Card):
                    suit, rank = card.suit.value, card.rank
                family: Mapping[str, Any] = extra(trick, play) if extra is not None else {}
                yield (path, doc["index"], rnd["number"], trick["number"], seat.get(player), player, play["card"],
                       suit, rank, family.get("led_suit", ""), family.get("followed", ""),
                       winning is not None and play["card"] == winning, family.get("actions", ""), rules,
                       play.get("sign") or "")
