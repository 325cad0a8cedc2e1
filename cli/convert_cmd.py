"""`diamonds convert` and `diamonds schema`: DGN ⇄ JSON, and DGN → JSON Lines / CSV."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any, Iterator, TextIO

from jsonschema import Draft202012Validator

from notation import GameRecord
from notation.diagnostics import format_problem
from notation.writer import write_game
from replay import replay_record
from replay.export import CSV_COLUMNS, csv_rows, game_schema, game_to_dict, record_from_dict

from .errors import CommandError
from .inputs import display_path, games_in, open_text
from .outputs import open_output

__all__ = ["run", "run_schema"]


def run_schema(args: argparse.Namespace) -> int:
    json.dump(game_schema(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _source_format(args: argparse.Namespace) -> str:
    if args.source_format:
        return str(args.source_format)
    name = args.file.lower()
    if name.endswith(".jsonl") or name.endswith(".ndjson"):
        return "jsonl"
    if name.endswith(".json"):
        return "json"
    return "dgn"


def run(args: argparse.Namespace) -> int:
    source = _source_format(args)
    shown = display_path(args.file)
    if source != "dgn":
        if args.to != "dgn":
            raise CommandError(f"from {source} only --to dgn is possible (the JSON already is the export)")
        records = list(_records_from_json(args.file, source))
        with open_output(args.output) as out:
            out.write("\n".join(write_game(record) for record in records))
        return 0

    failures = 0
    with open_output(args.output) as out:
        writer = _Writer.make(args.to, out, shown)
        for record in games_in(args.file):
            if record.problems:  # unreadable: reported, skipped; the other games still convert
                failures += 1
                for problem in record.problems:
                    print(format_problem(shown, record, problem), file=sys.stderr)
                continue
            if args.to == "dgn":
                writer.dgn(record)
                continue
            replayed = replay_record(record)
            if not replayed.valid:
                failures += 1
                for problem in replayed.problems:
                    print(format_problem(shown, record, problem), file=sys.stderr)
            writer.game(game_to_dict(replayed, states=args.states))
        writer.close()
    return 1 if failures else 0


class _Writer:
    """Streams documents out in the chosen format; JSON is the only one that frames them."""

    def __init__(self, out: TextIO, path: str) -> None:
        self.out = out
        self.path = path
        self.count = 0

    @staticmethod
    def make(kind: str, out: TextIO, path: str) -> "_Writer":
        return {"json": _JsonWriter, "jsonl": _JsonLinesWriter, "csv": _CsvWriter, "dgn": _Writer}[kind](out, path)

    def game(self, doc: dict[str, Any]) -> None:
        raise NotImplementedError

    def dgn(self, record: GameRecord) -> None:
        if self.count:
            self.out.write("\n")
        self.out.write(write_game(record))
        self.count += 1

    def close(self) -> None:
        pass


class _JsonWriter(_Writer):
    def game(self, doc: dict[str, Any]) -> None:
        self.out.write('{"games": [\n' if not self.count else ",\n")
        self.out.write(json.dumps(doc, ensure_ascii=False))
        self.count += 1

    def close(self) -> None:
        self.out.write('{"games": []}\n' if not self.count else "\n]}\n")


class _JsonLinesWriter(_Writer):
    def game(self, doc: dict[str, Any]) -> None:
        self.out.write(json.dumps(doc, ensure_ascii=False) + "\n")


class _CsvWriter(_Writer):
    def __init__(self, out: TextIO, path: str) -> None:
        super().__init__(out, path)
        self.csv = csv.writer(out, lineterminator="\n")
        self.csv.writerow(CSV_COLUMNS)

    def game(self, doc: dict[str, Any]) -> None:
        self.csv.writerows(csv_rows(self.path, doc))


# --------------------------------------------------------------------------- JSON input


def _json_path(error: Any) -> str:
    return error.json_path if hasattr(error, "json_path") else "$"


def _records_from_json(path: str, source: str) -> Iterator[GameRecord]:
    """Documents checked against the schema before use; a bad one names its JSON path."""
    schema = game_schema()
    validator = Draft202012Validator(schema)
    game_validator = Draft202012Validator({"$ref": "#/$defs/game", "$defs": schema["$defs"]})
    shown = display_path(path)
    with open_text(path) as stream:
        if source == "json":
            doc = _load(stream.read(), shown, 1)
            _check(validator, doc, shown, prefix="")
            games = doc["games"]
            for game in games:
                yield record_from_dict(game)
            return
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            doc = _load(line, shown, number)
            _check(game_validator, doc, f"{shown}:{number}", prefix="")
            yield record_from_dict(doc)


def _load(text: str, shown: str, first_line: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{shown}:{error.lineno + first_line - 1}:{error.colno}: not JSON: {error.msg}",
                           status=1) from None


def _check(validator: Draft202012Validator, doc: Any, where: str, prefix: str) -> None:
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        error = min(errors, key=lambda e: -len(list(e.absolute_path)))
        raise CommandError(f"{where}: {_json_path(error)}: {error.message}", status=1)
