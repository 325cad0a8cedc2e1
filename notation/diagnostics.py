"""Problems as people read them: `file:line:col: message (R8)`, the line, a caret.

On a terminal the quoted line is highlighted as DGN (the Pygments lexer,
notation/lexer.py) and the caret is red; anywhere else (a pipe, a file, a
test, or with NO_COLOR set) the text is plain, byte for byte the same.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

from diamonds.core.errors import with_rule
from diamonds.io.escape import quoted, visible

from .records import GameRecord, Problem

if TYPE_CHECKING:
    from pygments.token import _TokenType  # type: ignore[import-untyped,unused-ignore]

__all__ = ["format_problem", "wants_colour"]

WINDOW = 100  # characters of a long source line shown around the caret


def wants_colour(stream: TextIO) -> bool:
    """Colour only for a person at a terminal: not through a pipe or into a file, never with NO_COLOR
    set (https://no-color.org, as rich reads it) nor on a dumb terminal."""
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def format_problem(path: str, record: GameRecord, problem: Problem, *, colour: bool = False) -> str:
    """Three lines: where and what, the source line, a caret under the token.

    Tabs count as one column, as in the parser's columns; a very long line is
    cut to a window around the caret, marked with … at the cut ends. With
    `colour`, the same text with ANSI colours: the line highlighted as DGN,
    the caret in red.
    """
    head = visible(with_rule(f"{path}:{problem.line}:{problem.column}: {problem.message}", problem.rule))
    source = record.source_line(problem.line).rstrip("\r\n")
    if not source:
        return head
    shown = source.expandtabs(1)  # a tab is one space: the columns stay the parser's
    caret_at = max(0, problem.column - 1)
    length = max(1, problem.length)
    start, end, prefix, suffix = 0, len(shown), "", ""
    if len(shown) > WINDOW:
        start = max(0, min(caret_at - WINDOW // 4, len(shown) - WINDOW))
        end = start + WINDOW
        prefix = "…" if start else ""
        suffix = "…" if end < len(source) else ""
        caret_at = caret_at - start + len(prefix)
        length = min(length, end - (problem.column - 1)) if end > problem.column - 1 else 1
    window = prefix + shown[start:end] + suffix
    width = max(1, min(length, max(1, len(window) - caret_at)))
    # Input text reaches a terminal here: control characters are shown escaped (ESC as \x1b), the caret
    # placed on the escaped line. A line without them is unchanged, byte for byte.
    window, caret_at, width = quoted(window, caret_at, width)
    caret = "^" * width
    if colour:
        from pygments.console import ansiformat  # type: ignore[import-untyped,unused-ignore]

        window = prefix + _highlighted(record, problem.line, start, end) + suffix
        caret = ansiformat("*red*", caret)
    return f"{head}\n    {window}\n    {' ' * caret_at}{caret}"


def _highlighted(record: GameRecord, line: int, start: int, end: int) -> str:
    """Columns `start:end` of a line of the game, highlighted as DGN for a terminal.

    The whole game is lexed, not the line alone: a line is read as the
    reader reads it, in its place (a trick may go on over several lines)."""
    from pygments.formatters import TerminalFormatter  # type: ignore[import-untyped,unused-ignore]

    from .lexer import DGNLexer

    text = record.source
    first = 0
    for _ in range(line - record.first_line):
        first = text.index("\n", first) + 1
    line_start, line_end = first + start, first + end
    pieces: list[tuple[_TokenType, str]] = []
    for at, token, value in DGNLexer().get_tokens_unprocessed(text):
        if at >= line_end:
            break
        cut = value[max(0, line_start - at):max(0, line_end - at)]
        if cut:
            pieces.append((token, visible(cut.replace("\t", " ").replace("\r", "").replace("\n", ""))))
    out: list[str] = []

    class _Sink:
        def write(self, piece: str) -> None:
            out.append(piece)

    TerminalFormatter().format(iter(pieces), _Sink())
    return "".join(out)
