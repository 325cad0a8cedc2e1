"""Load on `diamonds serve`: 30 tables × 3 scorer clients on loopback, bounded in count and time.

    python bench/serve.py                       # 30 tables, 3 clients each, ≤ 60 items a table, ≤ 60 s a phase
    python bench/serve.py --tables 10 --items 30 --seconds 30 --pace 0

A real server process (the command, uvicorn) on a free port in a temporary folder. Each table is fed a
simulated 2e game item by item by its three clients in turn (client k sends the items k, k+3, …, each
with the If-Match of the answer before and a fresh Idempotency-Key); every 10th item its client first
sends it once with a stale If-Match, a deliberate 412. Two phases on new tables: paced (each table's
next item after `--pace` seconds on average, ten times a real scorer's rate: the latency a scorer feels)
and flat out (no pause: the throughput, where the latency is the queue). Prints items/s and the p50/p99
latency of the accepted items, the count of every status (any answer but 200 and the deliberate
412s is an error), and the CPU the server and the clients used.

The scorers send through `Connection` (`--client raw`), a kept-alive HTTP/1.1 connection written on
asyncio streams, because the load generator shares this machine's cores with the server and must cost
less than it: 90 httpx clients (`--client httpx`, the figures before 2026-11-26) used about 1.7 times
the server's CPU, and the time a reply waited for its turn on the clients' own event loop was counted as
the server's latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "serve"))

from servehelp import Server, game_items  # noqa: E402


class Connection:
    """One scorer's kept-alive HTTP/1.1 connection, written by hand on asyncio streams.

    The load generator must cost less than the server it measures: 90 httpx clients in one process took
    about 1.7 times the server's CPU on this 2-core machine, and their own turn on the client's event loop
    was counted as the server's latency. This sends a request and reads the answer (status, headers, a
    Content-Length body) and nothing more."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        self.host, self.port = host, port
        self.fixed = "".join(f"{name}: {value}\r\n" for name, value in {"Host": f"{host}:{port}", **headers}.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, str], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode()
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self.writer.write(f"POST {path} HTTP/1.1\r\n{self.fixed}{extra}Content-Type: application/json\r\n"
                          f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        fields = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in head[1:] if line)}
        answer = await self.reader.readexactly(int(fields.get("content-length", "0")))
        return status, fields, answer

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


