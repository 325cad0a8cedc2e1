"""The benchmark of issue 20: speed for every game family, measured against python-chess, pair by pair.

Run from the repository root (after `pip install ".[bench]"`, which brings python-chess):

    python bench/run.py                 # every family, the mixed corpus, the analysis and start-up figures
    python bench/run.py --quick         # a smoke run (small corpora, 3 pairs; under ~2 minutes)
    python bench/run.py --huge          # also 1 GB of DGN to Parquet and validated, with peak RSS
    python bench/run.py --corpus-dir D  # keep the corpora in D (reused when already there)
    python bench/run.py --compiled-python V/bin/python   # also the compiled build (docs/build.md), pair by pair

Both builds in one run: this Python's `diamonds` (the pure build, usually) and, with `--compiled-python`,
the one in another venv made with `DIAMONDS_COMPILE=1 pip install .`. Each is named by what it is
(`diamonds --version`), and each is paired with the same yardsticks in the same rounds.

What is counted (see bench/RESULTS.md):

- corpora are written by `diamonds simulate` (deal lines in every game), about `--size-mb` MB each,
  for Fitzgerald 2e with 4 players, Fitzgerald 1e with 3, kirk, bidding, and a mixed corpus of
  equal bytes of the four (games interleaved);
- played cards are the cards of trick lines only (not deal, pass or kitty lines, nor takes), counted
  from the parsed records when the corpus is made, never while a phase is timed;
- python-chess reads a PGN file of random legal games (`chess.pgn.read_game`), counting plies;
- every run is a whole process started through a small launcher that times it with
  `time.perf_counter` around `subprocess.run` and reads its peak RSS with
  `resource.getrusage(RUSAGE_CHILDREN)`; the in-process phases also report the seconds of their
  own work (imports, the Lark build and one warm-up game of each family excluded);
- ours and python-chess's runs alternate pair by pair (the order flips each pair), each pair gives
  a ratio, and the median ratio is printed beside its target, so that the machine's drift cancels.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# (name, rules, players): the corpora, one per family (Fitzgerald twice: 2e 4p is the headline)
FAMILIES: tuple[tuple[str, str, int], ...] = (
    ("fitzgerald-2e-4p", "2e", 4),
    ("fitzgerald-1e-3p", "1e", 3),
    ("kirk", "kirk", 4),
    ("bidding", "bidding", 3),
)
MIXED = "mixed"

# Targets (issue 20)
TARGET_CHESS = {"fitzgerald-2e-4p": 10.0, MIXED: 6.0}  # played cards/s over plies/s; others:
TARGET_CHESS_DEFAULT = 6.0
TARGET_SCAN = 0.3  # parse-only MB/s over the bare card-token scan's MB/s
TARGET_ANALYSIS = {"convert --to parquet": 0.5, "convert --to json": 0.6, "stats": 0.5}  # of validate's MB/s
TARGET_STARTUP = {"validate (1 game)": 0.08, "--version": 0.05, "convert --to parquet (1 game)": 0.3}  # s wall
TARGET_HUGE_RSS = {"validate": 50.0, "convert --to parquet": 200.0}  # MB, on 1 GB

# The launcher: a small process that runs one command and reports its wall time and peak RSS.
# Not the bench itself: a child's ru_maxrss starts at the size of the process it was forked from
# (Linux carries the parent's high-water mark over exec), so that process must be small. The
# launcher's own peak (its floor, about a bare Python's) is reported beside every figure.
_LAUNCHER = r"""
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                  "peak_rss_mb": usage.ru_maxrss / 1024, "floor_rss_mb": own, "exit": done.returncode,
                  "stdout": done.stdout.decode("utf-8", "replace")[-4000:],
                  "stderr": done.stderr.decode("utf-8", "replace")[-4000:]}))
