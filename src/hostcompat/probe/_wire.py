"""The probe's own record of the JSON-RPC traffic, taken by a tee around the official client's transport streams.

The SDK's `ClientSession` validates every result against the negotiated version and drops what that version does
not know; a probe needs what the server actually sent. The tee sees each message as the transport parsed it (a
`JSONRPCResponse` keeps its `result` as a raw dict), so the probe reads the wire result of every request it made
from here, and the SDK's own verdict (a validation error) becomes a finding instead of a lost page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Final

import anyio
import pydantic_core
from mcp_types import PROTOCOL_VERSION_META_KEY, JSONRPCError, JSONRPCRequest, JSONRPCResponse, RequestId

from hostcompat.probe._sdk import SessionMessage, Transport
from hostcompat.probe.events import EVENTS_TRUNCATED, MAX_MESSAGE_CHARS, ProbeEvent, Severity, Step
from hostcompat.probe.limits import Limits
from hostcompat.redaction import Redactor

_MAX_EVENTS_PER_CODE: Final = 50
_SAMPLE_CHARS: Final = 200


def sample(data: bytes | str) -> str:
    """A short printable preview of untrusted output for an event."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text[:_SAMPLE_CHARS]
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else "?" for ch in text)


class Wire:
    """One probe's mutable record: events, step, bytes received, and the raw results of requests in flight.

    Every event is recorded with the target's secrets redacted (`redactor`), before its message is cut to length.
    """

    def __init__(self, limits: Limits, redactor: Redactor | None = None) -> None:
        self.limits = limits
        self.redactor = redactor or Redactor()
        self.step: Step = "connect"
        self.events: list[ProbeEvent] = []
        self.received_bytes = 0
        self.counts_bytes = False
        """Set by a transport that counts the bytes it receives itself; otherwise the tee estimates them."""
        self.closed = False
        self.closed_during: Step | None = None
        self.process: dict[str, Any] | None = None
        self.transport_failure: str | None = None
        """Why the transport broke after the handshake, when it raised rather than just closing."""
        self.http_error: dict[str, Any] | None = None
        """The last HTTP error status a server answered with (`status`, `reason`, `wwwAuthenticate`)."""
        self._pending: dict[RequestId, str] = {}
        self._results: dict[str, dict[str, Any]] = {}
        self.asked_versions: dict[str, str] = {}
        """Method (`initialize`, `server/discover`) → the protocol version the client's last such request asked for."""
        self._per_code: dict[str, int] = {}
        self._last_id: dict[str, RequestId] = {}
        self.dropped: set[RequestId] = set()
        """Ids of requests whose reply a transport dropped as too large."""
        self.cut: set[RequestId] = set()
        """Ids of requests whose reply listed more items than the probe keeps, and was cut while it was parsed."""
        self.too_deep: set[RequestId] = set()
        """Ids of requests whose reply was nested too deeply to read."""

    # --- events --------------------------------------------------------------------------------------------------

    def event(
        self,
        code: str,
        severity: Severity,
        message: str,
        detail: dict[str, Any] | None = None,
        *,
        step: Step | None = None,
    ) -> None:
        """Record an event (at most a few dozen per code, so a flood cannot grow the snapshot)."""
        if self._room_for(code):
            message, redacted = self._message(message), self.redactor.json(detail or {})
            self.events.append(ProbeEvent(code, severity, step or self.step, message, redacted))

    def add(self, event: ProbeEvent) -> None:
        """Record an event built elsewhere, under the same per-code cap."""
        if self._room_for(event.code):
            message, detail = self._message(event.message), self.redactor.json(event.detail)
            if message != event.message or detail is not event.detail:
                event = ProbeEvent(event.code, event.severity, event.step, message, detail)
            self.events.append(event)

    def _message(self, message: str) -> str:
        """The message redacted, cut first to what an event keeps (a server's error text may be megabytes), so a
        secret the cut splits loses its first part too.
        """
        if len(message) <= MAX_MESSAGE_CHARS:
            return self.redactor.text(message)
        return self.redactor.head(message[:MAX_MESSAGE_CHARS])

    def _room_for(self, code: str) -> bool:
        seen = self._per_code.get(code, 0)
        self._per_code[code] = seen + 1
        return seen < _MAX_EVENTS_PER_CODE

    def final_events(self) -> list[ProbeEvent]:
        """The events in order (shutdown last), with a note counting the codes that hit the cap."""
        events = sorted(self.events, key=lambda event: event.step == "shutdown")
        over = {code: count for code, count in self._per_code.items() if count > _MAX_EVENTS_PER_CODE}
        if over:
            message = f"only the first {_MAX_EVENTS_PER_CODE} events of a code are kept"
            events.append(ProbeEvent(EVENTS_TRUNCATED, "info", "probe", message, {"counts": over}))
        return events

    def has_event(self, code: str) -> bool:
        """True when an event with this code was recorded."""
        return code in self._per_code

    # --- bytes ---------------------------------------------------------------------------------------------------

    def count(self, size: int) -> None:
        """Add `size` received bytes to the running total."""
        self.received_bytes += size

    @property
    def over_budget(self) -> bool:
        """True once the bytes received exceed `Limits.max_total_bytes`."""
        return self.received_bytes > self.limits.max_total_bytes

    # --- requests and results ------------------------------------------------------------------------------------

    def pending_ids(self) -> list[RequestId]:
        """The ids of requests sent and not yet answered."""
        return list(self._pending)

    def was_dropped(self, method: str) -> bool:
        """True when the reply to the last `method` request was dropped as too large."""
        return method in self._last_id and self._last_id[method] in self.dropped

    def was_cut(self, method: str) -> bool:
        """True when the reply to the last `method` request had its lists cut to `max_items` while parsed."""
        return method in self._last_id and self._last_id[method] in self.cut

    def was_too_deep(self, method: str) -> bool:
        """True when the reply to the last `method` request was nested too deeply to read."""
        return method in self._last_id and self._last_id[method] in self.too_deep

    def take_result(self, method: str) -> dict[str, Any] | None:
        """The raw result of the last answered `method` request, once (or `None` if it was not a result)."""
        return self._results.pop(method, None)

    def outbound(self, message: SessionMessage) -> None:
        """Note a message the client sends."""
        root = message.message
        if isinstance(root, JSONRPCRequest):
            self._pending[root.id] = root.method
            self._last_id[root.method] = root.id
            self._results.pop(root.method, None)
            asked = _asked_version(root.method, root.params)
            if asked is not None:
                self.asked_versions[root.method] = asked

    def inbound(self, item: SessionMessage | Exception) -> None:
        """Note a message the client receives; keep a shallow copy of a result (the SDK may rewrite top keys)."""
        if isinstance(item, Exception):
            return
        root = item.message
        if isinstance(root, JSONRPCResponse):
            method = self._pending.pop(root.id, None)
            if method is not None:
                self._results[method] = dict(root.result)
            if not self.counts_bytes:
                self.count(len(pydantic_core.to_json(root.result)))
        elif isinstance(root, JSONRPCError) and root.id is not None:
            self._pending.pop(root.id, None)

    def mark_closed(self) -> None:
        """Note that the server's side of the connection ended."""
        if not self.closed:
            self.closed = True
            self.closed_during = self.step


