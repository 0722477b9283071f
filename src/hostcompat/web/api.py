"""The HTTP API and the page, as one Starlette application: JSON in and out, every request guarded first.

Routes: `GET /` (the page), `GET /static/{name}` (its assets, from the package), `GET /api/hosts`, `POST /api/check`,
`POST /api/scan`, `GET /api/reports/{id}`, `GET /api/reports/{id}/events` (server-sent events while a check runs)
and `GET /api/openapi.json`. Errors are JSON `{"error": {"code", "message"}}` with a 4xx status that fits.
Bodies are read up to a limit (413 beyond it). The guard (`Host`, `Origin`) refuses a request before any route runs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import field
from importlib import resources
from typing import TYPE_CHECKING, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from hostcompat._dataclass import dataclass
from hostcompat.errors import HostCompatError
from hostcompat.web.guard import TOKEN_HEADER, Guard
from hostcompat.web.openapi import openapi_document
from hostcompat.web.store import DEFAULT_MAX_REPORTS, ReportStore

if TYPE_CHECKING:
    from hostcompat.engine.catalog.model import Catalog

MAX_CHECK_BYTES: Final = 64 * 1024 * 1024
"""The largest `POST /api/check` body (a snapshot upload), in bytes."""

MAX_SCAN_BYTES: Final = 16 * 1024 * 1024
"""The largest `POST /api/scan` body (one widget's HTML), in bytes."""

PAGE_CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page's policy: its own script and style files, requests to itself, nothing inline, nothing elsewhere."""

_STATIC: Final = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}


class AsciiJSONResponse(JSONResponse):
    """A JSON response written as ASCII: a lone surrogate a server or a snapshot sent (a `\\ud800` escape) stays an
    escape in the body, where the UTF-8 encoding of Starlette's own would fail the request.
    """

    def render(self, content: object) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


class ApiError(Exception):
    """A request the API refuses: its status, a short code and a message naming the problem."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> AsciiJSONResponse:
    """The JSON body of a refusal."""
    return AsciiJSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=_HEADERS)


_HEADERS: Final = {"cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@dataclass
class AppState:
    """What the application holds: the guard, the catalog, the reports and the tasks of running checks."""

    guard: Guard
    catalog: Catalog
    store: ReportStore
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


class GuardMiddleware:
    """Refuses a request whose `Host` or `Origin` is not this server's, before it reaches any route."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app, self.guard = app, guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the headers of an HTTP request; refuse it (403) or pass it on."""
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            reason = self.guard.refusal(headers.get("host"), headers.get("origin"))
            if reason is not None:
                await error_response(403, "forbidden-origin", reason)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, read up to `limit` bytes (ApiError 413 beyond)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "too-large", f"the body is {declared} bytes; the limit is {limit}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "too-large", f"the body is over the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _json_body(raw: bytes) -> dict[str, object]:
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise ApiError(400, "bad-json", f"the body is not JSON: {str(error)[:200]}") from error
    if not isinstance(value, dict):
        raise ApiError(400, "bad-json", "the body must be a JSON object")
    return value


Handler = Callable[[Request], Awaitable[Response]]


