"""The Dask cluster (issue 12): `validate` and `convert --to parquet` with `--scheduler`, and `diamonds.dask`.

A real local cluster of separate processes, as a user starts one:
`dask scheduler` on 127.0.0.1 and two `dask worker` processes of one thread
each. The cluster's output must be the local run's, byte for byte (the
results come back in input order: cli/parallel.py), on the samples, the
invalid samples (their rulings: R8, K5, B7 … come out the same) and
simulated multi-game files of every family with invalid games in them.
Failures are one line: no scheduler at the address, a worker without
diamonds, Dask not installed.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from command import diamonds  # noqa: F401  (the fixture: the command in this process, no traceback allowed)

from diamonds import read_tables
from diamonds.cli import parallel
from diamonds.cli.main import main
from diamonds.cli.validate_cmd import check_batch
from diamonds.core import FAMILIES, simulate
from diamonds.dask import ProcessCluster
from diamonds.dask import read_games as read_games_dask
from diamonds.notation import game_texts
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game
from diamonds.replay.arrow import MissingExtra

distributed = pytest.importorskip("distributed", reason='the dask extra is not installed: pip install "diamonds[dask]"')

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dgn")) + sorted((ROOT / "samples" / "invalid").glob("*.dgn"))
#: An invalid sample per family: Fitzgerald's revoke (R8), Kirk's bad victim, the bidding game's revoke.
INVALID_SAMPLES = ("revoke.dgn", "kirk-victim.dgn", "bidding-revoke.dgn")
CLUSTER_START_TIMEOUT = 60.0  # seconds: on a loaded CI machine a worker process takes a few to import


# --------------------------------------------------------------------------- the cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[ProcessCluster]:
    """`dask scheduler` and two `dask worker` processes (one thread each) on 127.0.0.1, stopped at the end."""
    with ProcessCluster(workers=2, threads=1, timeout=CLUSTER_START_TIMEOUT) as started:
        try:
            yield started
        finally:  # the command's clients (kept per address, for a run's many files), before the cluster goes
            parallel.close_clusters()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --------------------------------------------------------------------------- inputs


#: Every family's rule sets with a few set-ups: (rules, players, variants, options).
SET_UPS = [
    ("2e", 4, (), None), ("1e", 3, (), None), ("bga", 4, ("partnership",), None), ("2e", 2, ("perfect",), None),
    ("kirk", 4, (), None), ("kirk", 4, (), {"Target": "250"}), ("bidding", 3, (), None),
]


def _wrong_result(text: str) -> str:
    """The first side's score in the Result tag one more than it is (the driver's Result check)."""
    return re.sub(r'(\[Result "[^"\d]*)(\d+)', lambda m: m.group(1) + str(int(m.group(2)) + 1), text, count=1)


def _unfinished(text: str) -> str:
    """The game without its last trick line (nor its Result): valid so far, not complete."""
    lines = [line for line in text.rstrip("\n").split("\n") if not line.startswith("[Result ")]
    last = max(i for i, line in enumerate(lines) if re.match(r"\d+\. ", line))
    return "\n".join(lines[:last]) + "\n"


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """One file per family: several games of its set-ups, every third one with a wrong Result, and an
    unfinished one at the end."""
    folder = tmp_path_factory.mktemp("simulated")
    paths = []
    for family in FAMILIES:
        texts = []
        set_ups = [s for s in SET_UPS if s[0] in family.rule_ids]
        for number in range(6):
            rules, players, variants, options = set_ups[number % len(set_ups)]
            game = simulate(players, rules=rules, variants=variants, options=options, seed=100 + number)
            text = write_game(record_from_game(game, tags=[("Event", f"{family.name} {number + 1}")]))
            texts.append(_wrong_result(text) if number % 3 == 2 else text)
        texts.append(_unfinished(texts[0]))
        path = folder / f"{family.name}.dgn"
        path.write_text("\n".join(texts), encoding="utf-8")
        paths.append(path)
    return paths


# --------------------------------------------------------------------------- validate


@pytest.mark.parametrize("output", ["text", "json"])
def test_validate_on_the_cluster_prints_what_the_local_run_prints(diamonds, cluster: ProcessCluster, simulated: list[Path],
                                                                  output: str) -> None:  # type: ignore[no-untyped-def]
    # Text: every sample; JSON (the same games' facts, otherwise written): an invalid sample per family.
    samples = SAMPLES if output == "text" else [path for path in SAMPLES if path.name in INVALID_SAMPLES]
    files = [*samples, *simulated]
    local = diamonds("validate", "--format", output, "--jobs", "1", *files)
    remote = diamonds("validate", "--format", output, "--scheduler", cluster.address, *files)
    assert (remote.code, remote.out, remote.err) == (local.code, local.out, local.err)
    assert local.code == 1  # the invalid samples and the wrong Results are in it
    if output == "json":
        by_path = {entry["path"]: entry["games"] for entry in json.loads(remote.out)["files"]}
        for path in simulated:  # games 3 and 6 have a wrong Result, game 7 is unfinished
            games = by_path[str(path)]
            assert [game["valid"] for game in games] == [True, True, False, True, True, False, True]
            assert [game["complete"] for game in games][-1] is False
    else:  # the rulings of the invalid samples, as the local run gives them (R8 Fitzgerald, K.. Kirk, B.. bidding)
        assert {"(R8)", "(R18)"} <= set(re.findall(r"\(R\d+\)", remote.out))
        assert re.search(r"\(K\d+\)", remote.out) and re.search(r"\(B\d+\)", remote.out)


def test_results_come_back_in_input_order_from_many_small_tasks(cluster: ProcessCluster, simulated: list[Path]) -> None:
    """Batches of one or two games, a dozen tasks in flight over two workers: the order is the input's."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in simulated)
    work = functools.partial(check_batch, "all.dgn", True)
    with parallel.ordered_map(work, parallel.batches(game_texts(io.StringIO(text)), max_bytes=1), 1) as results:
        local = list(results)
    with parallel.ordered_map(work, parallel.batches(game_texts(io.StringIO(text)), max_bytes=1), 1,
                              cluster.address) as results:
        remote = list(results)
    assert len(remote) == len(simulated) * 7 > 2 * parallel.IN_FLIGHT_PER_WORKER
    assert remote == local
    assert [checked.entry["index"] for batch in remote for checked in batch if checked.entry] == \
        list(range(1, len(remote) + 1))


