"""The streamable HTTP front: an ASGI app where each MCP session (`Mcp-Session-Id`) is one front session.

Each session runs on the SDK's `StreamableHTTPServerTransport` and is relayed to its own upstream session, so two
clients never share a profile, a rename map or an upstream connection. Requests are bounded in size, every request's
Host and Origin headers are checked (`FrontGuard`), and an upstream is started only for a complete, valid
`initialize` that passed those checks: nothing a refused or broken request sends costs a server process.

A front session always opens with `initialize`, so its client speaks the handshake era; unless the config says the
server does too (`era_back` legacy), each session's upstream sits behind the era gateway, which asks the server once
and translates for a 2026-07-28-only one (or relays as is when it answers the handshake).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, MutableMapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, BinaryIO
from uuid import uuid4

import anyio
from anyio.abc import TaskGroup, TaskStatus
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER, StreamableHTTPServerTransport
from mcp.server.transport_security import RequestBodyLimitMiddleware
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types import INTERNAL_ERROR, INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Receive, Scope, Send

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.config import MCP_PATH, ProxyConfig
from hostcompat.clients.proxy.links import FrontLink, UpstreamLink, UpstreamOpener
from hostcompat.clients.proxy.session.front_guard import FrontGuard
from hostcompat.clients.proxy.session.front_opening import Refusal, read_body, read_opening, replay
from hostcompat.clients.proxy.session.relay import ProxySession
from hostcompat.clients.proxy.session.upstream import open_upstream
from hostcompat.clients.proxy.session.wire import BAD_ID, has_invalid_id

logger = logging.getLogger(__name__)

DEAD_SESSION_LINGER = 30.0
"""Seconds a session whose upstream died keeps answering with that error before it is closed (then the client's
next request gets 404 and it starts a new session, with a new upstream)."""


def _headers(scope: Scope) -> dict[str, str]:
    return {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}


async def _reply(send: Send, status: int, code: int | None, message: str, data: Any = None) -> None:
    """A bare HTTP response with a JSON-RPC error body (or no body when `code` is None)."""
    body = b""
    headers = [(b"content-type", b"application/json")]
    if code is not None:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@dataclass
class _Session:
    """One front session: its transport, how many GET streams the client holds open on it, and how many requests
    it sent after the `initialize` that opened it.
    """

    transport: StreamableHTTPServerTransport
    open_streams: int = 0
    requests: int = 0


class ProxyHttpApp:
    """The ASGI app of the HTTP front. Use inside `async with app.running():`, which owns the sessions' tasks.

    `guard` checks every request's Host and Origin (None: no check, for an app behind a server that does it);
    `upstream` opens each session's upstream instead of the one `config` describes (an in-process server).
    """

    def __init__(
        self,
        config: ProxyConfig,
        *,
        guard: FrontGuard | None = None,
        stderr: BinaryIO | None = None,
        upstream: UpstreamOpener | None = None,
    ) -> None:
        self.config = config
        self._guard = guard
        self._stderr = stderr
        self._upstream = self._behind_gateway(upstream)
        self._sessions: dict[str, _Session] = {}
        self._group: TaskGroup | None = None
        self._limited: ASGIApp = RequestBodyLimitMiddleware(self._handle, config.max_message_bytes)
        self.asgi: ASGIApp = self._screen

    def _behind_gateway(self, upstream: UpstreamOpener | None) -> UpstreamOpener | None:
        """Each session's upstream, behind the era gateway unless the server is said to speak the handshake era."""
        if self.config.era_back == "legacy":
            return upstream
        from hostcompat.clients.proxy.era.gateway import era_opener

        stderr = self._stderr

        def plain() -> AbstractAsyncContextManager[UpstreamLink]:
            return open_upstream(self.config, stderr=stderr)

        return era_opener(self.config, upstream or plain, "legacy", self.config.era_back)

    @property
    def session_count(self) -> int:
        """Front sessions open now."""
        return len(self._sessions)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve sessions while inside; on exit every session is closed and its upstream stopped."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                await self.close_all()
                self._group = None
                group.cancel_scope.cancel()

    async def close_all(self) -> None:
        """Close every session (its client gets 404 from now on) and so stop every upstream."""
        for session_id, session in list(self._sessions.items()):
            await self._discard(session_id, session)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI request."""
        await self.asgi(scope, receive, send)

    async def _screen(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse what needs no body read first (another path, another site's Host or Origin), then read the body
        within its limit: a refused request costs no memory.
        """
        if scope["type"] != "http":
            return
        if scope["path"].rstrip("/") != MCP_PATH:
            await _reply(send, 404, None, "")
            return
        refusal = None if self._guard is None else self._guard.refusal(_headers(scope))
        if refusal is not None:
            logger.warning("refused a request: %s", refusal[1])
            await _reply(send, refusal[0], None, "")
            return
        await self._limited(scope, receive, send)

    async def _handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        version = headers.get(MCP_PROTOCOL_VERSION_HEADER)
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            supported = list(HANDSHAKE_PROTOCOL_VERSIONS)
            message = f"this proxy's HTTP front speaks the initialize handshake ({', '.join(supported)}); use stdio"
            data = {"supported": supported, "requested": version[:64]}
            await _reply(send, 400, UNSUPPORTED_PROTOCOL_VERSION, message, data)
            return
        session_id = headers.get(MCP_SESSION_ID_HEADER)
        if session_id is None:
            opening = await read_opening(scope, headers, receive)
            if isinstance(opening, Refusal):
                if opening.status:
                    await _reply(send, opening.status, opening.code, opening.message)
                return
            await self._open(scope, opening, receive, send)
            return
        session = self._sessions.get(session_id)
        if session is None:
            await _reply(send, 404, INVALID_REQUEST, "Session not found")
            return
        if scope["method"] == "POST":  # a request whose id the SDK's models would drop: refused, said why
            body = await read_body(receive)
            if body is None:
                return
            if has_invalid_id(body):
                await _reply(send, 400, INVALID_REQUEST, f"Invalid Request: {BAD_ID}")
                return
            receive = replay(body, receive)
        is_stream = scope["method"] == "GET"
        session.requests += 1
        session.open_streams += is_stream
        try:
            await session.transport.handle_request(scope, receive, send)
        finally:
            session.open_streams -= is_stream
        if session.transport.is_terminated:
            await self._discard(session_id, session)

    async def _open(self, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        """Start a session, and its upstream, for a complete and valid `initialize` (already read as `body`)."""
        if self._group is None:
            await _reply(send, 503, INTERNAL_ERROR, "The proxy is not running")
            return
        if len(self._sessions) >= self.config.max_sessions:
            await _reply(send, 503, INTERNAL_ERROR, f"Too many open sessions ({self.config.max_sessions})")
            return
        session_id = uuid4().hex
        transport = StreamableHTTPServerTransport(
            mcp_session_id=session_id, idle_timeout=self.config.session_idle_timeout
        )
        session = _Session(transport)
        self._sessions[session_id] = session
        status: list[int] = []

        async def watch(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self._group.start(self._run, session_id, session)
            await transport.handle_request(scope, replay(body, receive), watch)
        finally:
            if not status or status[0] >= 400:
                await self._discard(session_id, session)
        if session_id in self._sessions:
            self._group.start_soon(self._close_if_abandoned, session_id, session)

    async def _close_if_abandoned(self, session_id: str, session: _Session) -> None:
        """Close a session whose client sent nothing after `initialize` (a client that meant to use it sends
        `notifications/initialized` at once); it would otherwise hold a server until the idle timeout.
        """
        wait = self.config.handshake_timeout
        if self.config.session_idle_timeout is not None:
            wait = min(wait, self.config.session_idle_timeout)
        await anyio.sleep(wait)
        if not session.requests and self._sessions.get(session_id) is session:
            logger.info("session %s closed: nothing came after initialize within %g s", session_id, wait)
            await self._discard(session_id, session)

    async def _run(self, session_id: str, session: _Session, *, task_status: TaskStatus[None]) -> None:
        try:
            async with session.transport.connect() as (read, write):
                task_status.started()
                front = FrontLink(
                    read,
                    write,
                    standalone_stream=lambda: session.open_streams > 0,
                    answers_unreadable=False,
                    drains_on_close=False,
                )
                relay = ProxySession(self.config, front, stderr=self._stderr, upstream=self._upstream)
                idle = session.transport.idle_scope or anyio.CancelScope()
                with idle:
                    end = await relay.run()
                    if end is not None:
                        with anyio.move_on_after(DEAD_SESSION_LINGER):
                            await relay.answer_until_closed(end)
                if idle.cancelled_caught:
                    logger.info("session %s closed after %s s idle", session_id, self.config.session_idle_timeout)
        finally:
            await self._discard(session_id, session)

    async def _discard(self, session_id: str, session: _Session) -> None:
        self._sessions.pop(session_id, None)
        if not session.transport.is_terminated:
            with anyio.CancelScope(shield=True):
                await session.transport.terminate()


__all__ = ["DEAD_SESSION_LINGER", "ProxyHttpApp"]
