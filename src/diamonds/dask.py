"""The analysis tables (`games`, `plays`, `events`) as Dask dataframes, for more games than one machine holds.

    import diamonds.dask
    games, plays, events = diamonds.dask.read_games(["archive/2026-01.dgn", "archive/2026-02.dgn"])
    games.groupby("rules", observed=True).valid.mean().compute()

DGN files make one partition per file, read and replayed by the worker that
computes it: the workers must see the same paths (shared storage, as for
any Dask reader). A folder written by `diamonds convert --to parquet` is read
with `dask.dataframe.read_parquet` (a partition per row group), which is
the fast way to come back to the same games. The columns are the tables'
(docs/tables.md); the rows equal `diamonds.read_tables`'s. The three frames
come as `diamonds.read_tables` gives its tables (a `GameTables`): computing
them in one `dask.compute(games, plays, events)` replays each file once.

The dtypes are one per column whatever a partition holds: nullable integers,
booleans and strings (`read_parquet(dtype_backend="numpy_nullable")`'s),
categories of strings, lists and structs as Python objects.

Dask is an optional extra (`dask`): without it, `read_games` raises
`MissingExtra`, whose message names the `pip install` that adds it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from diamonds.analysis import GameTables
from diamonds.analysis import pandas_frame as _pandas
from diamonds.analysis import string_categories as _string_categories
from diamonds.io.parallel import DASK_MISSING
from diamonds.replay.arrow import MissingExtra, read_tables, require_pyarrow, schema, tables_from_files
from diamonds.replay.tables import TABLE_NAMES

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_games", "require_dask", "ProcessCluster"]


def require_dask() -> Any:
    """`dask.dataframe`, or `MissingExtra` naming the extra that installs it."""
    try:
        import dask.dataframe
    except ImportError:
        raise MissingExtra("dask", "dask", DASK_MISSING) from None
    require_pyarrow()
    return dask.dataframe


def read_games(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *,
               encoding: str = "utf-8") -> GameTables:
    """The tables of DGN files (one partition per file), or of a folder of Parquet tables.

    Nothing is read here, except, for a folder, the Parquet footers: the work
    happens where the frames are computed (on the cluster of the default
    `distributed.Client`, if one is open). A file with a byte not of
    `encoding` raises `NotDecodable` (file:line:col) when computed."""
    dd = require_dask()
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    names = [os.fspath(path) for path in given]
    folders = [name for name in names if os.path.isdir(name)]
    if folders:  # as diamonds.read_tables: one folder of tables, or DGN files
        if len(names) != 1:
            raise ValueError("read_games takes one folder of tables, or DGN files, not both or several folders")
        return _read_parquet(dd, names[0])
    if not names:
        raise ValueError("read_games: no paths given")
    import dask

    with dask.config.set({"dataframe.convert-string": False}):  # else Dask turns the lists into their repr
        return _read_dgn(dd, names, encoding)


def _read_dgn(dd: Any, names: list[str], encoding: str) -> GameTables:
    from dask.delayed import delayed

    # One task per file gives all three tables; each frame takes its table from it (a shared key, so
    # that computing the frames together replays each file once).
    parts = [delayed(_file_tables, pure=True)(name, encoding) for name in names]
    frames = {table: dd.from_delayed([part[table] for part in parts], meta=_meta(table), verify_meta=False)
              for table in TABLE_NAMES}
    return GameTables(**frames)


def _file_tables(path: str, encoding: str) -> dict[str, pd.DataFrame]:
    """One file's tables as pandas (run on a worker), as `tables_from_files` makes them, in one process."""
    tables = tables_from_files(path, encoding, jobs=1)
    return {table: _pandas(tables[table]) for table in TABLE_NAMES}


def _meta(table: str) -> pd.DataFrame:
    """An empty frame of the table's columns and dtypes, categories not known in advance."""
    from dask.dataframe import utils

    unknown: Any = utils.clear_known_categories  # untyped in dask
    return unknown(_pandas(schema(table).empty_table()))


