"""Server-sent events, one machinery for every stream the server offers (a table's, the night's wall).

A stream sends its event at once, then again whenever `changed()` gives another value (looked at every
POLL seconds, or as the stream says: a change is pushed within that, whatever its cause), and a comment after IDLE seconds
without one, so that proxies keep the connection open. It ends when the client goes away.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse

__all__ = ["event_stream", "POLL", "IDLE"]

POLL = 0.2  # seconds between looks at `changed()`
IDLE = 15.0  # seconds without an event before a keep-alive comment


def event_stream(request: Request, event: str, changed: Callable[[], Hashable],
                 payload: Callable[[], Awaitable[tuple[Hashable, dict[str, Any]]]], poll: float = POLL
                 ) -> StreamingResponse:
    """`event: EVENT` with `payload()`'s data at once and on every change; `payload` gives the value of
    `changed()` its data was made at (the event's id: a number, or text without a line break) and the data;
    `changed()` is looked at every `poll` seconds."""

    async def stream() -> AsyncIterator[str]:
        sent: Hashable = object()
        idle = 0.0
        while not await request.is_disconnected():
            if changed() != sent:
                sent, data = await payload()  # the value the data was made at (it may be newer than the look)
                idle = 0.0
                yield f"event: {event}\nid: {sent}\ndata: {json.dumps(data)}\n\n"
            await asyncio.sleep(poll)
            idle += poll
            if idle >= IDLE:
                idle = 0.0
                yield ": still here\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
