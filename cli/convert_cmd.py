"""`diamonds convert` and `diamonds schema`: DGN ⇄ JSON, and DGN → JSON Lines / CSV."""

from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from diamonds.io.parallel import BATCH_BYTES, batches, collector_paused, default_jobs, ordered_map
from diamonds.notation import GameRecord, game_texts, parse_game
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.writer import write_game
from diamonds.replay import replay_record
from diamonds.replay.export import CSV_COLUMNS, DocumentError, csv_rows, game_schema, game_to_dict, record_from_dict

from . import jsonfast
from .errors import CommandError
from .inputs import DEFAULT_ENCODING, display_path, open_text, warn_no_game
from .outputs import open_output

if TYPE_CHECKING:
    from diamonds.replay.schemacheck import SchemaChecker

__all__ = ["run", "run_schema"]


def run_schema(args: argparse.Namespace) -> int:
    json.dump(game_schema(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _source_format(args: argparse.Namespace, path: str) -> str:
    if args.source_format:
        return str(args.source_format)
    name = path.lower()
    if name.endswith(".jsonl") or name.endswith(".ndjson"):
        return "jsonl"
    if name.endswith(".json"):
        return "json"
    if name.endswith(".csv") or name.endswith(".parquet"):  # exports of the plays only, read back by nothing
        raise CommandError(f"{display_path(path)}: a {name.rsplit('.', 1)[1].upper()} export holds the plays alone and "
                           "is not read back: convert from the game's DGN, or its JSON document")
    return "dgn"


@dataclass(frozen=True, slots=True)
class Converted:
    """One game converted in a worker: its text in the target format, or why it was left out."""

    payload: str | None  # None: unreadable, skipped
    errors: tuple[str, ...]


def convert_batch(shown: str, to: str, states: bool, full: bool, batch: list[tuple[int, int, str]]) -> list[Converted]:
    """Convert one batch of game texts; JSON in the compact form unless `full` (docs/json.md)."""
    with collector_paused():
        return [_convert_one(shown, to, states, full, *item) for item in batch]


def _convert_one(shown: str, to: str, states: bool, full: bool, index: int, first_line: int,
                 text: str) -> Converted:
    record = parse_game(text, first_line=first_line, index=index)
    if record.problems:  # unreadable: reported and skipped; the other games still convert
        return Converted(None, tuple(format_problem(shown, record, p) for p in record.problems))
    if to == "dgn":
        return Converted(write_game(record), ())
    replayed = replay_record(record, history=states)
    errors = tuple(format_problem(shown, record, p) for p in replayed.problems)
    doc = game_to_dict(replayed, states=states, compact=not full and to != "csv")
    if to == "csv":
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(csv_rows(shown, doc))
        return Converted(buffer.getvalue(), errors)
    return Converted(jsonfast.dumps(doc), errors)


def run(args: argparse.Namespace) -> int:
    for path in args.files:  # before anything is read or written: the JSON is read only back to DGN
        source = _source_format(args, path)
        if source != "dgn" and args.to != "dgn":
            raise CommandError(f"{display_path(path)}: from {source} only --to dgn is possible (the JSON already is "
                               "the export)")
    if args.to == "parquet":
        from .parquet_cmd import run_parquet

        return run_parquet(args)
    if len(args.files) != 1:
        raise CommandError(f"--to {args.to} converts one file at a time (--to parquet takes several)")
    args.file = args.files[0]
    source = _source_format(args, args.file)
    shown = display_path(args.file)
    if source != "dgn":
        # Every game is read and checked before anything is written: a refused input leaves no half output.
        records = list(_records_from_json(args.file, source, args.encoding))
        with open_output(args.output, force=args.force) as out:
            for number, record in enumerate(records):
                out.write(("\n" if number else "") + write_game(record))
        if not records:
            warn_no_game("convert", args.file)
            return 1
        return 0

    failures = 0
    jobs = default_jobs([args.file], args.jobs)
    work = functools.partial(convert_batch, shown, args.to, args.states, args.full)
    with open_output(args.output, force=args.force) as out, open_text(args.file, args.encoding) as stream:
        count = 0
        if args.to == "json":
            out.write('{"games": [')
        elif args.to == "csv":
            out.write(",".join(CSV_COLUMNS) + "\n")
        # JSON is about 36 times the DGN it comes from, CSV about 4 (measured on the bench corpus):
        # smaller batches keep what is in flight between the processes to a few MB.
        size = {"json": BATCH_BYTES // 32, "jsonl": BATCH_BYTES // 32, "csv": BATCH_BYTES // 4}.get(args.to, BATCH_BYTES)
        try:
            with ordered_map(work, batches(game_texts(stream), max_bytes=size), jobs,
                             args.scheduler) as converted_batches:
                for converted_batch in converted_batches:
                    for converted in converted_batch:
                        for error in converted.errors:
                            print(error, file=sys.stderr)
                        if converted.errors:
                            failures += 1
                        if converted.payload is None:
                            continue
                        if args.to == "json":
                            out.write(("," if count else "") + "\n" + converted.payload)
                        elif args.to == "jsonl":
                            out.write(converted.payload + "\n")
                        elif args.to == "dgn":
                            out.write(("\n" if count else "") + converted.payload)
                        else:
                            out.write(converted.payload)
                        count += 1
        finally:  # input that stops the command midway (a byte not of its encoding) still leaves whole JSON
            if args.to == "json":
                out.write("\n]}\n" if count else "]}\n")
    if not count and not failures:
        warn_no_game("convert", args.file)
        return 1
    return 1 if failures else 0


# --------------------------------------------------------------------------- JSON input


def _json_path(error: Any) -> str:
    return error.json_path if hasattr(error, "json_path") else "$"


def _records_from_json(path: str, source: str, encoding: str = DEFAULT_ENCODING) -> Iterator[GameRecord]:
    """Documents checked against the schema, then for what DGN cannot write (`record_from_dict`);
    a bad one names its JSON path."""
    from diamonds.replay.schemacheck import SchemaChecker  # only JSON input is checked against the schema

    schema = game_schema()
    validator = SchemaChecker.of(schema)
    game_validator = SchemaChecker.of({"$ref": "#/$defs/game", "$defs": schema["$defs"]})
    shown = display_path(path)
    with open_text(path, encoding) as stream:
        if source == "json":
            doc = _load(stream.read(), shown, 1, shown)
            check_document(validator, doc, shown)
            for index, game in enumerate(doc["games"]):
                yield _record(game, shown, f"$.games[{index}]")
            return
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            where = f"{shown}:{number}"
            doc = _load(line, shown, number, where)
            check_document(game_validator, doc, where)
            yield _record(doc, where, "$")


def _load(text: str, shown: str, first_line: int, where: str) -> Any:
    try:
        return jsonfast.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{shown}:{error.lineno + first_line - 1}:{error.colno}: not JSON: {error.msg}",
                           status=1) from None
    except RecursionError:
        raise CommandError(f"{where}: JSON nested too deeply to read (no game document nests so deep)",
                           status=1) from None
    except ValueError as error:  # e.g. an integer of more digits than Python will convert
        huge = _huge_number(text)
        if huge is not None:
            path, digits = huge
            raise CommandError(f"{where}: {path}: a number of {digits} digits, too long to read (no field of a "
                               "game holds a number of more than a few digits)", status=1) from None
        raise CommandError(f"{where}: JSON that cannot be read: {error}", status=1) from None


class _Huge(str):
    """An integer too long for Python to convert, kept as its digits to say where it is."""


def _huge_number(text: str) -> tuple[str, int] | None:
    """The JSON path and length of the first integer too long to convert, if that is what failed."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)() or 4300

    def number(digits: str) -> Any:
        return _Huge(digits) if len(digits.lstrip("-")) > limit else int(digits)

    try:
        doc = json.loads(text, parse_int=number)
    except (ValueError, RecursionError):
        return None
    found: list[tuple[str, int]] = []

    def walk(value: Any, path: str) -> None:
        if found:
            return
        if isinstance(value, _Huge):
            found.append((path, len(value.lstrip("-"))))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")

    walk(doc, "$")
    return found[0] if found else None


def _message(error: Any) -> str:
    """The schema's own words for a refusal where it has them (`errorMessage`), else jsonschema's."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    custom = schema.get("errorMessage")
    if isinstance(custom, dict) and isinstance(custom.get(error.validator), str):
        return str(custom[error.validator])
    message, shown = str(error.message), repr(error.instance)
    if len(shown) > 60 and message.startswith(shown):  # jsonschema opens with the value: a whole document, maybe
        message = _described(error.instance) + message[len(shown):]
    return message


def _described(value: Any) -> str:
    """A JSON value too long to quote, in a few words: `an array of 3 items`, `an object with 9 keys`."""
    if isinstance(value, list):
        return f"an array of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return f"an object with {len(value)} key{'' if len(value) == 1 else 's'}"
    return repr(value)[:57] + "..."


def check_document(checker: SchemaChecker, doc: Any, where: str) -> None:
    """A document that breaks the schema, refused with the deepest of jsonschema's errors."""
    try:
        errors = checker.errors(doc)
    except RecursionError:
        raise CommandError(f"{where}: JSON nested too deeply to check (no game document nests so deep)",
                           status=1) from None
    if errors:  # the deepest error says most exactly what is wrong; of those, the first in the document
        errors.sort(key=lambda e: [(0, k, "") if isinstance(k, int) else (1, 0, k) for k in e.absolute_path])
        error = max(errors, key=lambda e: len(e.absolute_path))
        raise CommandError(f"{where}: {_json_path(error)}: {_message(error)}", status=1)


def _record(doc: Any, where: str, root: str) -> GameRecord:
    """The record of one checked game document; what DGN cannot write is refused at its JSON path."""
    try:
        return record_from_dict(doc)
    except DocumentError as error:
        raise CommandError(f"{where}: {error.json_path(root)}: {error.reason}", status=1) from None
