"""Raw terminal input cut into key names (`cli.keys`): what the replay's navigator is fed."""

from __future__ import annotations

import pytest

from diamonds.cli.keys import SEQUENCES, partial_sequence, split_keys


def keys(data: str) -> list[str]:
    return list(split_keys(data))


@pytest.mark.parametrize("data, name", [
    ("\x1b[A", "up"), ("\x1b[B", "down"), ("\x1b[C", "right"), ("\x1b[D", "left"),
    ("\x1bOA", "up"), ("\x1bOB", "down"), ("\x1bOC", "right"), ("\x1bOD", "left"),  # application cursor mode
    ("\x1b[5~", "pgup"), ("\x1b[6~", "pgdn"),
    ("\x1b[H", "home"), ("\x1b[F", "end"), ("\x1bOH", "home"), ("\x1bOF", "end"),
    ("\x1b[1~", "home"), ("\x1b[4~", "end"), ("\x1b[7~", "home"), ("\x1b[8~", "end"),
])
def test_each_sequence_is_one_named_key(data: str, name: str) -> None:
    assert keys(data) == [name]


def test_every_known_sequence_is_covered() -> None:
    for data, name in SEQUENCES.items():
        assert keys(data) == [name]


@pytest.mark.parametrize("data, names", [
    ("\r", ["enter"]), ("\n", ["enter"]), (" ", ["space"]), ("\x7f", ["backspace"]), ("\x08", ["backspace"]),
    ("\x1b", ["escape"]), ("\x03", ["q"]), ("\x04", ["q"]),  # Ctrl+C and Ctrl+D leave like q
    ("q", ["q"]), ("?", ["?"]), ("]", ["]"]), ("[", ["["]), ("R", ["R"]), ("r", ["r"]),
])
def test_single_characters(data: str, names: list[str]) -> None:
    assert keys(data) == names


def test_several_keys_in_one_read() -> None:
    assert keys("\x1b[C\x1b[Cg") == ["right", "right", "g"]
    assert keys("gR1.3\r") == ["g", "R", "1", ".", "3", "enter"]
    assert keys("\x1b[5~n\x1b[D") == ["pgup", "n", "left"]
    assert keys("\x1b[6~\x1b[6~\x1b[H\x1b[F") == ["pgdn", "pgdn", "home", "end"]
    assert keys("\x1bOC \x1b[B]q") == ["right", "space", "down", "]", "q"]


def test_a_held_arrow_key_gives_one_name_per_press() -> None:
    assert keys("\x1b[C" * 25) == ["right"] * 25


def test_non_ascii_text_passes_through() -> None:
    assert keys("é♦") == ["é", "♦"]


def test_an_escape_followed_by_a_letter_is_escape_then_the_letter() -> None:
    assert keys("\x1bq") == ["escape", "q"]


@pytest.mark.parametrize("data", ["\x1b[Z", "\x1bOP", "\x1b[15~", "\x1b[1;5C", "\x1b[2~"])
def test_an_unknown_sequence_is_one_key_not_escape_plus_bracket(data: str) -> None:
    # F1, Shift+Tab, F5, Ctrl+Right, Insert: read as a whole, so their tail is not taken
    # for keys (a lone escape quits, "[" goes back a trick)
    assert keys(data) == [data]
    assert keys(data + "n") == [data, "n"]


def test_an_escape_sequence_cut_by_a_read_is_recognised() -> None:
    assert partial_sequence("nn\x1b") == 1
    assert partial_sequence("n\x1b[") == 2
    assert partial_sequence("\x1b[C\x1b[5") == 3
    assert partial_sequence("\x1bO") == 2
    assert partial_sequence("\x1b[1;5") == 5
    # complete, or not a sequence at all: nothing to wait for
    assert partial_sequence("\x1b[C") == 0
    assert partial_sequence("\x1b[5~") == 0
    assert partial_sequence("abc") == 0
    assert partial_sequence("\x1bq") == 0
    data = "\x1b[C" * 10 + "\x1b["
    cut = partial_sequence(data)
    assert keys(data[:-cut]) + keys(data[-cut:] + "C") == ["right"] * 11