"""


# The children's environment. A user's installed package has its bytecode (.pyc) cached; a shell
# with PYTHONDONTWRITEBYTECODE=1 makes every process compile every module of ours from source
# again (about 0.15 s here), which is no part of the program's speed. So the children run without
# it unless --env-as-is is given; main() says which.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def launch(args: list[str], *, ok: tuple[int, ...] = (0,)) -> dict[str, Any]:
    """Run `args` as a whole process through the launcher: wall seconds, peak RSS, its output."""
    out = subprocess.run([sys.executable, "-c", _LAUNCHER, *args], check=True, capture_output=True, text=True,
                         env=CHILD_ENV)
    figures: dict[str, Any] = json.loads(out.stdout)
    if figures["exit"] not in ok:
        raise SystemExit(f"{' '.join(args)} exited {figures['exit']}:\n{figures['stderr']}")
    return figures


def diamonds_command(python: str = sys.executable) -> list[str]:
    """`diamonds` as a user runs it: the console script beside `python`, else `python -m`."""
    script = Path(python).parent / "diamonds"
    if script.exists():
        return [str(script)]
    return [python, "-m", "diamonds.cli.main"]


@dataclass(frozen=True)
class Build:
    """One installed build of diamonds: its name (from `diamonds --version`) and its Python."""

    name: str  # "pure" or "compiled"
    python: str


def find_builds(compiled_python: str | None) -> list[Build]:
    """This Python's build, and the one beside `compiled_python` if given, each named by what it says it is."""
    builds = []
    for python in [sys.executable] + ([compiled_python] if compiled_python else []):
        said = subprocess.run(diamonds_command(python) + ["--version"], capture_output=True, text=True, check=True)
        name = "compiled" if "compiled" in said.stdout else "pure"
        if any(build.name == name for build in builds):
            raise SystemExit(f"{python} runs the {name} build too: {said.stdout.strip()}")
        builds.append(Build(name, python))
    return builds


# --------------------------------------------------------------------------- corpora


@dataclass
class Corpus:
    name: str
    path: Path
    games: int
    played: int  # trick cards
    size: int  # bytes

    @property
    def mb(self) -> float:
        return self.size / 1e6


def _game_texts(path: Path) -> list[str]:
    from diamonds.notation import game_texts

    with open(path, encoding="utf-8") as stream:
        return [text.rstrip("\n") + "\n\n" for _, _, text in game_texts(stream)]


def _simulate(rules: str, players: int, games: int, seed: int, out: Path) -> None:
    subprocess.run(diamonds_command() + ["simulate", "--rules", rules, "--players", str(players), "--seed", str(seed),
                                         "--games", str(games), "-o", str(out)], check=True)


def _count(path: Path) -> tuple[int, int]:
    """Games and played (trick) cards, from the parsed records; every game must read cleanly."""
    from diamonds.notation import read_games

    games = played = 0
    with open(path, encoding="utf-8") as stream:
        for record in read_games(stream):
            if record.problems:
                raise SystemExit(f"{path}: game {games + 1} does not read: {record.problems[0].message}")
            games += 1
            played += sum(len(trick.plays) for rnd in record.rounds for trick in rnd.tricks)
    return games, played


