"""The HTTP layer: a FastAPI app over one `Club` (serve/club.py), in small routers.

- `api`: the JSON API of docs/serve.md (tables, items, undo, state, DGN, events, standings, the night);
- `pages`: the organiser's, the scorer's and the watchers' pages, and their script and style sheet.

Authentication is a dependency (`Role`): a Bearer token is the organiser's, a table's scorer's, or
nobody's; compared in constant time on hashes. Every answer carries a strict Content-Security-Policy;
request bodies are limited (`BodyLimit`). The work of a request (the recorder's check, SQLite, the
file) runs in the thread pool, one change at a time per table.

Every answer that is not 2xx or 304 has one shape, `{"error": {"message", "code", "rule", "line",
"column", …}}`: the refusals, the bodies that do not parse, unknown paths and methods, and the server's own
failures (`Guard`: 507 when the disk is full, 500 otherwise, the traceback to the log, never to the client).
Links handed out (scorer, watch) start with the server's public URL (`create_app(public_url=…)`), never
with a request's Host header.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import tempfile
import time
import zipfile
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from diamonds.core import with_rule

from . import night
from . import pages as page_text
from .club import MAX_TEXT, REFUSED_COMMANDS, Answer, Club, SetupError, Table, disk_full, etag_matches
from .events import event_stream
from .links import table_links

__all__ = ["create_app", "MAX_BODY", "CSP", "Guard"]

MAX_BODY = 16 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_ID = re.compile(r"[0-9a-f]{8}\Z")
_LOG = logging.getLogger("diamonds.serve")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


# ---------------------------------------------------------------- bodies

class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = Field(max_length=40)
    players: list[str] | str = Field(max_length=400)
    dealer: str | None = Field(default=None, max_length=80)
    variants: list[str] = Field(default_factory=list, max_length=10)
    tags: dict[str, str] = Field(default_factory=dict, max_length=20)


class ItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=MAX_TEXT)


class TableCreated(BaseModel):
    id: str
    scorer_token: str
    scorer_url: str
    watch_url: str
    qr_svg: str


# ---------------------------------------------------------------- dependencies
# Every dependency only reads memory, so each is `async def`: FastAPI runs a plain `def` dependency in a
# worker thread, a thread hop per dependency per request, which the load test showed at the p99.

async def club_of(request: Request) -> Club:
    club: Club = request.app.state.club
    return club


# FastAPI's own scheme: it reads the header without a validation model per request, and it names the
# scheme in /openapi.json, so a client generated from the document sends the token.
_BEARER = HTTPBearer(auto_error=False, scheme_name="token",
                     description="The organiser's token, or a table's scorer token (docs/serve.md)")


async def bearer(credentials: HTTPAuthorizationCredentials | None = Depends(_BEARER)) -> str | None:
    return credentials.credentials.strip() or None if credentials is not None else None


async def who(token: str | None = Depends(bearer), club: Club = Depends(club_of)) -> str | None:
    """"organiser", a table's id, or None."""
    return club.who(token)


async def organiser(role: str | None = Depends(who), token: str | None = Depends(bearer)) -> str:
    if role == "organiser":
        return role
    if role is None:
        raise HTTPException(401, "the organiser's token is needed (Authorization: Bearer …)",
                            headers={"WWW-Authenticate": "Bearer"})
    raise HTTPException(403, "this token is a table's scorer token, not the organiser's")


async def table_of(table_id: str, club: Club = Depends(club_of)) -> Table:
    table = club.table(table_id) if _ID.match(table_id) else None
    if table is None:
        raise HTTPException(404, "no such table")
    return table


async def scorer(table: Table = Depends(table_of), role: str | None = Depends(who)) -> Table:
    """The table's scorer (or the organiser): 401 without a token we know, 403 with another table's."""
    if role == table.id or role == "organiser":
        return table
    if role is None:
        raise HTTPException(401, "this table's scorer token is needed (Authorization: Bearer …)",
                            headers={"WWW-Authenticate": "Bearer"})
    raise HTTPException(403, "this token is another table's")


# ---------------------------------------------------------------- answers

def _json(answer: Answer) -> JSONResponse:
    headers = {"ETag": f'"{answer.version}"'} if answer.version is not None else {}
    return JSONResponse(answer.body, status_code=answer.status, headers=headers)


def _error(status: int, message: str, code: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "rule": None, "line": 0, "column": 0, "code": code}},
                        status_code=status, headers=headers)


def _base(request: Request) -> str:
    """The start of every link handed out: the server's public URL, never the request's Host header."""
    base: str = request.app.state.public_url
    return base


