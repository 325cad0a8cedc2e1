"""The reference reader of DGN: the Lark grammar (grammars/dgn.lark), with every error located and explained.

It reads what the fast reader (`fastpath`) leaves, and every game that has an
error; `reader` imports it only then.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import records
from .comments import attach_comments
from .fastpath import MAX_DIGITS
from .grammar import cache_folder, grammar_text
from .words import terminal_name, vocabulary

__all__ = ["parser", "parse_with_lark", "terminal_patterns", "WORD"]


class _CommentSink:
    """Collects comments from the lexer (they are %ignore'd, so not in the tree)."""

    def __init__(self) -> None:
        self.comments: list[Token] = []

    def __call__(self, token: Token) -> Token:
        self.comments.append(token)
        return token


def _pos(token: Token, line_offset: int) -> records.Pos:
    return records.Pos((token.line or 0) + line_offset, token.column or 0)


@v_args(inline=True)
class _Builder(Transformer[Token, object]):
    """Turns the parse into records as the LALR parser reduces (no tree is built)."""

    def __init__(self) -> None:
        super().__init__()
        self.offset = 0

    def start(self, *items: records.Tag | records.Round) -> tuple[tuple[records.Tag, ...], tuple[records.Round, ...]]:
        tags = tuple(item for item in items if isinstance(item, records.Tag))
        rounds = tuple(item for item in items if isinstance(item, records.Round))
        return tags, rounds

    def tag(self, name: Token, value: Token) -> records.Tag:
        text = value[1:-1]
        if "\\" in text:
            text = re.sub(r"\\([\"\\])", r"\1", text)
        return records.Tag(str(name), text, records.Pos((name.line or 0) + self.offset, (name.column or 1) - 1),
                           _pos(value, self.offset))

    def round(self, header: records.RoundHeader,
              *rest: records.HandLine | records.Call | records.Take | records.Trick | records.EndLine) -> records.Round:
        hands = tuple(item for item in rest if isinstance(item, records.HandLine))
        calls = tuple(item for item in rest if isinstance(item, (records.Call, records.Take)))
        tricks = tuple(item for item in rest if isinstance(item, records.Trick))
        end = rest[-1] if rest and isinstance(rest[-1], records.EndLine) else None
        return records.Round(header, hands, tricks, end, calls)

    def round_header(self, number: Token, dealer: Token, keyword: Token | None = None,
                     count: Token | None = None) -> records.RoundHeader:
        if keyword is None or count is None:
            return records.RoundHeader(self._number(number, number[1:]), str(dealer), None,
                                       pos=_pos(number, self.offset), dealer_pos=_pos(dealer, self.offset))
        return records.RoundHeader(
            self._number(number, number[1:]), str(dealer), self._number(count, count),
            pos=_pos(number, self.offset), dealer_pos=_pos(dealer, self.offset), count_pos=_pos(count, self.offset),
            pass_pos=_pos(keyword, self.offset), count_word=str(keyword),
        )

    def cards_line(self, keyword: Token, *cards: Token) -> records.HandLine:
        where = _pos(keyword, self.offset)
        return records.HandLine(str(keyword), "", records.Plays(tuple(self._play(c) for c in cards)), pos=where, player_pos=where)

    def call_line(self, keyword: Token, player: Token, amount: Token) -> records.Call:
        return records.Call(str(keyword), str(player), self._number(amount, amount), pos=_pos(keyword, self.offset),
                            player_pos=_pos(player, self.offset), amount_pos=_pos(amount, self.offset))

    def exchange_line(self, keyword: Token, player: Token, card: Token, point: Token) -> records.Take:
        word = str(keyword)
        return records.Take(str(player), self._play(card), self._play(point), pos=_pos(keyword, self.offset),
                            player_pos=_pos(player, self.offset), kind=word, second=vocabulary().second_of(word))

    def player_cards_line(self, keyword: Token, player: Token, *cards: Token) -> records.HandLine:
        return records.HandLine(str(keyword), str(player), records.Plays(tuple(self._play(c) for c in cards)),
                                pos=_pos(keyword, self.offset), player_pos=_pos(player, self.offset))

    def trick(self, number: Token, *cards: Token) -> records.Trick:
        return records.Trick(self._number(number, number[:-1]), records.Plays(tuple(self._play(c) for c in cards)),
                             pos=_pos(number, self.offset))

    def _number(self, token: Token, digits: str) -> int:
        if len(digits) > MAX_DIGITS:
            raise _NumberTooLong(token, self.offset)
        return int(digits)

    def end_line(self, keyword: Token, *choices: Token) -> records.EndLine:
        made = tuple(records.Choice(str(c)[1:], _pos(c, self.offset)) for c in choices)
        return records.EndLine(made, pos=_pos(keyword, self.offset), kind=str(keyword))

    def _play(self, token: Token) -> records.Play:
        return records.Play.from_token(str(token), _pos(token, self.offset))


class _NumberTooLong(Exception):
    """A round, trick or pass number with more digits than any game has."""

    def __init__(self, token: Token, offset: int) -> None:
        super().__init__(str(token))
        self.token = token
        self.offset = offset

    def problem(self) -> records.Problem:
        text = str(self.token)
        shown = text if len(text) <= 12 else text[:10] + "…"
        return records.Problem(records.Pos((self.token.line or 0) + self.offset, self.token.column or 0),
                               f"the number {shown} is too large (at most {MAX_DIGITS} digits)", "syntax",
                               length=len(text))


_LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False}


