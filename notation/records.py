"""Typed game records: what a DGN text says, item by item, with positions.

Records hold the notation only: they know the words of a game, not whether
the moves are legal (that is `replay`'s work with the rules engine).
Positions are 1-based line and column, and are left out of equality, so a
record written and read back compares equal to the original.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, NamedTuple, overload

from diamonds.core.cards import AnyCard, Suit, card_text

__all__ = [
    "Pos", "Problem", "Comment", "Tag", "Choice", "Play", "Plays", "RoundHeader", "HandLine", "Trick",
    "EndLine", "Call", "Take", "Round", "GameRecord", "ResultEntry", "NOWHERE", "split_play",
]


class Pos(NamedTuple):
    """1-based line and column (a named tuple: records hold many, so they must be cheap)."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


NOWHERE = Pos(0, 0)


def _pos() -> Pos:
    return field(default=NOWHERE, compare=False, repr=False)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with a game, at a place in its text.

    `code` is stable for machines ("syntax", "must-follow-suit", …); `rule`
    is the ruling broken (R8) when a ruling is the reason.
    """

    pos: Pos
    message: str
    code: str
    rule: str | None = None
    length: int = 1  # how many characters the caret marks

    @property
    def line(self) -> int:
        return self.pos.line

    @property
    def column(self) -> int:
        return self.pos.column


@dataclass(frozen=True, slots=True)
class Comment:
    text: str  # without its delimiters
    braced: bool  # {…} rather than ; to the end of the line
    pos: Pos = _pos()

    def dgn(self) -> str:
        return f"{{{self.text}}}" if self.braced else f";{self.text}"


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    value: str  # unescaped
    pos: Pos = _pos()
    value_pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Choice:
    """`>id`: the victim named for a chosen Clubs action (R14)."""

    player: str
    pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Play:
    """A card as written in a trick, deal, pass, kitty or take line, with what stands on it.

    `sign` is `+` (high) or `-` (low), as written after an ace or the Joker;
    `suit` is the suit written after the Joker (the one its player gives it).
    """

    card: AnyCard
    choice: Choice | None = None
    annotation: str | None = None
    comments: tuple[Comment, ...] = ()
    pos: Pos = _pos()
    length: int = field(default=2, compare=False, repr=False)
    sign: str | None = None
    suit: Suit | None = None

    @property
    def card_word(self) -> str:
        """The card in canonical words with what a game reads on it as part of the move: the suit given
        and the sign (`JoS+`, `AH-`; a high ace is `AH`), without the `>id` and the annotation, which are
        read apart. A replay hands it to the game's own reader (`Rules.parse_move`); the writer writes it."""
        word = str(self.card)
        if self.suit is not None:
            word += self.suit.value
        if self.sign is not None and not (self.sign == "+" and self.card.is_ace):
            word += self.sign
        return word

    @classmethod
    def from_token(cls, text: str, pos: Pos = NOWHERE) -> Play:
        """A token as the grammar's PLAY terminal matched it: a card, then `+`/`-`, `>id`, an annotation."""
        card, suit, sign, choice, annotation, choice_at = split_play(text)
        made = _new_choice(choice, Pos(pos.line, pos.column + choice_at)) if choice is not None else None
        if cls is Play:  # the frozen `__init__` costs more than the parse (the replay reads `>id` this way)
            return _new_play(card, made, annotation, (), pos, len(text), sign, suit)  # type: ignore[no-any-return]
        return cls(card, made, annotation, pos=pos, length=len(text), sign=sign, suit=suit)


PLAY_PARTS = re.compile(
    r"((?:1[0-5]|[1-9]|[TtJjQqKkAa])[DHSCdhsc\u2666\u2665\u2660\u2663]|[Jj][Oo])"
    r"([DHSCdhsc\u2666\u2665\u2660\u2663]?)([+-]?)(>[A-Za-z][A-Za-z0-9_-]*)?(!!|\?\?|!\?|\?!|!|\?)?\Z"
)


