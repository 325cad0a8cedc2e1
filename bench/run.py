"""The benchmark: how fast `diamonds` reads, checks and exports games, beside python-chess.

Run from the repository root (after `pip install ".[bench]"`):

    python bench/run.py                 # the standard corpus, all figures, both ratios
    python bench/run.py --games 200     # a quicker run
    python bench/run.py --big 1000      # also stream a generated file of 1000 MB
    python bench/run.py --analysis-only # only the analysis figures (Parquet, JSON, stats, Dask)

Each phase runs in a fresh child process, so its peak RSS is its own. The
corpus is generated with the simulator and a fixed seed; python-chess reads
a PGN corpus of random legal games that this script also generates.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # helpers beside the repo; `diamonds` itself comes from the install

TARGET_VALIDATE_RATIO = 10.0  # our cards/s (parse + validate) over python-chess plies/s
TARGET_SCAN_RATIO = 1 / 3  # our parse-only MB/s over a bare re.finditer scan
TARGET_PARQUET_SPEED = 0.5  # `convert --to parquet` MB/s over `validate` MB/s, one process each
TARGET_PARQUET_SIZE = 1.0  # the Parquet tables' bytes over the DGN's
TARGET_JSON_SIZE = 8.0  # compact JSON bytes over the DGN's
TARGET_JSON_SPEEDUP = 3.0  # compact JSON export over the full form's time (the full form is 0.1's export)
TARGET_BIG_RSS_MB = 200  # streaming a 1 GB file to Parquet


# --------------------------------------------------------------------------- corpora


def make_corpus(path: Path, games_4p: int, seed: int) -> tuple[int, int]:
    """4-player `2e` games with deal lines, then a mix of every rule set × players × variants.

    Returns the games and the cards written (in deal, pass and trick lines), counted here so
    that no phase spends its time counting."""
    from diamonds.core import ConfigError, simulate
    from diamonds.notation.writer import write_game
    from diamonds.replay import record_from_game

    combos = [(rules, n, variants) for rules in ("1e", "2e", "bga") for n in range(2, 7)
              for variants in ((), ("partnership",), ("perfect",), ("partnership", "perfect"))]
    games = cards = 0

    def write(record: Any) -> None:
        nonlocal games, cards
        out.write(write_game(record) + "\n")
        games += 1
        cards += _count_cards(record)

    with open(path, "w", encoding="utf-8") as out:
        rng = random.Random(seed)
        for i in range(games_4p):
            game = simulate(4, rules="2e", seed=rng.randrange(2**32))
            write(record_from_game(game, tags=[("Event", f"Bench {i + 1}")]))
        mix = max(1, games_4p // 4)
        for i in range(mix):
            rules, n, variants = combos[i % len(combos)]
            try:
                game = simulate(n, rules=rules, variants=variants, seed=rng.randrange(2**32))
            except ConfigError:
                continue
            write(record_from_game(game, tags=[("Event", f"Mix {i + 1}")], deals=i % 2 == 0))
    return games, cards


def make_pgn_corpus(path: Path, games: int, seed: int) -> int:
    """Random legal chess games of about 80 plies; returns the number of plies."""
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
    return plies


# --------------------------------------------------------------------------- phases (in a child)


def _count_cards(record: Any) -> int:
    return sum(len(line.cards) for rnd in record.rounds for line in rnd.hand_lines) + sum(
        len(trick.plays) for rnd in record.rounds for trick in rnd.tricks)


def phase_parse(path: str) -> dict[str, Any]:
    from diamonds.notation import read_games

    games = 0
    with open(path, encoding="utf-8") as stream:
        for _ in read_games(stream):
            games += 1
    return {"games": games}


def phase_validate(path: str) -> dict[str, Any]:
    from diamonds.notation import read_games
    from diamonds.replay import validate_record

    games = invalid = 0
    with open(path, encoding="utf-8") as stream:
        for record in read_games(stream):
            games += 1
            invalid += not validate_record(record).valid
    return {"games": games, "invalid": invalid}


def phase_export(path: str) -> dict[str, Any]:
    from diamonds.notation import read_games
    from diamonds.replay import replay_record
    from diamonds.replay.export import game_to_dict

    games = 0
    sink = io.StringIO()
    with open(path, encoding="utf-8") as stream:
        for record in read_games(stream):
            games += 1
            # As `diamonds convert --to json` does: events, but no snapshot per move (that is --states).
            sink.write(json.dumps(game_to_dict(replay_record(record, history=False))))
            sink.seek(0)
            sink.truncate()
    return {"games": games}


def phase_chess(path: str) -> dict[str, Any]:
    import chess.pgn

    games = 0
    with open(path, encoding="utf-8") as stream:
        while chess.pgn.read_game(stream) is not None:
            games += 1
    return {"games": games}


def phase_scan(path: str) -> dict[str, Any]:
    data = Path(path).read_bytes()
    tokens = sum(1 for _ in re.finditer(rb"\S+", data))
    return {"tokens": tokens}


PHASES: dict[str, Callable[[str], dict[str, Any]]] = {
    "parse": phase_parse, "validate": phase_validate, "export": phase_export, "chess": phase_chess,
    "scan": phase_scan,
}


# Imported before the clock starts: the library phases time reading, not Python's imports (the
# whole-process rows, `diamonds validate`, include them). The corpus is Fitzgerald's, so its bridge
# and export, which the registry loads on first use, are imported here too.
PHASE_IMPORTS: dict[str, tuple[str, ...]] = {
    "parse": ("diamonds.notation",),
    "validate": ("diamonds.notation", "diamonds.replay", "diamonds.families.fitzgerald.bridge"),
    "export": ("diamonds.notation", "diamonds.replay", "diamonds.families.fitzgerald.bridge", "diamonds.replay.export",
               "diamonds.families.fitzgerald.export"),
    "chess": ("chess.pgn",), "scan": (),
}


def run_phase_here(name: str, path: str) -> None:
    for module in PHASE_IMPORTS[name]:
        importlib.import_module(module)
    start = time.perf_counter()
    figures = PHASES[name](path)
    figures["seconds"] = time.perf_counter() - start
    figures["peak_rss_mb"] = _rss(os.getpid(), "VmHWM")  # this process's own peak, since its exec
    print(json.dumps(figures))


def run_phase(name: str, path: Path, repeat: int = 1) -> dict[str, Any]:
    """The fastest of `repeat` runs, each in a fresh child: on a shared machine the minimum is the
    least disturbed figure (as `timeit` reports)."""
    return _fastest([_run_phase_once(name, path) for _ in range(repeat)])


def _run_phase_once(name: str, path: Path) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--phase", name, str(path)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def run_process(args: list[str], repeat: int = 1) -> dict[str, Any]:
    """A whole command as a user runs it: wall time and the child's peak RSS (fastest of `repeat`)."""
    return _fastest([_run_process_once(args) for _ in range(repeat)])


