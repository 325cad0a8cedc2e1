"""One recorder per file (issue 19, findings 1 and 2): a second recorder is refused before it reads
the file, a live recorder's temporary file is never removed, and a file changed behind a recorder's
back is never overwritten."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from faultkit import game_lines, run, start, wait_until

pytestmark = [pytest.mark.process, pytest.mark.skipif(os.name != "posix", reason="flock, signals")]


def _feed(process: subprocess.Popen, lines: list[str]) -> None:
    assert process.stdin is not None
    process.stdin.write("".join(line + "\n" for line in lines).encode())
    process.stdin.flush()


def _recording(tmp_path: Path, name: str, written: int) -> tuple[Path, subprocess.Popen, list[str]]:
    """A recorder left running on tmp_path/name, once the game's first `written` lines are in the file:
    the file, the recorder, and the game's lines."""
    options, lines, _ = game_lines()
    path = tmp_path / name
    recorder = start("record", path, *options, stdin=subprocess.PIPE, cwd=tmp_path)
    _feed(recorder, lines[:written])
    wait_until(lambda: path.exists() and lines[written - 1] + "\n" in path.read_text())
    return path, recorder, lines


def test_a_second_recorder_is_refused_and_the_first_loses_nothing(tmp_path: Path) -> None:
    path, first, lines = _recording(tmp_path, "night.dgn", 5)
    # A temporary file of the live recorder (its pid in the name), as if caught mid-write.
    live_temporary = tmp_path / f".night.dgn.{first.pid}.0badc0de.record-tmp"
    live_temporary.write_text("mid-write")
    before = path.read_bytes()

    second = run("record", path, stdin="\n".join(lines[5:6]) + "\n", cwd=tmp_path)
    assert second.code == 2, second
    assert re.fullmatch(rf"diamonds record: {re.escape(str(path))} is being recorded \(pid {first.pid}, "
                        r"since \d\d:\d\d\)\n", second.err), second.err
    assert path.read_bytes() == before  # the second one wrote nothing
    assert live_temporary.exists()  # and cleaned up nothing of the live recorder's

    _feed(first, lines[5:10])
    assert first.stdin is not None
    first.stdin.close()
    assert first.wait(timeout=60) == 0, first.stderr.read() if first.stderr else ""
    text = path.read_text()
    assert all(line + "\n" in text for line in lines[:10])  # the first one's lines are all there
    live_temporary.unlink()
    # With the first one gone, a third resumes (the lock went with its process).
    third = run("record", path, stdin="", cwd=tmp_path)
    assert third.code == 0, third


def test_a_dead_recorders_temporary_file_is_removed_on_resume_a_live_ones_is_not(tmp_path: Path) -> None:
    options, lines, _ = game_lines()
    path = tmp_path / "g.dgn"
    assert run("record", path, *options, stdin="\n".join(lines[:3]) + "\n").code == 0
    dead = subprocess.Popen(["true"])
    dead.wait()
    dead_temporary = tmp_path / f".g.dgn.{dead.pid}.00000001.record-tmp"
    live_temporary = tmp_path / f".g.dgn.{os.getpid()}.00000002.record-tmp"  # this test's own pid: alive
    dead_temporary.write_text("x")
    live_temporary.write_text("y")
    assert run("record", path, stdin="\n".join(lines[3:4]) + "\n").code == 0
    assert not dead_temporary.exists() and live_temporary.exists()


def test_a_file_changed_behind_the_recorder_is_never_overwritten(tmp_path: Path) -> None:
    path, recorder, lines = _recording(tmp_path, "g.dgn", 3)
    mine_so_far = path.read_text()
    edited = mine_so_far.replace('[Result "*"]', '[Annotator "someone else"]\n[Result "*"]')
    time.sleep(0.01)
    path.write_text(edited)  # an editor saves the file while the recorder runs
    _feed(recorder, lines[3:5])
    assert recorder.stdin is not None
    recorder.stdin.close()
    code = recorder.wait(timeout=60)
    err = recorder.stderr.read().decode() if recorder.stderr else ""
    assert code == 2, err
    assert path.read_text() == edited  # the other edit stands
    kept = sorted(tmp_path.glob("g.mine-*.dgn"))
    assert len(kept) == 1 and f"is left as that program wrote it; this recording is saved as {kept[0]}" in err
    assert lines[3] + "\n" in kept[0].read_text()  # the recorder's own text, with the new line
