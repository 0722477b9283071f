"""The official client's streamable HTTP and legacy SSE transports, given an HTTP client whose bodies are capped.

The SDK reads a JSON response body whole, however large. The probe hands the SDK an `httpx2` client whose
transport stops a body at `max_message_bytes` (`max_total_bytes` for an event stream, which carries many
messages); the SDK then fails just the request that body answered, which the probe reports as a message too large.
Headers (a bearer token, say) ride on every request; time limits come from the probe's own steps. A URL's
`user:password` is sent as Basic credentials, unless an `Authorization` header is given: then that header is sent, the
URL's credentials are not, and an event says so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Final

import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from hostcompat.probe._wire import Wire
from hostcompat.probe.events import MESSAGE_TOO_LARGE, URL_CREDENTIALS_IGNORED
from hostcompat.probe.target import HttpTarget, SseTarget, connect_url

_EVENT_STREAM: Final = "text/event-stream"


class BodyTooLarge(httpx2.StreamError):
    """A response body went over its byte limit; the transport stopped reading it."""


def _request_id(request: httpx2.Request) -> Any:
    try:
        body = json.loads(request.content) if request.content else None
    except (ValueError, httpx2.RequestNotRead):
        return None
    return body.get("id") if isinstance(body, dict) else None


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, limit: int, wire: Wire, request_id: Any) -> None:
        self._inner = inner
        self._limit = limit
        self._wire = wire
        self._request_id = request_id

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self._inner:
            seen += len(chunk)
            self._wire.count(len(chunk))
            if seen > self._limit:
                if self._request_id is not None:
                    self._wire.dropped.add(self._request_id)
                self._wire.event(
                    MESSAGE_TOO_LARGE,
                    "error",
                    f"an HTTP response body went over the {self._limit}-byte limit; the rest was not read",
                    {"limit": self._limit},
                )
                raise BodyTooLarge(f"response body over {self._limit} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class _CappingTransport(httpx2.AsyncBaseTransport):
    def __init__(self, wire: Wire) -> None:
        self._inner = httpx2.AsyncHTTPTransport()
        self._wire = wire

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if response.status_code >= 400 and request.method == "POST":  # a refused GET stream is normal
            self._wire.http_error = {
                "status": response.status_code,
                "reason": response.reason_phrase,
                "wwwAuthenticate": response.headers.get("www-authenticate"),
            }
        streaming = response.headers.get("content-type", "").startswith(_EVENT_STREAM)
        limits = self._wire.limits
        limit = limits.max_total_bytes if streaming else limits.max_message_bytes
        stream = response.stream
        if not isinstance(stream, httpx2.AsyncByteStream):  # pragma: no cover - the async transport always streams
            return response
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_CappedStream(stream, limit, self._wire, None if streaming else _request_id(request)),
            request=request,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def capped_client(wire: Wire, headers: dict[str, str] | None, timeout: httpx2.Timeout) -> httpx2.AsyncClient:
    """An HTTP client for one probe: its headers on every request, and every response body capped."""
    wire.counts_bytes = True
    return httpx2.AsyncClient(headers=headers, timeout=timeout, transport=_CappingTransport(wire))


def _url(target: HttpTarget | SseTarget, wire: Wire) -> str:
    """The URL to connect to; when its `user:password` yields to an `Authorization` header, an event says so."""
    url, note = connect_url(target)
    if note is not None:
        wire.event(URL_CREDENTIALS_IGNORED, "warning", note, step="connect")
    return url


def _timeout(wire: Wire) -> httpx2.Timeout:
    limits = wire.limits
    return httpx2.Timeout(limits.step_timeout, read=limits.total_timeout)


@asynccontextmanager
async def open_streamable_http(target: HttpTarget, wire: Wire) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's streamable HTTP transport over a capped client; the session is ended with DELETE on exit."""
    async with capped_client(wire, dict(target.headers), _timeout(wire)) as client:
        transport = streamable_http_client(
            _url(target, wire), http_client=client, max_sse_event_size=wire.limits.max_message_bytes
        )
        async with transport as streams:
            yield streams


@asynccontextmanager
async def open_sse(target: SseTarget, wire: Wire) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's legacy SSE transport over a capped client (the SDK caps one event at 1 MiB on this transport)."""
    limits = wire.limits

    def factory(
        headers: dict[str, str] | None = None, timeout: httpx2.Timeout | None = None, auth: httpx2.Auth | None = None
    ) -> httpx2.AsyncClient:
        return capped_client(wire, headers, timeout or _timeout(wire))

    transport = sse_client(
        _url(target, wire),
        headers=dict(target.headers),
        timeout=limits.step_timeout,
        sse_read_timeout=limits.total_timeout,
        httpx_client_factory=factory,
    )
    async with transport as streams:
        yield streams


__all__ = ["BodyTooLarge", "capped_client", "open_sse", "open_streamable_http"]
