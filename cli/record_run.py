"""`diamonds record`: a terminal session (record_screen, prompt_toolkit) or lines through a pipe (record_cmd)."""

from __future__ import annotations

import argparse
import sys

from diamonds.io.lock import FileLock

from .inputs import display_path
from .record_cmd import open_recorder, run_lines

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    # One recorder per file, for the whole session: a second one is refused (exit 2) before it reads
    # anything, so it can neither resume a stale copy nor clean up the first one's temporary file.
    with FileLock(args.file, what="recorded", shown=display_path(args.file)):
        terminal = sys.stdin.isatty() and sys.stdout.isatty()
        if terminal:
            from .record_screen import run_terminal  # prompt_toolkit: the `record` extra

            return run_terminal(args)
        recorder = open_recorder(args, ask=None)
        return run_lines(recorder, args.file, sys.stdin, sys.stdout, sys.stderr, encoding=args.encoding,
                         require_deals=args.deal, saver=args.saver)