@lru_cache(maxsize=8192)  # a few hundred spellings (cards, signs, victims' ids) make up most records
def split_play(text: str) -> tuple[AnyCard, Suit | None, str | None, str | None, str | None, int]:
    """(card, given suit, sign, choice id, annotation, offset of `>`) of a PLAY token (remembered by its text)."""
    match = PLAY_PARTS.match(text)
    card = card_text(match.group(1)) if match else None
    if match is None or card is None:
        raise ValueError(f"not a card as DGN writes one: {text!r}")
    suit = Suit.parse(match.group(2)) if match.group(2) else None
    choice = match.group(4)
    return (card, suit, match.group(3) or None, choice[1:] if choice else None, match.group(5),
            match.start(4) if choice else 0)


_TOKEN = re.compile(r"\S+")


class Plays(Sequence[Play]):
    """The cards of a trick, deal or pass line: built cheaply, read as `Play` items on demand.

    The fast reader keeps only the cards and the line they were written on;
    positions and `Play` objects are made when someone asks (the writer, an
    export, an error message), by reading that line again. `cards` is what
    the replay needs, with no `Play` made at all.
    """

    __slots__ = ("cards", "_plays", "_line", "_line_no", "_skip", "_plain", "_names", "_plain_items")

    def __init__(self, plays: Sequence[Play] = ()) -> None:
        self._plays: tuple[Play, ...] | None = tuple(plays)
        self.cards: tuple[AnyCard, ...] = tuple(p.card for p in self._plays)
        self._line: str | None = None
        self._line_no = 0
        self._skip = 0
        self._plain = False
        self._names: tuple[str | None, ...] | None | bool = False  # choice_names, once read
        self._plain_items: bool | None = None  # `plain`, once read from the items

    @classmethod
    def from_line(cls, cards: tuple[AnyCard, ...], line: str, line_no: int, skip: int, plain: bool = True) -> Plays:
        """The cards written as the tokens of `line` after `skip` others, read as PLAY tokens;
        `plain` when every token is the card alone (no choice, no annotation; no comment)."""
        self = cls.__new__(cls)
        self.cards = cards
        self._plays = None
        self._line, self._line_no, self._skip, self._plain = line, line_no, skip, plain
        self._names = False
        self._plain_items = None
        return self

    @property
    def items(self) -> tuple[Play, ...]:
        if self._plays is None:
            tokens = list(_TOKEN.finditer(self._line or ""))[self._skip:]
            line = self._line_no
            if self._plain:
                self._plays = tuple(
                    Play(card, pos=Pos(line, match.start() + 1), length=match.end() - match.start())
                    for card, match in zip(self.cards, tokens)
                )
            else:
                self._plays = tuple(_play_of(card, match, line) for card, match in zip(self.cards, tokens))
        return self._plays

    @property
    def plain(self) -> bool:
        """No card carries a choice, an annotation or a comment."""
        if self._plays is None:
            return self._plain
        known = self._plain_items
        if known is None:  # read once: the items do not change
            known = self._plain_items = all(p.choice is None and p.annotation is None and not p.comments
                                            and p.sign is None and p.suit is None for p in self._plays)
        return known

    def texts(self) -> list[str] | None:
        """The tokens as written, one a card, when the cards were read from a line (a reader's `from_line`);
        None when the items were given. For a caller that maps each token to what it means through its
        own table, without making the `Play` items."""
        if self._plays is not None or self._line is None:
            return None
        return self._line.split()[self._skip:]

    def source_line(self) -> tuple[str, int] | None:
        """The line the cards were read from and its number, when a reader read them from one (`from_line`) and
        they are the cards alone (`plain`): the line's words as written, each at its column (a comment on it is
        blanked). None otherwise. A replay hands a line that is one move to the game's own reader so."""
        if self._plays is not None or self._line is None or not self._plain:
            return None
        return self._line, self._line_no

    def choice_names(self) -> tuple[str | None, ...] | None:
        """Per card, the id its `>id` names (None for none), read without making the `Play` items;
        None when a card carries a sign or a given suit (read the items). Annotations are let be.
        The replay's check path reads a trick's victims so (R14)."""
        if self._names is False:
            self._names = self._choice_names()
        return self._names  # type: ignore[return-value]

    def _choice_names(self) -> tuple[str | None, ...] | None:
        if self._plays is not None:
            plays = self._plays
            if any(p.sign is not None or p.suit is not None for p in plays):
                return None
            return tuple(p.choice.player if p.choice is not None else None for p in plays)
        if self._plain:
            return (None,) * len(self.cards)
        names: list[str | None] = []
        for card, text in zip(self.cards, (self._line or "").split()[self._skip:]):
            if text == str(card):
                names.append(None)
                continue
            _, suit, sign, choice, _, _ = split_play(text)
            if suit is not None or sign is not None:
                return None
            names.append(choice)
        return tuple(names)

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...

    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        return self.items[index]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Play]:
        return iter(self.items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Plays):
            if self.cards != other.cards:
                return False
            if self.plain and other.plain:
                return True
            return self.items == other.items
        if isinstance(other, tuple):
            return self.items == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.cards)

    def __add__(self, other: Sequence[Play]) -> tuple[Play, ...]:
        return self.items + tuple(other)

    def __radd__(self, other: Sequence[Play]) -> tuple[Play, ...]:
        return tuple(other) + self.items

    def __repr__(self) -> str:
        return repr(self.items)