def _lark_cache_file(grammar: str) -> Path | None:
    """Where the analysed grammar is kept between runs: the user's cache folder ($XDG_CACHE_HOME or
    ~/.cache, then diamonds/), one file per grammar, Lark and Python version; None if there is none.

    Building the grammar and its LALR tables costs about 0.03 s of CPU at every start of a command
    that reads DGN; loading them from this file about 3 ms. The cache is only an aid: any failure
    to read or write it means a build."""
    import hashlib
    import sys

    import lark

    folder = cache_folder()
    if folder is None:
        return None
    key = hashlib.sha256(
        f"{grammar}\0{sorted(_LARK_OPTIONS.items())}\0{lark.__version__}\0{sys.version}".encode()
    ).hexdigest()[:32]
    return Path(folder) / f"dgn-lark-{key}.cache"


def _build_lark(**callbacks: Any) -> Lark:
    """Lark(grammar), through Lark's own cache when a cache folder is usable.

    A missing cache file is written under a name of this process's own, then renamed into place,
    so that processes starting together (--jobs) never read a half-written one. Lark itself
    checks the file's hash before loading it and builds as usual on any problem with it."""
    import os

    grammar = grammar_text()
    path = _lark_cache_file(grammar)
    if path is not None and path.is_file():
        return Lark(grammar, cache=str(path), **_LARK_OPTIONS, **callbacks)
    partial = None
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        except OSError:  # no cache folder (read-only home, …): build without one
            partial = None
    if partial is None:
        return Lark(grammar, **_LARK_OPTIONS, **callbacks)
    built = Lark(grammar, cache=str(partial), **_LARK_OPTIONS, **callbacks)  # Lark ignores a failed write
    try:
        if partial.is_file():
            os.replace(partial, path)  # type: ignore[arg-type]
    except OSError:
        try:
            partial.unlink()
        except OSError:
            pass
    return built


class _Parser:
    def __init__(self) -> None:
        self.sink = _CommentSink()
        self.builder = _Builder()
        self.lark = _build_lark(
            transformer=self.builder,
            lexer_callbacks={"BRACE_COMMENT": self.sink, "LINE_COMMENT": self.sink},
        )

    def parse(self, text: str, line_offset: int) -> tuple[tuple[records.Tag, ...], tuple[records.Round, ...], list[Token]]:
        self.sink.comments = []
        self.builder.offset = line_offset
        parsed: Any = self.lark.parse(text)  # the builder's `start` returns (tags, rounds)
        tags, rounds = parsed
        return tags, rounds, self.sink.comments


@lru_cache(maxsize=1)
def parser() -> _Parser:
    """The one Lark parser of DGN (built once, with the registered families' words)."""
    return _Parser()


def terminal_patterns() -> dict[str, str]:
    """Each terminal's regular expression, as Lark translates the grammar (what the fast reader matches)."""
    return {terminal.name: terminal.pattern.to_regexp() for terminal in parser().lark.terminals}


# --------------------------------------------------------------------------- comments


def _comments(tokens: list[Token], line_offset: int) -> list[records.Comment]:
    """The lexer's comment tokens as records: a `;` comment ends before the line break, \\r\\n included."""
    return [
        records.Comment(str(t)[1:-1] if t.type == "BRACE_COMMENT" else str(t)[1:].rstrip("\r"), t.type == "BRACE_COMMENT",
                        _pos(t, line_offset))
        for t in tokens
    ]


# --------------------------------------------------------------------------- errors

_EXPECTED_BEFORE = {
    "PLAY": "a card (such as 7D, 15C, 10H, QS or Jo)",
    "TRICK": "a trick number such as `2.`",
}
_EXPECTED_AFTER = {
    "_DEALER": "`dealer`",
    "PLAYER": "a player id",
    "COUNT": "a number",
    "CHOICE": "a victim `>id`",
    "LSQB": "a tag `[Name \"value\"]`",
    "RSQB": "`]` closing the tag",
    "TAG_NAME": "a tag name",
    "TAG_VALUE": "a tag value in double quotes",
    "$END": "the end of the game",
}


@lru_cache(maxsize=1)
def _expected_words() -> dict[str, str]:
    """What each terminal is called in a message, the families' words among them, in the order messages list
    them (a round header says which games write a count in it, as their family says)."""
    words = vocabulary()
    counts = " or ".join(f"`{word} <n>`" for word in words.header_counts)
    notes = ", ".join(words.header_count_notes)
    header = "a round header `R<k> dealer <id>`" + (f" (with {counts} {notes})" if counts else "")
    named = {**_EXPECTED_BEFORE, "ROUND": header}
    seconds = set(words.seconds)
    for word in words.keywords():
        named[("_" if word in seconds else "") + terminal_name(word)] = f"`{word}`"
    return {**named, **_EXPECTED_AFTER}


