"""Open the upstream session of one front session: a subprocess over stdio, or a streamable HTTP endpoint.

The HTTP leg is the SDK's `streamable_http_client`, with each SSE event bounded by the proxy's message limit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import BinaryIO

import anyio

from hostcompat.clients.proxy.config import HttpUpstream, ProxyConfig, StdioUpstream
from hostcompat.clients.proxy.failures import UpstreamEnd, connection_ended
from hostcompat.clients.proxy.links import UpstreamLink

HTTP_TIMEOUT = 30.0
"""Seconds to connect to, write to, or get a pooled connection for an HTTP upstream."""

HTTP_READ_TIMEOUT = 300.0
"""Seconds an HTTP upstream's response stream may stay silent (the SDK's default)."""


@asynccontextmanager
async def open_http_upstream(target: HttpUpstream, max_bytes: int) -> AsyncIterator[UpstreamLink]:
    """Connect to a streamable HTTP server; on exit, end the upstream session (HTTP DELETE)."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    async def ended() -> UpstreamEnd:
        return connection_ended(target, "the server closed the session")

    timeout = httpx2.Timeout(HTTP_TIMEOUT, read=HTTP_READ_TIMEOUT)
    client = httpx2.AsyncClient(headers=dict(target.headers), timeout=timeout)
    async with (
        client,
        streamable_http_client(target.connect_url(), http_client=client, max_sse_event_size=max_bytes) as (
            read,
            write,
        ),
    ):
        yield UpstreamLink(read, write, ended, stamps_protocol_version=True)


def open_upstream(
    config: ProxyConfig, *, stderr: BinaryIO | None = None, hurry: anyio.Event | None = None
) -> AbstractAsyncContextManager[UpstreamLink]:
    """The upstream session for `config.upstream`, as an async context manager yielding its link.

    `stderr` takes a stdio server's stderr (None: dropped); once `hurry` is set, a stdio server is stopped at once
    instead of being given time to exit on its own.
    """
    target = config.upstream
    if isinstance(target, StdioUpstream):
        from hostcompat.clients.proxy.session.upstream_stdio import open_stdio_upstream

        return open_stdio_upstream(
            target, config.max_message_bytes, stderr=stderr, hurry=hurry, max_memory=config.upstream_memory
        )
    return open_http_upstream(target, config.max_message_bytes)


__all__ = ["HTTP_READ_TIMEOUT", "HTTP_TIMEOUT", "open_http_upstream", "open_upstream"]
