"""`diamonds validate`: every game of every file, replayed; errors with line, column and ruling."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import dataclass
from typing import Any

from diamonds.io.escape import visible
from diamonds.io.parallel import batches, default_jobs, ordered_map
from diamonds.notation import game_texts, parse_game
from diamonds.notation.diagnostics import format_problem, wants_colour
from diamonds.replay import validate_record

from .inputs import NotDecodable, display_path, open_text, warn_no_game
from .progress import GameProgress

__all__ = ["run", "check_batch", "Checked"]


@dataclass(frozen=True, slots=True)
class Checked:
    """What validation says of one game, ready to print (made in a worker process)."""

    size: int
    valid: bool
    complete: bool
    lines: tuple[str, ...]  # problems and notes, formatted
    entry: dict[str, Any] | None  # for --format json


def check_batch(shown: str, as_json: bool, batch: list[tuple[int, int, str]], *,
                colour: bool = False) -> list[Checked]:
    """Each game of `batch` replayed; its problems formatted (highlighted as DGN with `colour`)."""
    out = []
    for index, first_line, text in batch:
        record = parse_game(text, first_line=first_line, index=index)
        replayed = validate_record(record)
        lines: list[str] = []
        entry = None
        if as_json:
            entry = {
                "index": index,
                "valid": replayed.valid,
                "complete": replayed.complete,
                "errors": [{"line": p.line, "column": p.column, "code": p.code, "rule": p.rule,
                            "message": p.message} for p in replayed.problems],
                "notes": replayed.notes,
            }
        else:
            lines = [format_problem(shown, record, problem, colour=colour) for problem in replayed.problems]
            lines += [f"{shown}:{first_line}: note: game {index}: {note}" for note in replayed.notes]
        out.append(Checked(len(text), replayed.valid, replayed.complete, tuple(lines), entry))
    return out


def run(args: argparse.Namespace) -> int:
    totals = {"games": 0, "valid": 0, "invalid": 0, "incomplete": 0, "unreadable_files": 0, "files_without_games": 0}
    as_json = args.format == "json"
    jobs = default_jobs(args.files, args.jobs)
    out = sys.stdout
    colour = not as_json and wants_colour(out)  # problems are printed to stdout: colour only on a terminal
    if as_json:
        out.write('{"files": [')
    with GameProgress(args.files) as progress:
        for number, path in enumerate(args.files):
            shown = display_path(path)
            if as_json:
                out.write(("," if number else "") + "\n  {\"path\": " + json.dumps(shown) + ", \"games\": [")
            first = True
            games_before = totals["games"]
            unreadable: NotDecodable | None = None
            try:
                with open_text(path, args.encoding) as stream:
                    work = batches(game_texts(stream))
                    check = functools.partial(check_batch, shown, as_json, colour=colour)
                    with ordered_map(check, work, jobs, args.scheduler) as checked_batches:
                        for checked_batch in checked_batches:
                            for checked in checked_batch:
                                progress.advance(checked.size)
                                totals["games"] += 1
                                totals["valid" if checked.valid else "invalid"] += 1
                                if checked.valid and not checked.complete:
                                    totals["incomplete"] += 1
                                if as_json:
                                    out.write(("" if first else ",") + "\n    " + json.dumps(checked.entry))
                                    first = False
                                elif not args.quiet:
                                    for line in checked.lines:
                                        progress.print(line)
            except NotDecodable as error:  # the games before the bad byte are checked; the next file too
                unreadable = error
                totals["unreadable_files"] += 1
                if not as_json:  # on stderr, as the command's other refusals: --quiet keeps stdout to the summary
                    print(visible(f"diamonds validate: {error}"), file=sys.stderr)
                    print(error.shown, file=sys.stderr)
            if unreadable is None and totals["games"] == games_before:  # empty, or blank lines only: a warning
                totals["files_without_games"] += 1
                warn_no_game("validate", path)
            if as_json:
                out.write("\n  ]")
                if unreadable is not None:
                    out.write(', "error": ' + json.dumps({"line": unreadable.line, "column": unreadable.column,
                                                         "code": "not-decodable", "message": unreadable.reason}))
                out.write("}")
    if as_json:
        out.write('\n], "summary": ' + json.dumps(totals) + "}\n")
    else:
        unreadable_files = totals["unreadable_files"]
        bad_files = f", {unreadable_files} file{'s' if unreadable_files != 1 else ''} unreadable" if unreadable_files else ""
        print(f"{totals['games']} game{'s' if totals['games'] != 1 else ''}: {totals['valid']} valid, "
              f"{totals['invalid']} invalid, {totals['incomplete']} incomplete{bad_files}")
    return 1 if totals["invalid"] or totals["unreadable_files"] or totals["files_without_games"] else 0
