"""DGN for Pygments: `pygmentize game.dgn`, rich's `Syntax`, Sphinx and editors highlight DGN.

Registered through the `pygments.lexers` entry point (pyproject.toml) as
`dgn`, for `*.dgn`. The token patterns are the grammar's own terminals
(grammars/dgn.lark, loaded as the reader loads it), so the lexer cannot
drift from what the reader accepts; what it adds is only which terminal
may come where, following the grammar's items, as Lark's contextual lexer
does (a word is a keyword, a player id or a card by where it stands). A
card (the PLAY terminal) is split into its parts as the records read it.

It knows no rules: a card no game has (`16H`) is still a card here, and
only text the grammar cannot read is an `Error` token.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from functools import lru_cache
from typing import Any

from pygments.lexer import Lexer  # type: ignore[import-untyped,unused-ignore]
from pygments.token import (  # type: ignore[import-untyped,unused-ignore]
    Comment,
    Error,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
    _TokenType,  # noqa: PLC2701  (Pygments' token type, not re-exported)
)

from .larkpath import WORD, parser
from .records import PLAY_PARTS
from .words import Shape, grammar_rules, terminal_name, vocabulary

__all__ = ["DGNLexer", "terminals", "TOKEN_OF", "PLAY_PART_TOKENS", "TAG_VALUE_TOKENS"]

#: Every terminal of the grammar, and how it is highlighted: one table.
TOKEN_OF: dict[str, _TokenType] = {
    "WS": Whitespace,
    "BRACE_COMMENT": Comment.Multiline,
    "LINE_COMMENT": Comment.Single,
    "LSQB": Punctuation,
    "RSQB": Punctuation,
    "TAG_NAME": Name.Tag,
    "TAG_VALUE": String.Double,
    "ROUND": Generic.Heading,
    "_DEALER": Keyword,
    "PLAYER": Name.Variable,
    "COUNT": Number.Integer,
    "TRICK": Generic.Subheading,
    "PLAY": Name.Constant,  # split further by PLAY_PART_TOKENS
    "CHOICE": Name.Function,  # a Suit Action's victim (R14), after `end`
}

#: The parts of a card as written (records' `split_play`): the card, the suit given to the Joker (B7),
#: high or low (B7), the victim of its Clubs action (R14), an annotation.
PLAY_PART_TOKENS: tuple[_TokenType, ...] = (
    Name.Constant, Name.Attribute, Operator, Name.Function, Generic.Emph,
)

#: A tag whose value means more than text: the final scores.
TAG_VALUE_TOKENS: dict[str, _TokenType] = {"Result": Generic.Strong}

_IGNORED = ("WS", "BRACE_COMMENT", "LINE_COMMENT")

# The terminals that open an item (tried in this order), and what follows each, as the grammar's
# rules say (grammars/dgn.lark): a fixed run of terminals, then any number of the repeated one.
# tests/notation/test_lexer.py holds this to the reader's own lexer on every sample and random games.
_ITEMS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "LSQB": (("TAG_NAME", "TAG_VALUE", "RSQB"), None),  # tag
    "ROUND": (("_DEALER", "PLAYER"), None),  # round_header, then perhaps its count `<word> <n>`
}
_AFTER_SHAPE: dict[Shape, tuple[tuple[str, ...], str | None]] = {
    Shape.HAND: (("PLAYER",), "PLAY"),  # <word> <id> <cards>
    Shape.CARDS: ((), "PLAY"),  # <word> <cards>
    Shape.CALL: (("PLAYER", "COUNT"), None),  # <word> <id> <n>
    Shape.END: ((), "CHOICE"),  # <word> <choices>
}


def _words_into_tables() -> tuple[str, ...]:
    """The registered families' words: each a keyword terminal, each opening its shape's item; the header's
    count words (`pass <n>`). Returns the count words' terminals."""
    words = vocabulary()
    for item in words.items:
        name = terminal_name(item.word)
        TOKEN_OF[name] = Keyword
        if item.shape is Shape.EXCHANGE:
            _ITEMS[name] = (("PLAYER", "PLAY", "_" + terminal_name(item.second), "PLAY"), None)
        else:
            _ITEMS[name] = _AFTER_SHAPE[item.shape]
    for second in words.seconds:
        TOKEN_OF["_" + terminal_name(second)] = Keyword
    for word in words.header_counts:
        TOKEN_OF[terminal_name(word)] = Keyword
    if "_NO_WORD" in grammar_rules(words):
        TOKEN_OF["_NO_WORD"] = Keyword  # a shape no registered family uses
    return tuple(terminal_name(word) for word in words.header_counts)


_COUNT_WORDS = _words_into_tables()
_ITEMS["TRICK"] = ((), "PLAY")  # trick (after the families' words, as before: a word is tried first)


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    """Each terminal's pattern, compiled from the grammar's own definition (the reader's parser's);
    and, under the names `_IGNORED` and `_ITEMS`, those terminals tried at once (named groups)."""
    sources = {t.name: t.pattern.to_regexp() for t in parser().lark.terminals}
    missing = set(TOKEN_OF) ^ set(sources)
    if missing:  # a terminal added to (or dropped from) the grammar must be placed in TOKEN_OF
        raise RuntimeError(f"the DGN lexer's table and the grammar disagree on {sorted(missing)}")
    patterns = {name: re.compile(source) for name, source in sources.items()}
    for group, names in (("_IGNORED", _IGNORED), ("_ITEMS", tuple(_ITEMS))):
        patterns[group] = re.compile("|".join(f"(?P<{name}>{sources[name]})" for name in names))
    return patterns


