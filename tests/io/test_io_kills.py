"""SIGKILL at random points of `record`, `convert` (every format) and `fmt`: every output is found as
it was or complete, never half; what a killed writer leaves (a temporary file, a staged folder) is
removed by the next run; a recorder loses no line it had written. `pytest -s` prints the counts."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from faultkit import game_lines, kill, run, simulated, start, temporaries, tree

pytestmark = [pytest.mark.process, pytest.mark.skipif(os.name != "posix", reason="SIGKILL")]

SEED = 19
KILLS_PER_KIND = 4
TRIES_PER_KIND = 40  # a bound against a command that always ends first; the halving waits need far fewer
FORMATS = ("json", "jsonl", "csv", "dgn", "parquet")


def _snapshot(path: Path) -> object:
    if path.is_dir():
        return tree(path)
    return path.read_bytes() if path.exists() else None


@pytest.mark.slow
def test_kills_leave_every_output_old_or_complete(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    source = tmp_path / "many.dgn"
    source.write_text(simulated(40, seed=3))  # long enough that most kills land while the output is written
    counts = {"kills": 0, "tries": 0, "old": 0, "complete": 0, "left": 0, "lost": 0}
    per_kind: dict[str, int] = {}

    def attempt(kind: str, args: list[object], output: Path, old: object, complete: object, seconds: float,
                restore: object) -> None:
        """Kill the command KILLS_PER_KIND times while it runs. A try it finished first is checked all the
        same, and the next waits at most half as long: the kills are counted, whatever the machine's speed."""
        longest = seconds * 1.3
        per_kind[kind] = 0
        for _ in range(TRIES_PER_KIND):
            if per_kind[kind] == KILLS_PER_KIND:
                break
            restore()  # type: ignore[operator]
            counts["tries"] += 1
            process = start(*args, cwd=tmp_path)
            time.sleep(rng.uniform(0.0, longest))
            if process.poll() is None:
                counts["kills"] += 1
                per_kind[kind] += 1
            else:
                longest /= 2
            kill(process)
            found = _snapshot(output)
            assert found in (old, complete), f"{kind}: a half output after a kill"
            counts["old" if found == old else "complete"] += 1
            counts["left"] += len(temporaries(output.parent))
        assert run(*args, cwd=tmp_path).code == 0  # the next run completes and clears what kills left
        assert _snapshot(output) == complete and not temporaries(output.parent), kind

    for to in FORMATS:
        output = tmp_path / (f"out-{to}" if to == "parquet" else f"out.{to}")
        args: list[object] = ["convert", source, "--to", to, "-o", output, "--jobs", "1"]
        began = time.monotonic()
        assert run(*args, cwd=tmp_path).code == 0
        seconds = time.monotonic() - began
        complete = _snapshot(output)

        def restore(output: Path = output, to: str = to) -> None:
            if output.is_dir():
                shutil.rmtree(output)
            elif output.exists():
                output.unlink()
            if to == "parquet":
                output.mkdir()
                (output / "games.parquet").write_bytes(b"old")
            else:
                output.write_bytes(b"old\n")

        restore()
        attempt(f"convert {to}", args, output, _snapshot(output), complete, seconds, restore)

    messy = source.read_text().replace("\n1. ", "\n1.  ")
    target = tmp_path / "fmt.dgn"
    target.write_text(messy)
    began = time.monotonic()
    assert run("fmt", target).code == 0
    seconds, complete = time.monotonic() - began, target.read_bytes()
    attempt("fmt", ["fmt", target], target, messy.encode(), complete, seconds,
            lambda: target.write_text(messy))

    lost, record_kills = _record_with_kills(tmp_path, rng)
    counts["lost"] += lost
    counts["kills"] += record_kills
    counts["tries"] += record_kills
    per_kind["record"] = record_kills
    assert counts["lost"] == 0
    assert per_kind == {kind: KILLS_PER_KIND for kind in per_kind} | {"record": KILLS_PER_KIND * 2}, per_kind
    assert counts["kills"] == KILLS_PER_KIND * (len(FORMATS) + 3)
    kinds = ", ".join(f"{kind} {n}" for kind, n in per_kind.items())
    print(f"\nio fault suite: {counts['kills']} kills (SIGKILL) in {counts['tries']} tries ({kinds}); outputs "
          f"found old {counts['old']}, complete {counts['complete']}, half 0; temporaries left by kills "
          f"{counts['left']}, all removed by the next run; bytes lost: {counts['lost']}")


def _movetext(text: str) -> list[str]:
    """The movetext's lines: every line but the tags (a file killed before its first item holds the tags alone,
    with no blank line after them, so splitting at the first blank line would count them as movetext)."""
    return [line for line in text.splitlines() if line.strip() and not line.startswith("[")]


def _record_with_kills(tmp_path: Path, rng: random.Random) -> tuple[int, int]:
    """A recording killed KILLS_PER_KIND * 2 times in bursts of lines and resumed each time; returns the
    bytes of lines found in the file before a kill and missing after it (must be 0), and the kills."""
    options, lines, _ = game_lines(seed=8, players=4)
    path = tmp_path / "rec.dgn"
    done, lost, kills = 0, 0, 0
    for _number in range(KILLS_PER_KIND * 2):
        fresh = not path.exists()  # the first recorder may be killed before it wrote the set-up
        process = start("record", path, *(options if fresh else []), stdin=subprocess.PIPE, cwd=tmp_path)
        assert process.stdin is not None
        burst = lines[done:done + rng.randrange(3, 9)]
        process.stdin.write("".join(line + "\n" for line in burst).encode())
        process.stdin.flush()
        time.sleep(rng.uniform(0.2, 0.8))
        before = _movetext(path.read_text()) if path.exists() else []
        kill(process)
        after = _movetext(path.read_text()) if path.exists() else []
        kills += 1
        assert after == lines[:len(after)], "the file after a kill is not a prefix of the game"
        lost += sum(len(line) + 1 for line in before[len(after):])
        done = len(after)
    finish = run("record", path, *(options if not path.exists() else []),
                 stdin="".join(line + "\n" for line in lines[done:]))
    assert finish.code == 0 and "the game is over" in finish.err, finish
    assert _movetext(path.read_text()) == lines and not temporaries(tmp_path)
    return lost, kills