def test_both_workers_take_tasks(cluster: ProcessCluster, simulated: list[Path]) -> None:
    """The work is spread: with several tasks in flight, both workers run some (the scheduler's task stream)."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in simulated)
    work = functools.partial(check_batch, "all.dgn", False)
    with distributed.get_task_stream(client=cluster.client) as stream, \
            parallel.ordered_map(work, parallel.batches(game_texts(io.StringIO(text)), max_bytes=1), 1,
                                 cluster.address) as results:
        list(results)
    ran = [task["worker"] for task in stream.data if task["key"].startswith("check_batch")]
    assert len(ran) == len(simulated) * 7
    assert set(ran) == set(cluster.client.nthreads())


# --------------------------------------------------------------------------- failures, in one line


def test_an_unreachable_scheduler_is_one_line_naming_address_and_timeout(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    done = subprocess.run([sys.executable, "-m", "diamonds.cli.main", "validate", "--scheduler", address,
                           str(SAMPLES[0])], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"diamonds validate: cannot reach the Dask scheduler at {address} ")
    assert "within 1 s" in done.stderr


@pytest.mark.parametrize("address", ["localhost", "foo://127.0.0.1:1", "inproc://x"])
def test_an_address_dask_cannot_read_is_refused_before_connecting(diamonds, address: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", "--scheduler", address, SAMPLES[0])
    assert run.code == 2 and run.out == ""
    assert run.err.startswith(f"diamonds validate: not a Dask scheduler address: {address!r} (")
    assert run.err.count("\n") == 1 and "tcp://HOST:PORT" in run.err


def test_without_dask_the_command_names_the_extra(diamonds, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails, as where it is not installed
    run = diamonds("validate", "--scheduler", "tcp://127.0.0.1:1", SAMPLES[0])
    assert (run.code, run.out) == (2, "")
    assert run.err == ('diamonds validate: needs the dask extra (distributed, which is not installed): '
                       'pip install "diamonds[dask]"\n')


def test_without_dask_the_library_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.dataframe", None)
    with pytest.raises(MissingExtra) as refused:
        read_games_dask(SAMPLES[:1])
    assert (refused.value.package, refused.value.extra) == ("dask", "dask")
    assert 'pip install "diamonds[dask]"' in str(refused.value)


_NO_DIAMONDS = """
import sys
class NoDiamonds:
    '''As on a machine where diamonds was never installed.'''
    def find_spec(self, name, path=None, target=None):
        if name == "diamonds" or name.startswith("diamonds."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NoDiamonds())