def make_corpora(folder: Path, size_mb: float, seed: int) -> tuple[list[Corpus], Path]:
    """One corpus per family and the mixed one, about `size_mb` MB each; reused if already in `folder`.

    Also a warm-up file with one game of each family (read before a phase's clock starts)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = int(size_mb * 1e6)
    texts: dict[str, list[str]] = {}
    for name, rules, players in FAMILIES:
        path = folder / f"{name}.dgn"
        stamp = folder / f"{name}.made"
        wanted = f"{rules} {players} {target} {seed}"
        if not (path.exists() and stamp.exists() and stamp.read_text() == wanted):
            probe = folder / f"{name}.probe.dgn"
            _simulate(rules, players, 10, seed, probe)
            per_game = probe.stat().st_size / 10
            probe.unlink()
            raw = folder / f"{name}.raw.dgn"
            _simulate(rules, players, math.ceil(target / per_game * 1.1) + 1, seed, raw)
            kept, size = [], 0
            for text in _game_texts(raw):  # whole games, up to the target size
                if size >= target:
                    break
                kept.append(text)
                size += len(text.encode("utf-8"))
            raw.unlink()
            path.write_text("".join(kept), encoding="utf-8")
            stamp.write_text(wanted)
        texts[name] = _game_texts(path)
    # The mixed corpus: the first games of each family up to a quarter of the size each, interleaved.
    quarters: list[list[str]] = []
    for name, _, _ in FAMILIES:
        part, size = [], 0
        for text in texts[name]:
            if size >= target / len(FAMILIES):
                break
            part.append(text)
            size += len(text.encode("utf-8"))
        quarters.append(part)
    mixed: list[str] = []
    for i in range(max(len(part) for part in quarters)):
        mixed.extend(part[i] for part in quarters if i < len(part))
    (folder / f"{MIXED}.dgn").write_text("".join(mixed), encoding="utf-8")
    warm = folder / "warmup.dgn"
    warm.write_text("".join(texts[name][0] for name, _, _ in FAMILIES), encoding="utf-8")
    corpora = []
    for name in [name for name, _, _ in FAMILIES] + [MIXED]:
        path = folder / f"{name}.dgn"
        games, played = _count(path)
        corpora.append(Corpus(name, path, games, played, path.stat().st_size))
    return corpora, warm


def make_pgn_corpus(path: Path, games: int, seed: int) -> int:
    """Random legal chess games of up to 80 plies; returns the plies (reused if already there)."""
    stamp = path.with_suffix(".made")
    if path.exists() and stamp.exists() and stamp.read_text().split()[:2] == [str(games), str(seed)]:
        return int(stamp.read_text().split()[2])
    import chess
    import chess.pgn

    rng = random.Random(seed)
    plies = 0
    with open(path, "w", encoding="utf-8") as out:
        for i in range(games):
            board = chess.Board()
            game = chess.pgn.Game()
            game.headers["Event"] = f"Bench {i + 1}"
            node: Any = game
            for _ in range(80):
                moves = list(board.legal_moves)
                if not moves:
                    break
                move = rng.choice(moves)
                node = node.add_variation(move)
                board.push(move)
                plies += 1
            out.write(str(game) + "\n\n")
    stamp.write_text(f"{games} {seed} {plies}")
    return plies


# --------------------------------------------------------------------------- phases (in a child)


def _card_pattern() -> str:
    """The grammar's own card token (its PLAY terminal), for the bare scan."""
    grammar = (ROOT / "grammars" / "dgn.lark").read_text(encoding="utf-8")
    found = re.search(r"^PLAY:\s*/(.*)/\s*$", grammar, re.MULTILINE)
    if not found:
        raise SystemExit("no PLAY terminal in grammars/dgn.lark")
    return found.group(1)


def _warm_up(warm: str, validate: bool) -> None:
    """Imports, the Lark build and each family's modules, before the clock starts."""
    from diamonds.notation import read_games
    from diamonds.replay import validate_record

    with open(warm, encoding="utf-8") as stream:
        for record in read_games(stream):
            if validate:
                validate_record(record)


def phase_parse(path: str, warm: str) -> dict[str, Any]:
    _warm_up(warm, validate=False)
    from diamonds.notation import read_games

    start = time.perf_counter()
    games = 0
    with open(path, encoding="utf-8") as stream:
        for _ in read_games(stream):
            games += 1
    return {"work_seconds": time.perf_counter() - start, "games": games}


def phase_validate(path: str, warm: str) -> dict[str, Any]:
    _warm_up(warm, validate=True)
    from diamonds.notation import read_games
    from diamonds.replay import validate_record

    start = time.perf_counter()
    games = invalid = 0
    with open(path, encoding="utf-8") as stream:
        for record in read_games(stream):
            games += 1
            invalid += not validate_record(record).valid
    return {"work_seconds": time.perf_counter() - start, "games": games, "invalid": invalid}


