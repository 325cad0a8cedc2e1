"""Files as they come from other editors and older tools: a byte-order mark, Latin-1, bad bytes.

A UTF-8 byte-order mark at the very start is not part of the text (columns of line 1 do not
move) and `fmt` writes it back. A byte that is not of the input's encoding (UTF-8 unless
`--encoding` says otherwise) is refused with `file:line:col`, counted as the reader counts
(universal newlines; columns in characters), never read as U+FFFD. `fmt` writes a file back
in the encoding it was read with.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from command import diamonds  # noqa: F401  (the fixture: the command in this process)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diamonds.cli.errors import CommandError
from diamonds.cli.inputs import DecodedText, NotDecodable
from diamonds.core import simulate
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game

BOM = b"\xef\xbb\xbf"
HINT = "not UTF-8 (byte 0xE9); if the file is Latin-1, use --encoding latin-1"


@pytest.fixture(scope="module")
def game() -> str:
    """A complete, valid game in canonical DGN, with `[Event "Café"]` on its first line."""
    return write_game(record_from_game(simulate(4, rules="2e", seed=1), tags=[("Event", "Café")]))


def messy(text: str) -> str:
    """The same game, not in canonical form (extra spaces in the tricks)."""
    return "".join(line.replace(". ", ".   ", 1) if line[:1].isdigit() else line
                   for line in text.splitlines(keepends=True))


# --------------------------------------------------------------------------- byte-order mark


def test_validate_accepts_a_byte_order_mark(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "notepad.dgn"
    path.write_bytes(BOM + game.encode("utf-8"))
    run = diamonds("validate", path)
    assert run.code == 0, run
    assert run.out == "1 game: 1 valid, 0 invalid, 0 incomplete\n"


def test_a_byte_order_mark_does_not_move_the_columns_of_line_1(diamonds, tmp_path: Path, game: str) -> None:
    broken = game.replace('[Event "Café"]', '[Event "Café" x]', 1)  # `x` at line 1, column 15
    plain, marked = tmp_path / "plain.dgn", tmp_path / "marked.dgn"
    plain.write_bytes(broken.encode("utf-8"))
    marked.write_bytes(BOM + broken.encode("utf-8"))
    expected = diamonds("validate", plain)
    run = diamonds("validate", marked)
    assert run.code == expected.code == 1
    assert run.out.startswith(f"{marked}:1:15: "), run
    assert run.out.replace(str(marked), str(plain)) == expected.out
    assert "\ufeff" not in run.out  # nor in the source line shown under the message


def test_convert_and_replay_accept_a_byte_order_mark(diamonds, tmp_path: Path, game: str) -> None:
    plain, marked = tmp_path / "plain.dgn", tmp_path / "marked.dgn"
    plain.write_bytes(game.encode("utf-8"))
    marked.write_bytes(BOM + game.encode("utf-8"))
    for command in (("convert", "--to", "json"), ("convert", "--to", "dgn"), ("replay", "--at", "end")):
        expected = diamonds(command[0], plain, *command[1:])
        run = diamonds(command[0], marked, *command[1:])
        assert run.code == expected.code == 0, run
        assert run.out.replace(str(marked), str(plain)) == expected.out, command
    assert json.loads(diamonds("convert", marked, "--to", "json").out)["games"]


def test_fmt_keeps_the_byte_order_mark(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "notepad.dgn"
    path.write_bytes(BOM + messy(game).encode("utf-8"))
    assert messy(game) != game
    run = diamonds("fmt", path)
    assert run.code == 0, run
    assert path.read_bytes() == BOM + game.encode("utf-8")
    run = diamonds("fmt", "--check", path)  # canonical, mark and all: nothing to do
    assert (run.code, run.out) == (0, ""), run
    assert path.read_bytes() == BOM + game.encode("utf-8")


def test_fmt_keeps_crlf_line_endings_and_writes_a_mix_as_the_canonical_lf(diamonds, tmp_path: Path, game: str) -> None:
    """A file of CRLF lines (Notepad's) was written back with LF alone, while `--check` called a canonical
    CRLF file canonical: its line endings are kept, as its encoding and byte-order mark are."""
    windows = tmp_path / "windows.dgn"
    windows.write_bytes(messy(game).replace("\n", "\r\n").encode("utf-8"))
    assert diamonds("fmt", windows).code == 0
    assert windows.read_bytes() == game.replace("\n", "\r\n").encode("utf-8")
    run = diamonds("fmt", "--check", windows)
    assert (run.code, run.out) == (0, ""), run
    mixed = tmp_path / "mixed.dgn"
    lines = messy(game).split("\n")
    mixed.write_bytes(("\r\n".join(lines[:3]) + "\n" + "\n".join(lines[3:])).encode("utf-8"))
    assert diamonds("fmt", mixed).code == 0
    assert mixed.read_bytes() == game.encode("utf-8")


def test_fmt_adds_no_byte_order_mark(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "plain.dgn"
    path.write_bytes(messy(game).encode("utf-8"))
    assert diamonds("fmt", path).code == 0
    assert path.read_bytes() == game.encode("utf-8")


def test_a_byte_order_mark_inside_the_text_is_not_dropped(diamonds, tmp_path: Path, game: str) -> None:
    """Only the very first character can be a byte-order mark; elsewhere U+FEFF is text."""
    path = tmp_path / "twice.dgn"
    path.write_bytes(BOM + BOM + game.encode("utf-8"))
    run = diamonds("validate", path)
    assert run.code == 1
    assert run.out.startswith(f"{path}:1:1: ")


# --------------------------------------------------------------------------- not UTF-8


def latin1_file(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "old.dgn"
    path.write_bytes(game.encode("latin-1"))
    return path


@pytest.mark.parametrize("command", [("validate",), ("replay", "--at", "end"), ("convert", "--to", "json"),
                                     ("convert", "--to", "csv"), ("fmt",), ("fmt", "--check")])
def test_a_latin1_file_is_refused_with_where_and_a_hint(diamonds, tmp_path: Path, game: str, command) -> None:
    path = latin1_file(tmp_path, game)
    before = path.read_bytes()
    run = diamonds(command[0], path, *command[1:])
    assert run.code == 1, run
    assert f"diamonds {command[0]}: {path}:1:12: {HINT}\n" in run.err, run  # `[Event "Caf` is 11 characters
    if command[0] == "validate":  # counted in the summary; the next file is still checked
        assert run.out.endswith(", 1 file unreadable\n"), run
    assert "\ufffd" not in run.out
    assert path.read_bytes() == before


def test_validate_goes_on_with_the_next_file_after_one_it_cannot_decode(diamonds, tmp_path: Path, game: str) -> None:
    bad = latin1_file(tmp_path, game)
    good = tmp_path / "good.dgn"
    good.write_text(game.replace("Café", "Cafe"), encoding="utf-8")
    run = diamonds("validate", bad, good)
    assert run.code == 1, run
    assert run.out.splitlines()[-1] == "1 game: 1 valid, 0 invalid, 0 incomplete, 1 file unreadable"


def test_the_column_counts_characters_not_bytes(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "mixed.dgn"
    head = '[Site "Zürich – Caf'.encode()  # 19 characters, 22 bytes
    path.write_bytes(game.encode("utf-8").replace(b"\n", b"\n" + head + b'\xe9"]\n', 1))
    run = diamonds("validate", path)
    assert run.code == 1
    assert f"{path}:2:20: {HINT}" in run.out + run.err, run


def test_lines_are_counted_as_the_reader_counts_them(diamonds, tmp_path: Path) -> None:
    """\\r\\n and a lone \\r are line breaks (universal newlines), as in every other message."""
    path = tmp_path / "breaks.dgn"
    path.write_bytes(b'[Event "x"]\r\n; one\r; two\r\n\r; thr\xe9e\n')
    run = diamonds("validate", path)
    assert run.code == 1
    assert f"{path}:5:6: {HINT}" in run.out + run.err, run
    path.write_bytes(b'[Event "x"]\r\xe9')  # a \r held back at the end of a block is still a break
    run = diamonds("validate", path)
    assert f"{path}:2:1: {HINT}" in run.out + run.err, run


def test_standard_input_is_checked_too(diamonds, game: str) -> None:
    run = diamonds("validate", "-", stdin=game.encode("latin-1"))
    assert run.code == 1
    assert f"<stdin>:1:12: {HINT}" in run.out + run.err, run
    run = diamonds("validate", "-", "--encoding", "latin-1", stdin=game.encode("latin-1"))
    assert run.code == 0, run


def test_a_utf16_file_is_named_as_such(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "wide.dgn"
    path.write_bytes(game.encode("utf-16"))  # with its byte-order mark, FF FE or FE FF
    run = diamonds("validate", path)
    assert run.code == 1
    assert f"{path}:1:1: not UTF-8 (byte 0x{path.read_bytes()[0]:02X}); the file looks like UTF-16: " \
           "use --encoding utf-16" in run.out + run.err, run
    run = diamonds("validate", path, "--encoding", "utf-16")
    assert run.code == 0, run


def test_a_sequence_cut_at_the_end_of_the_file_is_refused(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "cut.dgn"
    path.write_bytes(game.encode("utf-8") + b"; caf\xc3")
    run = diamonds("validate", path)
    assert run.code == 1
    assert f"{path}:{game.count(chr(10)) + 1}:6: not UTF-8 (byte 0xC3); " in run.out + run.err, run


def test_a_character_across_blocks_is_read_whole(diamonds, tmp_path: Path, game: str) -> None:
    """Bytes are decoded 64 KiB at a time: a character cut by a block boundary is not an error."""
    data = game.encode("utf-8")
    padding = b"; " + b"x" * ((1 << 16) - 1 - len(data) - 2) + "é".encode() + b"\n"
    assert len(data) + padding.index(b"\xc3") == (1 << 16) - 1  # é's first byte ends the first block
    path = tmp_path / "blocks.dgn"
    path.write_bytes(data + padding + data)
    run = diamonds("validate", path)
    assert run.code == 0, run
    assert run.out.startswith("2 games: 2 valid")


def test_a_bad_byte_deep_in_a_large_file_is_placed_exactly(diamonds, tmp_path: Path, game: str) -> None:
    """Several MB, read in worker processes (--jobs 2): the line is counted across the whole file."""
    text = game.replace("Café", "Test")
    copies = 3_000_000 // len(text) + 1
    bad_game = copies - 7
    lines_before = bad_game * text.count("\n") + bad_game  # games are separated by a blank line
    data = "\n".join([text] * copies).encode("utf-8")
    at = len("\n".join([text] * bad_game).encode("utf-8")) + 1  # the start of that game
    data = data[:at] + data[at:].replace(b'[Event "Test"]', b'[Event "Tes\xe9"]', 1)
    path = tmp_path / "big.dgn"
    path.write_bytes(data)
    assert len(data) > 3_000_000
    run = diamonds("validate", "--quiet", "--jobs", "2", path)
    assert run.code == 1, run
    assert f"{path}:{lines_before + 1}:12: {HINT}" in run.out + run.err, run


# --------------------------------------------------------------------------- --encoding


def test_encoding_latin1_reads_old_logs(diamonds, tmp_path: Path, game: str) -> None:
    path = latin1_file(tmp_path, game)
    run = diamonds("validate", "--encoding", "latin-1", path)
    assert run.code == 0, run
    run = diamonds("convert", path, "--to", "json", "--encoding", "latin-1")
    assert run.code == 0, run
    assert "Café" in run.out and "\ufffd" not in run.out
    assert "Café" in json.dumps(json.loads(run.out), ensure_ascii=False)
    run = diamonds("replay", path, "--at", "end", "--encoding", "latin-1")
    assert run.code == 0, run


def test_fmt_writes_back_in_the_encoding_read(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "old.dgn"
    path.write_bytes(messy(game).encode("latin-1"))
    run = diamonds("fmt", "--encoding", "latin-1", path)
    assert run.code == 0, run
    assert path.read_bytes() == game.encode("latin-1")  # Café is still the one byte 0xE9
    assert diamonds("fmt", "--check", "--encoding", "latin-1", path).code == 0


def test_fmt_with_the_wrong_encoding_refuses_before_writing(diamonds, tmp_path: Path, game: str) -> None:
    path = tmp_path / "utf8.dgn"
    before = messy(game).encode("utf-8")
    path.write_bytes(before)
    run = diamonds("fmt", "--encoding", "ascii", path)  # é is two bytes of UTF-8, not ASCII
    assert run.code == 1 and f"{path}:1:12: not ascii (byte 0xC3); name the file's encoding" in run.out + run.err, run
    assert path.read_bytes() == before


def test_fmt_leaves_a_file_alone_if_its_encoding_cannot_write_the_result(diamonds, tmp_path: Path, game: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from diamonds.cli import fmt_cmd

    path = tmp_path / "old.dgn"
    before = messy(game).encode("latin-1")
    path.write_bytes(before)
    real = fmt_cmd.canonical_text  # as if the canonical text had a character that Latin-1 has not
    monkeypatch.setattr(fmt_cmd, "canonical_text", lambda records: real(records).replace("Café", "Caf☃"))
    monkeypatch.setattr(fmt_cmd, "_meaning", lambda value, name="": None)  # let the check pass: writing fails
    run = diamonds("fmt", "--encoding", "latin-1", path)
    assert run.code == 1, run
    assert f"{path}: left unchanged: latin-1 cannot write '☃'" in run.err
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name != "old.dgn"]  # no temporary file left


@pytest.mark.parametrize("command", [("validate",), ("replay",), ("convert", "--to", "json"), ("fmt",)])
def test_an_unknown_encoding_is_a_usage_error(diamonds, tmp_path: Path, game: str, command) -> None:
    path = tmp_path / "game.dgn"
    path.write_text(game, encoding="utf-8")
    run = diamonds(command[0], path, *command[1:], "--encoding", "klingon")
    assert run.code == 2, run
    assert "argument --encoding: unknown encoding 'klingon'" in run.err
    run = diamonds(command[0], path, *command[1:], "--encoding", "rot13")  # bytes to bytes: not a text encoding
    assert run.code == 2, run
    assert "not a text encoding" in run.err


# --------------------------------------------------------------------------- the stream itself


def test_the_stream_reads_a_block_at_a_time() -> None:
    """Checked as it is read: the bytes of a large input are not all read (nor held) at once."""
    raw = io.BytesIO(b"; " + b"x" * 10_000_000 + b"\n")
    stream = DecodedText(raw, "utf-8", "f")
    assert stream.read(100) == "; " + "x" * 98
    assert raw.tell() <= 1 << 16
    assert stream.readline() == "x" * (10_000_000 - 98) + "\n"
    assert stream.read() == ""


_PIECES = st.sampled_from(["a", "é", "☃", "\n", "\r", "\r\n", "\ufeff", "[", "; x"])


class Trickle(io.BytesIO):
    """A file that gives at most `step` bytes a read: characters, \\r\\n and the mark cut anywhere."""

    def __init__(self, data: bytes, step: int) -> None:
        super().__init__(data)
        self.step = step

    def read1(self, size: int | None = -1, /) -> bytes:
        return super().read1(self.step)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=30), st.integers(1, 9), st.integers(1, 4), st.booleans(),
       st.sampled_from([b"\xe9", b"\xff", b"\xc3(", b""]))
def test_the_stream_reads_as_a_text_file_would_and_places_bad_bytes(pieces, size, step, bom, bad) -> None:
    text = "".join(pieces)
    data = (BOM if bom else b"") + text.encode("utf-8")
    expected = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline=None).read()
    stream = DecodedText(Trickle(data + bad + b"z", step), "utf-8", "f")
    if not bad:
        parts = []
        while part := stream.read(size):
            assert len(part) <= size
            parts.append(part)
        assert "".join(parts) == expected + "z"
        assert stream.bom == data.startswith(BOM)
        lines = list(DecodedText(Trickle(data, step), "utf-8", "f"))
        assert lines == io.StringIO(expected, newline="").readlines()
        return
    with pytest.raises(NotDecodable) as raised:
        stream.read()
    lines = expected.split("\n")
    assert isinstance(raised.value, CommandError) and raised.value.status == 1
    assert (raised.value.line, raised.value.column) == (len(lines), len(lines[-1]) + 1)
    assert str(raised.value) == f"f:{len(lines)}:{len(lines[-1]) + 1}: not UTF-8 (byte 0x{bad[0]:02X}); " \
                                "if the file is Latin-1, use --encoding latin-1"
