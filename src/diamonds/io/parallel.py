"""Work on many games in several processes, or on a Dask cluster, with results in input order and
bounded memory.

Games are handed out as text in batches (parsing happens in the workers);
at most a few batches per worker are in flight, so a file of any size is
processed in constant memory, and the output is the same as with one process.
On a cluster (`--scheduler`) the batches travel from this process to the
workers: they need the same `diamonds`, not the files (see docs/cluster.md).
"""

from __future__ import annotations

import atexit
import gc
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .errors import UserError as CommandError
from .interrupt import worker_signals

if TYPE_CHECKING:  # the pools are imported when work is shared out: one game's command starts without them
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = ["ordered_map", "OrderedMap", "default_jobs", "batches", "collector_paused", "connect", "close_clusters",
           "DASK_MISSING"]

T = TypeVar("T")
R = TypeVar("R")

BATCH_BYTES = 256 * 1024
BATCH_GAMES = 200
IN_FLIGHT_PER_WORKER = 4
PARALLEL_FROM_BYTES = 1 << 20  # below this, starting processes costs more than it saves
DASK_MISSING = 'the Dask cluster needs the dask extra: pip install "diamonds[dask]"'
CONNECT_TIMEOUT_SETTING = "distributed.comm.timeouts.connect"  # Dask's own; env DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT


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


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for one batch's conversion, then on again as it was.

    A conversion (the tables, the JSON) keeps every object it makes until the batch's output is built:
    the collector traversed those again and again as they grew, for no garbage, which took 11-17% of
    the conversion (measured on the bench corpus). A batch's size bounds what waits for the next
    collection; the first one after the batch finds any cycle it left."""
    if not gc.isenabled():  # paused further out (or by the caller): leave it as it is
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def ordered_map(function: Callable[[T], R], work: Iterable[T], jobs: int,
                scheduler: str | None = None) -> OrderedMap[R]:
    """function(item) for every item, computed in `jobs` processes (or on the Dask cluster at
    `scheduler`); results in order, read inside its block: `with ordered_map(...) as results:`."""
    return OrderedMap(function, work, jobs, scheduler)


class OrderedMap(Generic[R]):
    """The results of `ordered_map`, in input order, to be read inside a `with` block, which is the only
    way to reach them (the map itself is not iterable): leaving the block any way but at the end of the
    results (a `break`, an error, ^C) ends the workers at once, not after the batches in flight.

    A generator closed by each caller was the earlier form: one left open by an interruption (its
    traceback holds it in a reference cycle) kept its workers until Python's exit, whose hook for process
    pools then waited for them."""

    __slots__ = ("_function", "_work", "_jobs", "_scheduler", "_pool", "_results", "_finished")

    def __init__(self, function: Callable[[Any], R], work: Iterable[Any], jobs: int, scheduler: str | None) -> None:
        self._function = function
        self._work = work
        self._jobs = jobs
        self._scheduler = scheduler
        self._pool: ProcessPoolExecutor | None = None
        self._results: Generator[R, None, None] | None = None
        self._finished = False  # every result was taken

    def __enter__(self) -> Iterator[R]:
        if self._results is not None:
            raise RuntimeError("an ordered_map is read once, in one `with` block")
        results: Generator[R, None, None]
        if self._scheduler is not None:
            results = _cluster_map(self._function, self._work, self._scheduler)
        elif self._jobs <= 1:
            results = self._in_this_process()
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._pool = ProcessPoolExecutor(max_workers=self._jobs, mp_context=context, initializer=worker_signals)
            results = self._from_pool(self._pool)
        self._results = results
        return results

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: Any) -> None:
        pool, results = self._pool, self._results
        try:
            if pool is not None and (kind is not None or not self._finished):
                # Interrupted, or the reader stopped: the workers stop now, not after the batches in flight.
                _stop(pool)
        finally:
            if results is not None:
                results.close()  # on a cluster, cancels the tasks in flight
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    def _in_this_process(self) -> Generator[R, None, None]:
        for item in self._work:
            yield self._function(item)

    def _from_pool(self, pool: ProcessPoolExecutor) -> Generator[R, None, None]:
        pending: deque[Future[R]] = deque()
        for item in self._work:
            pending.append(pool.submit(self._function, item))
            if len(pending) >= self._jobs * IN_FLIGHT_PER_WORKER:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        self._finished = True


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what waits and end the workers (they write no file: nothing of theirs is left)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)  # shutdown() forgets it: taken first
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.terminate()
        except Exception:  # pragma: no cover - already gone
            pass
    for process in processes:
        process.join(timeout=10)
    # A worker ended while it wrote a result leaves half a message in the results pipe, and the pool's
    # manager thread waits for the rest: for ever, since this process holds the pipe's write end too, and
    # Python's exit hook for process pools then waits for that thread. With the workers gone, closing this
    # process's write end ends the wait (the manager reads the end of the pipe, and stops as for a broken
    # pool), so the command exits at once.
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    # The pool's manager thread notices the ended workers and closes its wake-up pipe. Waiting for it here
    # keeps that close from racing Python's exit hook for the pool, which writes to the same pipe: on
    # Python 3.11 the loser prints "Exception ignored ... Bad file descriptor" after the user's message.
    if manager is not None:
        manager.join(timeout=10)


# --------------------------------------------------------------------------- the Dask cluster


def _cluster_map(function: Callable[[T], R], work: Iterable[T], scheduler: str) -> Generator[R, None, None]:
    """As the process pool, on the cluster's workers: a few tasks per worker thread in flight,
    results taken in submission order, so the output is the local run's by construction."""
    from concurrent.futures import CancelledError

    from distributed.comm.core import CommClosedError

    client = connect(scheduler)
    pending: deque[Any] = deque()
    try:
        threads = _check_workers(client, scheduler, _module_of(function))
        slots = max(1, sum(threads.values())) * IN_FLIGHT_PER_WORKER
        for item in work:
            pending.append(client.submit(function, item, pure=False))
            if len(pending) >= slots:
                yield _result(pending.popleft(), scheduler)
        while pending:
            yield _result(pending.popleft(), scheduler)
    except (CancelledError, CommClosedError):  # the scheduler went away: every task in flight is lost
        pending.clear()
        raise CommandError(f"the Dask scheduler at {scheduler} went away (the connection was lost mid-run)") \
            from None
    finally:  # a consumer that stops early (an unreadable byte, ^C) leaves no task running for nothing
        if pending:
            client.cancel(list(pending))