def _check_text(text: str) -> str:
    if "\n" in text.strip() or "\r" in text or _CONTROL.search(text):
        raise HTTPException(400, "one line of text, without control characters")
    if text.strip().lower() in REFUSED_COMMANDS:
        raise HTTPException(400, f"`{text.strip()}` is a question for the terminal; GET the table instead")
    return text.strip()


def _key(key: str | None) -> str | None:
    if key is not None and not (1 <= len(key) <= 200 and key.isprintable()):
        raise HTTPException(400, "Idempotency-Key: 1 to 200 printable characters")
    return key


# ---------------------------------------------------------------- the API

api = APIRouter(prefix="/api", tags=["api"])


@api.post("/tables", status_code=201, response_model=TableCreated,
          responses={400: {"description": "a set-up the rules refuse"}, 401: {}, 403: {}})
async def create_table(body: TableIn, request: Request, _: str = Depends(organiser),
                       club: Club = Depends(club_of)) -> Any:
    """A new table (the organiser): its scorer's token and link (with a QR code) and its watch link."""
    from diamonds.notation.tags import parse_players

    players = list(parse_players(body.players)) if isinstance(body.players, str) else list(body.players)
    try:
        table, token = await run_in_threadpool(club.create, body.rules, players, body.dealer, body.variants,
                                               body.tags)
    except SetupError as error:
        return JSONResponse({"error": {"message": with_rule(str(error), error.rule), "rule": error.rule, "line": 0, "column": 0,
                                       "code": "setup", "tag": error.tag}}, status_code=400)
    return JSONResponse(_links(request, table, token), status_code=201)


def _links(request: Request, table: Table, token: str) -> dict[str, str]:
    return table_links(_base(request), table.id, token)


@api.post("/tables/{table_id}/scorer-token", status_code=201, response_model=TableCreated)
async def new_scorer_token(request: Request, table: Table = Depends(table_of), _: str = Depends(organiser),
                           club: Club = Depends(club_of)) -> Any:
    """A new scorer link for a table (the organiser): the old token stops working (only hashes are kept)."""
    token = await run_in_threadpool(club.new_scorer_token, table)
    return JSONResponse(_links(request, table, token), status_code=201)


