"""Work on many games in several processes, with results in input order and bounded memory.

Games are handed out as text in batches (parsing happens in the workers);
at most a few batches per worker are in flight, so a file of any size is
processed in constant memory, and the output is the same as with one process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Callable, Iterable, Iterator, TypeVar

__all__ = ["ordered_map", "default_jobs", "batches"]

T = TypeVar("T")
R = TypeVar("R")

BATCH_BYTES = 256 * 1024
BATCH_GAMES = 200
IN_FLIGHT_PER_WORKER = 4
PARALLEL_FROM_BYTES = 1 << 20  # below this, starting processes costs more than it saves


def default_jobs(paths: list[str], requested: int | None) -> int:
    """`--jobs` if given; else every core, but one process for small inputs."""
    if requested is not None:
        return max(1, requested)
    total = 0
    for path in paths:
        try:
            total += os.path.getsize(path) if path != "-" else PARALLEL_FROM_BYTES
        except OSError:
            pass
    return (os.cpu_count() or 1) if total >= PARALLEL_FROM_BYTES else 1


def batches(items: Iterable[tuple[int, int, str]], *,
            max_bytes: int = BATCH_BYTES) -> Iterator[list[tuple[int, int, str]]]:
    """Group (index, first line, text) games into batches of about `max_bytes` of DGN.

    Memory in flight is about IN_FLIGHT_PER_WORKER batches per worker, of input and
    of output: a caller whose output is many times its input asks for smaller batches.
    """
    batch: list[tuple[int, int, str]] = []
    size = 0
    for item in items:
        batch.append(item)
        size += len(item[2])
        if size >= max_bytes or len(batch) >= BATCH_GAMES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def ordered_map(function: Callable[[T], R], work: Iterable[T], jobs: int,
                scheduler: str | None = None) -> Iterator[R]:
    """function(item) for every item, computed in `jobs` processes (or on the Dask cluster at
    `scheduler`); results in order."""
    if scheduler is not None:
        raise NotImplementedError("--scheduler")  # issue 12: the Dask cluster
    if jobs <= 1:
        for item in work:
            yield function(item)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: deque[Future[R]] = deque()
        for item in work:
            pending.append(pool.submit(function, item))
            if len(pending) >= jobs * IN_FLIGHT_PER_WORKER:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
