"""`diamonds fmt`: rewrite DGN files in canonical form, safely.

A file is rewritten only if every readable game, written canonically, reads
back as the same record and replays to the same result; unreadable games are
kept exactly as they were. The file is replaced atomically.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields, is_dataclass

from diamonds.io.errors import NotWritable
from diamonds.io.escape import visible
from diamonds.io.interrupt import note_output
from diamonds.notation import GameRecord, Tag, parse_games
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.records import Play, Plays
from diamonds.notation.tags import TagSyntaxError, parse_result
from diamonds.notation.writer import write_game
from diamonds.replay import replay_record

from .errors import CommandError
from .inputs import BOM, games_in, open_text
from .outputs import atomic_write

__all__ = ["run", "canonical_text"]


def canonical_text(records: list[GameRecord]) -> str:
    parts = []
    for record in records:
        if record.problems:
            parts.append(record.source.rstrip("\n") + "\n")  # kept exactly (up to trailing blank lines)
        else:
            parts.append(write_game(record))
    return "\n".join(parts)


def _meaning(value: object, name: str = "") -> object:
    """A record as a comparable value, without what canonical form changes on purpose: the case of
    player ids (DGN ids ignore case; the writer spells them as the Players tag does) and the order
    and spacing of the Result tag. Positions are not compared (they are `compare=False`)."""
    if isinstance(value, Tag) and value.name == "Result":
        try:
            entries = parse_result(value.value)
        except TagSyntaxError:
            return ("Result", value.value)
        if entries is None:
            return ("Result", None)
        return ("Result", sorted((sorted(m.casefold() for m in e.side), e.score) for e in entries))
    if isinstance(value, Play):  # its card in the writer's own words (`card_word`: a high ace bare, B7), and its marks
        return ("Play", value.card_word, _meaning(value.choice), value.annotation, _meaning(value.comments))
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            _meaning(getattr(value, f.name), f.name) for f in fields(value) if f.compare)
    if isinstance(value, (tuple, Plays)):
        return tuple(_meaning(item, name) for item in value)
    if isinstance(value, str) and name in ("player", "dealer"):
        return value.casefold()
    return value


def _outcome(record: GameRecord) -> tuple[object, ...]:
    """What a game replays to: valid, complete, every side's standing (any family's) and the problems."""
    replayed = replay_record(record)
    standings = None
    if replayed.game is not None:
        standings = replayed.game.standings()
    return replayed.valid, replayed.complete, standings, tuple((p.code, p.message) for p in replayed.problems)


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        if path == "-":
            raise CommandError("fmt rewrites files in place; use `diamonds convert - --to dgn` for a stream")
        if not args.check:
            note_output(path, "left as it was")
        records = list(games_in(path, args.encoding))
        with open_text(path, args.encoding) as stream:
            original, bom = stream.read(), stream.bom
            # A file of CRLF lines alone is written back so, as its encoding and byte-order mark are (a mix of
            # endings is written with "\n" alone, the canonical form).
            newline = "\r\n" if stream.line_endings == "\r\n" else "\n"
        text = canonical_text(records)
        shown = visible(path)
        for record in records:
            for problem in record.problems:
                print(format_problem(path, record, problem), file=sys.stderr)
            if record.problems:  # reported, and kept as it is: the run says it failed
                print(f"{shown}: game {record.index} is unreadable and is kept as it is", file=sys.stderr)
                status = 1
        if text == original:
            continue
        if args.check:
            print(f"{shown}: not in canonical form")
            status = 1
            continue
        again = parse_games(text)
        same = len(again) == len(records) and all(
            _meaning(a) == _meaning(b) and (a.problems or _outcome(a) == _outcome(b)) for a, b in zip(again, records)
        )
        if not same:
            print(f"{shown}: left unchanged: the canonical text would not mean the same game", file=sys.stderr)
            status = 1
            continue
        try:  # written back as it was read: in its encoding, with its byte-order mark and line endings
            with atomic_write(path, encoding=args.encoding, force=args.force, newline=newline) as out:
                out.write((BOM if bom else "") + text)
        except UnicodeEncodeError as error:
            print(f"{shown}: left unchanged: {args.encoding} cannot write {error.object[error.start]!r}, "
                  "which its canonical text has", file=sys.stderr)
            status = 1
            continue
        except NotWritable as error:  # read-only, a full disk: this file is as it was; the next ones still go
            print(visible(f"diamonds fmt: {error}"), file=sys.stderr)
            status = max(status, error.status)
            continue
        print(f"{shown}: formatted")
    return status
