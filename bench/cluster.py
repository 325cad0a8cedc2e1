"""The Dask cluster's throughput: `diamonds validate --scheduler` on 1 and on 2 workers of a real local cluster.

Run from the repository root (after `pip install ".[bench,dask]"`):

    python bench/cluster.py                # a generated corpus (bench/run.py's), 3 runs each
    python bench/cluster.py --games 500    # a quicker run
    python bench/cluster.py --corpus my.dgn

bench/run.py calls `cluster(folder, corpus, repeat)` beside its `--jobs`
figures. The cluster is `dask scheduler` and `dask worker` processes on
127.0.0.1 (`diamonds.dask.ProcessCluster`), one thread each; the command
runs as a user runs it, its wall time from start to exit (imports and the
connection included: the corpus is repeated `times` times so that they are
a small share). Each figure is the fastest of `repeat` runs. Beside it, the
machine's own ceiling, measured as bench/run.py does: a bare CPU loop in 1
and in 2 processes at once, interleaved with our runs.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

TARGET_SPEEDUP = 1.6  # 2 workers over 1 (issue 12)


def cluster(folder: Path, corpus: Path, repeat: int = 3, times: int = 4) -> dict[str, Any]:
    """Seconds and MB/s of `validate --quiet --scheduler` on 1 then 2 workers, the speed-up, the ceiling;
    printed, and returned for bench/run.py."""
    import run as bench  # bench/run.py: the process timer, the CPU loop, the command line of diamonds

    from diamonds.dask import ProcessCluster

    path = folder / f"corpus-x{times}.dgn"
    path.write_bytes(corpus.read_bytes() * times)
    size = path.stat().st_size / 1e6
    seconds: dict[int, list[float]] = {1: [], 2: []}
    bare: dict[int, list[float]] = {1: [], 2: []}
    try:
        with ProcessCluster(workers=1, threads=1, folder=str(folder)) as local:
            command = bench.diamonds_command() + ["validate", "--quiet", "--scheduler", local.address, str(path)]
            for workers in (1, 2):
                if workers == 2:
                    local.add_worker()
                    local.wait_for_workers(2)
                bench.run_process(command)  # warm-up: every worker imports diamonds and reads the grammar once
                for _ in range(repeat):
                    seconds[workers].append(bench.run_process(command)["seconds"])
                    bare[workers].append(bench._cpu_loop(workers))
    finally:
        path.unlink()
    best = {workers: min(runs) for workers, runs in seconds.items()}
    speedup = best[1] / best[2]
    ceiling = 2 * min(bare[1]) / min(bare[2])
    print(f"dask cluster, on the corpus x{times} ({size:.1f} MB): `diamonds validate --scheduler` on 1 worker "
          f"{best[1]:.2f} s ({size / best[1]:.2f} MB/s), on 2 workers {best[2]:.2f} s ({size / best[2]:.2f} MB/s)")
    print(f"dask cluster: 2 workers are {speedup:.2f}x 1 worker  (target >= {TARGET_SPEEDUP} : "
          f"{'met' if speedup >= TARGET_SPEEDUP else 'NOT met'}); a bare CPU loop in 2 processes does "
          f"{ceiling:.2f}x the work of one on this machine meanwhile")
    return {"mb": size, "seconds_1": best[1], "seconds_2": best[2], "speedup": speedup, "ceiling": ceiling}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="4-player games in the generated corpus")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--corpus", type=Path, help="a DGN file to use instead of a generated corpus")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the fastest counts (default 3)")
    parser.add_argument("--times", type=int, default=4, help="the corpus repeated this many times (default 4)")
    args = parser.parse_args()
    import run as bench

    folder = Path(tempfile.mkdtemp(prefix="diamonds-bench-cluster-"))
    try:
        corpus = args.corpus
        if corpus is None:
            corpus = folder / "corpus.dgn"
            start = time.perf_counter()
            games, _ = bench.make_corpus(corpus, args.games, args.seed)
            print(f"corpus: {corpus.stat().st_size:,} bytes of DGN, {games} games "
                  f"(generated in {time.perf_counter() - start:.1f} s, seed {args.seed})")
        cluster(folder, corpus, args.repeat, args.times)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