def unchecked_constructor(cls: type) -> Callable[..., Any]:
    """A positional constructor for a frozen, slotted record that skips `__init__` (and its
    `__post_init__`): for a reader whose values already have exactly the field types, where
    the frozen `__init__` would cost as much as reading the line.

    The fields are stored on an instance of a plain class with the same slots (a store to a
    slot is one bytecode), which then becomes a `cls` by `__class__` assignment, which Python
    allows between classes of the same layout: half the cost of setting each field through
    its descriptor. Where the layouts differ (Python refuses the assignment), each field is
    set through its descriptor."""
    names = [f.name for f in fields(cls)]
    args = ", ".join(names)
    scope: dict[str, Any] = {"cls": cls, "new": object.__new__}
    if tuple(getattr(cls, "__slots__", ())) == tuple(names):
        scope["builder"] = type(f"_{cls.__name__}Fields", (), {"__slots__": tuple(names)})
        body = "".join(f"    self.{name} = {name}\n" for name in names)
        exec(f"def make({args}):\n    self = builder()\n{body}    self.__class__ = cls\n    return self\n", scope)
        try:
            scope["make"](*([None] * len(names)))
            return scope["make"]  # type: ignore[no-any-return]
        except TypeError:  # the layouts differ
            pass
    scope.update({f"set_{name}": getattr(cls, name).__set__ for name in names})
    body = "".join(f"    set_{name}(self, {name})\n" for name in names)
    exec(f"def make({args}):\n    self = new(cls)\n{body}    return self\n", scope)
    return scope["make"]  # type: ignore[no-any-return]


_new_play = unchecked_constructor(Play)
_new_choice = unchecked_constructor(Choice)


def _play_of(card: AnyCard, match: re.Match[str], line: int) -> Play:
    """The item of a token of a line with marks: a token that is the card's own text is the card alone,
    made without reading it again (most cards of a 1e trick that names a victim)."""
    text = match.group()
    pos = Pos(line, match.start() + 1)
    if text == str(card):
        return _new_play(card, None, None, (), pos, len(text), None, None)  # type: ignore[no-any-return]
    return Play.from_token(text, pos)


def plays_of(value: Sequence[Play]) -> Plays:
    return value if isinstance(value, Plays) else Plays(value)


@dataclass(frozen=True, slots=True)
class RoundHeader:
    """`R<k> dealer <id> pass <n>`, or `R<k> dealer <id>` (no pass count: `pass_count` is None)."""

    number: int
    dealer: str
    pass_count: int | None
    comments: tuple[Comment, ...] = ()
    pos: Pos = _pos()
    dealer_pos: Pos = _pos()
    count_pos: Pos = _pos()
    pass_pos: Pos = _pos()  # of the count's word (`pass`)
    count_word: str = field(default="", compare=False)  # the count's word as written ("" : the registered one)