def phase_scan(path: str, warm: str) -> dict[str, Any]:
    pattern = re.compile(_card_pattern())
    start = time.perf_counter()
    data = Path(path).read_text(encoding="utf-8")  # decoded, as the reader must
    tokens = sum(1 for _ in pattern.finditer(data))
    return {"work_seconds": time.perf_counter() - start, "tokens": tokens}


def phase_chess(path: str, warm: str) -> dict[str, Any]:
    import chess.pgn

    start = time.perf_counter()
    games = 0
    with open(path, encoding="utf-8") as stream:
        while chess.pgn.read_game(stream) is not None:
            games += 1
    return {"work_seconds": time.perf_counter() - start, "games": games}


PHASES: dict[str, Callable[[str, str], dict[str, Any]]] = {
    "parse": phase_parse, "validate": phase_validate, "scan": phase_scan, "chess": phase_chess,
}


def run_phase(name: str, path: Path, warm: Path, python: str = sys.executable) -> dict[str, Any]:
    figures = launch([python, __file__, "--phase", name, str(path), str(warm)])
    figures.update(json.loads(figures.pop("stdout")))
    return figures


# --------------------------------------------------------------------------- the comparisons


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _verdict(value: float, target: float, at_least: bool = True) -> str:
    return "met" if (value >= target if at_least else value <= target) else "NOT met"


def _rotated(names: list[str], i: int) -> list[str]:
    """The names in the order of round `i`: rotated by one each round, so that no side always runs first."""
    shift = i % len(names)
    return names[shift:] + names[:shift]


def families(corpora: list[Corpus], warm: Path, pgn: Path, plies: int, pairs: int,
             builds: list[Build]) -> list[dict[str, Any]]:
    """Per corpus and build: validate against python-chess and parse against the bare scan, round by round
    (each round runs every build and the yardstick, in an order that rotates)."""
    results = []
    for corpus in corpora:
        for build in builds:
            results.append({"corpus": corpus.name, "build": build.name, "mb": corpus.mb, "games": corpus.games,
                            "played": corpus.played, "chess_target": TARGET_CHESS.get(corpus.name, TARGET_CHESS_DEFAULT),
                            "cps": [], "pps": [], "chess_ratios": [], "parse_mbs": [], "scan_mbs": [],
                            "scan_ratios": [], "rss": []})
        mine = results[-len(builds):]
        for i in range(pairs):
            runs = ["chess"] + [build.name for build in builds]
            got = {}
            for name in _rotated(runs, i):
                python = next((build.python for build in builds if build.name == name), sys.executable)
                got[name] = run_phase("chess" if name == "chess" else "validate",
                                      pgn if name == "chess" else corpus.path, warm, python)
            pps = plies / got["chess"]["work_seconds"]
            for build, r in zip(builds, mine):
                done = got[build.name]
                if done["games"] != corpus.games or done["invalid"]:
                    raise SystemExit(f"{corpus.name} ({build.name}): {done['games']} games read, "
                                     f"{done['invalid']} invalid (expected {corpus.games}, 0)")
                cps = corpus.played / done["work_seconds"]
                r["cps"].append(cps)
                r["pps"].append(pps)
                r["chess_ratios"].append(cps / pps)
                r["rss"].append(done["peak_rss_mb"])
            runs = ["scan"] + [build.name for build in builds]
            got = {}
            for name in _rotated(runs, i):
                python = next((build.python for build in builds if build.name == name), sys.executable)
                got[name] = run_phase("scan" if name == "scan" else "parse", corpus.path, warm, python)
            scan_mb = corpus.mb / got["scan"]["work_seconds"]
            for build, r in zip(builds, mine):
                parse_mb = corpus.mb / got[build.name]["work_seconds"]
                r["parse_mbs"].append(parse_mb)
                r["scan_mbs"].append(scan_mb)
                r["scan_ratios"].append(parse_mb / scan_mb)
        for r in mine:
            r.update({"cards_per_s": _median(r["cps"]), "plies_per_s": _median(r["pps"]),
                      "chess_ratio": _median(r["chess_ratios"]), "parse_mb_s": _median(r["parse_mbs"]),
                      "scan_mb_s": _median(r["scan_mbs"]), "scan_ratio": _median(r["scan_ratios"]),
                      "validate_rss_mb": max(r["rss"])})
        _print_family(mine)
    return results


