"""The command's rich consoles, made in one place so that every one follows the command's closed-pipe policy.

rich ends a program whose output pipe closed with SystemExit(1) (`Console.on_broken_pipe`). The command's
policy is the same with rich or without: a BrokenPipeError, which `main._run` turns into a quiet exit 0, as
`head` expects. Commands that print plainly never import rich, so their start-up stays free of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

_policy_set = False


def console(**options: Any) -> Console:
    """A rich Console (rich's own options), whose closed pipe raises BrokenPipeError."""
    global _policy_set
    from rich.console import Console

    if not _policy_set:
        def on_broken_pipe(self: Console) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        Console.on_broken_pipe = on_broken_pipe  # type: ignore[method-assign]
        _policy_set = True
    return Console(**options)
