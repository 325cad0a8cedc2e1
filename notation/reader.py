"""Reading DGN: cut a stream into games, and read each, by the fast reader where its layout allows.

The Lark grammar (`larkpath`) is the reference: it reads what the fast reader
leaves and reports every error, and is imported only then, so a command that
reads valid games starts without it.

`read_games(stream)` yields one `GameRecord` at a time, so a file of any size
is read in memory bounded by its largest game. A game that does not parse is
still yielded, with its `problems` (line, column, what was expected), and the
next game is read as usual.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TextIO

from .fastpath import FastReader
from .grammar import cached_patterns, grammar_text, keep_patterns
from .records import GameRecord

__all__ = ["read_games", "game_texts", "parse_game", "parse_games", "split_games", "grammar_text"]


# --------------------------------------------------------------------------- games


_TAG_START = re.compile(r"[ \t\ufeff]*\[")
_TAG_AFTER_BREAK = re.compile(r"\n[ \t\ufeff]*\[")  # a literal first: the regex engine skips to each \n fast
_NOT_SPACE = re.compile(r"\S")
_BLOCK = 1 << 16  # characters read at a time


def split_games(lines: Iterable[str], *, first_line: int = 1) -> Iterator[tuple[int, str]]:
    """Cut a stream into games: (first line number, text of the game).

    A game ends where a tag line follows movetext (DGN.md). Comments are
    tracked so that a `[` inside a `{...}` comment does not start a game.
    `lines` is a text stream or any iterable of strings that, joined, make
    the text (lines, or blocks of them).
    """
    return _game_texts(lines, first_line)


def _blocks(stream: TextIO | Iterable[str]) -> Iterator[str]:
    read = getattr(stream, "read", None)
    if read is not None:
        return iter(lambda: read(_BLOCK), "")
    return iter(stream)


def _game_texts(stream: TextIO | Iterable[str], first_line: int = 1) -> Iterator[tuple[int, str]]:
    """The game splitter. Whole blocks of lines without comments are cut with one regex scan;
    a block with a `{` or `;` (or inside a `{` comment) is walked line by line."""
    parts: list[str] = []  # the current game so far
    start = first_line  # its first line
    number = first_line - 1  # lines before the block being cut
    in_brace = has_movetext = False
    pending: list[str] = []  # a line not yet ended, in pieces (a line may be longer than a block)
    for block in _blocks(stream):
        cut = block.rfind("\n") + 1
        if not cut:
            pending.append(block)
            continue
        text = "".join([*pending, block[:cut]]) if pending else block[:cut]
        pending = [block[cut:]] if cut < len(block) else []
        if in_brace or "{" in text or ";" in text:
            for line in _lines(text):
                number += 1
                is_tag = not in_brace and line.lstrip(" \t\ufeff")[:1] == "["
                if is_tag and has_movetext:
                    yield start, "".join(parts)
                    parts, start, has_movetext = [], number, False
                parts.append(line)
                if is_tag:
                    in_brace = _scan_tag_line(line) if "{" in line else False
                else:
                    in_brace, saw = _scan_movetext(line, in_brace)
                    has_movetext = has_movetext or saw
            continue
        at = 0  # where the current game's part of `text` begins
        seen = 0  # movetext is looked for from here
        counted = 0  # line breaks before here are in `number`
        tags = [match.start() + 1 for match in _TAG_AFTER_BREAK.finditer(text)]
        if _TAG_START.match(text):
            tags.insert(0, 0)
        for tag in tags:
            if not has_movetext:
                has_movetext = _NOT_SPACE.search(text, seen, tag) is not None
            if has_movetext:
                number += text.count("\n", counted, tag)
                counted = tag
                parts.append(text[at:tag])
                yield start, "".join(parts)
                parts, start, at, has_movetext = [], number + 1, tag, False
            seen = text.find("\n", tag) + 1  # a tag line is no movetext
        if not has_movetext:
            has_movetext = _NOT_SPACE.search(text, seen) is not None
        number += text.count("\n", counted)
        parts.append(text[at:])
    rest = "".join(pending)
    if rest:
        # The last line has no line break: walk it like any other.
        yield from _game_texts_tail(parts, start, number, in_brace, has_movetext, rest)
    elif parts:
        yield start, "".join(parts)


def _game_texts_tail(parts: list[str], start: int, number: int, in_brace: bool, has_movetext: bool,
                     line: str) -> Iterator[tuple[int, str]]:
    number += 1
    is_tag = not in_brace and line.lstrip(" \t\ufeff")[:1] == "["
    if is_tag and has_movetext:
        yield start, "".join(parts)
        parts, start = [], number
    parts.append(line)
    yield start, "".join(parts)


def _lines(text: str) -> list[str]:
    """`text` cut after each line break ("\n" only, unlike `splitlines`)."""
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def _scan_tag_line(line: str) -> bool:
    """Skip the tag's quoted value; return whether a `{` comment stays open after it."""
    i, n = 0, len(line)
    in_string = False
    while i < n:
        ch = line[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == ";":
            return False
        elif ch == "{":
            close = line.find("}", i)
            if close < 0:
                return True
            i = close
        i += 1
    return False


def _scan_movetext(line: str, in_brace: bool) -> tuple[bool, bool]:
    """(still inside a `{` comment, saw movetext) after this line."""
    if not in_brace and "{" not in line:
        code = line.split(";", 1)[0]
        return False, bool(code.strip())
    saw = False
    i, n = 0, len(line)
    while i < n:
        if in_brace:
            close = line.find("}", i)
            if close < 0:
                return True, saw
            in_brace, i = False, close + 1
            continue
        ch = line[i]
        if ch == ";":
            break
        if ch == "{":
            in_brace = True
        elif not ch.isspace():
            saw = True
        i += 1
    return in_brace, saw


def parse_game(text: str, *, first_line: int = 1, index: int = 1) -> GameRecord:
    """Parse one game's text; syntax errors become the record's `problems`."""
    return _read_game(text, first_line, index)


def _read_game(text: str, first_line: int, index: int) -> GameRecord:
    """The fast reader when the layout allows, else the parser (which also reports every error)."""
    record = _fast_reader().read(text, first_line, index)
    if record is not None:
        return record
    from .larkpath import parse_with_lark  # Lark, only for what the fast reader leaves (and every error)

    return parse_with_lark(text, first_line, index)


@lru_cache(maxsize=1)
def _fast_reader() -> FastReader:
    """The fast reader, with the grammar's own token patterns: cached, else asked of Lark (and kept)."""
    patterns = cached_patterns()
    if patterns is None:
        from .larkpath import terminal_patterns

        patterns = terminal_patterns()
        keep_patterns(patterns)
    return FastReader(patterns)


def _games(stream: TextIO | Iterable[str]) -> Iterator[tuple[int, int, str]]:
    """(index, first line, text) of each game that is not only blank lines."""
    index = 0
    for first_line, text in _game_texts(stream):
        if not text.isspace() and text:
            index += 1
            yield index, first_line, text


def game_texts(stream: TextIO | Iterable[str]) -> Iterator[tuple[int, int, str]]:
    """(index, first line, text) of each game, unparsed: what parallel readers hand out."""
    return _games(stream)


def read_games(stream: TextIO | Iterable[str]) -> Iterator[GameRecord]:
    """Yield the games of a DGN stream one at a time, readable or not."""
    for index, first_line, text in _games(stream):
        yield _read_game(text, first_line, index)


def parse_games(text: str) -> list[GameRecord]:
    return list(read_games(io.StringIO(text)))