def _print_family(rows: list[dict[str, Any]]) -> None:
    first = rows[0]
    print(f"{first['corpus']:18} {first['mb']:5.2f} MB {first['games']:5,} games {first['played']:9,} played cards")
    for r in rows:
        print(f"  {r['build']:8} parse+validate {r['cards_per_s']:11,.0f} played cards/s  python-chess "
              f"{r['plies_per_s']:9,.0f} plies/s  ratio {r['chess_ratio']:6.2f}  target >= {r['chess_target']:.0f}: "
              f"{_verdict(r['chess_ratio'], r['chess_target'])}"
              f"   (pairs: {', '.join(f'{x:.2f}' for x in r['chess_ratios'])}; peak RSS {r['validate_rss_mb']:.0f} MB)")
        print(f"  {r['build']:8} parse only     {r['parse_mb_s']:8.2f} MB/s   bare card-token scan {r['scan_mb_s']:8.2f} "
              f"MB/s (ceiling)  ratio {r['scan_ratio']:6.3f}  target >= {TARGET_SCAN}: "
              f"{_verdict(r['scan_ratio'], TARGET_SCAN)}   (pairs: {', '.join(f'{x:.3f}' for x in r['scan_ratios'])})")
    if len(rows) > 1:
        base = rows[0]
        for r in rows[1:]:
            speedup = [x / y for x, y in zip(r["cps"], base["cps"])]
            print(f"  {r['build']} over {base['build']}: {_median(speedup):.2f}x played cards/s "
                  f"(rounds: {', '.join(f'{x:.2f}' for x in speedup)})")


def analysis(corpus: Corpus, folder: Path, pairs: int, build: Build) -> dict[str, Any]:
    """`convert --to parquet`, `convert --to json` and `stats` against `validate`, whole processes, one
    process each (--jobs 1); each round runs the four, in an order that rotates, and each command's
    ratio is taken against that round's validate (of the same build)."""
    command = diamonds_command(build.python)
    tables, out_json = folder / "tables", folder / "out.json"
    commands: dict[str, list[str]] = {
        "validate": command + ["validate", "--quiet", "--jobs", "1", str(corpus.path)],
        "convert --to parquet": command + ["convert", str(corpus.path), "--to", "parquet", "-o", str(tables),
                                           "--jobs", "1"],
        "convert --to json": command + ["convert", str(corpus.path), "--to", "json", "-o", str(out_json),
                                        "--jobs", "1"],
        "stats": command + ["stats", str(corpus.path), "--format", "json", "--jobs", "1"],
    }
    names = list(commands)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    rss: dict[str, float] = {name: 0.0 for name in names}
    ratios: dict[str, list[float]] = {name: [] for name in names[1:]}
    for i in range(pairs):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            shutil.rmtree(tables, ignore_errors=True)
            figures = launch(commands[name])
            seconds[name].append(figures["seconds"])
            rss[name] = max(rss[name], figures["peak_rss_mb"])
        for name in names[1:]:
            ratios[name].append(seconds["validate"][-1] / seconds[name][-1])
    shutil.rmtree(tables, ignore_errors=True)
    out_json.unlink(missing_ok=True)
    print(f"\nanalysis, {build.name} build, on the {corpus.name} corpus ({corpus.mb:.2f} MB), whole processes, "
          f"--jobs 1, median of {pairs} rounds:")
    for name in names:
        mb_s = corpus.mb / _median(seconds[name])
        line = f"  {name:22} {_median(seconds[name]):7.2f} s {mb_s:6.2f} MB/s  peak RSS {rss[name]:5.0f} MB"
        if name != "validate":
            ratio, target = _median(ratios[name]), TARGET_ANALYSIS[name]
            line += (f"  {ratio:5.2f} of validate's MB/s  target >= {target}: {_verdict(ratio, target)}"
                     f"   (rounds: {', '.join(f'{x:.2f}' for x in ratios[name])})")
        print(line)
    return {"seconds": seconds, "ratios": ratios, "rss": rss}