sys.argv[0] = "dask worker"
sys.argv.append("--no-nanny")  # the finder above is this process's: the worker must run in it
from distributed.cli.dask_worker import main
main()
"""


def test_a_worker_without_diamonds_is_named(diamonds) -> None:  # type: ignore[no-untyped-def]
    """A cluster whose one worker cannot import diamonds: refused before any task, the worker named."""
    with ProcessCluster(workers=0, timeout=CLUSTER_START_TIMEOUT) as crippled:
        crippled.add_worker([sys.executable, "-c", _NO_DIAMONDS])
        crippled.wait_for_workers(1)
        (worker,) = crippled.client.nthreads()
        try:
            run = diamonds("validate", "--scheduler", crippled.address, SAMPLES[0])
        finally:
            parallel.close_clusters(crippled.address)
    assert (run.code, run.out) == (2, "")
    assert run.err.count("\n") == 1
    assert run.err.startswith(f"diamonds validate: the Dask worker {worker} cannot import diamonds.cli.validate_cmd ")
    assert "No module named 'diamonds" in run.err and 'pip install "diamonds[dask]"' in run.err


# --------------------------------------------------------------------------- convert --to parquet


def _parquet_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.parquet"))}


@pytest.fixture(scope="module")
def converted(cluster: ProcessCluster, simulated: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`convert --to parquet` of the samples (of the invalid ones, one per family) and the simulated files,
    locally and on the cluster."""
    files = [*(path for path in SAMPLES if path.parent.name != "invalid" or path.name in INVALID_SAMPLES), *simulated]
    folder = tmp_path_factory.mktemp("parquet")
    runs = {}
    for where, options in (("local", ["--jobs", "1"]), ("cluster", ["--scheduler", cluster.address])):
        err = io.StringIO()
        old_err, sys.stderr = sys.stderr, err
        try:
            code = main(["convert", *map(str, files), "--to", "parquet", "-o", str(folder / where), *options])
        finally:
            sys.stderr = old_err
        runs[where] = {"code": code, "err": err.getvalue(), "folder": folder / where}
    return {"files": files, **runs}


def test_convert_to_parquet_on_the_cluster_writes_the_local_files(converted: dict[str, Any]) -> None:
    local, remote = converted["local"], converted["cluster"]
    assert (remote["code"], remote["err"]) == (local["code"], local["err"])
    assert local["code"] == 1 and "(R8)" in local["err"]  # the invalid games are reported, and converted
    assert set(_parquet_files(local["folder"])) == {"games.parquet", "plays.parquet", "events.parquet",
                                                     "rounds.parquet"}
    assert _parquet_files(remote["folder"]) == _parquet_files(local["folder"])  # byte for byte


# --------------------------------------------------------------------------- diamonds.dask


def _plain(value: Any) -> Any:
    """A cell as plain Python: arrays and lists as lists, structs as dicts, every missing value None."""
    import numpy

    if isinstance(value, (numpy.ndarray, list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if value is None or value is __import__("pandas").NA or (isinstance(value, float) and value != value):
        return None
    return value.item() if isinstance(value, numpy.generic) else value


def _rows(frame: Any) -> list[dict[str, Any]]:
    return [{name: _plain(cell) for name, cell in row.items()} for row in frame.to_dict("records")]


def test_read_games_of_dgn_files_on_the_cluster_equals_the_in_memory_tables(cluster: ProcessCluster,
                                                                            simulated: list[Path]) -> None:
    files = [str(path) for path in [*SAMPLES[:2], *simulated]]
    frames = read_games_dask(files)
    assert frames.games.npartitions == len(files)  # one partition (one task) per file, run on the workers
    computed = cluster.client.compute(list(frames), sync=True)
    expected = read_tables(files, jobs=1)
    for table, frame, arrow in zip(("games", "plays", "events"), computed, expected):
        assert list(frame.columns) == arrow.column_names
        assert _rows(frame.reset_index(drop=True)) == arrow.to_pylist(), table
        # One dtype per column in every partition, as the lazy frame announced (categories: found as computed).
        assert frame.dtypes.astype(str).to_dict() == getattr(frames, table).dtypes.astype(str).to_dict()
    games = computed[0]
    assert set(games["family"].dropna()) == {family.name for family in FAMILIES}
    assert (~games["valid"]).sum() == 2 * len(simulated)  # the wrong Results, in the games rows


def test_read_games_of_a_parquet_folder_equals_the_files_tables(cluster: ProcessCluster, converted: dict[str, Any]) -> None:
    frames = read_games_dask(converted["cluster"]["folder"])
    games, plays, events = cluster.client.compute(list(frames), sync=True)
    expected = read_tables(converted["local"]["folder"])
    for frame, arrow in zip((games, plays, events), expected):
        assert _rows(frame.reset_index(drop=True)) == arrow.to_pylist()
    assert len(games) == sum(1 for path in converted["files"] for _ in game_texts(io.StringIO(
        path.read_text(encoding="utf-8"))))


def test_read_games_refuses_a_folder_beside_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one folder of tables, or DGN files"):
        read_games_dask([tmp_path, SAMPLES[0]])