class HttpxConnection:
    """The same scorer through httpx (`--client httpx`): what earlier figures were measured with."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        import httpx

        self.http = httpx.AsyncClient(base_url=f"http://{host}:{port}", headers=headers, timeout=30)

    async def post(self, path: str, body: dict[str, str], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        answer = await self.http.post(path, json=body, headers=headers)
        return answer.status_code, {name.lower(): value for name, value in answer.headers.items()}, answer.content

    async def close(self) -> None:
        await self.http.aclose()


CLIENTS = {"raw": Connection, "httpx": HttpxConnection}


async def table_run(base: str, table: dict, items: list[str], clients: int, deadline: float,
                    latencies: list[float], statuses: dict[str, int], pace: float = 0.0,
                    server_side: list[float] | None = None, connection: str = "raw") -> None:
    server_side = server_side if server_side is not None else []
    version = 0
    turn = [asyncio.Event() for _ in range(clients)]
    turn[0].set()
    headers = {"Authorization": f"Bearer {table['scorer_token']}"}

    async def client(k: int) -> None:
        nonlocal version
        host, port = base.removeprefix("http://").split(":")
        http = CLIENTS[connection](host, int(port), headers)
        try:
            for index in range(k, len(items), clients):
                await turn[k].wait()
                turn[k].clear()
                if pace:
                    await asyncio.sleep(pace * (0.5 + random.random()))  # a scorer's tap, sped up
                if time.monotonic() > deadline:
                    turn[(k + 1) % clients].set()
                    return
                url = f"/api/tables/{table['id']}/items"
                if index % 10 == 9 and version > 0:  # a deliberate stale If-Match
                    stale, _, _ = await http.post(url, {"text": items[index]},
                                                  {"If-Match": f'"{version - 1}"', "Idempotency-Key": uuid.uuid4().hex})
                    key = "412 (deliberate)" if stale == 412 else f"{stale} (error)"
                    statuses[key] = statuses.get(key, 0) + 1
                started = time.perf_counter()
                status, fields, answer = await http.post(url, {"text": items[index]},
                                                         {"If-Match": f'"{version}"', "Idempotency-Key": uuid.uuid4().hex})
                elapsed = time.perf_counter() - started
                key = "200" if status == 200 else f"{status} (error)"
                statuses[key] = statuses.get(key, 0) + 1
                if status == 200:
                    latencies.append(elapsed)
                    timing = fields.get("server-timing", "")
                    if "dur=" in timing:
                        server_side.append(float(timing.split("dur=")[1]) / 1000)
                    version = int(fields["etag"].strip('"'))
                else:
                    print(f"error: {status} {answer[:200]!r}", file=sys.stderr)
                turn[(k + 1) % clients].set()
        finally:
            await http.close()

    await asyncio.gather(*(client(k) for k in range(clients)))


def process_cpu(pid: int | None = None) -> float:
    """CPU seconds (user + system) of a process: this one, or the server's (Linux's /proc)."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(server: Server, tables: int, clients: int, limit: int, seconds: float, pace: float = 0.0,
              connection: str = "raw") -> None:
    feeds = []
    for number in range(tables):
        game, _, items = game_items("2e", 3, seed=100 + number)
        feeds.append((server.create(game=game), items[:limit]))
    latencies: list[float] = []
    server_side: list[float] = []
    statuses: dict[str, int] = {}
    pid = server.process.pid if server.process is not None else None
    cpu = process_cpu(), process_cpu(pid)
    started = time.monotonic()
    await asyncio.gather(*(table_run(server.base, table, items, clients, started + seconds, latencies, statuses,
                                     pace, server_side, connection) for table, items in feeds))
    wall = time.monotonic() - started
    client_cpu, server_cpu = process_cpu() - cpu[0], process_cpu(pid) - cpu[1]
    latencies.sort()
    server_side.sort()

    def pct(p: float, values: list[float] = latencies) -> float:
        return 1000 * values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")

    errors = sum(count for key, count in statuses.items() if "error" in key)
    how = f"paced, an item every {pace:g} s on average per table" if pace else "flat out"
    print(f"tables {tables} × clients {clients} ({how}): {len(latencies)} items accepted in {wall:.1f} s "
          f"= {len(latencies) / wall:.0f} items/s")
    print(f"accepted items: p50 {pct(0.50):.1f} ms, p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms (target p99 ≤ 50 ms)")
    print(f"  of which in the server's app (check, turn, commit; Server-Timing): p50 {pct(0.5, server_side):.1f} ms, "
          f"p99 {pct(0.99, server_side):.1f} ms")
    print("answers: " + ", ".join(f"{key} {count}" for key, count in sorted(statuses.items())) + f"; errors {errors}")
    print(f"CPU: the server {server_cpu:.2f} s, the clients ({connection}) {client_cpu:.2f} s")
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--items", type=int, default=60, help="at most this many items a table")
    parser.add_argument("--seconds", type=float, default=60, help="stop sending after this long (each phase)")
    parser.add_argument("--pace", type=float, default=0.5,
                        help="the paced phase: each table's next item after this many seconds on average "
                        "(a club's scorer taps every few seconds); 0 skips it")
    parser.add_argument("--client", choices=sorted(CLIENTS), default="raw",
                        help="how the scorers send: raw (kept-alive HTTP/1.1 on asyncio streams, cheaper than the "
                        "server it measures) or httpx")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="diamonds-serve-bench-") as folder:
        server = Server(Path(folder)).start()
        try:
            if args.pace:
                asyncio.run(run(server, args.tables, args.clients, args.items, args.seconds, args.pace, args.client))
            asyncio.run(run(server, args.tables, args.clients, args.items, args.seconds, connection=args.client))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