_CLIENTS: dict[str, Any] = {}


def connect(scheduler: str) -> Any:
    """A `distributed.Client` of the scheduler at `scheduler`, one per address and process (a command
    over many files connects once), closed at exit (`close_clusters`). The wait is Dask's connect
    timeout (`distributed.comm.timeouts.connect`, 30 s unless configured)."""
    client = _CLIENTS.get(scheduler)
    if client is not None and client.status == "running":
        return client
    try:
        from distributed import Client
    except ImportError:
        raise CommandError(DASK_MISSING) from None
    try:  # checked first: a Client started on an address Dask cannot read hangs on closing
        from distributed.comm.addressing import get_address_host_port, parse_address
        from distributed.comm.registry import get_backend

        get_backend(parse_address(scheduler)[0])
        get_address_host_port(scheduler)
    except ValueError as error:
        raise CommandError(f"not a Dask scheduler address: {scheduler!r} ({error}); "
                           "one is tcp://HOST:PORT") from None
    if scheduler.startswith("tls://") and not _dask_setting("distributed.comm.tls.client.cert"):
        raise CommandError(f"{scheduler}: tls:// needs Dask's TLS settings (distributed.comm.tls.ca-file, "
                           ".client.cert, .client.key; see docs/cluster.md)")
    _quiet_dask_logs()
    timeout = _connect_timeout()
    start: Any = Client  # distributed's annotations are partial: the client is used untyped
    try:
        client = start(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:  # refused, no route, no answer: distributed retries until the timeout
        raise CommandError(f"cannot reach the Dask scheduler at {scheduler} (no connection within {timeout:g} s"
                           f"{_reason(error)}; DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=60s waits longer)") from None
    if not _CLIENTS:
        atexit.register(close_clusters)
    _CLIENTS[scheduler] = client
    return client


def _quiet_dask_logs() -> None:
    """Dask's client logs its reconnection attempts with tracebacks on stderr; the command reports the
    cluster's failures itself, in one line (`connect`, `_check_workers`, `_result`)."""
    import logging

    names = [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
    for name in ["distributed", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _reason(error: BaseException) -> str:
    """The operating system's words for the first refusal in the chain ("Name or service not known"), if any."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, OSError) and seen.strerror:
            return f": {seen.strerror}"
        seen = seen.__cause__ or seen.__context__
    return ""


def close_clusters(scheduler: str | None = None) -> None:
    """Close the client of `scheduler`, or every client this process opened (the clusters keep running)."""
    for address in [scheduler] if scheduler is not None else list(_CLIENTS):
        for key in [key for key in _CHECKED if key[0] == address]:
            del _CHECKED[key]
        client = _CLIENTS.pop(address, None)
        if client is not None:
            client.close()


def _module_of(function: Callable[..., Any]) -> str:
    """The module a worker must import to run `function` (a functools.partial names it in `func`)."""
    return str(getattr(getattr(function, "func", function), "__module__", "diamonds"))


def _local_version() -> str | None:
    from importlib.metadata import distributions

    return next((dist.version for dist in distributions(name="diamonds")), None)


#: Per scheduler, the workers already found able to import a module: a run over many files probes once.
_CHECKED: dict[tuple[str, str], set[str]] = {}


def _check_workers(client: Any, scheduler: str, module: str) -> dict[str, int]:
    """Every worker imports `module` and has this process's version of diamonds, or a clear refusal;
    returns the workers' threads. A worker that joins later is probed on the next call (a task it
    cannot unpickle meanwhile fails with the same words: `_result`).

    The probe is an expression evaluated by the builtin `eval`, so that a worker without diamonds can
    still run it and say why (a function of ours would not even unpickle there)."""
    timeout = _connect_timeout()
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise CommandError(f"the Dask scheduler at {scheduler} has no workers (none joined within {timeout:g} s)") \
            from None
    threads: dict[str, int] = client.nthreads()
    checked = _CHECKED.setdefault((scheduler, module), set())
    new = sorted(set(threads) - checked)
    if not new:
        return threads
    probe = (f"(__import__({module!r}), next((d.version for d in __import__('importlib.metadata', "
             f"fromlist=['distributions']).distributions(name='diamonds')), None))[1]")
    answers = client.run(eval, probe, workers=new, on_error="return")
    mine = _local_version()
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            raise CommandError(f"the Dask worker {worker} cannot import {module} ({type(answer).__name__}: {answer}); "
                               f'install the same diamonds on every worker: pip install "diamonds[dask]"')
        if mine is not None and answer is not None and answer != mine:
            raise CommandError(f"the Dask worker {worker} has diamonds {answer}, this machine {mine}; "
                               "install the same version on every worker, so that the output is the local run's")
    checked.update(answers)
    return threads


def _connect_timeout() -> float:
    """Seconds, from Dask's configuration (a file, or DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s)."""
    from dask.utils import parse_timedelta

    return float(parse_timedelta(_dask_setting(CONNECT_TIMEOUT_SETTING), default="s"))


def _dask_setting(name: str) -> Any:
    import dask

    return dask.config.get(name, default=None)


def _result(future: Any, scheduler: str) -> Any:
    """A task's result; the cluster's failures (not the function's own) as one line."""
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except ImportError as error:  # a worker that joined after the check, without diamonds
        raise CommandError(f"a Dask worker of {scheduler} cannot run the task ({type(error).__name__}: {error}); "
                           f'install the same diamonds on every worker: pip install "diamonds[dask]"') from None
    except KilledWorker as error:  # the task's workers died under it, again and again (Dask gives up after 3)
        raise CommandError(f"the Dask cluster at {scheduler} lost the workers running a task ({error})") \
            from None