_CARDLIKE = re.compile(r"[0-9]+[^\s.]|[0-9]+\Z")
#: One word as a message quotes it (what the lexer marks as an error, too).
WORD = re.compile(r"[^\s{};\[\]]+|\S")


def _expected_text(expected: Iterable[str], found: str) -> str:
    names = set(expected)
    named = _expected_words()
    if "PLAY" in names and _CARDLIKE.match(found):
        return named["PLAY"]
    order = list(named)
    ranked = sorted((n for n in names if n in named and n != "_NO_WORD"), key=order.index)
    words = [named[n] for n in ranked] or sorted(names - {"_NO_WORD"})
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_problem(error: UnexpectedInput, text: str, line_offset: int) -> records.Problem:
    if isinstance(error, UnexpectedEOF):
        lines = text.rstrip().split("\n")
        line = len(lines)
        column = len(lines[-1]) + 1
        expected = _expected_text(error.expected, "")
        return records.Problem(records.Pos(line + line_offset, column), f"expected {expected}, found the end of the game",
                               "syntax")
    line, column = error.line, error.column
    pos_in_text = error.pos_in_stream if error.pos_in_stream is not None else 0
    match = WORD.match(text, pos_in_text)
    found = match.group(0) if match else ""
    if isinstance(error, UnexpectedCharacters) and found.startswith('"') and "TAG_VALUE" in (error.allowed or ()):
        return _tag_value_problem(text, pos_in_text, line + line_offset, column)
    if isinstance(error, UnexpectedCharacters) and found == "{":
        return records.Problem(records.Pos(line + line_offset, column),
                               'a {comment} is not closed: no "}" follows it in this game', "syntax")
    if isinstance(error, UnexpectedToken):
        if error.token.type == "$END":
            return _syntax_problem(UnexpectedEOF(error.expected), text, line_offset)
        expected_names: Iterable[str] = error.accepts or error.expected
        if set(expected_names) == {"RSQB"} and "\n" in text[:pos_in_text]:
            # A tag is one line: a missing `]` is missed at the end of the tag's line, not at the next token.
            end = len(text[:pos_in_text].rstrip())
            if "\n" in text[end:pos_in_text]:
                line_start = text.rfind("\n", 0, end) + 1
                where = records.Pos(text.count("\n", 0, end) + 1 + line_offset, end - line_start + 1)
                return records.Problem(where, "expected `]` closing the tag, found the end of the line", "syntax")
    elif isinstance(error, UnexpectedCharacters):
        expected_names = error.allowed or ()
    else:  # pragma: no cover - Lark has no other kind
        expected_names = ()
    if len(found) > 40:
        found = found[:37] + "…"
    message = f"expected {_expected_text(expected_names, found)}, found \"{found}\""
    return records.Problem(records.Pos(line + line_offset, column), message, "syntax", length=max(1, len(found)))


def _tag_value_problem(text: str, start: int, line: int, column: int) -> records.Problem:
    """A tag value that opens with `"` but does not lex: a bad escape, or no closing quote on its line."""
    end = text.find("\n", start)
    rest = text[start:] if end < 0 else text[start:end]
    rest = rest.rstrip("\r")
    i = 1
    while i < len(rest):
        if rest[i] == "\\":
            if rest[i + 1:i + 2] not in ('"', "\\"):
                shown = rest[i:i + 2]
                return records.Problem(records.Pos(line, column + i), f'"{shown}" is not an escape in a tag value '
                                       '(only \\" for a quote and \\\\ for a backslash)', "syntax", length=len(shown))
            i += 2
            continue
        i += 1
    return records.Problem(records.Pos(line, column), 'the tag value is not closed: no closing " before the end of the line',
                           "syntax", length=len(rest))



def parse_with_lark(text: str, first_line: int, index: int) -> records.GameRecord:
    offset = first_line - 1
    try:
        tags, rounds, comment_tokens = parser().parse(text, offset)
    except _NumberTooLong as error:
        return records.GameRecord(problems=(error.problem(),), source=text, first_line=first_line, index=index)
    except VisitError as error:  # a callback's exception, wrapped by Lark
        if isinstance(error.orig_exc, _NumberTooLong):
            return records.GameRecord(problems=(error.orig_exc.problem(),), source=text, first_line=first_line, index=index)
        raise
    except UnexpectedInput as error:
        return records.GameRecord(problems=(_syntax_problem(error, text, offset),), source=text,
                                  first_line=first_line, index=index)
    rounds, leading = attach_comments(rounds, _comments(comment_tokens, offset))
    return records.GameRecord(tags, rounds, leading, source=text, first_line=first_line, index=index)
