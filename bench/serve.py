"""Load on `diamonds serve`: 30 tables × 3 scorer clients on loopback, bounded in count and time.

    python bench/serve.py                       # 30 tables, 3 clients each, ≤ 60 items a table, ≤ 60 s a phase
    python bench/serve.py --tables 10 --items 30 --seconds 30 --pace 0

A real server process (the command, uvicorn) on a free port in a temporary folder. Each table is fed a
simulated 2e game item by item by its three clients in turn (client k sends the items k, k+3, …, each
with the If-Match of the answer before and a fresh Idempotency-Key); every 10th item its client first
sends it once with a stale If-Match, a deliberate 412. Two phases on new tables: paced (each table's
next item after `--pace` seconds on average, ten times a real scorer's rate: the latency a scorer feels)
and flat out (no pause: the throughput, where the latency is the queue). Prints items/s and the p50/p99
latency of the accepted items, and the count of every status: any answer but 200 and the deliberate
412s is an error.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "serve"))

import httpx  # noqa: E402
from servehelp import Server, game_items  # noqa: E402


async def table_run(base: str, table: dict, items: list[str], clients: int, deadline: float,
                    latencies: list[float], statuses: dict[str, int], pace: float = 0.0,
                    server_side: list[float] | None = None) -> None:
    server_side = server_side if server_side is not None else []
    version = 0
    turn = [asyncio.Event() for _ in range(clients)]
    turn[0].set()
    headers = {"Authorization": f"Bearer {table['scorer_token']}"}

    async def client(k: int) -> None:
        nonlocal version
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as http:
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
                    stale = await http.post(url, json={"text": items[index]},
                                            headers={"If-Match": f'"{version - 1}"', "Idempotency-Key": uuid.uuid4().hex})
                    key = "412 (deliberate)" if stale.status_code == 412 else f"{stale.status_code} (error)"
                    statuses[key] = statuses.get(key, 0) + 1
                started = time.perf_counter()
                answer = await http.post(url, json={"text": items[index]},
                                         headers={"If-Match": f'"{version}"', "Idempotency-Key": uuid.uuid4().hex})
                elapsed = time.perf_counter() - started
                key = "200" if answer.status_code == 200 else f"{answer.status_code} (error)"
                statuses[key] = statuses.get(key, 0) + 1
                if answer.status_code == 200:
                    latencies.append(elapsed)
                    timing = answer.headers.get("Server-Timing", "")
                    if "dur=" in timing:
                        server_side.append(float(timing.split("dur=")[1]) / 1000)
                    version = int(answer.headers["ETag"].strip('"'))
                else:
                    print(f"error: {answer.status_code} {answer.text[:200]}", file=sys.stderr)
                turn[(k + 1) % clients].set()

    await asyncio.gather(*(client(k) for k in range(clients)))


async def run(server: Server, tables: int, clients: int, limit: int, seconds: float, pace: float = 0.0) -> None:
    feeds = []
    for number in range(tables):
        game, _, items = game_items("2e", 3, seed=100 + number)
        feeds.append((server.create(game=game), items[:limit]))
    latencies: list[float] = []
    server_side: list[float] = []
    statuses: dict[str, int] = {}
    started = time.monotonic()
    await asyncio.gather(*(table_run(server.base, table, items, clients, started + seconds, latencies, statuses,
                                     pace, server_side) for table, items in feeds))
    wall = time.monotonic() - started
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="diamonds-serve-bench-") as folder:
        server = Server(Path(folder)).start()
        try:
            if args.pace:
                asyncio.run(run(server, args.tables, args.clients, args.items, args.seconds, args.pace))
            asyncio.run(run(server, args.tables, args.clients, args.items, args.seconds))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