def startup(folder: Path, one_game: Path, rounds: int, builds: list[Build]) -> dict[str, float]:
    """Wall time of small whole commands of every build, median of `rounds`, each round beside `python -c pass`
    (and python-chess reading one game, where it is installed)."""
    tables = folder / "one-tables"
    commands = {"python -c pass": [sys.executable, "-c", "pass"]}
    try:
        import chess.pgn  # noqa: F401  (only whether it is there)

        pgn = folder / "one-game.pgn"
        make_pgn_corpus(pgn, 1, 1)
        commands["python-chess (1 game)"] = [sys.executable, "-c", "import chess.pgn, sys; "
                                             "chess.pgn.read_game(open(sys.argv[1], encoding='utf-8'))", str(pgn)]
    except ImportError:
        pass
    for build in builds:
        command = diamonds_command(build.python)
        suffix = f" [{build.name}]" if len(builds) > 1 else ""
        commands.update({
            "--version" + suffix: command + ["--version"],
            "validate (1 game)" + suffix: command + ["validate", str(one_game)],
            "convert --to parquet (1 game)" + suffix: command + ["convert", str(one_game), "--to", "parquet", "-o",
                                                                 str(tables)],
        })
    seconds: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for i in range(rounds):
        names = list(commands)
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            shutil.rmtree(tables, ignore_errors=True)
            figures = launch(commands[name])
            seconds[name].append(figures["seconds"])
            cpu[name].append(figures["cpu_seconds"])
    shutil.rmtree(tables, ignore_errors=True)
    medians = {name: _median(values) for name, values in seconds.items()}
    named = ", ".join(f"{build.name}: {' '.join(diamonds_command(build.python))}" for build in builds)
    print(f"\nstart-up, wall seconds, median of {rounds} (the commands are {named}; "
          "beside each the CPU seconds, user + system, which a loaded machine moves less):")
    base = medians["python -c pass"]
    for name, value in medians.items():
        line = f"  {name:32} {value:6.3f} s  cpu {_median(cpu[name]):6.3f} s"
        target_name = name.split(" [")[0]
        if target_name in TARGET_STARTUP:
            target = TARGET_STARTUP[target_name]
            line += (f"  target <= {target:.2f} s: {_verdict(value, target, at_least=False)}"
                     f"   (python -c pass {base:.3f} s; {value - base:+.3f} s over it)")
        print(line)
    return medians