async def _change(club: Club, table: Table, kind: str, text: str, if_match: str | None, key: str | None) -> Response:
    started = time.perf_counter()
    response = _json(await club.change_async(table, kind, text, if_match, key))
    # the time in the app: the check, the wait for this table's turn and for the commit (not HTTP parsing)
    response.headers["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - started):.1f}"
    return response


@api.post("/tables/{table_id}/items", responses={412: {}, 422: {}, 428: {}, 401: {}, 403: {}})
async def add_item(body: ItemIn, table: Table = Depends(scorer), club: Club = Depends(club_of),
                   if_match: str | None = Header(default=None),
                   idempotency_key: str | None = Header(default=None)) -> Response:
    """One line as `diamonds record` takes it (a card, several, a pass/deal/bid/end line, `fix R1.3.2 9H`,
    an answer to the recorder's question); 422 with the recorder's refusal, nothing recorded."""
    return await _change(club, table, "item", _check_text(body.text), if_match, _key(idempotency_key))


@api.post("/tables/{table_id}/undo", responses={412: {}, 422: {}, 428: {}, 401: {}, 403: {}})
async def undo(table: Table = Depends(scorer), club: Club = Depends(club_of),
               if_match: str | None = Header(default=None),
               idempotency_key: str | None = Header(default=None)) -> Response:
    """Take back the last item (or the question waiting)."""
    return await _change(club, table, "undo", "undo", if_match, _key(idempotency_key))


@api.get("/tables/{table_id}")
async def get_table(table: Table = Depends(table_of), role: str | None = Depends(who),
                    club: Club = Depends(club_of), if_none_match: str | None = Header(default=None)) -> Response:
    """The table's state: public, or the scorer's (picture with every hand, cards grid, question) with its token."""
    private = role in (table.id, "organiser")
    # The body depends on the token (public or the scorer's): a cache keeps one per Authorization header.
    if etag_matches(if_none_match, table.version, weak=True):
        return Response(status_code=304, headers={"ETag": f'"{table.version}"', "Vary": "Authorization"})
    state = await run_in_threadpool(club.view, table, private)
    return JSONResponse(state, headers={"ETag": f'"{state["version"]}"', "Vary": "Authorization"})


@api.get("/tables/{table_id}/dgn", response_class=PlainTextResponse)
async def get_dgn(table: Table = Depends(table_of), role: str | None = Depends(who)) -> Response:
    """The table's game as DGN: to anyone once it is over, before that to its scorer and the organiser
    (deal and pass lines are hidden information while the game goes on)."""
    if not table.recorder.finished and role not in (table.id, "organiser"):
        if role is None:
            raise HTTPException(401, "the game is not over: its DGN needs the scorer's or the organiser's token")
        raise HTTPException(403, "this token is another table's")
    return PlainTextResponse(table.recorder.text, media_type="application/x-dgn; charset=utf-8",
                             headers={"ETag": f'"{table.version}"'})


@api.get("/tables/{table_id}/events")
async def events(request: Request, table: Table = Depends(table_of), club: Club = Depends(club_of)) -> Response:
    """Server-sent events: `state` with the public state at once and after every change, a comment every 15 s."""

    async def state() -> tuple[int, dict[str, Any]]:
        found = await run_in_threadpool(club.view, table, False)
        return found["version"], found

    return event_stream(request, "state", lambda: table.version, state)


@api.get("/token", responses={401: {}})
async def token_role(role: str | None = Depends(who), token: str | None = Depends(bearer)) -> Response:
    """What the bearer token may do: `{"role": "organiser"}` or `{"role": "scorer", "table": ID}`; 401 for a
    missing or unknown token (the organiser's page asks at load, so a wrong link is said at once)."""
    if token is None:
        raise HTTPException(401, "no token was sent (Authorization: Bearer …)", headers={"WWW-Authenticate": "Bearer"})
    if role is None:
        raise HTTPException(401, "this token is not one of this night's (a link from another night, or a "
                                 "renewed one?)", headers={"WWW-Authenticate": "Bearer"})
    return JSONResponse({"role": "organiser"} if role == "organiser" else {"role": "scorer", "table": role})


@api.get("/standings")
async def standings(role: str | None = Depends(who), club: Club = Depends(club_of)) -> Response:
    """Every table's standings and every player's totals (finished games; running scores to the organiser)."""
    return JSONResponse(await run_in_threadpool(club.standings, role == "organiser"))


@api.get("/night.dgn", response_class=PlainTextResponse)
async def night_dgn(_: str = Depends(organiser), club: Club = Depends(club_of)) -> Response:
    """Every table's game in one DGN file (the organiser)."""
    return PlainTextResponse(club.night_dgn(), media_type="application/x-dgn; charset=utf-8",
                             headers={"Content-Disposition": 'attachment; filename="night.dgn"'})


@api.get("/night.parquet.zip")
async def night_parquet(_: str = Depends(organiser), club: Club = Depends(club_of)) -> Response:
    """The night as the tables of `diamonds convert --to parquet`, zipped (needs the `parquet` extra)."""
    try:
        data = await run_in_threadpool(_parquet_zip, club)
    except ImportError:
        return _error(501, "Parquet needs the parquet extra: pip install 'diamonds[parquet]'", "missing-extra")
    return Response(data, media_type="application/zip",
                    headers={"Content-Disposition": 'attachment; filename="night-parquet.zip"'})


def _parquet_zip(club: Club) -> bytes:
    import pyarrow.parquet as pq

    from diamonds.replay.arrow import tables_from_files

    with tempfile.TemporaryDirectory(dir=club.folder, prefix=".export-") as folder:  # inside DIR
        path = os.path.join(folder, "night.dgn")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(club.night_dgn())
        tables = tables_from_files([path], jobs=1)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, table in tables.items():
                buffer = io.BytesIO()
                pq.write_table(table, buffer)
                archive.writestr(f"{name}.parquet", buffer.getvalue())
        return out.getvalue()


# ---------------------------------------------------------------- the pages

pages = APIRouter(include_in_schema=False)


def _page(kind: str, table_id: str = "") -> HTMLResponse:
    return HTMLResponse(page_text.page(kind, table_id), headers={"Cache-Control": "no-store"})


@pages.get("/")
async def home() -> HTMLResponse:
    return _page("home")


@pages.get("/organiser")
async def organiser_page() -> HTMLResponse:
    return _page("organiser")


@pages.get("/score/{table_id}")
async def scorer_page(table: Table = Depends(table_of)) -> HTMLResponse:
    return _page("score", table.id)


@pages.get("/watch/{table_id}")
async def watch_page(table: Table = Depends(table_of)) -> HTMLResponse:
    return _page("watch", table.id)


@pages.get("/static/app.js")
async def script() -> Response:
    return Response(page_text.SCRIPT, media_type="text/javascript; charset=utf-8")


@pages.get("/static/app.css")
async def style() -> Response:
    return Response(page_text.STYLE, media_type="text/css; charset=utf-8")


# ---------------------------------------------------------------- the app

_NAMES = {b"content-security-policy", b"x-content-type-options", b"referrer-policy", b"x-frame-options",
          b"cross-origin-opener-policy"}
_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin")]


class Guard:
    """Every answer gets the security headers (and `Cache-Control: no-store` unless it says otherwise); a
    request body over `limit` bytes gets 413 (by Content-Length, or counted as it streams in); a failure
    that escapes the app gets `failure`'s JSON (507 or 500) with those headers, if no answer has begun.
    Plain ASGI, not `BaseHTTPMiddleware`, which costs a task and a queue per request."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]],
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        original = send

        async def secured(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                headers.extend(_HEADERS)
                if not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await original(message)

        started = False

        async def secured_once(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await secured(message)

        send = secured_once
        try:
            await self._guarded(scope, receive, send)
        except Exception as error:
            _LOG.error("%s %s failed", scope.get("method"), scope.get("path"), exc_info=error)
            if started:
                raise  # the answer has begun (a stream): the server closes the connection
            await _answer(failure(error), scope, receive, send)

    async def _guarded(self, scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]],
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(scope, receive, send, self.limit)
            return
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        body, more = b"", True  # read whole (it is small) before the app sees it
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await _too_large(scope, receive, send, self.limit)
                return
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(scope: Any, receive: Any, send: Any, limit: int) -> None:
    await _answer(_error(413, f"request body over {limit} bytes", "too-large"), scope, receive, send)


async def _answer(response: Response, scope: Any, receive: Any, send: Any) -> None:
    await response(scope, receive, send)


def failure(error: BaseException) -> JSONResponse:
    """The answer for a failure of the server's own: 507 when the disk is full (nothing was recorded: a
    change is answered only once committed, and a table is created whole or not at all), else 500."""
    if disk_full(error):
        return _error(507, "the server's disk is full: nothing was recorded; free some space and send it again",
                      "disk-full")
    return _error(500, "the server failed on this request (its log says why)",
                  "server-error")


def http_protocol() -> Any:
    """uvicorn's HTTP protocol (httptools, the serve extra's) with its one answer of its own, the 400 for
    bytes that are not an HTTP request, given in the one error shape with the security headers; uvicorn's
    choice ("auto") where httptools is missing."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return "auto"

    class Protocol(HttpToolsProtocol):
        def send_400_response(self, msg: str) -> None:
            body = json.dumps({"error": {"message": msg, "rule": None, "line": 0, "column": 0,
                                         "code": "bad-http"}}).encode("utf-8")
            headers = [*self.server_state.default_headers, *_HEADERS, (b"cache-control", b"no-store"),
                       (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                       (b"connection", b"close")]
            head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\n" + head + b"\r\n" + body)
            self.transport.close()

    return Protocol


_CODES = {400: "bad-request", 401: "unauthorized", 403: "forbidden", 404: "not-found", 405: "method-not-allowed",
          413: "too-large", 415: "unsupported-media-type"}


def create_app(club: Club, public_url: str = "http://127.0.0.1:8000") -> FastAPI:
    """The app over `club`; `public_url` starts every link it hands out (`diamonds serve` passes
    --public-url, or its own address on the network it listens on: cli/serve_cmd.py)."""
    app = FastAPI(title="diamonds serve: the club night", version="1", docs_url=None, redoc_url=None,
                  description="The club night in the browser: see docs/serve.md.")
    app.state.club = club
    app.state.public_url = public_url.rstrip("/")
    for router in (api, pages, night.router(club_of, organiser)):
        # RFC 9110 (9.1): a server supports HEAD wherever it supports GET: the GET's answer, whose body uvicorn
        # leaves out. Starlette's routes add it themselves; FastAPI's keep the methods they are given, as they
        # are when included.
        for route in router.routes:
            if isinstance(route, APIRoute) and route.methods is not None and "GET" in route.methods:
                route.methods.add("HEAD")
        app.include_router(router)

    # Starlette's class, not FastAPI's subclass: the router's own 404 and 405 are Starlette's.
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        code = _CODES.get(error.status_code, "bad-request" if error.status_code < 500 else "server-error")
        return _error(error.status_code, str(error.detail), code, dict(error.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, error: RequestValidationError) -> Response:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()))
        if first.get("type") == "json_invalid":
            return _error(400, f"the body is not JSON ({first.get('ctx', {}).get('error', 'it does not parse')})",
                          "bad-json")
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}", "bad-request")

    # The catch-all is `Guard`, outside the app: an exception handler for Exception would answer from
    # Starlette's outermost layer, without the security headers.
    app.add_middleware(Guard)
    return app
