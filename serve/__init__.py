"""`diamonds serve`: the club night in the browser (issue 21), over the recorder of `diamonds record`.

- `club`: the night's folder, its tables, one `Recorder` session per table, every change committed to
  SQLite (with its Idempotency-Key) before the table's DGN file is rewritten through the one writer;
- `store`: the SQLite store (WAL, synchronous=FULL);
- `state`: what the pages show (public for watchers, everything for the scorer);
- `app`, `pages`: the HTTP layer (FastAPI, the `serve` extra) and the three pages;
- `seating`: the night's tables round by round (pure: names and sizes in, tables out);
- `night`: the seating's routes, the wall (/standings) and the results (/results, night.csv);
- `events`: the server-sent events of a table and of the night; `links`: the links handed out.

Only `app` imports FastAPI; `diamonds serve` imports it (and uvicorn) when it runs. See docs/serve.md.
"""

from __future__ import annotations

__all__: list[str] = []  # the modules (club, store, state, app, pages, …) are imported by name, lazily