def huge(folder: Path, corpus: Corpus, megabytes: int) -> None:
    """1 GB (by default) of DGN, the mixed corpus repeated: converted to Parquet, then validated, start
    to finish as a user runs them (default --jobs), with the peak RSS of the largest process."""
    big = folder / "huge.dgn"
    chunk = corpus.path.read_bytes()
    with open(big, "wb") as out:
        written = 0
        while written < megabytes * 1_000_000:
            out.write(chunk)
            written += len(chunk)
    size = big.stat().st_size
    tables = folder / "huge-tables"
    print(f"\nhuge: {size:,} bytes of DGN (the {corpus.name} corpus repeated)")
    command = diamonds_command()
    try:
        for name, args in (("convert --to parquet", command + ["convert", str(big), "--to", "parquet", "-o",
                                                               str(tables)]),
                           ("validate", command + ["validate", "--quiet", str(big)])):
            figures = launch(args)
            rss, target = figures["peak_rss_mb"], TARGET_HUGE_RSS[name]
            print(f"  {name:22} {figures['seconds']:8.1f} s {size / 1e6 / figures['seconds']:6.2f} MB/s  "
                  f"peak RSS {rss:6.1f} MB (the largest process)  target < {target:.0f} MB: "
                  f"{'met' if rss < target else 'NOT met'}"
                  f"{'' if size >= 1e9 else ' (on a smaller file than 1 GB)'}")
    finally:
        shutil.rmtree(tables, ignore_errors=True)
        big.unlink(missing_ok=True)


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run: small corpora, 3 pairs, 3 start-up rounds")
    parser.add_argument("--size-mb", type=float, default=None, help="each corpus's size (default 1.5; --quick 0.15)")
    parser.add_argument("--pairs", type=int, default=None, help="pairs of runs per ratio (default 5; --quick 3)")
    parser.add_argument("--chess-games", type=int, default=None, help="PGN games (default 1000; --quick 150)")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--corpus-dir", type=Path, default=None, help="keep (and reuse) the corpora here")
    parser.add_argument("--only", choices=("families", "analysis", "startup", "huge"), action="append",
                        help="run only these parts (repeatable; `--only huge` is --huge alone)")
    parser.add_argument("--huge", action="store_true", help="also convert and validate 1 GB of DGN (peak RSS)")
    parser.add_argument("--huge-mb", type=int, default=1000, help="the size for --huge, MB (default 1000)")
    parser.add_argument("--env-as-is", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE for the children (every run then compiles our modules)")
    parser.add_argument("--compiled-python", metavar="PYTHON", default=None,
                        help="also measure the build installed for this Python (a venv of `DIAMONDS_COMPILE=1 pip install .`)")
    parser.add_argument("--phase", nargs=3, metavar=("NAME", "FILE", "WARMUP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        name, path, warm = args.phase
        print(json.dumps(PHASES[name](path, warm)))
        return 0

    global CHILD_ENV
    if args.env_as_is:
        CHILD_ENV = dict(os.environ)
    pyc = "off (PYTHONDONTWRITEBYTECODE, --env-as-is)" if CHILD_ENV.get("PYTHONDONTWRITEBYTECODE") else "on"
    size_mb = args.size_mb or (0.15 if args.quick else 1.5)
    pairs = args.pairs or (3 if args.quick else 5)
    chess_games = args.chess_games or (150 if args.quick else 1000)
    parts = set(args.only or ("families", "analysis", "startup"))
    builds = find_builds(args.compiled_python)
    scratch = Path(tempfile.mkdtemp(prefix="diamonds-bench-"))
    folder = args.corpus_dir or scratch
    try:
        t = time.perf_counter()
        corpora, warm = make_corpora(folder, size_mb, args.seed)
        pgn = folder / f"chess-{chess_games}.pgn"
        plies = make_pgn_corpus(pgn, chess_games, args.seed)
        print(f"corpora: {', '.join(f'{c.name} {c.size:,} B' for c in corpora)}; "
              f"PGN {pgn.stat().st_size:,} B, {plies:,} plies ({time.perf_counter() - t:.1f} s to make or check)")
        print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores; load average at the start "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
              f"bytecode caching in the children {pyc}")
        print(f"builds: {', '.join(f'{build.name} ({build.python})' for build in builds)}\n")
        if "families" in parts:
            families(corpora, warm, pgn, plies, pairs, builds)
        mixed = corpora[-1]
        if "analysis" in parts:
            for build in builds:
                analysis(mixed, scratch, pairs, build)
        if "startup" in parts:
            one = scratch / "one-game.dgn"
            one.write_text(_game_texts(corpora[0].path)[0], encoding="utf-8")
            startup(scratch, one, 3 if args.quick else 11, builds)
        if args.huge or "huge" in parts:
            free = shutil.disk_usage(scratch).free
            if free < 3 * args.huge_mb * 1e6:
                print(f"\nhuge: skipped, {free / 1e9:.1f} GB free where it would write")
            else:
                huge(scratch, mixed, args.huge_mb)
        print(f"\nload average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