@dataclass(frozen=True, slots=True)
class HandLine:
    """`deal <id> <cards>`, `pass <id> <cards>`, or `kitty <cards>` (whose `player` is "")."""

    kind: str  # "deal", "pass" or "kitty"
    player: str
    cards: Plays
    comments: tuple[Comment, ...] = ()
    pos: Pos = _pos()
    player_pos: Pos = _pos()

    def __post_init__(self) -> None:
        if not isinstance(self.cards, Plays):
            object.__setattr__(self, "cards", Plays(self.cards))


@dataclass(frozen=True, slots=True)
class Trick:
    number: int
    plays: Plays
    comments: tuple[Comment, ...] = ()  # those after `<t>.` and before its first card
    pos: Pos = _pos()

    def __post_init__(self) -> None:
        if not isinstance(self.plays, Plays):
            object.__setattr__(self, "plays", Plays(self.plays))


@dataclass(frozen=True, slots=True)
class EndLine:
    choices: tuple[Choice, ...]
    comments: tuple[Comment, ...] = ()
    pos: Pos = _pos()
    kind: str = field(default="", compare=False)  # its word as written ("": the registered end word)


@dataclass(frozen=True, slots=True)
class Call:
    """`bid <id> <n>` or `final <id> <n>`: a player's bid or final bid."""

    kind: str  # "bid" or "final"
    player: str
    amount: int
    comments: tuple[Comment, ...] = ()
    pos: Pos = _pos()
    player_pos: Pos = _pos()
    amount_pos: Pos = _pos()


@dataclass(frozen=True, slots=True)
class Take:
    """An exchange, `take <id> <card> point <card>`: the card taken from the kitty, then the point card laid down.

    `kind` and `second` are its words as a family declares them (notation/words.py)."""

    player: str
    card: Play
    point: Play
    comments: tuple[Comment, ...] = ()
    pos: Pos = _pos()
    player_pos: Pos = _pos()
    kind: str = field(default="", compare=False)  # its words as written ("": the registered exchange's)
    second: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Round:
    header: RoundHeader
    hand_lines: tuple[HandLine, ...] = ()  # deal, pass and kitty lines, in written order
    tricks: tuple[Trick, ...] = ()
    end: EndLine | None = None
    calls: tuple[Call | Take, ...] = ()  # bids, takes and final bids, in written order

    def lines(self, kind: str) -> tuple[HandLine, ...]:
        """The round's hand lines of one kind, by the word that opens them (a family's word: `deal`, `pass`,
        `kitty`), in written order. The record knows no game's words; its reader asks for its own."""
        return tuple(line for line in self.hand_lines if line.kind == kind)


@dataclass(frozen=True, slots=True)
class ResultEntry:
    side: tuple[str, ...]  # one id, or a team's ids
    score: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as written. `problems` holds what made it unreadable, if anything."""

    tags: tuple[Tag, ...] = ()
    rounds: tuple[Round, ...] = ()
    comments: tuple[Comment, ...] = ()  # before the first round
    problems: tuple[Problem, ...] = field(default=(), compare=False)
    source: str = field(default="", compare=False, repr=False)  # the game's text
    first_line: int = field(default=1, compare=False, repr=False)  # of `source` in its file
    index: int = field(default=1, compare=False)  # 1-based, in its file

    def tag(self, name: str) -> Tag | None:
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def tag_value(self, name: str, default: str | None = None) -> str | None:
        tag = self.tag(name)
        return tag.value if tag is not None else default

    @property
    def readable(self) -> bool:
        return not self.problems

    def source_line(self, line: int) -> str:
        """The text of a line of the file (given in file numbering), for error display."""
        lines = self.source.split("\n")
        index = line - self.first_line
        return lines[index] if 0 <= index < len(lines) else ""
