"""Helpers of the fault suite: the real `diamonds` command in its own process, inputs, and checks.

Each test module imports this file by name (pytest puts this folder on sys.path: the tests folders
have no __init__.py)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ESC, BEL = "\x1b", "\x07"


def command() -> list[str]:
    """The installed `diamonds` script beside this interpreter, else `python -m diamonds.cli.main`."""
    script = Path(sys.executable).parent / "diamonds"
    if script.exists():
        return [str(script)]
    found = shutil.which("diamonds")
    return [found] if found else [sys.executable, "-m", "diamonds.cli.main"]


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "DIAMONDS_DEBUG")}
    out.update(COLUMNS="80", LINES="24", NO_COLOR="1")
    out.update(extra)
    return out


@dataclass
class Run:
    code: int
    out: str
    err: str


def run(*args: object, stdin: str | bytes | None = None, cwd: Path | None = None, timeout: float = 120,
        preexec: Any = None, **extra: str) -> Run:
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run([*command(), *map(str, args)], input=data, capture_output=True, timeout=timeout,
                          cwd=cwd, env=env(**extra), preexec_fn=preexec)
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return Run(done.returncode, out, err)


def start(*args: object, cwd: Path | None = None, stdin: Any = subprocess.DEVNULL, hangup: Any = signal.SIG_DFL,
          **extra: str) -> subprocess.Popen:
    """The command as its own process. SIGHUP starts as `hangup` (by default as a terminal's shell gives
    it, whatever the test runner was started with: under `nohup` it would be ignored, and the command
    rightly keeps running then)."""
    return subprocess.Popen([*command(), *map(str, args)], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, env=env(**extra),
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, hangup))


@cache
def simulated(games: int, seed: int = 7, players: int = 4, deals: bool = True) -> str:
    extra = [] if deals else ["--no-deals"]
    done = run("simulate", "--players", players, "--seed", seed, "--games", games, *extra)
    assert done.code == 0, done.err
    return done.out


def temporaries(folder: Path) -> list[str]:
    """Names a writer leaves only when it is killed outright: `.NAME.<pid>.<random>.tmp`, `.record-tmp`,
    staged folders `.tmp-dir`, and the old `.diamonds-*.tmp`."""
    return sorted(p.name for p in folder.iterdir()
                  if p.name.startswith(".") and (".tmp" in p.name or p.name.endswith(".record-tmp")))


def wait_until(predicate: Any, timeout: float = 30.0, step: float = 0.01) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(step)


def kill(process: subprocess.Popen, signum: int = signal.SIGKILL) -> tuple[int, str, str]:
    try:
        process.send_signal(signum)
    except ProcessLookupError:
        pass
    out, err = process.communicate(timeout=120)
    return process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def tree(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def game_lines(seed: int = 5, players: int = 3) -> tuple[list[str], list[str], str]:
    """A simulated game as `record` set-up options and movetext lines, and the game itself."""
    text = simulated(1, seed=seed, players=players)
    head, movetext = text.split("\n\n", 1)
    tags = dict(line[1:-1].split(" ", 1) for line in head.splitlines())
    tags = {k: v.strip('"') for k, v in tags.items()}
    options = ["--rules", tags["Rules"], "--players", tags["Players"], "--dealer", tags["Dealer"]]
    if tags.get("Variant"):
        options += ["--variant", tags["Variant"]]
    return options, [line for line in movetext.splitlines() if line.strip()], text
