"""The `diamonds` command as a user meets it: exit codes, what goes to stdout and stderr.

Most tests call `diamonds.cli.main.main([...])` in the test process (an exception would
fail the test, so "no traceback" is checked by every one of them); a few run
`python -m diamonds.cli.main ...` as a real process, and one drives the interactive
replay through a pseudo-terminal.

Exit codes: 0 all valid, 1 a game is invalid (or an input is bad data),
2 the command cannot run (missing file, bad option).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from diamonds.cli import fmt_cmd
from diamonds.core import simulate
from diamonds.notation import parse_games
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.export import CSV_COLUMNS

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a wait for a screen, a pipe or an exit may last before it is a failure: against hangs only (issue 34).
HANG = 120.0
COMMANDS = ("replay", "validate", "convert", "schema", "fmt", "simulate", "arena", "analyse", "play")


# --------------------------------------------------------------------------- helpers


def game_text(players: int = 4, seed: int = 11, **options: object) -> str:
    """A complete, valid game in canonical DGN."""
    game = simulate(players, seed=seed, **options)  # type: ignore[arg-type]
    return write_game(record_from_game(game, tags=[("Event", "Test")]))


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def with_card_played_twice(text: str) -> str:
    """Round 1, trick 2 starts with the card that led trick 1 (already played: R8)."""
    lines = lines_of(text)
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    words = lines[first + 1].split()
    words[1] = lines[first].split()[1]
    lines[first + 1] = " ".join(words)
    return "\n".join(lines)


def unfinished(text: str) -> str:
    """The game cut during round 2 (after the passes and two tricks), its Result "*"."""
    lines = lines_of(text)
    second = next(i for i, line in enumerate(lines) if line.startswith("R2 "))
    kept = ['[Result "*"]' if line.startswith("[Result") else line for line in lines[: second + 11]]
    assert kept[-1].startswith("2. ")
    return "\n".join(kept) + "\n"


def messy(text: str) -> str:
    """The same game as a person might type it: odd spacing, lower case, suit symbols, comments."""
    out = []
    for line in lines_of(text):
        if re.match(r"\d+\. ", line):
            line = "  " + line.replace(" ", "   ").lower()
            if line.strip().startswith("1."):
                line += " {a good lead}"
        elif line.startswith("deal "):
            line = re.sub(r"\b(\d+)H\b", lambda m: m.group(1) + "♥", line)
        elif re.match(r"R\d+ dealer", line):
            line = re.sub(r"dealer (\w+)", lambda m: "dealer  " + m.group(1).lower(), line) + "   ; scored by Ann"
        elif line.startswith("[Result") and "*" not in line:
            entries = line[len('[Result "'):-2].split(", ")
            line = '[Result "' + " ,  ".join(reversed(entries)) + '"]'
        out.append(line)
    return "\n".join(out) + "\n\n\n"


def tidied(text: str) -> str:
    """What `messy(text)` becomes in canonical form, written out independently of the writer:
    the original canonical text with the two comments that `messy` added."""
    text = re.sub(r"(?m)^(R\d+ dealer \w+ pass \d)$", r"\1 ; scored by Ann", text)
    return re.sub(r"(?m)^(1\. .*)$", r"\1 {a good lead}", text)


@pytest.fixture(scope="module")
def text4() -> str:
    return game_text(4, 11)


@pytest.fixture()
def valid(tmp_path: Path, text4: str) -> Path:
    path = tmp_path / "game.dgn"
    path.write_text(text4, encoding="utf-8")
    return path


@pytest.fixture()
def invalid(tmp_path: Path, text4: str) -> Path:
    path = tmp_path / "twice.dgn"
    path.write_text(with_card_played_twice(text4), encoding="utf-8")
    return path


@pytest.fixture()
def archive(tmp_path: Path, text4: str) -> Path:
    """Three games: valid (3 players), invalid (card played twice), unfinished."""
    path = tmp_path / "archive.dgn"
    path.write_text(game_text(3, 5) + "\n" + with_card_played_twice(text4) + "\n" + unfinished(text4),
                    encoding="utf-8")
    return path


from command import ANSI, Run, diamonds  # noqa: E402,F401  (the fixture: the command in this process)


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR")}
    env.update(COLUMNS="80", LINES="24", PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    env.update(extra)
    return env


def as_user(*args: object, stdin: bytes | None = None, **env: str) -> Run:
    """`python -m diamonds.cli.main ARGS` in its own process, from the repository root."""
    done = subprocess.run([sys.executable, "-m", "diamonds.cli.main", *map(str, args)], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=HANG, env=subprocess_env(**env))
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert ANSI not in out and ANSI not in err
    return Run(done.returncode, out, err)


# --------------------------------------------------------------------------- help and version


def test_help_lists_the_commands_with_examples(diamonds) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("--help")
    assert run.code == 0
    for command in COMMANDS:
        assert command in run.out
    assert "examples:" in run.out and "diamonds replay game.dgn" in run.out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(diamonds, command: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds(command, "--help")
    assert run.code == 0
    assert f"usage: diamonds {command}" in run.out
    examples = run.out.split("examples:", 1)[1]
    assert f"diamonds {command}" in examples


def test_replay_help_names_every_option_of_the_issue(diamonds) -> None:  # type: ignore[no-untyped-def]
    out = diamonds("replay", "--help").out
    for option in ("--at", "--steps", "--game", "--as", "--svg", "--html", "--terminal-svg", "--terminal-html"):
        assert option in out


def test_version(diamonds) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("--version")
    assert run.code == 0
    assert re.fullmatch(r"diamonds \S+ \((compiled with mypyc|pure Python)\)\n", run.out)  # which build (docs/build.md)


def test_no_command_prints_help_and_exits_2(diamonds) -> None:  # type: ignore[no-untyped-def]
    run = diamonds()
    assert run.code == 2 and "COMMAND" in run.out


@pytest.mark.parametrize("args", [
    ["frobnicate"], ["validate"], ["validate", "--format", "xml", "x.dgn"], ["convert", "x.dgn"],
    ["convert", "x.dgn", "--to", "pdf"], ["simulate", "--players", "0"], ["replay"], ["replay", "x", "--game", "z"],
])
def test_usage_errors_exit_2_with_one_message(diamonds, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    run = diamonds(*args)
    assert run.code == 2
    assert "error:" in run.err and run.out == ""


# --------------------------------------------------------------------------- validate


def test_validate_a_valid_game(diamonds, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", valid)
    assert (run.code, run.out, run.err) == (0, "1 game: 1 valid, 0 invalid, 0 incomplete\n", "")


def test_validate_reports_file_line_column_rule_source_and_caret(diamonds, invalid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", invalid)
    assert run.code == 1
    assert run.out.split("\n") == [
        f"{invalid}:17:4: Cat cannot play 7H: it was already played in trick 1 (by Ann) (R8)",
        "    2. 7H 15D 9D 14D",
        "       ^^",
        "1 game: 0 valid, 1 invalid, 0 incomplete",
        "",
    ]


def test_validate_every_game_of_every_file(diamonds, archive: Path, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", valid, archive)
    assert run.code == 1
    # the second game of the archive starts after the 3-player game: its line numbers are the file's
    offset = len(game_text(3, 5).split("\n"))
    assert f"{archive}:{17 + offset}:4: Cat cannot play 7H" in run.out
    assert run.out.count("(R8)") == 1
    # an invalid game counts once; a valid unfinished game is valid, and counted as incomplete too
    assert run.out.endswith("4 games: 3 valid, 1 invalid, 1 incomplete\n")


def test_validate_quiet_prints_only_the_summary(diamonds, archive: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", "--quiet", archive)
    assert (run.code, run.out) == (1, "3 games: 2 valid, 1 invalid, 1 incomplete\n")


def test_validate_a_wrong_result_points_at_the_score(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "result.dgn"
    path.write_text(text4.replace("Ann 22,", "Ann 23,"), encoding="utf-8")
    run = diamonds("validate", path)
    assert run.code == 1
    head, source, caret = run.out.split("\n")[:3]
    assert head == f"{path}:5:14: the replay scores Ann 22, not 23 (R18)"
    assert source == '    [Result "Ann 23, Bob 32, Cat 26, Dan 34"]'
    assert caret == "    " + " " * 13 + "^^"


def test_validate_json(diamonds, archive: Path, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", "--format", "json", valid, archive)
    assert run.code == 1
    doc = json.loads(run.out)
    assert [f["path"] for f in doc["files"]] == [str(valid), str(archive)]
    games = doc["files"][1]["games"]
    assert [(g["index"], g["valid"], g["complete"]) for g in games] == [(1, True, True), (2, False, False),
                                                                        (3, True, False)]
    for game in doc["files"][0]["games"] + games:
        assert {"index", "valid", "complete", "errors"} <= set(game)
    error, = games[1]["errors"]
    assert set(error) == {"line", "column", "code", "rule", "message"}
    offset = len(game_text(3, 5).split("\n"))
    assert (error["line"], error["column"], error["rule"]) == (17 + offset, 4, "R8")
    assert error["message"] == "Cat cannot play 7H: it was already played in trick 1 (by Ann)"
    assert games[0]["errors"] == [] and games[2]["errors"] == []


def test_validate_json_all_valid_exits_0(diamonds, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", valid, "--format", "json")
    assert run.code == 0 and json.loads(run.out)["files"][0]["games"][0]["valid"] is True


def test_validate_reads_standard_input(diamonds, text4: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", "-", stdin=with_card_played_twice(text4).encode())
    assert run.code == 1
    assert run.out.startswith("<stdin>:17:4: ")


def test_validate_standard_input_as_a_user(text4: str) -> None:
    run = as_user("validate", "-", stdin=text4.encode())
    assert (run.code, run.out) == (0, "1 game: 1 valid, 0 invalid, 0 incomplete\n")


def test_validate_a_missing_file_exits_2(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", tmp_path / "nope.dgn")
    assert run.code == 2
    assert run.err == f"diamonds validate: {tmp_path / 'nope.dgn'}: no such file\n"


def test_validate_a_missing_file_as_a_user(tmp_path: Path) -> None:
    run = as_user("validate", tmp_path / "nope.dgn")
    assert run.code == 2 and "no such file" in run.err and run.out == ""


BAD_INPUTS = {
    "garbage": bytes(range(256)) * 8 + b"\xff\xfe\x00[R1 dealer",
    "invalid-utf8": b'[Event "caf\xe9 \xff"]\n[Players "Ann Bob"]\n\nR1 dealer Ann pass 1\n1. 5\xffD\n',
    "empty": b"",
    "nul": b"\x00\x00\x00",
    "only-tags": b'[Event "x"]\n[Players "Ann Bob Cat"]\n',
    "bad-tag": b'[Players "Ann Bob\n',
    "half-game": b'[Players "Ann Bob Cat"]\nR1 dealer Ann pass 9\n1. 15D 15D 15D\n',
    "utf16": '[Players "Ann Bob"]\n'.encode("utf-16"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
@pytest.mark.parametrize("command", [
    ["validate"], ["validate", "--format", "json"], ["replay"], ["replay", "--at", "R1.1"], ["replay", "--steps"],
    ["convert", "--to", "json"], ["convert", "--to", "csv"], ["convert", "--to", "dgn"], ["fmt", "--check"],
])
def test_bad_input_never_crashes(diamonds, tmp_path: Path, name: str, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / f"{name}.dgn"
    path.write_bytes(BAD_INPUTS[name])
    run = diamonds(command[0], path, *command[1:])
    assert run.code in (0, 1, 2)
    if command[0] == "validate" and name not in ("empty", "only-tags", "half-game"):
        assert run.code == 1  # every one of these holds an unreadable game
    if "json" in command and run.out:
        json.loads(run.out)


@pytest.mark.parametrize("name", ["garbage", "invalid-utf8", "empty"])
def test_bad_input_as_a_user(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.dgn"
    path.write_bytes(BAD_INPUTS[name])
    run = as_user("validate", path)
    assert run.code == 1  # an empty file holds no game: a warning and status 1
    run = as_user("replay", path)
    assert run.code in (1, 2) and run.err


@pytest.mark.parametrize("command", [["validate"], ["replay"], ["convert", "--to", "json"], ["fmt"]])
def test_a_folder_without_dgn_files_is_refused(diamonds, tmp_path: Path, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    run = diamonds(command[0], tmp_path, *command[1:])
    assert run.code == 2 and "a folder with no .dgn file" in run.err


def test_a_folder_without_dgn_files_as_a_user(tmp_path: Path) -> None:
    run = as_user("validate", tmp_path)
    assert run.code == 2 and run.err.strip() == (f"diamonds validate: {tmp_path}: a folder with no .dgn file; "
                                                 "name DGN files, or a folder holding some")


def test_an_unreadable_game_is_reported_and_the_next_one_still_checked(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "mixed.dgn"
    path.write_text('[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n1. 16H 2H 3H\n\n' + text4, encoding="utf-8")
    run = diamonds("validate", path)
    assert run.code == 1
    assert run.out.startswith(f'{path}:4:4: expected a card (such as 7D, 15C, 10H, QS or Jo), found "16H"\n'
                              "    1. 16H 2H 3H\n       ^^^\n")
    assert run.out.endswith("2 games: 1 valid, 1 invalid, 0 incomplete\n")


# --------------------------------------------------------------------------- schema and convert


@pytest.fixture(scope="module")
def schema() -> dict:
    run = as_user("schema")
    assert run.code == 0
    doc = json.loads(run.out)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(doc)
    return doc


def schema_errors(schema: dict, doc: object) -> list[str]:
    return [f"{e.json_path}: {e.message}" for e in Draft202012Validator(schema).iter_errors(doc)]


def test_the_schema_is_not_vacuous(schema: dict) -> None:
    assert schema_errors(schema, {"games": []}) == []
    assert schema_errors(schema, {"games": [{"index": 1}]})
    assert schema_errors(schema, {"gamez": []})


@pytest.mark.parametrize("states", [False, True])
def test_convert_to_json_validates_against_the_schema(diamonds, schema: dict, archive: Path, states: bool) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("convert", archive, "--to", "json", *(["--states"] if states else []))
    assert run.code == 1  # the archive holds an invalid game: exported, and reported
    assert "Cat cannot play 7H" in run.err
    doc = json.loads(run.out)
    assert schema_errors(schema, doc) == []
    first, second, third = doc["games"]
    assert first["players"] == ["Ann", "Bob", "Cat"] and first["valid"] and first["result"]["complete"]
    assert len(first["rounds"]) == 6 and all(len(r["tricks"]) == 10 for r in first["rounds"])
    assert [s["score"] for s in first["result"]["standings"]] == [38, 43, 53]
    assert second["valid"] is False and second["problems"][0]["rule"] == "R8"
    assert third["valid"] is True and third["result"]["complete"] is False
    assert ("states" in first) == states
    if states:
        assert first["states"][-1]["phase"] == "game over"


def test_convert_to_jsonl_one_game_per_line(diamonds, schema: dict, archive: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "games.jsonl"
    run = diamonds("convert", archive, "--to", "jsonl", "-o", out)
    assert run.code == 1 and run.out == ""
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    games = [json.loads(line) for line in lines]
    assert schema_errors(schema, {"games": games}) == []
    assert [g["index"] for g in games] == [1, 2, 3]


def test_convert_to_csv_one_row_per_card(diamonds, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("convert", valid, "--to", "csv")
    assert run.code == 0
    rows = list(csv.DictReader(io.StringIO(run.out)))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert len(rows) == 4 * 10 * 4
    first = rows[0]
    assert (first["file"], first["game"], first["round"], first["trick"], first["player"], first["card"]) == (
        str(valid), "1", "1", "1", "Ann", "7H")
    assert (first["suit"], first["rank"], first["led_suit"], first["followed"], first["won_trick"]) == (
        "H", "7", "H", "True", "False")
    winners = [r for r in rows if r["round"] == "1" and r["trick"] == "1" and r["won_trick"] == "True"]
    assert [w["card"] for w in winners] == ["9H"]
    off_suit = next(r for r in rows if r["round"] == "1" and r["trick"] == "1" and r["card"] == "2D")
    assert off_suit["followed"] == "False" and off_suit["actions"] == "off-suit:D:1"


def test_dgn_to_json_to_dgn_gives_the_canonical_text(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "messy.dgn"
    source.write_text(messy(text4) + "\n" + messy(game_text(3, 5)), encoding="utf-8")
    canonical = diamonds("convert", source, "--to", "dgn")
    assert canonical.code == 0
    assert canonical.out == tidied(text4) + "\n" + tidied(game_text(3, 5))
    json_file, jsonl_file = tmp_path / "games.json", tmp_path / "games.jsonl"
    assert diamonds("convert", source, "--to", "json", "-o", json_file).code == 0
    assert diamonds("convert", source, "--to", "jsonl", "-o", jsonl_file).code == 0
    assert diamonds("convert", json_file, "--to", "dgn").out == canonical.out
    assert diamonds("convert", jsonl_file, "--to", "dgn").out == canonical.out
    assert diamonds("convert", json_file, "--from", "json", "--to", "dgn").out == canonical.out


def test_a_canonical_file_converts_to_itself(diamonds, valid: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    assert diamonds("convert", valid, "--to", "dgn").out == text4


def test_json_from_standard_input(diamonds, valid: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    exported = diamonds("convert", valid, "--to", "json").out
    run = diamonds("convert", "-", "--from", "json", "--to", "dgn", stdin=exported.encode())
    assert (run.code, run.out) == (0, text4)


def export(diamonds, path: Path) -> dict:  # type: ignore[no-untyped-def]
    return json.loads(diamonds("convert", path, "--to", "json").out)


@pytest.mark.parametrize("change, where", [
    (lambda d: d["games"][0]["rounds"][0]["tricks"][2]["plays"][1].update(card="16Z"),
     "$.games[0].rounds[0].tricks[2].plays[1].card"),
    (lambda d: d["games"][0]["rounds"][1].pop("dealer"), "$.games[0].rounds[1]"),
    (lambda d: d["games"][0]["tags"][0].update(value=7), "$.games[0].tags[0].value"),
    (lambda d: d.update(games={}), "$.games"),
])
def test_bad_json_names_its_json_path(diamonds, valid: Path, tmp_path: Path, change, where: str) -> None:  # type: ignore[no-untyped-def]
    doc = export(diamonds, valid)
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = diamonds("convert", path, "--to", "dgn")
    assert run.code != 0 and run.out == ""
    assert run.err.startswith(f"diamonds convert: {path}: {where}: ")
    assert len(run.err.strip().split("\n")) == 1


def test_bad_json_as_a_user(valid: Path, tmp_path: Path, diamonds) -> None:  # type: ignore[no-untyped-def]
    doc = export(diamonds, valid)
    doc["games"][0]["rounds"][0]["tricks"][2]["plays"][1]["card"] = "16Z"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = as_user("convert", path, "--to", "dgn")
    assert run.code == 1 and run.out == ""
    assert "$.games[0].rounds[0].tricks[2].plays[1].card" in run.err and "16Z" in run.err


def test_json_that_is_not_json_says_where(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.json"
    path.write_text('{"games": [\n  {"index": 1,\n', encoding="utf-8")
    run = diamonds("convert", path, "--to", "dgn")
    assert run.code == 1 and re.match(rf"diamonds convert: {re.escape(str(path))}:3:\d+: not JSON: ", run.err)


def test_a_bad_line_of_json_lines_names_its_line(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = json.dumps(export(diamonds, valid)["games"][0])
    path = tmp_path / "games.jsonl"
    path.write_text(good + "\n\n" + '{"index": 2}\n', encoding="utf-8")
    run = diamonds("convert", path, "--to", "dgn")
    assert run.code == 1 and run.err.startswith(f"diamonds convert: {path}:3: $: ")


def test_json_converts_only_to_dgn(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(export(diamonds, valid)), encoding="utf-8")
    run = diamonds("convert", path, "--to", "csv")
    assert run.code == 2 and "only --to dgn" in run.err


def test_convert_output_to_an_impossible_place_exits_2(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("convert", valid, "--to", "json", "-o", tmp_path / "no" / "such" / "dir.json")
    assert run.code == 2 and "cannot write here" in run.err


def test_convert_writes_into_a_fifo_as_it_is_and_leaves_it_a_fifo(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """-o /dev/null or a named pipe: written to directly, never replaced by a file renamed over it."""
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    run = diamonds("convert", valid, "--to", "jsonl", "-o", fifo)
    reader.join(timeout=HANG)
    assert run.code == 0, run.err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [json.loads(line)["index"] for line in received[0].decode().splitlines()] == [1]
    assert not list(tmp_path.glob(".diamonds-*"))  # no temporary file was made beside it


def test_an_unreadable_game_is_left_out_of_an_export(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "mixed.dgn"
    path.write_text('[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n1. 16H\n\n' + text4, encoding="utf-8")
    run = diamonds("convert", path, "--to", "json")
    assert run.code == 1 and '"16H"' in run.err
    assert [g["index"] for g in json.loads(run.out)["games"]] == [2]


# --------------------------------------------------------------------------- fmt


def test_fmt_check_reports_and_changes_nothing(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "messy.dgn"
    original = messy(text4).encode()
    path.write_bytes(original)
    run = diamonds("fmt", "--check", path)
    assert (run.code, run.out) == (1, f"{path}: not in canonical form\n")
    assert path.read_bytes() == original


def test_fmt_rewrites_in_canonical_form_and_keeps_the_meaning(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "messy.dgn"
    before = messy(text4) + "\n" + messy(with_card_played_twice(game_text(4, 3)))
    path.write_text(before, encoding="utf-8")
    path.chmod(0o640)
    run = diamonds("fmt", path)
    assert (run.code, run.out) == (0, f"{path}: formatted\n")
    after = path.read_text(encoding="utf-8")
    assert after == tidied(text4) + "\n" + tidied(with_card_played_twice(game_text(4, 3)))
    assert after == "\n".join(write_game(r) for r in parse_games(before))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    old, new = parse_games(before), parse_games(after)
    assert len(old) == len(new) == 2
    for a, b in zip(old, new):
        ra, rb = replay_record(a), replay_record(b)
        assert (ra.valid, ra.complete) == (rb.valid, rb.complete)
        assert [(p.code, p.message, p.rule) for p in ra.problems] == [(p.code, p.message, p.rule) for p in rb.problems]
        assert ra.game is not None and rb.game is not None
        assert ra.game.moves == rb.game.moves
        assert ra.game.state == rb.game.state
    assert not replay_record(new[1]).valid  # an invalid game stays exactly as invalid
    again = diamonds("fmt", "--check", path)
    assert (again.code, again.out) == (0, "")
    assert diamonds("fmt", path).out == ""  # already canonical: not rewritten


def test_fmt_keeps_unreadable_games_as_they_were(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    broken = '[Event "broken"]\n[Players "Ann Bob Cat"]\n\nR1   dealer Ann pass 1\n1.  16H 2h {?}\n'
    path = tmp_path / "mixed.dgn"
    path.write_text(messy(game_text(3, 5)) + "\n" + broken + "\n" + messy(text4), encoding="utf-8")
    run = diamonds("fmt", path)
    assert run.code == 1 and "game 2 is unreadable and is kept as it is" in run.err  # reported: the run failed
    after = path.read_text(encoding="utf-8")
    assert after == tidied(game_text(3, 5)) + "\n" + broken + "\n" + tidied(text4)
    assert [bool(g.problems) for g in parse_games(after)] == [False, True, False]


def test_fmt_is_atomic_when_writing_fails(diamonds, tmp_path: Path, text4: str,  # type: ignore[no-untyped-def]
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "messy.dgn"
    original = messy(text4).encode()
    path.write_bytes(original)
    real = fmt_cmd.atomic_write
    written: list[str] = []

    class HalfDisk:
        """Writes half of what it is given, then the disk is full."""

        def __init__(self, stream: io.TextIOBase) -> None:
            self.stream = stream

        def write(self, text: str) -> int:
            self.stream.write(text[: len(text) // 2])
            self.stream.flush()
            written.append(text[: len(text) // 2])
            raise OSError(28, "No space left on device")

    from contextlib import contextmanager

    @contextmanager
    def failing_atomic_write(target: str, **options: object) -> Iterator[HalfDisk]:
        with real(target, **options) as stream:  # type: ignore[arg-type]
            yield HalfDisk(stream)

    monkeypatch.setattr(fmt_cmd, "atomic_write", failing_atomic_write)
    run = diamonds("fmt", path)
    assert written and written[0]  # it did fail part way through
    assert run.code == 2 and "No space left on device" in run.err
    assert path.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy.dgn"]  # no temporary file left behind


def test_fmt_refuses_standard_input_and_missing_files(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert diamonds("fmt", "-").code == 2
    run = diamonds("fmt", tmp_path / "nope.dgn")
    assert run.code == 2 and "no such file" in run.err


def test_fmt_check_of_several_files(diamonds, tmp_path: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    good, bad = tmp_path / "good.dgn", tmp_path / "bad.dgn"
    good.write_text(text4, encoding="utf-8")
    bad.write_text(messy(text4), encoding="utf-8")
    run = diamonds("fmt", "--check", good, bad)
    assert (run.code, run.out) == (1, f"{bad}: not in canonical form\n")


# --------------------------------------------------------------------------- simulate


def test_simulate_is_reproducible(diamonds) -> None:  # type: ignore[no-untyped-def]
    first = diamonds("simulate", "--players", "4", "--seed", "7")
    second = diamonds("simulate", "--players", "4", "--seed", "7")
    other = diamonds("simulate", "--players", "4", "--seed", "8")
    assert first.code == 0 and first.out == second.out and first.out != other.out
    assert '[Seed "7"]' in first.out and '[Players "Ann Bob Cat Dan"]' in first.out


@pytest.mark.parametrize("players, rules, variant", [
    (2, "2e", None), (3, "1e", None), (4, "bga", "partnership"), (5, "2e", "perfect"), (6, "1e", "partnership"),
    (4, "2e", "partnership,perfect"), (2, "1e", "perfect"),
])
def test_simulated_games_validate(diamonds, tmp_path: Path, players: int, rules: str, variant: str | None) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "sim.dgn"
    args = ["simulate", "--players", players, "--rules", rules, "--seed", 3, "--games", 2, "-o", out]
    if variant:
        args += ["--variant", variant]
    run = diamonds(*args)
    assert (run.code, run.out) == (0, "")
    check = diamonds("validate", out)
    assert (check.code, check.out) == (0, "2 games: 2 valid, 0 invalid, 0 incomplete\n")
    text = out.read_text(encoding="utf-8")
    assert f'[Rules "{rules}"]' in text and text.count('[Seed "') == 2
    assert '[Seed "3"]' in text and '[Seed "4"]' in text


@pytest.mark.parametrize("args, tag", [(["--hands", "2"], '[Hands "2"]'), (["--target", "150"], '[Target "150"]')])
def test_simulate_passes_a_rule_sets_own_tags_and_the_game_keeps_them(diamonds, tmp_path: Path, args: list[str],  # type: ignore[no-untyped-def]
                                                                      tag: str) -> None:
    run = diamonds("simulate", "--rules", "kirk", "--seed", "4", *args)
    assert run.code == 0 and tag in run.out
    path = tmp_path / "kirk.dgn"
    path.write_text(run.out, encoding="utf-8")
    assert diamonds("validate", path).out == "1 game: 1 valid, 0 invalid, 0 incomplete\n"
    if "--hands" in args:
        assert "\nR2 dealer" in run.out and "\nR3 dealer" not in run.out


def test_simulate_without_deal_lines_still_validates(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("simulate", "--players", "3", "--seed", "2", "--no-deals")
    assert run.code == 0 and "\ndeal " not in run.out
    path = tmp_path / "nodeals.dgn"
    path.write_text(run.out, encoding="utf-8")
    assert diamonds("validate", path).code == 0


def test_simulate_narrates(diamonds) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("simulate", "--players", "3", "--seed", "4", "--narrate")
    assert run.code == 0
    assert run.out.startswith("Round 1: ") and "Game over: " in run.out and "[Players" not in run.out


@pytest.mark.parametrize("args, words", [
    (["--players", "7"], "2 to 6 players"), (["--players", "1"], "2 to 6 players"),
    (["--variant", "bogus"], "unknown variant"), (["--games", "0"], "at least 1"),
    (["--players", "6", "--variant", "perfect"], "perfect"),
    (["--hands", "3"], "the Hands tag has no meaning in a 2e game"),
    (["--rules", "kirk", "--players", "3"], "exactly 4 players"),
    (["--rules", "kirk", "--variant", "perfect"], "K1"),
    (["--rules", "kirk", "--hands", "2", "--target", "100"], "Target"),
    (["--rules", "kirk", "--hands", "two"], "the number of hands must be a positive whole number"),
])
def test_simulate_refuses_impossible_games(diamonds, args: list[str], words: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("simulate", *args)
    assert run.code == 2 and words in run.err and run.out == ""


@pytest.mark.parametrize("command", [["simulate"], ["arena", "--bots", "random,greedy"]])
def test_a_count_of_games_below_one_is_refused_alike_by_every_command(diamonds, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    run = diamonds(*command, "--players", "2", "--games", "0")
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines()[-1] == f"diamonds {command[0]}: error: argument --games: must be at least 1"


def test_simulate_as_a_user_is_reproducible() -> None:
    first, second = as_user("simulate", "--seed", "5", "--players", "3"), as_user("simulate", "--seed", "5",
                                                                                "--players", "3")
    assert first.code == 0 and first.out == second.out
    assert first.out == game_text(3, 5).replace('[Event "Test"]', '[Event "Simulated game"]\n[Seed "5"]')


# --------------------------------------------------------------------------- replay


def test_replay_at_a_position_shows_it_and_exits(diamonds, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", valid, "--at", "R2.7")
    assert (run.code, run.err) == (0, "")
    lines = run.out.rstrip("\n").split("\n")
    assert lines[0].startswith("Round 2/4 · trick 7/10 · ") and "R2.7.4" in lines[0]
    assert "Trick 7, led ♣ Clubs: Ann 13C · Bob 13D (off) · Cat 2C · Dan 3C  → Ann wins" in run.out
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80


@pytest.mark.parametrize("position, label", [("R1.0", "R1.0"), ("R1.3.2", "R1.3.2"), ("R3.end", "R3.end"),
                                             ("start", "start"), ("end", "R4.end")])
def test_replay_at_each_kind_of_position(diamonds, valid: Path, position: str, label: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", valid, "--at", position)
    assert run.code == 0 and f"· {label}" in run.out.split("\n")[0]


@pytest.mark.parametrize("position, words", [("R9.1", "round 9"), ("R2.77", "trick 77"), ("nowhere", "not a position")])
def test_replay_at_a_bad_position_exits_2(diamonds, valid: Path, position: str, words: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", valid, "--at", position)
    assert run.code == 2 and run.out == "" and words in run.err and run.err.startswith("diamonds replay: ")


def test_replay_steps_prints_every_step_in_order(diamonds, valid: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", valid, "--steps")
    assert run.code == 0
    labels = [line.split()[0] for line in run.out.split("\n") if re.match(r"R\d+\.\S+\s", line)]
    expected = []
    for r in range(1, 5):
        expected += [f"R{r}.0"] + [f"R{r}.{t}.{c}" for t in range(1, 11) for c in range(1, 5)] + [f"R{r}.end"]
    assert labels == expected
    assert ("R1.1.4    Dan cannot follow Hearts, plays 2D\n"
            "          Dan: Diamonds action, 1 point Supply → Dan's Vault\n") in run.out
    assert "Game over: Ann 22, Bob 32, Cat 26, Dan 34 (wins)" in run.out
    assert run.out.count("Player") == 4  # the whole table after each round
    assert max(len(line) for line in run.out.split("\n")) <= 80


def test_replay_prints_the_steps_when_output_is_not_a_terminal(valid: Path) -> None:
    run = as_user("replay", valid)
    assert run.code == 0
    assert run.out.startswith("R1.0      Round 1: Dan deals; the Thief is with Ann\n")
    assert "R4.end" in run.out and "Game over" in run.out


def test_replay_picks_a_game(diamonds, archive: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", archive, "--game", "1", "--at", "R1.1")
    assert run.code == 0 and "Cat" in run.out and "Dan" not in run.out
    run = diamonds("replay", archive, "--game", "3", "--at", "R2.2")
    assert run.code == 0 and "R2.2.4" in run.out and "Dan" in run.out
    run = diamonds("replay", archive, "--game", "4")
    assert run.code == 2 and "fewer than 4 games" in run.err
    assert diamonds("replay", archive, "--game", "0").code == 2


def test_replay_of_an_invalid_game_reports_it_and_shows_what_came_before(diamonds, archive: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", archive, "--game", "2", "--at", "R1.1")
    assert run.code == 1
    assert "Cat cannot play 7H: it was already played in trick 1 (by Ann) (R8)" in run.err
    assert "R1.1.4" in run.out
    run = diamonds("replay", archive, "--game", "2", "--at", "R1.2")
    assert run.code == 2 and "trick 2 of round 1 is not in this game's replay" in run.err


def test_replay_as_a_player_hides_the_other_hands(diamonds, valid: Path, text4: str) -> None:  # type: ignore[no-untyped-def]
    everyone = diamonds("replay", valid, "--at", "R1.0").out
    bob = diamonds("replay", valid, "--at", "R1.0", "--as", "Bob").out
    assert "14D 1H 2H 3H 6H 8H 13H 12S" in everyone and "14D 1H 2H 3H 6H 8H 13H 12S" in bob
    assert "1D 2D 3D 4D 5D 11D 15D" in everyone and "1D 2D 3D 4D 5D 11D 15D" not in bob
    assert bob.count("10 cards") == 3
    assert "Cat passes 1 card to Dan" in bob and "Cat passes 15D to Dan" in everyone
    steps = diamonds("replay", valid, "--steps", "--as", "bob")  # ids are matched regardless of case
    assert steps.code == 0 and "Cat passes 1 card to Dan" in steps.out and "Cat passes 15D" not in steps.out
    run = diamonds("replay", valid, "--as", "Zed", "--at", "R1.1")
    assert run.code == 2 and "--as Zed: not a player of this game (Ann Bob Cat Dan)" in run.err


def test_replay_saves_the_terminal_screen_as_svg_and_html(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    svg, html = tmp_path / "pos.svg", tmp_path / "pos.html"
    run = diamonds("replay", valid, "--at", "R2.7", "--terminal-svg", svg, "--terminal-html", html, "--width", "80")
    assert run.code == 0 and "R2.7.4" in run.out
    svg_text, html_text = svg.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")
    assert svg_text.lstrip().startswith("<svg") and "R2.7.4" in svg_text
    assert "Ann&#160;wins&#160;trick&#160;7&#160;with&#160;13C" in svg_text  # SVG text keeps its spaces
    assert "<html" in html_text.lower() and "R2.7.4" in html_text and "Ann wins trick 7 with 13C" in html_text


def test_replay_terminal_svg_alone_saves_the_last_position(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    svg = tmp_path / "end.svg"
    assert diamonds("replay", valid, "--terminal-svg", svg).code == 0
    assert "R4.end" in svg.read_text(encoding="utf-8")


def test_replay_svg_into_a_missing_folder_exits_2(diamonds, valid: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", valid, "--at", "R1.1", "--terminal-svg", tmp_path / "no" / "x.svg")
    assert run.code == 2 and "No such file or directory" in run.err


def test_replay_from_standard_input(diamonds, text4: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", "-", "--at", "R1.1", stdin=text4.encode())
    assert run.code == 0 and "R1.1.4" in run.out


def test_replay_of_an_empty_file_says_so(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "empty.dgn"
    path.write_text("", encoding="utf-8")
    run = diamonds("replay", path)
    assert run.code == 1 and run.err == f"diamonds replay: warning: {path} holds no game\n" and not run.out


def test_replay_of_a_game_without_hands_notes_it(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "nohands.dgn"
    path.write_text('[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n1. 5D 6D 7D\n', encoding="utf-8")
    run = diamonds("replay", path, "--steps")
    assert run.code == 0 and "note: round 1 is unfinished and has no deal line" in run.err


# --------------------------------------------------------------------------- colours


def test_no_colour_when_not_a_terminal(valid: Path) -> None:
    for args in (["replay", valid, "--at", "R2.7"], ["replay", valid, "--steps"], ["validate", valid]):
        run = as_user(*args)  # as_user fails on any escape sequence
        assert run.code == 0 and run.out


# --------------------------------------------------------------------------- the interactive replay


class Terminal:
    """A child process in an 80×24 pseudo-terminal; every read has a deadline (HANG: only against a hang)."""

    def __init__(self, args: list[str], **env: str) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environment = subprocess_env(TERM="xterm-256color", **env)
        for name in ("COLUMNS", "LINES"):
            environment.pop(name, None)
        self.process = subprocess.Popen([sys.executable, "-m", "diamonds.cli.main", *args], cwd=ROOT, env=environment,
                                        stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                                        start_new_session=True)
        os.close(slave)
        self.output = b""

    def read_until(self, wanted: str, timeout: float = HANG) -> bool:
        """Read until `wanted` is on the screen (escape sequences taken out), or the time is up."""
        import select

        deadline = time.monotonic() + timeout
        while wanted not in self.text:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    return wanted in self.text
                if not data:
                    return wanted in self.text
                self.output += data
        return True

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_for_key_mode(self, timeout: float = HANG) -> bool:
        """Wait until the child reads single keys (cbreak): keys typed before that are dropped."""
        import termios

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not termios.tcgetattr(self.master)[3] & termios.ICANON:
                return True
            self.read_until("\x00never\x00", timeout=0.05)
        return False

    def finish(self, timeout: float = HANG) -> int | None:
        """Read until the child exits; its exit status, or None (then killed) if it does not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read_until("\x00never\x00", timeout=0.2)
            if self.process.poll() is not None:
                self.read_until("\x00never\x00", timeout=0.2)
                return self.process.returncode
        self.process.kill()
        self.process.wait(timeout=5)
        return None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=5)
        os.close(self.master)

    @property
    def text(self) -> str:
        plain = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]", b"", self.output)
        return plain.decode("utf-8", "replace")


