"""`hostcompat preview`: the observed runs' test host in the user's own browser, served on loopback.

`PreviewServer` serves one server's widgets (from its snapshot) under any catalog host that renders MCP Apps: `GET /`
with the start-up token is the page (`observe.preview_page`), `POST /api/server` with the token in its header
answers the view's forwarded requests (from the snapshot, or the live server when given one). Every request must
name the server's loopback address in `Host` and carry no `Origin` or exactly its own (`web.guard`); anything else
is refused. The standard library's threaded HTTP server runs it: nothing beyond the package is needed.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import Catalog, HostProfile
from hostcompat.errors import InvalidInput
from hostcompat.observe.host_profile import PROXIED, emulate_host, renders_mcp_apps
from hostcompat.observe.preview_page import SERVER_PATH, preview_page
from hostcompat.observe.runner import ServerHandler
from hostcompat.observe.session import snapshot_server
from hostcompat.observe.widget import WidgetJob, widget_jobs
from hostcompat.probe.snapshot import Snapshot
from hostcompat.probe.target import Target
from hostcompat.web.guard import TOKEN_HEADER, Guard, new_token
from hostcompat.wire_json import WireJSON, WireValue

MAX_BODY: Final = 1_048_576
"""The largest forwarded request the page may post."""

_HEADERS: Final = (
    ("Content-Security-Policy", "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)


@dataclass(frozen=True)
class PreviewSite:
    """What the preview shows: the widgets, the hosts to switch between, the first host, and the server behind."""

    jobs: tuple[WidgetJob, ...]
    hosts: tuple[HostProfile, ...]
    host_id: str
    snapshot: Snapshot

    @classmethod
    def of(cls, snapshot: Snapshot, catalog: Catalog, host: str) -> PreviewSite:
        """The site for `snapshot`, opening on `host` (a catalog id or alias).

        Raises:
            InvalidInput: the snapshot shows no widget that can be rendered, or the host renders no MCP Apps.
            CatalogError: no catalog host by that name.
        """
        profile = catalog.get(host)
        if not renders_mcp_apps(profile):
            raise InvalidInput(f"{profile.display_name} does not render MCP Apps: nothing to preview", value=host)
        jobs, skipped = widget_jobs(snapshot)
        if not jobs:
            why = "; ".join(f"{item.uri}: {item.reason}" for item in skipped[:3]) or "its tools name no ui:// widget"
            raise InvalidInput(f"no widget to preview ({why})", value=None)
        hosts = tuple(item for item in catalog.hosts if renders_mcp_apps(item))
        return cls(tuple(jobs), hosts, profile.id, snapshot)

    def page(self, token: str, host_id: str | None, uri: str | None) -> str | None:
        """The page for the host and widget asked for (the first ones when not named); None for unknown ones."""
        profile = next((item for item in self.hosts if item.id == (host_id or self.host_id)), None)
        job = next((item for item in self.jobs if item.uri == uri), None) if uri else self.jobs[0]
        if profile is None or job is None:
            return None
        return preview_page(
            job,
            emulate_host(profile),
            token=token,
            hosts=[(item.id, item.display_name) for item in self.hosts],
            widgets=[item.uri for item in self.jobs],
        )


class PreviewServer:
    """The preview on `host:port` (port 0: any free one) in a background thread; `url` carries the token."""

    def __init__(
        self, site: PreviewSite, *, host: str = "127.0.0.1", port: int = 0, live: Target | None = None
    ) -> None:
        """A server for `site`, not yet started; `live` forwards the views' requests to that server instead."""
        self.site = site
        self.notes: list[str] = []
        self._live = live
        self._loop = asyncio.new_event_loop()
        self._handler: ServerHandler = snapshot_server(site.snapshot)
        self._context: AbstractAsyncContextManager[ServerHandler] | None = None
        self._httpd = ThreadingHTTPServer((host, port), _make_handler(self))
        self._httpd.daemon_threads = True
        bound = self._httpd.server_address
        self.guard = Guard.for_address(host, int(bound[1]), new_token())
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        self.url = f"http://{shown}:{bound[1]}/?token={self.guard.token}"
        self._threads: list[threading.Thread] = []

    def start(self) -> str:
        """Start serving (and connect to the live server, if any); the page's address with its token."""
        loop_thread = threading.Thread(target=self._loop.run_forever, name="preview-loop", daemon=True)
        loop_thread.start()
        self._threads.append(loop_thread)
        if self._live is not None:
            from hostcompat.observe.live_server import live_server

            self._context = live_server(self._live, self.site.snapshot, self._handler, self.notes)
            self._handler = self._await(self._context.__aenter__(), 120.0)
        http_thread = threading.Thread(target=self._httpd.serve_forever, name="preview-http", daemon=True)
        http_thread.start()
        self._threads.append(http_thread)
        return self.url

    def close(self) -> None:
        """Stop serving and close the live connection."""
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._context is not None:
            try:
                self._await(self._context.__aexit__(None, None, None), 15.0)
            except Exception:  # a server that will not close is left to its own shutdown
                self.notes.append("the live server did not close cleanly")
        self._loop.call_soon_threadsafe(self._loop.stop)
        for thread in self._threads:
            thread.join(5.0)
        if not self._loop.is_running():
            self._loop.close()

    def answer(self, method: str, params: WireValue) -> WireJSON:
        """The server's answer to one forwarded request (bounded in time)."""
        if method not in PROXIED:
            return {"error": {"code": -32601, "message": "Method not found"}}
        try:
            reply: WireJSON = self._await(self._handler(method, params), 30.0)
            return reply
        except Exception as error:
            return {"error": {"code": -32603, "message": f"host error: {type(error).__name__}"}}

    def _await(self, coroutine: Any, seconds: float) -> Any:
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(seconds)