def _read_parquet(dd: Any, folder: str) -> GameTables:
    if any(not os.path.isfile(os.path.join(folder, f"{table}.parquet")) for table in TABLE_NAMES):
        read_tables(folder)  # raises FileNotFoundError naming the missing table, as `stats FOLDER` says it
    import dask

    frames: dict[str, Any] = {}
    with dask.config.set({"dataframe.convert-string": False}):  # else Dask turns the lists into their repr
        for table in TABLE_NAMES:
            if not os.path.isfile(os.path.join(folder, f"{table}.parquet")):
                frames[table] = None  # a table newer than the folder (rounds): `.rounds` is None
                continue
            frame = dd.read_parquet(os.path.join(folder, f"{table}.parquet"), dtype_backend="numpy_nullable")
            frames[table] = frame.map_partitions(_string_categories, meta=_meta(table))
    return GameTables(**frames)


# --------------------------------------------------------------------------- a cluster on this machine


class ProcessCluster:
    """A Dask cluster of separate processes on 127.0.0.1, started as on a real cluster: `dask scheduler`
    and `dask worker ADDRESS --nworkers 1 --nthreads N`, each in its own session so that stopping it
    stops its children. For trying `--scheduler` on one machine, the tests and the benchmark:

        with ProcessCluster(workers=2) as cluster:
            subprocess.run(["diamonds", "validate", "--scheduler", cluster.address, "big.dgn"])

    Leaving the `with` stops every process it started (SIGTERM, then SIGKILL), an error or not."""

    def __init__(self, workers: int = 2, *, threads: int = 1, folder: str | None = None, timeout: float = 60.0) -> None:
        self.workers, self.threads, self.timeout = workers, threads, timeout
        self.folder = folder  # where the processes' logs go (default: a temporary folder)
        self.address = ""
        self.client: Any = None  # a distributed.Client of this process, once started
        self.processes: list[subprocess.Popen[bytes]] = []
        self._temporary: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> ProcessCluster:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        require_dask()
        from distributed import Client

        if self.folder is None:
            self._temporary = tempfile.TemporaryDirectory(prefix="diamonds-cluster-")
            self.folder = self._temporary.name
        port = _free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        self._spawn(_dask_command("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"),
                    "scheduler")
        for _ in range(self.workers):
            self.add_worker()
        connect: Any = Client  # distributed's annotations are partial: the client is used untyped
        self.client = connect(self.address, timeout=self.timeout, set_as_default=False)
        self.wait_for_workers(self.workers)

    def add_worker(self, command: list[str] | None = None) -> None:
        """One more worker process (`dask worker`, or `command` followed by the scheduler's address)."""
        base = command or _dask_command("worker")
        self._spawn([*base, self.address, "--nworkers", "1", "--nthreads", str(self.threads), "--no-dashboard"],
                    f"worker-{len(self.processes)}")

    def wait_for_workers(self, count: int) -> None:
        """Until `count` workers have registered with the scheduler (TimeoutError after `timeout`)."""
        if count > 0:
            self.client.wait_for_workers(count, timeout=self.timeout)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:  # the whole group: a nanny's worker child too
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            process.wait()
        self.processes = []
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None

    def _spawn(self, args: list[str], name: str) -> None:
        assert self.folder is not None
        with open(os.path.join(self.folder, f"{name}.log"), "wb") as log:
            self.processes.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                                   stdin=subprocess.DEVNULL, start_new_session=True,
                                                   cwd=self.folder,
                                                   preexec_fn=_die_with_parent if sys.platform == "linux" else None))


def _die_with_parent() -> None:
    """In the child, before exec (Linux): SIGTERM when the process that started it dies, so that a test
    run killed outright (no `close`) leaves no scheduler or worker behind."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def _dask_command(*args: str) -> list[str]:
    """`dask ARGS` of this Python (the `dask` script is `python -m dask`)."""
    return [sys.executable, "-m", "dask", *args]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