def _run_process_once(args: list[str]) -> dict[str, Any]:
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    largest = total = 0.0
    while process.poll() is None:  # sampled: a child's ru_maxrss starts at its parent's size (see _rss)
        sizes = [_rss(pid) for pid in _tree(process.pid)]
        largest, total = max(largest, *sizes, 0.0), max(total, sum(sizes))
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({process.returncode}): {stderr}")
    return {"seconds": seconds, "peak_rss_mb": largest, "peak_total_rss_mb": total, "exit": process.returncode}


def _tree(pid: int) -> list[int]:
    """`pid` and its descendants (the worker processes of --jobs)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        try:
            with open(f"/proc/{current}/task/{current}/children", encoding="ascii") as children:
                queue.extend(int(child) for child in children.read().split())
        except OSError:
            pass
    return found


def _rss(pid: int, field: str = "VmRSS") -> float:
    """A process's resident set (VmRSS) or its peak (VmHWM), in MB, from /proc.

    Not getrusage: on Linux a child's ru_maxrss starts from the size of the process that forked
    it (the bench itself, about 33 MB), so every figure below that read 33 MB."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _fastest(runs: list[dict[str, Any]]) -> dict[str, Any]:
    best = dict(min(runs, key=lambda figures: figures["seconds"]))
    for key in ("peak_rss_mb", "peak_total_rss_mb"):
        if key in best:
            best[key] = max(figures[key] for figures in runs)
    return best