def _make_handler(server: PreviewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: requests are not logged (their URLs carry the token)."""

        def _refused(self) -> bool:
            reason = server.guard.refusal(self.headers.get("Host"), self.headers.get("Origin"))
            if reason is not None:
                self._send(403, "text/plain; charset=utf-8", reason.encode())
                return True
            return False

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for name, value in _HEADERS:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            """The page, for the token's holder."""
            if self._refused():
                return
            parts = urlsplit(self.path)
            query = {key: values[0] for key, values in parse_qs(parts.query).items() if values}
            if parts.path != "/":
                self._send(404, "text/plain; charset=utf-8", b"not found")
                return
            if not server.guard.token_ok(query.get("token")):
                self._send(403, "text/plain; charset=utf-8", b"the page needs the token printed at start-up")
                return
            page = server.site.page(server.guard.token, query.get("host"), query.get("widget"))
            if page is None:
                self._send(404, "text/plain; charset=utf-8", b"no such host or widget")
                return
            self._send(200, "text/html; charset=utf-8", page.encode())

        def do_POST(self) -> None:
            """A forwarded request of the view, for the page holding the token."""
            if self._refused():
                return
            if urlsplit(self.path).path != SERVER_PATH or not server.guard.token_ok(self.headers.get(TOKEN_HEADER)):
                self._send(403, "text/plain; charset=utf-8", b"refused")
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                length = -1
            if not 0 < length <= MAX_BODY:
                self._send(413, "text/plain; charset=utf-8", b"the request body is missing or too large")
                return
            try:
                request = json.loads(self.rfile.read(length))
            except (ValueError, RecursionError):  # the params come from the widget: nesting too deep is no JSON
                request = None
            if not isinstance(request, dict) or not isinstance(request.get("method"), str):
                self._send(400, "text/plain; charset=utf-8", b"expected {method, params}")
                return
            reply = server.answer(request["method"], request.get("params"))
            self._send(200, "application/json", json.dumps(reply).encode())

    return Handler


def hosts_named(site: PreviewSite) -> Sequence[str]:
    """The ids of the hosts the preview can switch to."""
    return [host.id for host in site.hosts]


__all__ = ["MAX_BODY", "PreviewServer", "PreviewSite", "hosts_named"]
