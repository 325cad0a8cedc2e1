"""Problems as people read them: `file:line:col: message (R8)`, the line, a caret."""

from __future__ import annotations

from .records import GameRecord, Problem

__all__ = ["format_problem"]


def format_problem(path: str, record: GameRecord, problem: Problem) -> str:
    """Three lines: where and what, the source line, a caret under the token."""
    rule = f" ({problem.rule})" if problem.rule else ""
    head = f"{path}:{problem.line}:{problem.column}: {problem.message}{rule}"
    source = record.source_line(problem.line).rstrip("\r\n")
    if not source:
        return head
    shown = source.expandtabs(1)
    caret_at = max(0, problem.column - 1)
    width = max(1, min(problem.length, max(1, len(shown) - caret_at)))
    return f"{head}\n    {shown}\n    {' ' * caret_at}{'^' * width}"
