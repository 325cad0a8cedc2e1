"""`diamonds validate`: every game of every file, replayed; errors with line, column and ruling."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from notation.diagnostics import format_problem
from replay import replay_record

from .inputs import display_path, games_in
from .progress import ByteProgress

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    totals = {"games": 0, "valid": 0, "invalid": 0, "incomplete": 0}
    report: list[dict[str, Any]] = []
    as_json = args.format == "json"
    with ByteProgress(args.files) as progress:
        for path in args.files:
            shown = display_path(path)
            games: list[dict[str, Any]] = []
            for record in games_in(path):
                replayed = replay_record(record)
                progress.advance(len(record.source))
                totals["games"] += 1
                totals["valid" if replayed.valid else "invalid"] += 1
                if replayed.valid and not replayed.complete:
                    totals["incomplete"] += 1
                if as_json:
                    games.append({
                        "index": record.index,
                        "valid": replayed.valid,
                        "complete": replayed.complete,
                        "errors": [{"line": p.line, "column": p.column, "code": p.code, "rule": p.rule,
                                    "message": p.message} for p in replayed.problems],
                        "notes": replayed.notes,
                    })
                elif not args.quiet:
                    for problem in replayed.problems:
                        progress.print(format_problem(shown, record, problem))
                    for note in replayed.notes:
                        progress.print(f"{shown}:{record.first_line}: note: game {record.index}: {note}")
            report.append({"path": shown, "games": games})
    if as_json:
        json.dump({"files": report, "summary": totals}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"{totals['games']} game{'s' if totals['games'] != 1 else ''}: {totals['valid']} valid, "
              f"{totals['invalid']} invalid, {totals['incomplete']} incomplete")
    return 1 if totals["invalid"] else 0