def _asked_version(method: str, params: object) -> str | None:
    """The protocol version a request that opens a connection asks for: `initialize`'s `protocolVersion`, or the
    `_meta` stamp of `server/discover`; None for any other request.
    """
    if not isinstance(params, dict):
        return None
    if method == "initialize":
        version = params.get("protocolVersion")
    elif method == "server/discover":
        meta = params.get("_meta")
        version = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    else:
        return None
    return version if isinstance(version, str) else None


class _TeeRead:
    """A read stream that shows every inbound item to the `Wire` before the client sees it."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self._inner = inner
        self._wire = wire

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item, passed through for streams that carry one."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        try:
            item: SessionMessage | Exception = await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._wire.mark_closed()
            raise
        self._wire.inbound(item)
        return item

    def __aiter__(self) -> _TeeRead:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TeeRead:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


class _TeeWrite:
    """A write stream that shows every outbound message to the `Wire` before the transport sends it."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self._inner = inner
        self._wire = wire

    async def send(self, item: SessionMessage, /) -> None:
        self._wire.outbound(item)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TeeWrite:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


@asynccontextmanager
async def _teed(inner: Transport, wire: Wire) -> AsyncIterator[tuple[_TeeRead, _TeeWrite]]:
    async with inner as (read_stream, write_stream):
        if wire.step == "connect":
            wire.step = "initialize"
        yield _TeeRead(read_stream, wire), _TeeWrite(write_stream, wire)


def tee(inner: Transport, wire: Wire) -> Transport:
    """`inner` with both of its streams shown to `wire`; the step moves on to `initialize` once it is open."""
    teed: Transport = _teed(inner, wire)
    return teed


__all__ = ["Wire", "sample", "tee"]
