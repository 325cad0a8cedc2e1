"""Input cannot drive the terminal (issue 19, finding 8), and the smaller findings: a closed pipe exits
0 for every command, --terminal-svg loads nothing from the network, a too-long JSON number is named by
file and field."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from faultkit import BEL, ESC, command, env, game_lines, run, simulated

from diamonds.io.escape import quoted, visible

pytestmark = [pytest.mark.process, pytest.mark.skipif(os.name != "posix", reason="pipes")]

EVIL = f"{ESC}]0;owned{BEL}{ESC}[2J"


def evil_game() -> str:
    text = simulated(1, seed=5)
    text = text.replace('[Event "Simulated game"]', f'[Event "Evil {EVIL} game"]')
    first = text.index("\n1. ")
    end = text.index("\n", first + 1)
    line = text[first + 1:end]
    words = line.split()
    # A comment with the escapes, and the trick's last card played twice: a problem on that very line.
    broken = f"{words[0]} {words[1]} {{note {EVIL}}} {words[2]} {words[2]}"
    return text[:first + 1] + broken + text[end:]


def test_visible_escapes_controls_and_keeps_the_rest() -> None:
    assert visible("plain text, ♦ and é") == "plain text, ♦ and é"
    assert visible(f"a{ESC}[31mb{BEL}\tc\u202ed") == "a\\x1b[31mb\\x07\\tc\\u202ed"
    line, start, width = quoted(f"x {{{ESC}}} 7H", 6, 2)
    assert line == "x {\\x1b} 7H" and line[start:start + width] == "7H"


@pytest.mark.parametrize("args", [("validate",), ("replay", "--steps"), ("replay", "--at", "R1.1"),
                                  ("convert", "--to", "csv"), ("convert", "--to", "jsonl"), ("fmt", "--check"),
                                  ("stats",)])
def test_escape_bytes_never_reach_the_terminal(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "evil.dgn"
    path.write_text(evil_game())
    done = run(args[0], path, *args[1:])
    assert done.code in (0, 1), done
    for stream in (done.out, done.err):
        assert ESC not in stream and BEL not in stream
    if args[0] in ("validate", "replay", "convert") and args[-1] != "R1.1":
        shown = (done.err + "\n" + done.out).split("\n")  # diagnostics: stderr (validate: stdout)
        at = next(i for i, line in enumerate(shown) if "already played" in line)
        source, caret = shown[at + 1], shown[at + 2]
        assert "\\x1b]0;owned\\x07\\x1b[2J" in source
        column = caret.index("^")
        assert source[column:column + 2] == "8C" and caret.strip() == "^^"  # the caret on the escaped line


def test_json_output_stays_byte_exact(tmp_path: Path) -> None:
    text = simulated(1, seed=5).replace('[Event "Simulated game"]', f'[Event "Evil {EVIL} game"]')
    path = tmp_path / "evil.dgn"
    path.write_text(text)
    done = run("convert", path, "--to", "jsonl")
    assert done.code == 0 and "\\u001b]0;owned\\u0007" in done.out  # JSON's own escapes, as always
    back = run("convert", "-", "--from", "jsonl", "--to", "dgn", stdin=done.out)
    assert EVIL in back.out  # DGN is the data: exact


def test_the_recorder_escapes_what_it_echoes(tmp_path: Path) -> None:
    options, lines, _ = game_lines()
    done = run("record", tmp_path / "g.dgn", *options, stdin=f"{lines[0]}\nfoo{ESC}[2J{BEL}\n")
    assert done.code == 1 and "foo\\x1b[2J\\x07" in done.err and ESC not in done.err and BEL not in done.err


@pytest.mark.parametrize("args", [("replay", "--steps", "--game", "1"), ("validate",), ("convert", "--to", "jsonl"),
                                  ("simulate", "--games", "300")])
def test_a_closed_pipe_exits_0_quietly(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = tmp_path / "many.dgn"
    path.write_text(simulated(60, seed=2))
    argv = [*command(), args[0], *([] if args[0] == "simulate" else [str(path)]), *args[1:]]
    if args[0] == "validate":
        argv += [str(path)] * 40
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()  # `| head -1`
    process.stdout.close()
    code = process.wait(timeout=120)
    err = process.stderr.read().decode()
    assert code == 0 and err == "", (code, err)


def test_terminal_svg_loads_no_font_from_the_network(tmp_path: Path) -> None:
    path = tmp_path / "g.dgn"
    path.write_text(simulated(1, seed=5))
    picture = tmp_path / "screen.svg"
    assert run("replay", path, "--at", "R1.1", "--terminal-svg", picture).code == 0
    svg = picture.read_text()
    assert "@font-face" in svg and "url(\"http" not in svg and "cdnjs" not in svg


def test_a_too_long_json_number_is_named_by_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "g.dgn"
    path.write_text(simulated(1, seed=5))
    doc = run("convert", path, "--to", "json").out
    huge = tmp_path / "hugeint.json"
    huge.write_text(doc.replace('"index":1', '"index":' + "9" * 5000, 1))
    done = run("convert", huge, "--to", "dgn")
    assert done.code == 1
    assert done.err == (f"diamonds convert: {huge}: $.games[0].index: a number of 5000 digits, too long to read "
                        "(no field of a game holds a number of more than a few digits)\n")
    assert "set_int_max_str_digits" not in done.err
