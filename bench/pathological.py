"""Pathological inputs: does `diamonds validate` stay linear in the size of what it reads?

    python bench/pathological.py                    # every case at 3 sizes, --scale 0.05 (a few minutes)
    python bench/pathological.py --scale 1 --timeout 1800     # the full sizes (long; needs disk and memory)
    python bench/pathological.py --cases one-line,long-trick --scale 0.2

At --scale 1 the largest size of each case is the full one:

    one-line            a 100 MB file with no line break: a game's tags and rounds on one line, its rounds
                        repeated (one giant game, so the whole of it is parsed before the replay objects)
    long-trick          a trick line of 1,000,000 cards (trick 1 of a real game with deal lines), fast reader
                        (the games are written without comments, so the fast reader takes them)
    long-trick-parser   the same, with a {comment} before it, so the Lark parser reads it
    long-tag            a tag value of 10 MB (with \\" and \\\\ escapes in it) on a valid game, fast reader
    long-tag-braces     the same with {braces} in the value (the game splitter scans it; the parser reads it)
    many-games          1,000,000 tiny games (a Players tag and a round header; every other one with the
                        wrong dealer, so half are invalid)
    comments-one-item   1,000,000 {comments} after one round header, 100 to a line
    comment-lines       1,000,000 lines of `; comment` inside a game
    commented-tricks    1,000,000 trick lines `k. 5H {c}`: a comment on each of many items
    commented-cards     1,000,000 cards `5H {c}` in one trick: a comment on each card

Each case is written at 1/4, 1/2 and all of its size (times --scale) into a temporary directory,
and `python -m diamonds.cli.main validate --quiet FILE` runs on each in a child process. For each run:
its size, wall seconds, seconds net of the interpreter's start-up (validating an empty file),
MB/s on the net time, peak RSS (from os.wait4's rusage), and the ratio of the net time to the
previous size's: about 2 for linear work when the size doubles, about 4 for quadratic. A run over
--timeout seconds is killed with its process group (`validate` starts worker processes for inputs
over 1 MB) and reported as TIMEOUT (a larger size is then not tried); a run over
--memory-gb of address space fails with MemoryError and is reported as OUT OF MEMORY.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "club-night-2026-11-20.dgn"  # 3 players, deal lines: game 1
LEAGUE = ROOT / "samples" / "1e-3p-league.dgn"


def _game_one() -> str:
    """Game 1 of the club night, without its comments: plain layout, so the fast reader takes it."""
    text = SAMPLE.read_text(encoding="utf-8")
    second = re.search(r"\n\s*\n\[", text)  # the next game's tags, after a blank line
    game = text[: second.start() + 1] if second else text
    game = re.sub(r"[ \t]*;[^\n]*", "", game)
    return re.sub(r"\{[^}]*\}\n?", "", game)


def _tags_and_movetext(text: str) -> tuple[str, str]:
    lines = text.split("\n")
    tags = [line for line in lines if line.startswith("[")]
    moves = [line for line in lines if line.strip() and not line.startswith("[")]
    return "\n".join(tags), "\n".join(moves)


def _write_repeated(out: TextIO, head: str, unit: Callable[[int], str], count: int, tail: str = "") -> None:
    out.write(head)
    batch: list[str] = []
    for k in range(count):
        batch.append(unit(k))
        if len(batch) >= 10_000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    out.write(tail)


# --------------------------------------------------------------------------- the cases

DECK = [f"{rank}{suit}" for suit in "DHSC" for rank in range(1, 16)]


def one_line(out: TextIO, size: int) -> str:
    tags, moves = _tags_and_movetext(LEAGUE.read_text(encoding="utf-8"))
    flat_moves = " " + re.sub(r"\s*;[^\n]*", "", moves).replace("\n", " ")
    head = tags.replace("\n", " ")
    count = max(1, (size - len(head)) // len(flat_moves))
    _write_repeated(out, head, lambda k: flat_moves, count)
    return f"{size / 1e6:.3g} MB"


def _long_trick(out: TextIO, cards: int, prefix: str) -> str:
    game = _game_one()
    first_trick = re.search(r"^1\. .*$", game, re.M)
    assert first_trick is not None
    head = game[: first_trick.end()]
    if prefix:
        head = head.replace("\nR1 ", f"\n{prefix}\nR1 ", 1)
    _write_repeated(out, head, lambda k: " " + DECK[k % len(DECK)], cards, game[first_trick.end():])
    return f"{cards:,} cards"


def long_trick(out: TextIO, cards: int) -> str:
    return _long_trick(out, cards, "")


def long_trick_parser(out: TextIO, cards: int) -> str:
    return _long_trick(out, cards, "{this comment sends the game to the Lark parser}")


def _long_tag(out: TextIO, size: int, unit: str) -> str:
    value = unit * max(1, size // len(unit))
    out.write(f'[Event "{value}"]\n')
    out.write(_game_one())
    return f"{len(value) / 1e6:.3g} MB value"


def long_tag(out: TextIO, size: int) -> str:
    return _long_tag(out, size, 'Club night \\"Leeds\\" \\\\ ')


def long_tag_braces(out: TextIO, size: int) -> str:
    return _long_tag(out, size, 'Club {night} \\"Leeds\\" \\\\ ')


def many_games(out: TextIO, games: int) -> str:
    def game(k: int) -> str:
        dealer = "Ann" if k % 2 == 0 else "Bob"
        return f'[Event "g{k}"]\n[Players "Ann Bob"]\n\nR1 dealer {dealer} pass 1\n\n'

    _write_repeated(out, "", game, games)
    return f"{games:,} games"


def comments_one_item(out: TextIO, comments: int) -> str:
    tags, moves = _tags_and_movetext(_game_one())
    header, rest = moves.split("\n", 1)
    per_line = "{a comment on the header} " * 100 + "\n"
    _write_repeated(out, tags + "\n\n" + header + "\n", lambda k: per_line, max(1, comments // 100), rest + "\n")
    return f"{comments:,} comments"


def comment_lines(out: TextIO, comments: int) -> str:
    tags, moves = _tags_and_movetext(_game_one())
    header, rest = moves.split("\n", 1)
    _write_repeated(out, tags + "\n\n" + header + "\n", lambda k: "; a line of comment\n", comments, rest + "\n")
    return f"{comments:,} comment lines"


def commented_tricks(out: TextIO, tricks: int) -> str:
    head = '[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n'
    _write_repeated(out, head, lambda k: f"{k + 1}. 5H {{c}}\n", tricks)
    return f"{tricks:,} commented tricks"


def commented_cards(out: TextIO, cards: int) -> str:
    head = '[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n1.'
    _write_repeated(out, head, lambda k: f" {DECK[k % len(DECK)]} {{c}}", cards, "\n")
    return f"{cards:,} commented cards"


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[TextIO, int], str]
    full: int  # the full size at --scale 1, in the case's own unit


CASES = (
    Case("one-line", one_line, 100_000_000),
    Case("long-trick", long_trick, 1_000_000),
    Case("long-trick-parser", long_trick_parser, 1_000_000),
    Case("long-tag", long_tag, 10_000_000),
    Case("long-tag-braces", long_tag_braces, 10_000_000),
    Case("many-games", many_games, 1_000_000),
    Case("comments-one-item", comments_one_item, 1_000_000),
    Case("comment-lines", comment_lines, 1_000_000),
    Case("commented-tricks", commented_tricks, 1_000_000),
    Case("commented-cards", commented_cards, 1_000_000),
)

# --------------------------------------------------------------------------- running


@dataclass
class Run:
    status: str  # "ok", "TIMEOUT", "OUT OF MEMORY", "CRASH (exit N)"
    seconds: float
    rss_mb: float
    summary: str


def run_validate(path: Path, timeout: float, memory_gb: float) -> Run:
    limit = int(memory_gb * 1024**3) if memory_gb else 0

    def child_limits() -> None:
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "diamonds.cli.main", "validate", "--quiet", str(path)], cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err, preexec_fn=child_limits,
                                start_new_session=True)  # its own process group: its workers die with it
        status = None
        while True:
            pid, wait_status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                os.killpg(proc.pid, signal.SIGKILL)  # the command and any worker processes it started
                pid, wait_status, usage = os.wait4(proc.pid, 0)
                status = "TIMEOUT"
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(wait_status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    code = proc.returncode
    if status is None:
        if code in (0, 1):
            status = "ok"
        elif "MemoryError" in stderr:
            status = "OUT OF MEMORY"
        else:
            status = f"CRASH (exit {code})"
    last = (stdout.strip() or stderr.strip() or "(no output)").splitlines()[-1]
    summary = last[:100]
    return Run(status, seconds, usage.ru_maxrss / 1024, summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.05, help="of the full sizes (default 0.05; 1 = full)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per run before it is killed")
    parser.add_argument("--memory-gb", type=float, default=12.0, help="address-space limit of a run (0: none)")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--sizes", default="0.25,0.5,1", help="fractions of the scaled size (default 0.25,0.5,1)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    args = parser.parse_args(argv)

    chosen = [c for c in CASES if not args.cases or c.name in args.cases.split(",")]
    fractions = [float(f) for f in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="diamonds-pathological-"))
    try:
        return measure(args, chosen, fractions, folder)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


def measure(args: argparse.Namespace, chosen: list[Case], fractions: list[float], folder: Path) -> int:
    print(f"python {sys.version.split()[0]}, scale {args.scale:g}, timeout {args.timeout:g}s, "
          f"memory limit {args.memory_gb:g} GB, files in {folder}", flush=True)
    empty = folder / "empty.dgn"
    empty.write_text("")
    base = min(run_validate(empty, 60, 0).seconds for _ in range(3))
    print(f"start-up (validate an empty file): {base:.2f} s; 'net' below is a run's time less this\n", flush=True)

    header = (f"{'case':<18} {'size':>24} {'bytes':>13} {'seconds':>8} {'net s':>8} {'MB/s':>7} "
              f"{'peak RSS':>9} {'ratio':>6}  result")
    print(header)
    print("-" * len(header), flush=True)
    verdicts = []
    for case in chosen:
        previous: tuple[float, float] | None = None  # (net seconds, size)
        ratios = []
        for fraction in fractions:
            size = max(1, int(case.full * args.scale * fraction))
            path = folder / f"{case.name}-{size}.dgn"
            with open(path, "w", encoding="utf-8", newline="\n") as out:
                label = case.make(out, size)
            nbytes = path.stat().st_size
            run = run_validate(path, args.timeout, args.memory_gb)
            net = max(run.seconds - base, 1e-3)
            rate = nbytes / 1e6 / net
            ratio = ""
            if previous is not None and run.status == "ok" and previous[0] >= 0.05:
                r = (net / previous[0]) / (size / previous[1])  # 1.0 when the time grows as the size
                ratio = f"{net / previous[0]:.2f}"
                if net > 0.3:  # too short to tell otherwise
                    ratios.append(r)
            shown = run.summary if run.status == "ok" else f"{run.status}: {run.summary}"
            print(f"{case.name:<18} {label:>24} {nbytes:>13,} {run.seconds:>8.2f} {net:>8.2f} {rate:>7.2f} "
                  f"{run.rss_mb:>6.0f} MB {ratio:>6}  {shown}", flush=True)
            if not args.keep:
                path.unlink()
            if run.status != "ok":
                verdicts.append((case.name, run.status))
                break
            previous = (net, size)
        else:
            if not ratios:
                verdicts.append((case.name, "too fast to tell (raise --scale)"))
            elif max(ratios) > 1.5:
                verdicts.append((case.name, f"NON-LINEAR: time grows {max(ratios):.1f}x faster than the size"))
            else:
                verdicts.append((case.name, "linear"))
    print("\nverdicts:")
    for name, verdict in verdicts:
        print(f"  {name:<18} {verdict}")
    return 0 if all(v in ("linear",) or v.startswith("too fast") for _, v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
