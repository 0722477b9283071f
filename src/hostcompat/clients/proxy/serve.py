"""Run a proxy: on stdio (one session, for a host that starts the proxy as its server) or on streamable HTTP.

`run_stdio_proxy` returns an exit code (1 when the upstream died, as the server itself would have stopped);
`HttpProxyServer` listens on a socket until stopped and reports the URL it serves.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO

import anyio
from anyio.abc import TaskStatus

from hostcompat.clients.proxy.config import MCP_PATH, EraChoice, ProxyConfig, StdioUpstream
from hostcompat.clients.proxy.failures import UpstreamEnd
from hostcompat.clients.proxy.pipe.pipes import is_pipe
from hostcompat.clients.proxy.pipe.relay import PipeProxy
from hostcompat.clients.proxy.session.front_guard import exposure_warning, front_guard
from hostcompat.errors import InvalidInput

if TYPE_CHECKING:
    from hostcompat.clients.proxy.links import UpstreamLink, UpstreamOpener

SHUTDOWN_GRACE = 2.0
"""Seconds the HTTP server waits for open connections when it stops."""


def _stderr() -> BinaryIO | None:
    return getattr(sys.stderr, "buffer", None)


def _pipes_only(config: ProxyConfig, stdin: int, stdout: int) -> bool:
    """Whether the pipe relay can serve: a command upstream, the client on pipes, an asyncio event loop."""
    if sys.platform == "win32" or not isinstance(config.upstream, StdioUpstream):
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another event loop (trio)
        return False
    return is_pipe(stdin) and is_pipe(stdout)


async def run_stdio_proxy(
    config: ProxyConfig,
    *,
    stdin: int = 0,
    stdout: int = 1,
    upstream: UpstreamOpener | None = None,
    handle_signals: bool = False,
) -> int:
    """Relay the client on stdin/stdout to the upstream until either side ends; 0 if the client left, else 1.

    A server run as a command, with the client on pipes, goes through the line-level `PipeProxy` (on asyncio);
    anything else through a `ProxySession` over message streams. With `handle_signals` (main thread only), SIGINT
    and SIGTERM stop the proxy the same way: the upstream's whole process group gets SIGTERM at once and SIGKILL
    if it is still there after a bounded wait; the exit code is then 128 plus the signal's number.
    """
    hurry = anyio.Event()
    received: list[int] = []
    end: UpstreamEnd | None = None
    relaying = anyio.CancelScope()
    async with anyio.create_task_group() as group:
        if handle_signals:  # the handlers stay in place until the upstream is stopped: a second signal is absorbed
            await group.start(_stop_on_signal, relaying, hurry, received)
        with relaying:
            end = await _relay(config, stdin, stdout, upstream, hurry)
        group.cancel_scope.cancel()
    if received:
        return 128 + received[0]
    return 0 if end is None else 1  # how the upstream ended was logged where it was seen, once


async def _relay(
    config: ProxyConfig, stdin: int, stdout: int, upstream: UpstreamOpener | None, hurry: anyio.Event
) -> UpstreamEnd | None:
    front, back, replay = config.era_front, config.era_back, b""
    if upstream is None and _pipes_only(config, stdin, stdout) and _byte_relay_first(front, back):
        proxy = PipeProxy(
            config,
            stdin=stdin,
            stdout=stdout,
            stderr=_stderr(),
            hurry=hurry,
            yield_to_modern=front == "auto" and back != "modern",
            yield_on_refusal=front != "modern" and back == "auto",
        )
        end = await proxy.run()
        if proxy.yielded is None:
            return end
        replay = proxy.replay  # the era gateway takes over, from the client's first request
        front, back = ("modern", back) if proxy.yielded == "modern" else ("legacy", "modern")
    # the message-level relay, on the SDK's message types: loaded only here
    from hostcompat.clients.proxy.session.front_stdio import open_stdio_front
    from hostcompat.clients.proxy.session.relay import ProxySession
    from hostcompat.clients.proxy.session.upstream import open_upstream

    if upstream is None:
        stderr = _stderr()

        def upstream() -> AbstractAsyncContextManager[UpstreamLink]:
            return open_upstream(config, stderr=stderr, hurry=hurry)

    if front == "auto" or front != back:
        from hostcompat.clients.proxy.era.gateway import era_opener

        upstream = era_opener(config, upstream, front, back)
    async with open_stdio_front(config.max_message_bytes, stdin=stdin, stdout=stdout, prefix=replay) as front_link:
        return await ProxySession(config, front_link, upstream=upstream).run()


def _byte_relay_first(front: EraChoice, back: EraChoice) -> bool:
    """Whether the byte relay serves (at least until the client's first request or the server's answer to
    `initialize` shows the eras differ): the same era given on both sides, or eras left to detection.
    """
    return front == back or (front != "modern" and back == "auto") or (front == "auto" and back == "legacy")


async def _stop_on_signal(
    scope: anyio.CancelScope, hurry: anyio.Event, received: list[int], *, task_status: TaskStatus[None]
) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        task_status.started()
        async for signum in signals:
            if not received:
                received.append(signum)
                hurry.set()
                scope.cancel()


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host:port` (port 0: any free port).

    Raises:
        InvalidInput: the address cannot be bound (in use, not local, no permission).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise InvalidInput(f"cannot listen on {host}:{port}: {error}", value=f"{host}:{port}") from error
    sock.setblocking(False)
    return sock


def _server_class() -> type[Any]:
    import uvicorn

    class QuietServer(uvicorn.Server):
        """uvicorn without its signal handlers (the proxy installs its own, to close sessions first)."""

        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    return QuietServer


class HttpProxyServer:
    """The proxy's HTTP front on a bound socket: `url` is where clients connect, `stop()` ends it.

    Every request's Host and Origin are checked, wherever the socket listens; beyond loopback the config must list
    the allowed origins (`InvalidInput` otherwise), and `warning` says so for the operator.

    uvicorn's own signal handling is switched off: on SIGINT or SIGTERM (when `serve(handle_signals=True)` runs in
    the main thread) the proxy closes every session and stops its upstreams before it stops listening.
    """

    def __init__(
        self,
        config: ProxyConfig,
        sock: socket.socket,
        *,
        stderr: BinaryIO | None = None,
        upstream: UpstreamOpener | None = None,
    ) -> None:
        import uvicorn

        from hostcompat.clients.proxy.session.front_http import ProxyHttpApp

        self.sock = sock
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{port}{MCP_PATH}"
        guard = front_guard(host, port, config.allowed_origins, config.allowed_hosts)
        self.warning = exposure_warning(host, port, config.allowed_origins)
        """A warning to show when the front listens beyond loopback (None on loopback)."""
        self.app = ProxyHttpApp(config, guard=guard, stderr=stderr, upstream=upstream)
        settings = uvicorn.Config(
            self.app.asgi,
            interface="asgi3",  # a bound method: uvicorn's guess would take it for an ASGI2 application
            lifespan="off",
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=int(SHUTDOWN_GRACE),
        )
        self._server = _server_class()(settings)

    async def serve(self, *, handle_signals: bool = False) -> None:
        """Serve until `stop()`, or until SIGINT or SIGTERM if `handle_signals` (main thread only)."""
        async with self.app.running(), anyio.create_task_group() as group:
            if handle_signals:
                group.start_soon(self._stop_on_signal)
            await self._server.serve(sockets=[self.sock])
            group.cancel_scope.cancel()

    async def _stop_on_signal(self) -> None:
        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for _ in signals:
                await self.stop()
                return

    async def stop(self) -> None:
        """Close every session (stopping their upstreams) and stop listening."""
        await self.app.close_all()
        self._server.should_exit = True


@asynccontextmanager
async def http_proxy(
    config: ProxyConfig,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    stderr: BinaryIO | None = None,
    upstream: UpstreamOpener | None = None,
) -> AsyncIterator[HttpProxyServer]:
    """An HTTP proxy serving in the background while inside (for tests and embedding).

    Raises:
        InvalidInput: the address cannot be bound, or it is beyond loopback and no origin is allowed.
    """
    sock = bind(host, port)
    try:
        server = HttpProxyServer(config, sock, stderr=stderr, upstream=upstream)
    except BaseException:
        sock.close()
        raise
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve)
        try:
            yield server
        finally:
            await server.stop()


__all__ = ["HttpProxyServer", "SHUTDOWN_GRACE", "bind", "http_proxy", "run_stdio_proxy"]