def diamonds_command() -> list[str]:
    return [sys.executable, "-m", "diamonds.cli.main"]


# --------------------------------------------------------------------------- report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="4-player games in the corpus (default 2000)")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--chess-games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per phase; the fastest counts (default 3)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="for the parallel figures")
    parser.add_argument("--big", type=int, default=0, metavar="MB",
                        help="also validate and convert a generated file of MB megabytes (peak RSS must stay flat)")
    parser.add_argument("--big-only", action="store_true", help="with --big: skip the standard phases")
    parser.add_argument("--analysis-only", action="store_true",
                        help="only the analysis figures: Parquet, compact JSON, stats, the Dask cluster")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask cluster figures")
    parser.add_argument("--phase", nargs=2, metavar=("NAME", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        run_phase_here(*args.phase)
        return 0

    folder = Path(tempfile.mkdtemp(prefix="diamonds-bench-"))
    corpus, pgn = folder / "corpus.dgn", folder / "corpus.pgn"
    t = time.perf_counter()
    games, cards = make_corpus(corpus, args.games, args.seed)
    plies = make_pgn_corpus(pgn, args.chess_games, args.seed)
    print(f"corpus: {corpus.stat().st_size:,} bytes of DGN, {pgn.stat().st_size:,} bytes of PGN "
          f"(generated in {time.perf_counter() - t:.1f} s, seed {args.seed})")
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores\n")
    try:
        if not args.big_only and not args.analysis_only:
            standard(args, folder, corpus, pgn, games, cards, plies)
        if not args.big_only:
            analysis(args, folder, corpus)
        if args.big:
            big_file(folder, corpus, args.big)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def standard(args: argparse.Namespace, folder: Path, corpus: Path, pgn: Path, games: int, cards: int,
             plies: int) -> None:
    """Every phase on the corpus, the two ratios and the parallel speed-up."""
    size_mb = corpus.stat().st_size / 1e6

    rows = []
    parse = run_phase("parse", corpus, args.repeat)
    if parse["games"] != games:
        raise SystemExit(f"the corpus has {games} games, but {parse['games']} were read")

    def row(label: str, figures: dict[str, Any], *, with_cards: bool = True) -> dict[str, Any]:
        seconds = figures["seconds"]
        entry = {
            "phase": label, "seconds": seconds,
            "games_per_s": games / seconds if with_cards else None,
            "cards_per_s": cards / seconds if with_cards else None,
            "mb_per_s": size_mb / seconds, "peak_rss_mb": figures["peak_rss_mb"],
        }
        rows.append(entry)
        return entry

    parsed = row("parse only", parse)
    validated = row("parse + validate", run_phase("validate", corpus, args.repeat))
    row("parse + validate + JSON export", run_phase("export", corpus, args.repeat))
    row("`diamonds validate` (1 process)", run_process(diamonds_command() + ["validate", "--quiet", "--jobs", "1",
                                                                             str(corpus)], args.repeat))
    scan = run_phase("scan", corpus, args.repeat)
    scan_mb = size_mb / scan["seconds"]
    chess_fig = run_phase("chess", pgn, args.repeat)
    chess_plies = plies / chess_fig["seconds"]

    print(f"{'phase':38} {'games/s':>9} {'cards/s':>11} {'MB/s':>7} {'peak RSS':>9}")
    for entry in rows:
        gps = f"{entry['games_per_s']:,.0f}" if entry["games_per_s"] else "-"
        cps = f"{entry['cards_per_s']:,.0f}" if entry["cards_per_s"] else "-"
        print(f"{entry['phase']:38} {gps:>9} {cps:>11} {entry['mb_per_s']:>7.2f} {entry['peak_rss_mb']:>7.0f} MB")
    print(f"{'bare re.finditer scan (our bytes)':38} {'-':>9} {'-':>11} {scan_mb:>7.2f} "
          f"{scan['peak_rss_mb']:>7.0f} MB")
    print(f"{'python-chess read_game (PGN)':38} {chess_fig['games'] / chess_fig['seconds']:>9,.0f} "
          f"{chess_plies:>11,.0f} {pgn.stat().st_size / 1e6 / chess_fig['seconds']:>7.2f} "
          f"{chess_fig['peak_rss_mb']:>7.0f} MB   (cards/s column: plies/s)")
    validate_ratio = validated["cards_per_s"] / chess_plies
    scan_ratio = parsed["mb_per_s"] / scan_mb
    print()
    print(f"ratio 1: parse+validate cards/s over python-chess plies/s = {validate_ratio:.2f}  "
          f"(target >= {TARGET_VALIDATE_RATIO:.0f}: {'met' if validate_ratio >= TARGET_VALIDATE_RATIO else 'NOT met'})")
    print(f"ratio 2: parse-only MB/s over bare scan MB/s = {scan_ratio:.3f}  "
          f"(target >= {TARGET_SCAN_RATIO:.3f}: {'met' if scan_ratio >= TARGET_SCAN_RATIO else 'NOT met'})")
    if args.jobs > 1:
        parallel(folder, corpus, args.jobs, args.repeat)


def parallel(folder: Path, corpus: Path, jobs: int, repeat: int) -> None:
    """`validate --jobs 1` against `--jobs N` on the corpus four times over, so that the start-up
    (about 0.3 s of imports, which no number of processes shortens) is a small share.

    Beside it, the machine's own ceiling: a bare CPU loop in 1 and in N processes at once. On a
    shared virtual machine N cores are not always N times one core; the runs are interleaved so
    that both figures see the same machine, and each is the fastest of `repeat`."""
    times = 4
    path = folder / "corpus-x4.dgn"
    path.write_bytes(corpus.read_bytes() * times)
    size = path.stat().st_size / 1e6
    ours: dict[int, list[float]] = {1: [], jobs: []}
    bare: dict[int, list[float]] = {1: [], jobs: []}
    for _ in range(repeat):
        for n in (1, jobs):
            ours[n].append(run_process(diamonds_command() + ["validate", "--quiet", "--jobs", str(n), str(path)])
                           ["seconds"])
            bare[n].append(_cpu_loop(n))
    seconds = {n: min(runs) for n, runs in ours.items()}
    speedup = seconds[1] / seconds[jobs]
    ceiling = jobs * min(bare[1]) / min(bare[jobs])
    print(f"parallel, on the corpus x{times} ({size:.1f} MB): `diamonds validate --jobs 1` {seconds[1]:.2f} s, "
          f"`--jobs {jobs}` {seconds[jobs]:.2f} s")
    print(f"parallel: validate --jobs {jobs} is {speedup:.2f}x --jobs 1  (target >= 1.8 on 2 cores: "
          f"{'met' if speedup >= 1.8 else 'NOT met'}); a bare CPU loop in {jobs} processes does "
          f"{ceiling:.2f}x the work of one on this machine meanwhile")
    path.unlink()


_LOOP = "x = 0\nfor i in range(20_000_000):\n    x += i\n"


def _cpu_loop(processes: int) -> float:
    """Seconds for `processes` copies of a fixed CPU loop started at once."""
    start = time.perf_counter()
    children = [subprocess.Popen([sys.executable, "-c", _LOOP]) for _ in range(processes)]
    for child in children:
        child.wait()
    return time.perf_counter() - start


def big_file(folder: Path, corpus: Path, megabytes: int) -> None:
    """Stream a generated file of `megabytes` MB: peak RSS must not grow with the file."""
    big = folder / "big.dgn"
    chunk = corpus.read_bytes()
    with open(big, "wb") as out:
        written = 0
        while written < megabytes * 1_000_000:
            out.write(chunk)
            written += len(chunk)
    size = big.stat().st_size
    print(f"\nbig file: {size:,} bytes ({size / 1e6:.0f} MB), generated from the corpus")
    tables = folder / "big-tables"
    for label, extra in (("validate --quiet", ["validate", "--quiet"]),
                         ("convert --to parquet", ["convert", "--to", "parquet", "-o", str(tables)]),
                         ("convert --to jsonl", ["convert", "--to", "jsonl", "-o", os.devnull]),
                         ("convert --to csv", ["convert", "--to", "csv", "-o", os.devnull])):
        figures = run_process(diamonds_command() + extra + [str(big)])
        print(f"  {label:22} {figures['seconds']:8.1f} s {size / 1e6 / figures['seconds']:7.2f} MB/s "
              f"peak RSS {figures['peak_rss_mb']:6.0f} MB (the largest process; all together "
              f"{figures['peak_total_rss_mb']:.0f} MB, pages shared after fork counted in each; sampled every 20 ms)")
        if label == "convert --to parquet":
            rss = figures["peak_rss_mb"]
            print(f"  Parquet streaming peak RSS {rss:.0f} MB (target < {TARGET_BIG_RSS_MB} MB for 1 GB: "
                  f"{'met' if rss < TARGET_BIG_RSS_MB else 'NOT met'}{'' if size >= 1e9 else ', on a smaller file'})")
    shutil.rmtree(tables, ignore_errors=True)
    big.unlink()


def _bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size


def analysis(args: argparse.Namespace, folder: Path, corpus: Path) -> None:
    """Issue 12's figures, every one a whole command in one process, as a user runs it."""
    size = corpus.stat().st_size
    mb = size / 1e6
    command = diamonds_command()

    def timed(*extra: str) -> float:
        return float(run_process(command + list(extra), args.repeat)["seconds"])

    print(f"\nanalysis, on the corpus ({mb:.1f} MB of DGN), one process each, fastest of {args.repeat}:")
    validate = timed("validate", "--quiet", "--jobs", "1", str(corpus))
    tables = folder / "tables"
    parquet = timed("convert", str(corpus), "--to", "parquet", "-o", str(tables), "--jobs", "1")
    compact, full = folder / "compact.json", folder / "full.json"
    compact_s = timed("convert", str(corpus), "--to", "json", "-o", str(compact), "--jobs", "1")
    full_s = timed("convert", str(corpus), "--to", "json", "--full", "-o", str(full), "--jobs", "1")
    stats_dgn = timed("stats", str(corpus), "--format", "json", "--jobs", "1")
    stats_parquet = timed("stats", str(tables), "--format", "json")
    rows = [("diamonds validate", validate, size), ("convert --to parquet", parquet, _bytes(tables)),
            ("convert --to json (compact)", compact_s, _bytes(compact)),
            ("convert --to json --full", full_s, _bytes(full)),
            ("stats (from DGN)", stats_dgn, None), ("stats (from Parquet)", stats_parquet, None)]
    print(f"  {'command':30} {'seconds':>8} {'DGN MB/s':>9} {'output':>12} {'x DGN':>6}")
    for label, seconds, out in rows:
        written = f"{out:,}" if out is not None else "-"
        ratio = f"{out / size:.2f}" if out is not None else "-"
        print(f"  {label:30} {seconds:>8.2f} {mb / seconds:>9.2f} {written:>12} {ratio:>6}")

    def verdict(value: float, target: float, at_least: bool = True) -> str:
        return "met" if (value >= target if at_least else value <= target) else "NOT met"

    speed, parquet_size = validate / parquet, _bytes(tables) / size
    json_size, json_speedup = _bytes(compact) / size, full_s / compact_s
    print(f"  Parquet speed: {speed:.2f} of validate's MB/s (target >= {TARGET_PARQUET_SPEED}: "
          f"{verdict(speed, TARGET_PARQUET_SPEED)})")
    print(f"  Parquet size: {parquet_size:.2f} x the DGN (target <= {TARGET_PARQUET_SIZE}: "
          f"{verdict(parquet_size, TARGET_PARQUET_SIZE, False)})")
    print(f"  compact JSON size: {json_size:.2f} x the DGN (target <= {TARGET_JSON_SIZE}: "
          f"{verdict(json_size, TARGET_JSON_SIZE, False)})")
    print(f"  compact JSON speed: {json_speedup:.2f} x the full form's (target >= {TARGET_JSON_SPEEDUP}: "
          f"{verdict(json_speedup, TARGET_JSON_SPEEDUP)})")
    for path in (compact, full):
        path.unlink()
    shutil.rmtree(tables, ignore_errors=True)
    if not args.no_cluster:
        sys.path.insert(0, str(ROOT / "bench"))
        from cluster import cluster  # bench/cluster.py: a real `dask scheduler` + `dask worker` cluster

        cluster(folder, corpus, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