class DGNLexer(Lexer):  # type: ignore[misc,unused-ignore]
    """Diamonds Game Notation (DGN), for every family's games."""

    name = "DGN"
    aliases = ["dgn"]
    filenames = ["*.dgn"]
    mimetypes = ["text/x-dgn"]

    def __init__(self, **options: Any) -> None:
        options.setdefault("stripnl", False)  # blank lines before the first tag are the text too
        super().__init__(**options)

    def get_tokens_unprocessed(self, text: str) -> Iterator[tuple[int, _TokenType, str]]:
        """(offset, token type, text) for every character of `text`, in order."""
        tag_name = ""
        for pos, name, value in terminals(text):
            if name is None:
                yield pos, Error, value
            elif name == "PLAY":
                yield from _play_parts(pos, value)
            elif name == "TAG_VALUE":
                yield pos, TAG_VALUE_TOKENS.get(tag_name, TOKEN_OF[name]), value
            else:
                if name == "TAG_NAME":
                    tag_name = value
                yield pos, TOKEN_OF[name], value


def terminals(text: str) -> Iterator[tuple[int, str | None, str]]:
    """(offset, terminal name, text) for every character of `text`, in order; None names what the
    grammar cannot read there (one word, then reading goes on at the next item)."""
    patterns = _patterns()
    pos, end = 0, len(text)
    opened = ""  # the terminal that opened the item being read
    expected: list[str] = []  # the terminals that item needs next, the next one last
    repeated: str | None = None  # the terminal that may repeat once they are read
    while pos < end:
        ignored = _ignored(text, pos, patterns)
        if ignored is not None:
            yield pos, ignored[0], text[pos:ignored[1]]
            pos = ignored[1]
            continue
        if expected:
            name = expected.pop()
            stop = _match(text, pos, name, patterns)
            if stop is None:  # the reader reports a problem here
                expected, repeated = [], None
                pos = yield from _error(text, pos)
                continue
            yield pos, name, text[pos:stop]
            pos = stop
            if opened == "ROUND" and not expected and name == "PLAYER":
                opened = "ROUND_PLAYER"  # the LALR parser shifts a `pass` here into the header
            continue
        if opened == "ROUND_PLAYER":
            opened = ""
            count_word = next((word for word in _COUNT_WORDS if _match(text, pos, word, patterns) is not None), None)
            if count_word is not None:
                expected = list(reversed((count_word, "COUNT")))
                continue
        if repeated is not None:
            stop = _match(text, pos, repeated, patterns)
            if stop is not None:
                yield pos, repeated, text[pos:stop]
                pos = stop
                continue
        opening = _item_start(text, pos, patterns)
        if opening is None:  # in a run of cards, the next one is read as a card again
            pos = yield from _error(text, pos)
            continue
        opened, stop = opening
        yield pos, opened, text[pos:stop]
        pos = stop
        expected, repeated = list(reversed(_ITEMS[opened][0])), _ITEMS[opened][1]


_Patterns = dict[str, re.Pattern[str]]
_Tokens = Iterator[tuple[int, _TokenType, str]]


def _ignored(text: str, pos: int, patterns: _Patterns) -> tuple[str, int] | None:
    """White space or a comment at `pos`: which, and where it ends (they may stand between any tokens)."""
    match = patterns["_IGNORED"].match(text, pos)
    if match is None or match.end() == pos or match.lastgroup is None:
        return None
    return match.lastgroup, match.end()


def _match(text: str, pos: int, name: str, patterns: _Patterns) -> int | None:
    """Where terminal `name` ends if it stands at `pos`.

    As in Lark's contextual lexer, only the terminals the item allows are tried, so `deal` may
    be a player's id after `deal`, and `dealx` reads as `deal` then `x` where an item starts."""
    match = patterns[name].match(text, pos)
    if match is None or match.end() == pos:
        return None
    return match.end()


def _item_start(text: str, pos: int, patterns: _Patterns) -> tuple[str, int] | None:
    """The terminal that opens an item at `pos` (the first of `_ITEMS` that matches), and its end."""
    match = patterns["_ITEMS"].match(text, pos)
    if match is None or match.end() == pos or match.lastgroup is None:
        return None
    return match.lastgroup, match.end()


def _play_parts(pos: int, value: str) -> _Tokens:
    """A card as written, in its parts (records' reading of the PLAY terminal)."""
    for offset, token, part in _split_play(value):
        yield pos + offset, token, part


@lru_cache(maxsize=4096)  # a game writes the same few dozen cards over and over
def _split_play(value: str) -> tuple[tuple[int, _TokenType, str], ...]:
    parts = PLAY_PARTS.match(value)
    if parts is None:  # pragma: no cover - every PLAY token splits
        return ((0, TOKEN_OF["PLAY"], value),)
    return tuple((parts.start(group), token, parts.group(group))
                 for group, token in enumerate(PLAY_PART_TOKENS, start=1) if parts.start(group) < parts.end(group))


def _error(text: str, pos: int) -> Generator[tuple[int, None, str], None, int]:
    """What the grammar cannot read: one word (as the reader quotes it) is an Error; reading goes on after it."""
    match = WORD.match(text, pos)
    stop = match.end() if match is not None and match.end() > pos else pos + 1
    yield pos, None, text[pos:stop]
    return stop
