"""Crash safety of `diamonds record`: a real recorder process, fed through a pipe, killed with SIGKILL.

For one game of every family the text the file must hold after each prefix of the input lines is
computed in-process first. Then a chain of real `diamonds record` processes records the game: each is
killed with SIGKILL at a random point and the next one resumes the file (`diamonds record FILE`) and
goes on from where the file says it stopped, until the last one finishes the game. Two kinds of kill:

- after an item: once the file shows line k accepted, at a random small delay (the recorder waits for
  input): the file must hold exactly the first k lines;
- mid-write: a burst of lines is fed and the process is killed a random moment later, wherever it is
  (checking, writing the temporary file, replacing): the file must hold the first j lines for some j
  at least the lines already seen accepted (the atomic replace leaves the old text or the new one).

After every kill the file must be a valid DGN game with `Result "*"` (a game is lost otherwise), and
the finished file must equal the uninterrupted recording. Nothing here is timed: delays are random,
the waits have generous deadlines, and the figures asked of the recorder are counts.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_record import game_and_lines, options_for, recorder_for

from diamonds.notation.reader import parse_game
from diamonds.replay.recorder import leftover_temporaries
from diamonds.replay.validate import validate_record

pytestmark = pytest.mark.process  # chains of real recorders, SIGKILLed

SEED = 20261120
KILLS_PER_GAME = int(os.environ.get("DIAMONDS_RECORD_KILLS", "10"))  # 4 games: 40 kill points by default
DEADLINE = 120.0  # seconds for a line to show in the file, under any load; a failure, not a figure

#: One game per family: (rules, players, variants, deal lines, trick lines split into cards, seed).
GAMES = [
    ("1e", 3, (), True, False, 3),
    ("2e", 4, ("partnership",), False, True, 3),
    ("kirk", 4, (), True, True, 3),
    ("bidding", 3, (), False, False, 6),
]


@dataclass(frozen=True, slots=True)
class Kill:
    """What one kill left: the lines fed before it, the prefix the file held after it, and how it was made."""

    fed: int
    acknowledged: int
    found: int
    mid_write: bool
    left_temporary: bool  # the kill fell inside `write_through`: its temporary file was left beside FILE


def input_lines(rules: str, count: int, variants: tuple[str, ...], deals: bool, split: bool,
                seed: int) -> tuple[object, list[str], str]:
    game, expected, lines = game_and_lines(rules, count, variants, deals, seed)
    if split:
        lines = [part for line in lines for part in (line.split()[1:] if line[0].isdigit() else [line])]
    return game, lines, expected


def setup_options(game: object) -> list[str]:
    """The command line's set-up for the simulated game, as `recorder_for` makes it in-process."""
    config = game.config  # type: ignore[attr-defined]
    options = ["--rules", config.rules, "--players", " ".join(config.players),
               "--dealer", config.players[config.first_dealer], "--date=none"]  # no Date tag, as in-process
    variant = getattr(config, "variant_text", "")
    options += [f"--variant={variant}"] if variant else []
    options += [f"--{tag.lower()}={value}" for tag, value in options_for(config.rules).items()]
    return options


def prefix_texts(game: object, lines: list[str]) -> tuple[list[str], dict[int, str]]:
    """texts[k]: the file after the first k lines, as the recorder makes it in-process; and for a line
    that ends on a question (the round's last card, whose Clubs award the `end` line on the next line
    names, R14), what of it is not yet in the file: after a kill there, the scorer types that again."""
    recorder = recorder_for(game)
    texts = [recorder.text]
    waiting: dict[int, str] = {}
    for number, line in enumerate(lines, 1):
        outcome = recorder.enter(line)
        assert outcome.refusal is None, (line, outcome)
        if outcome.question is not None:
            words = line.split()[1:] if line[0].isdigit() else line.split()
            waiting[number] = " ".join(words[len(outcome.accepted):])
        texts.append(recorder.text)
    assert recorder.pending is None
    assert len(set(texts)) == len(texts), "every line must change the file, or a prefix is ambiguous"
    return texts, waiting


def rest_of(lines: list[str], done: int, waiting: dict[int, str]) -> list[str]:
    """The input after a kill that left the file at `done` lines."""
    return ([waiting[done]] if done in waiting else []) + lines[done:]


def read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


class Recording:
    """One `diamonds record` process fed through a pipe: exec'd (`python -m diamonds.cli.main record …`),
    or forked from a server that has imported the command already (the same `main` in a process of its
    own, reading a named pipe as its standard input), which spares the interpreter's start at most kills."""

    def __init__(self, path: Path, options: list[str], log: Path, *, forked: bool) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.child = None
        self.log = log
        if not forked:
            with open(log, "ab") as err:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "diamonds.cli.main", "record", str(path), *options],
                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err)
            assert self.process.stdin is not None
            self.stdin = self.process.stdin
            return
        fifo = path.with_name(f"{path.name}.{time.monotonic_ns()}.fifo")
        os.mkfifo(fifo)
        # The target is `exec` of the text below, so that the forked process imports nothing more
        # (not this module, nor pytest): standard input the named pipe, standard error the log.
        code = FORKED.format(fifo=str(fifo), log=str(log), argv=["record", str(path), *options])
        self.child = FORKS.Process(target=exec, args=(code,))
        with FORK_LOCK:
            self.child.start()
        self.stdin = open(fifo, "wb")  # opens once the recorder has opened its end

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        with FORK_LOCK:
            return bool(self.child.is_alive())

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        else:
            with FORK_LOCK:
                os.kill(self.child.pid, signal.SIGKILL)
                self.child.join()
            assert self.child.exitcode == -signal.SIGKILL, (self.child.exitcode, self.log.read_text())
        try:
            self.stdin.close()
        except BrokenPipeError:
            pass