def _handled(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as error:
            return error_response(error.status, error.code, error.message)
        except HostCompatError as error:
            return error_response(400, "invalid-input", error.message[:2000])

    return wrapped


def create_app(guard: Guard, catalog: Catalog, *, max_reports: int = DEFAULT_MAX_REPORTS) -> ASGIApp:
    """The application of `hostcompat serve`: routes over one state, wrapped in the guard."""
    state = AppState(guard, catalog, ReportStore(max_reports))

    async def page(request: Request) -> Response:
        return _asset("index.html", csp=True)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC or name == "index.html":
            raise ApiError(404, "not-found", "no such asset")
        return _asset(name)

    async def hosts(request: Request) -> Response:
        rows = [host.to_dict() for host in state.catalog.hosts]
        return AsciiJSONResponse({"catalog": state.catalog.header.to_dict(), "hosts": rows}, headers=_HEADERS)

    async def check(request: Request) -> Response:
        from hostcompat.web.checks import check_host_ids, parse_check_request, run_check

        body = _json_body(await read_body(request, MAX_CHECK_BYTES))
        wanted = parse_check_request(body)
        if wanted.live and not state.guard.token_ok(request.headers.get(TOKEN_HEADER)):
            raise ApiError(
                403,
                "token-required",
                "probing a command, a URL or a config file's servers needs the token printed when the server started",
            )
        host_ids = check_host_ids(wanted, state.catalog)
        run = state.store.new()
        task = asyncio.ensure_future(run_check(run, wanted, state.catalog, host_ids))
        state.tasks.add(task)
        task.add_done_callback(state.tasks.discard)
        links = {"report": f"/api/reports/{run.id}", "events": f"/api/reports/{run.id}/events"}
        return AsciiJSONResponse(
            {"id": run.id, "status": run.status, "links": links}, status_code=202, headers=_HEADERS
        )

    async def scan(request: Request) -> Response:
        import anyio

        from hostcompat.engine.scan.widget import scan_widget_source

        raw = await read_body(request, MAX_SCAN_BYTES)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ApiError(400, "bad-encoding", "the widget HTML must be UTF-8") from error
        result = await anyio.to_thread.run_sync(scan_widget_source, text)
        return AsciiJSONResponse(result.to_dict(), headers=_HEADERS)

    async def report(request: Request) -> Response:
        run = _run(request)
        return AsciiJSONResponse(run.summary(), headers=_HEADERS)

    async def events(request: Request) -> Response:
        run = _run(request)

        async def stream() -> AsyncIterator[str]:
            sent = 0
            while True:
                async with run.changed:
                    while sent >= len(run.events) and run.status == "running":
                        await run.changed.wait()
                    fresh = run.events[sent:]
                for event in fresh:
                    yield f"event: {event['event']}\ndata: {json.dumps(event)}\n\n"
                sent += len(fresh)
                if run.status != "running" and sent >= len(run.events):
                    return

        return StreamingResponse(stream(), media_type="text/event-stream", headers=_HEADERS)

    async def openapi(request: Request) -> Response:
        return AsciiJSONResponse(openapi_document(), headers=_HEADERS)

    def _run(request: Request):  # type: ignore[no-untyped-def]
        run = state.store.get(request.path_params["id"])
        if run is None:
            raise ApiError(404, "no-such-report", "no report has this id (only the newest are kept)")
        return run

    routes = [
        Route("/", _handled(page), methods=["GET"]),
        Route("/static/{name}", _handled(static), methods=["GET"]),
        Route("/api/hosts", _handled(hosts), methods=["GET"]),
        Route("/api/check", _handled(check), methods=["POST"]),
        Route("/api/scan", _handled(scan), methods=["POST"]),
        Route("/api/reports/{id}", _handled(report), methods=["GET"]),
        Route("/api/reports/{id}/events", _handled(events), methods=["GET"]),
        Route("/api/openapi.json", _handled(openapi), methods=["GET"]),
    ]
    app = Starlette(routes=routes, exception_handlers={404: _not_found, 405: _not_allowed})
    app.state.web = state
    return GuardMiddleware(app, guard)


async def _not_found(request: Request, exc: Exception) -> Response:
    return error_response(404, "not-found", "no such route")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return error_response(405, "method-not-allowed", "this route does not take that method")


def _asset(name: str, *, csp: bool = False) -> Response:
    data = resources.files("hostcompat.web").joinpath("static").joinpath(name).read_bytes()
    headers = dict(_HEADERS)
    if csp:
        headers["content-security-policy"] = PAGE_CSP
    return Response(data, media_type=_STATIC[name], headers=headers)


__all__ = ["MAX_CHECK_BYTES", "MAX_SCAN_BYTES", "PAGE_CSP", "ApiError", "GuardMiddleware", "create_app", "read_body"]
