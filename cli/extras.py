"""The optional packages each command needs, checked before it starts: every missing one is named in
one message with the one `pip install` that brings them all (not one at a time, run after run)."""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Sequence

from .errors import CommandError

__all__ = ["needed", "require_extras", "missing_message"]


def needed(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(package, the extra that installs it) for what `args` asks of its command."""
    command = args.command
    needs: list[tuple[str, str]] = []
    if command == "ratings":
        needs += [("pyarrow", "ratings"), ("openskill", "ratings")]
    elif command == "stats" or (command == "convert" and args.to == "parquet"):
        needs.append(("pyarrow", "parquet"))
    elif command == "serve":
        needs += [("fastapi", "serve"), ("uvicorn", "serve"), ("segno", "serve")]
    elif command == "arena":
        needs.append(("openskill", "bots"))  # the standings' ratings
    if getattr(args, "plot", None):
        needs.append(("matplotlib", "plot"))
    if getattr(args, "scheduler", None):
        needs.append(("distributed", "dask"))
    return needs


def missing_message(missing: Sequence[tuple[str, str]]) -> str:
    """`needs the ratings and plot extras (pyarrow, openskill and matplotlib, which are not installed): pip
    install "diamonds[ratings,plot]"` (the command's name is put before it, as before its every message)."""
    names = [package for package, _ in missing]
    extras = list(dict.fromkeys(extra for _, extra in missing))
    which = "which is" if len(names) == 1 else "which are"
    return (f"needs the {_listed(extras)} extra{'s' if len(extras) > 1 else ''} ({_listed(names)}, {which} not "
            f"installed): pip install \"diamonds[{','.join(extras)}]\"")


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def require_extras(args: argparse.Namespace) -> None:
    """A usage error (status 2) naming every package `args` needs that is not installed."""
    missing = [(package, extra) for package, extra in needed(args) if importlib.util.find_spec(package) is None]
    if missing:
        raise CommandError(missing_message(missing))