posix_only = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "openpty"),
                                reason="pseudo-terminals are POSIX only")


@posix_only
def test_interactive_replay_in_a_terminal(valid: Path) -> None:
    term = Terminal(["replay", str(valid)])
    try:
        # it opens at the first card played (cards on the table), not "Before the first deal"
        assert term.read_until("Ann leads"), term.text[-2000:]
        assert "R1.1.1" in term.text
        assert "Before the first deal" not in term.text
        assert term.wait_for_key_mode(), term.text[-2000:]
        for key, shown in ((b"\x1b[D", "R1.0 (2/169)"), (b"\x1b[D", "start (1/169)"), (b"\x1b[C", "R1.0 (2/169)")):
            term.send(key)
            assert term.read_until(shown), term.text[-2000:]
        term.send(b"g")
        assert term.read_until("go to (R2.7"), term.text[-2000:]
        term.send(b"R1.3")
        assert term.read_until("R1.3▏"), term.text[-2000:]  # what was typed, and the cursor
        term.send(b"\r")
        assert term.read_until("R1.3.4"), term.text[-2000:]
        term.send(b"?")
        assert term.read_until("previous round"), term.text[-2000:]
        term.send(b"q")
        assert term.finish() == 0, term.text[-2000:]
    finally:
        term.close()
    text = term.text
    assert "Trick 3, led ♦ Diamonds: Dan 5D · Ann 11H (off) · Bob 8C (off) · Cat 14C (off)" in text
    assert "Traceback" not in text
    assert b"\x1b[?1049h" in term.output and b"\x1b[?1049l" in term.output  # the screen restored
    # and the position quit at is left on it, in the scrollback (without the keys' footer)
    after = term.output.split(b"\x1b[?1049l")[-1].decode("utf-8", "replace")
    assert "R1.3.4" in after and "Trick 3, led" in after and "q quit" not in after
    assert re.search(rb"\x1b\[[0-9;]*3[0-9]m", term.output)  # a terminal gets colours


@posix_only
def test_no_colour_on_a_terminal_with_NO_COLOR(valid: Path) -> None:
    term = Terminal(["replay", str(valid), "--at", "R1.3"], NO_COLOR="1")
    try:
        assert term.finish() == 0, term.text
    finally:
        term.close()
    assert "R1.3.4" in term.text
    assert not re.search(rb"\x1b\[[0-9;]*(3[0-9]|9[0-7])(;[0-9]+)*m", term.output), term.output[:500]
