"""Problems as people read them: `file:line:col: message (R8)`, the line, a caret."""

from __future__ import annotations

from .records import GameRecord, Problem

__all__ = ["format_problem"]

WINDOW = 100  # characters of a long source line shown around the caret


def format_problem(path: str, record: GameRecord, problem: Problem) -> str:
    """Three lines: where and what, the source line, a caret under the token.

    Tabs count as one column, as in the parser's columns; a very long line is
    cut to a window around the caret, marked with … at the cut ends.
    """
    rule = f" ({problem.rule})" if problem.rule else ""
    head = f"{path}:{problem.line}:{problem.column}: {problem.message}{rule}"
    source = record.source_line(problem.line).rstrip("\r\n")
    if not source:
        return head
    shown = source.expandtabs(1)
    caret_at = max(0, problem.column - 1)
    length = max(1, problem.length)
    if len(shown) > WINDOW:
        start = max(0, min(caret_at - WINDOW // 4, len(shown) - WINDOW))
        end = start + WINDOW
        prefix = "…" if start else ""
        shown = prefix + shown[start:end] + ("…" if end < len(source) else "")
        caret_at = caret_at - start + len(prefix)
        length = min(length, end - (problem.column - 1)) if end > problem.column - 1 else 1
    width = max(1, min(length, max(1, len(shown) - caret_at)))
    return f"{head}\n    {shown}\n    {' ' * caret_at}{'^' * width}"