FORKED = """
import os, sys
os.dup2(os.open({fifo!r}, os.O_RDONLY), 0)
os.dup2(os.open({log!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT), 2)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
sys.stdin = open(0, encoding="utf-8", closefd=False)
sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
from diamonds.cli.main import main
sys.exit(main({argv!r}))
"""


FORKS = multiprocessing.get_context("forkserver")
#: multiprocessing reads a forked child's exit status from one pipe, and `start` polls every child
#: (its clean-up): the chains' threads take turns, or two threads could each read half of one status.
FORK_LOCK = threading.Lock()
FORKS.set_forkserver_preload(["diamonds.cli.main", "diamonds.cli.record_cmd"])
#: Every killed recorder exec'd, not forked (slower: the interpreter starts at every kill point).
EXEC_ALL = bool(os.environ.get("DIAMONDS_RECORD_EXEC"))


def wait_for(path: Path, recording: Recording, wanted: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while read(path) != wanted:
        if not recording.alive():
            raise AssertionError(f"the recorder ended before writing {wanted[-40:]!r}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the file never showed {wanted[-60:]!r}")
        time.sleep(0.005)


def feed(recording: Recording, lines: list[str]) -> None:
    recording.stdin.write("".join(line + "\n" for line in lines).encode("utf-8"))
    recording.stdin.flush()


def check_prefix(text: str, texts: list[str], at_least: int) -> int:
    """The prefix the file holds after a kill: a valid unfinished game holding every acknowledged line."""
    assert text in texts, f"the file after a kill is no prefix of the recording:\n{text}"
    found = texts.index(text)
    assert found >= at_least, f"lines {found + 1}..{at_least} were acknowledged, then lost"
    replayed = validate_record(parse_game(text))
    assert not replayed.problems, replayed.problems
    assert parse_game(text).tag("Result").value == "*"  # type: ignore[union-attr]
    return found


def record_with_kills(tmp_path: Path, index: int, rules: str, count: int, variants: tuple[str, ...], deals: bool,
                      split: bool, seed: int) -> tuple[list[Kill], str, str]:
    game, lines, expected = input_lines(rules, count, variants, deals, split, seed)
    texts, waiting = prefix_texts(game, lines)
    assert texts[-1] == expected  # the uninterrupted recording is the simulated game
    rng = random.Random(SEED + index)
    path = tmp_path / f"{rules}.dgn"
    log = tmp_path / f"{rules}.log"
    points = sorted(rng.sample(range(1, len(lines)), KILLS_PER_GAME))
    kills: list[Kill] = []
    done = 0  # lines the file holds
    options = setup_options(game)
    for point in points:
        point = max(point, done + 1)
        assert point < len(lines), "a burst ran past the last kill point: choose another SEED"
        # The first recorder of a game is exec'd with its set-up; the ones that resume are forked.
        process = Recording(path, options if not kills else [], log, forked=bool(kills) and not EXEC_ALL)
        wait_for(path, process, texts[done])  # new, or resumed: the file as the last kill left it
        mid_write = rng.random() < 0.5
        pending = rest_of(lines, done, waiting)  # pending[i] is line done + i, or the rest of line done
        offset = done - (1 if done in waiting else 0)
        if mid_write:
            # Acknowledged up to a point, then a burst, killed wherever the recorder then is.
            acknowledged = rng.randrange(done, point)
            feed(process, pending[:acknowledged - offset])
            wait_for(path, process, texts[acknowledged])
            burst = min(len(lines) - 1, point + rng.randrange(0, 4))
            feed(process, pending[acknowledged - offset:burst - offset])
            time.sleep(rng.uniform(0.0, 0.05))
            fed = burst
        else:
            feed(process, pending[:point - offset])
            wait_for(path, process, texts[point])
            time.sleep(rng.uniform(0.0, 0.02))
            acknowledged = fed = point
        process.kill()
        found = check_prefix(read(path), texts, acknowledged)
        if not mid_write:
            assert found == point
        kills.append(Kill(fed, acknowledged, found, mid_write, bool(leftover_temporaries(str(path)))))
        done = found
    rest = "".join(line + "\n" for line in rest_of(lines, done, waiting))
    finish = subprocess.run([sys.executable, "-m", "diamonds.cli.main", "record", str(path)], input=rest,
                            capture_output=True, text=True, timeout=DEADLINE)
    assert finish.returncode == 0, finish.stderr
    assert "the game is over" in finish.stderr
    assert not leftover_temporaries(str(path))
    return kills, read(path), expected


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_recorders_resume_and_finish_the_same_game(tmp_path):
    # The four chains run side by side: each waits on its own processes.
    with ThreadPoolExecutor(max_workers=len(GAMES)) as pool:
        futures = [pool.submit(record_with_kills, tmp_path, index, *game) for index, game in enumerate(GAMES)]
        results = [future.result() for future in futures]
    tried = 0
    for (kills, written, expected), game in zip(results, GAMES):
        assert written == expected, game  # the killed and resumed recording is the uninterrupted one
        assert len(kills) == KILLS_PER_GAME
        tried += len(kills)
    assert tried >= 4 * KILLS_PER_GAME
    every = [kill for result in results for kill in result[0]]
    mid = [kill for kill in every if kill.mid_write]
    assert mid and len(mid) < len(every)  # both kinds of kill were made (the seed fixes which)
    print(f"\nrecord crash safety: {tried} kill points over {len(GAMES)} games, {len(mid)} of them mid-write "
          f"({sum(k.found < k.fed for k in mid)} before the whole burst was written, "
          f"{sum(k.left_temporary for k in every)} inside a write); games lost: 0")
